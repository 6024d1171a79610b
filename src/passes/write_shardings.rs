//! Writes an intra-op plan into the module as Shardy or GSPMD sharding annotations.

use super::entry::Function;
use super::mlir;
use crate::intra::config::OutputFormat;
use crate::ir::graph::ValueRef;
use crate::sharding::{sharding_per_value, NamedMesh, ShardingSpec};
use mlir_sys::*;
use std::collections::HashMap;

/// The chosen sharding of every value the annotations mention.
pub struct Shardings<'a> {
    pub args: Vec<Option<&'a ShardingSpec>>,
    /// Per op, per result (`None` for non-tensor results).
    pub ops: Vec<Vec<Option<&'a ShardingSpec>>>,
    /// Per op, per operand: the sharding the op's chosen strategy computes from.
    pub operands: Vec<Vec<Option<&'a ShardingSpec>>>,
    /// Per op, per operand: where the operand comes from in the graph.
    pub operand_values: Vec<Vec<ValueRef>>,
    pub returned: Vec<Option<&'a ShardingSpec>>,
    /// Per (op, operand): the layouts a resharding passes through on its way to the operand's
    /// required sharding, in order (see `Resharding::steps`).
    pub resharding_steps: HashMap<(usize, usize), &'a [ShardingSpec]>,
}

impl<'a> Shardings<'a> {
    pub fn of_value(
        args: &[Option<&'a ShardingSpec>],
        ops: &[Vec<Option<&'a ShardingSpec>>],
        value: ValueRef,
    ) -> Option<&'a ShardingSpec> {
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
        let text =
            format!("\"sdy.mesh\"() <{{mesh = {}, sym_name = \"{}\"}}> : () -> ()", mesh.to_sdy().attr(), mesh.name());
        mlir::insert_parsed_op_at_start(body, context, &text)?;
    }

    for (op, specs) in handles.iter().zip(&shardings.ops) {
        let Some(specs): Option<Vec<&ShardingSpec>> = specs.iter().copied().collect() else { continue };
        if specs.is_empty() || !takes_result_sharding(*op) {
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
    let handles: Vec<Option<MlirOperation>> = handles.iter().copied().map(Some).collect();
    pin(&handles, shardings, format, &render, context)?;
    let devices = (mesh_shape[0] * mesh_shape[1]) as i32;
    mlir::set_i32_attr(module, "mhlo.num_partitions", devices);
    mlir::set_i32_attr(module, "mhlo.num_replicas", 1);
    Ok(())
}

/// Whether XLA accepts a sharding annotation on the op itself. A `stablehlo.while` does not:
/// XLA's translation drops the loop-invariant carried values from the loop tuple but not from
/// its sharding (RET_CHECK "has 10 leaf nodes while this sharding has 16", jaxlib 0.10.2). Its
/// results are still pinned by constraints after it.
pub(crate) fn takes_result_sharding(op: MlirOperation) -> bool {
    mlir::op_name(op) != "stablehlo.while"
}

/// Leaves XLA no choice: every op result is constrained to its sharding (Shardy re-propagates
/// from the function boundary otherwise; GSPMD takes an op's `mhlo.sharding` as a hint: it split
/// a replicated scatter of a broadcast over its index dimension and gathered it back, and ran
/// one all-to-all for two reshardings of the scan GPT), and every operand whose
/// sharding the op's strategy changes goes through an explicit resharding to it, free slices
/// included, one constraint per step of the planned resharding, so that XLA performs the plan's
/// collectives in the plan's order and not others of its own choosing.
/// `handles[i]` is the MLIR op of op `i` of the plan, `None` for ops this call leaves alone
/// (they still say what layout their results have).
pub fn pin(
    handles: &[Option<MlirOperation>],
    shardings: &Shardings,
    format: OutputFormat,
    render: &dyn Fn(&ShardingSpec) -> String,
    context: MlirContext,
) -> Result<(), String> {
    let constraint = |value: MlirValue,
                      spec: &ShardingSpec,
                      reference: MlirOperation,
                      after: bool|
     -> Result<MlirOperation, String> {
        let text = render(spec);
        Ok(match format {
            OutputFormat::Sdy => {
                let attr = mlir::parse_attr(context, &text)?;
                mlir::insert_unary_op("sdy.sharding_constraint", value, &[("sharding", attr)], reference, after)
            }
            OutputFormat::Gspmd => {
                let target = mlir::string_attr_value(context, "Sharding");
                let sharding = mlir::string_attr_value(context, &text);
                mlir::insert_unary_op(
                    "stablehlo.custom_call",
                    value,
                    &[("call_target_name", target), ("mhlo.sharding", sharding)],
                    reference,
                    after,
                )
            }
        })
    };
    for (op, specs) in handles.iter().zip(&shardings.ops) {
        let Some(op) = op else { continue };
        for (result, spec) in mlir::results(*op).into_iter().zip(specs) {
            let Some(spec) = spec else { continue };
            let pinned = constraint(result, spec, *op, true)?;
            mlir::replace_uses_except(result, mlir::results(pinned)[0], pinned);
        }
    }
    // One constraint per (value, sharding), shared by every chain that passes through it, as
    // the report counts it: XLA does not merge two identical chains' collectives.
    let mut resharded: HashMap<(ValueRef, &ShardingSpec), MlirValue> = HashMap::new();
    for (index, op) in handles.iter().enumerate() {
        let Some(op) = op else { continue };
        for (position, required) in shardings.operands[index].iter().enumerate() {
            let Some(required) = required else { continue };
            let Some(&value) = shardings.operand_values[index].get(position) else { continue };
            let produced = Shardings::of_value(&shardings.args, &shardings.ops, value);
            if produced == Some(*required) {
                continue;
            }
            let steps = shardings.resharding_steps.get(&(index, position)).copied().unwrap_or_default();
            let chain: Vec<&ShardingSpec> = steps.iter().chain([*required]).collect();
            // Continue from the furthest layout of the chain some earlier chain already made.
            let (mut operand, start) =
                match (0..chain.len()).rev().find_map(|k| resharded.get(&(value, chain[k])).map(|v| (*v, k + 1))) {
                    Some(found) => found,
                    None => (mlir::operands(*op)[position], 0),
                };
            for &spec in &chain[start..] {
                let pinned = constraint(operand, spec, *op, false)?;
                operand = mlir::results(pinned)[0];
                if !matches!(value, ValueRef::Outer) {
                    resharded.insert((value, spec), operand);
                }
            }
            unsafe { mlirOperationSetOperand(*op, position as isize, operand) };
        }
    }
    Ok(())
}
