//! Writes an intra-op plan into the module as Shardy or GSPMD sharding annotations.

use super::entry::Function;
use super::mlir;
use crate::intra::config::OutputFormat;
use crate::ir::graph::ValueRef;
use crate::sharding::{sharding_per_value, NamedMesh, ShardingSpec};
use mlir_sys::*;

/// The chosen sharding of every value the annotations mention.
pub struct Shardings<'a> {
    pub args: Vec<Option<&'a ShardingSpec>>,
    /// Per op, per result (`None` for non-tensor results).
    pub ops: Vec<Vec<Option<&'a ShardingSpec>>>,
    pub returned: Vec<Option<&'a ShardingSpec>>,
}

impl<'a> Shardings<'a> {
    pub fn of_value(args: &[Option<&'a ShardingSpec>], ops: &[Vec<Option<&'a ShardingSpec>>], value: ValueRef) -> Option<&'a ShardingSpec> {
        match value {
            ValueRef::Arg(i) => args.get(i).copied().flatten(),
            ValueRef::Op { op, result } => ops.get(op)?.get(result).copied().flatten(),
            ValueRef::Outer => None,
        }
    }
}

/// A mesh name not yet used by a symbol of the module.
fn free_mesh_name(module: MlirOperation) -> String {
    let taken: Vec<String> = mlir::body_block(module)
        .map(|b| mlir::block_ops(b).into_iter().filter_map(|op| mlir::string_attr(op, "sym_name")).collect())
        .unwrap_or_default();
    let mut name = "mesh".to_string();
    while taken.contains(&name) {
        name = format!("alpa_{name}");
    }
    name
}

pub fn write(
    module: MlirOperation,
    entry: Function,
    handles: &[MlirOperation],
    shardings: &Shardings,
    mesh_shape: [usize; 2],
    format: OutputFormat,
) -> Result<(), String> {
    let context = mlir::context(module);
    let base = NamedMesh::new(mesh_shape).map_err(|e| e.to_string())?;
    let mesh = base.with_name(&free_mesh_name(module)).map_err(|e| e.to_string())?;
    let (attr_name, render): (&str, Box<dyn Fn(&ShardingSpec) -> String>) = match format {
        OutputFormat::Sdy => ("sdy.sharding", Box::new(|s: &ShardingSpec| s.to_sdy(&mesh).to_string())),
        OutputFormat::Gspmd => ("mhlo.sharding", Box::new(|s: &ShardingSpec| s.to_gspmd(&mesh).to_string())),
    };
    let value_attr = |spec: &ShardingSpec| -> Result<MlirAttribute, String> {
        let text = render(spec);
        match format {
            OutputFormat::Sdy => mlir::parse_attr(context, &text),
            OutputFormat::Gspmd => Ok(mlir::string_attr_value(context, &text)),
        }
    };

    if format == OutputFormat::Sdy {
        let body = mlir::body_block(module).ok_or("the module has no body")?;
        let text = format!(
            "\"sdy.mesh\"() <{{mesh = {}, sym_name = \"{}\"}}> : () -> ()",
            mesh.to_sdy().attr(),
            mesh.name()
        );
        mlir::insert_parsed_op_at_start(body, context, &text)?;
    }

    for (op, specs) in handles.iter().zip(&shardings.ops) {
        let Some(specs): Option<Vec<&ShardingSpec>> = specs.iter().copied().collect() else { continue };
        if specs.is_empty() {
            continue;
        }
        let attr = match format {
            OutputFormat::Sdy => {
                let per_value: Vec<_> = specs.iter().map(|s| s.to_sdy(&mesh)).collect();
                mlir::parse_attr(context, &sharding_per_value(&per_value))?
            }
            OutputFormat::Gspmd if specs.len() == 1 => value_attr(specs[0])?,
            OutputFormat::Gspmd => {
                let parts: Vec<String> = specs.iter().map(|s| render(s)).collect();
                mlir::string_attr_value(context, &format!("{{{}}}", parts.join(", ")))
            }
        };
        mlir::set_attr(*op, attr_name, attr);
    }
    for (index, spec) in shardings.args.iter().enumerate() {
        if let Some(spec) = spec {
            let attr = value_attr(spec)?;
            unsafe { mlirFuncSetArgAttr(entry.op, index as isize, mlir::string_ref(attr_name), attr) };
        }
    }
    for (index, spec) in shardings.returned.iter().enumerate() {
        if let Some(spec) = spec {
            let attr = value_attr(spec)?;
            unsafe { mlirFuncSetResultAttr(entry.op, index as isize, mlir::string_ref(attr_name), attr) };
        }
    }
    let devices = (mesh_shape[0] * mesh_shape[1]) as i32;
    mlir::set_i32_attr(module, "mhlo.num_partitions", devices);
    mlir::set_i32_attr(module, "mhlo.num_replicas", 1);
    Ok(())
}
