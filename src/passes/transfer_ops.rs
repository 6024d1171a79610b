//! Reading and writing the ops that carry a value between stages:
//! - `alpa.transfer` (from alpa-inter-op-stage): the value, its source and destination stage,
//!   devices (row-major over the logical mesh), logical mesh and `#sdy.sharding` on the stage's
//!   `sdy.mesh`;
//! - `alpa.transfer_plan` (from alpa-cross-mesh-resharding): the same, plus the plan: `mode`,
//!   `pieces` (`{src, dsts, offset, sizes}`: a slice of the global tensor and who sends it to
//!   whom; a broadcast piece's `from` names, per receiver, the device it gets the slice from:
//!   its source or a receiver that relays it), `gathers` (`{devices, dim, offset, sizes, parts}`: a destination replica group that
//!   all-gathers its tile), `cost`, `lower_bound` (seconds) and `bytes_across_hosts`.

use super::mlir;
use crate::ir::graph::Attr;
use crate::ir::types::{TensorType, ValueType};
use crate::resharding::{Gather, Layout, Mode, Piece, Slice, TensorDesc};
use crate::sharding::{parse_sdy_mesh, parse_sdy_sharding, NamedMesh, SdyMeshRef, ShardingSpec};
use mlir_sys::*;
use std::collections::BTreeMap;

pub const TRANSFER: &str = "alpa.transfer";
pub const TRANSFER_PLAN: &str = "alpa.transfer_plan";

/// A transfer as plain data.
pub struct TransferOp {
    pub tensor: TensorType,
    pub src: Layout,
    pub dst: Layout,
}

impl TransferOp {
    pub fn desc(&self) -> TensorDesc {
        TensorDesc {
            shape: self.tensor.shape.clone(),
            element_bytes: u64::from(self.tensor.element.bits().div_ceil(8)),
        }
    }
}

fn attr(op: MlirOperation, name: &str) -> Result<Attr, String> {
    mlir::attribute(op, name).map(mlir::attr_value).ok_or_else(|| format!("missing attribute '{name}'"))
}

fn indices(value: &Attr, what: &str) -> Result<Vec<usize>, String> {
    match value {
        Attr::I64Array(v) => {
            v.iter().map(|&d| usize::try_from(d).map_err(|_| format!("'{what}' holds a negative value {d}"))).collect()
        }
        _ => Err(format!("'{what}' must be an array<i64: ...>")),
    }
}

fn i64s(value: &Attr, what: &str) -> Result<Vec<i64>, String> {
    match value {
        Attr::I64Array(v) => Ok(v.clone()),
        _ => Err(format!("'{what}' must be an array<i64: ...>")),
    }
}

/// The `sdy.mesh` ops of the module by name.
fn module_meshes(module: MlirOperation) -> BTreeMap<String, String> {
    let Some(body) = mlir::body_block(module) else { return BTreeMap::new() };
    mlir::block_ops(body)
        .into_iter()
        .filter(|op| mlir::op_name(*op) == "sdy.mesh")
        .filter_map(|op| Some((mlir::string_attr(op, "sym_name")?, mlir::print_attr(mlir::attribute(op, "mesh")?))))
        .collect()
}

fn layout(
    op: MlirOperation,
    side: &str,
    meshes: &BTreeMap<String, String>,
    tensor: &TensorType,
) -> Result<Layout, String> {
    let devices = indices(&attr(op, &format!("{side}_devices"))?, &format!("{side}_devices"))?;
    let logical = indices(&attr(op, &format!("{side}_logical_mesh"))?, &format!("{side}_logical_mesh"))?;
    let [rows, cols] = logical[..] else {
        return Err(format!("'{side}_logical_mesh' must have two entries"));
    };
    if rows.checked_mul(cols) != Some(devices.len()) {
        return Err(format!(
            "'{side}_logical_mesh' {rows}x{cols} does not hold the {} devices of '{side}_devices'",
            devices.len()
        ));
    }
    let sharding_attr = mlir::attribute(op, &format!("{side}_sharding")).ok_or_else(|| {
        format!("missing attribute '{side}_sharding' (alpa-inter-op-stage writes it unless shardings=false)")
    })?;
    let sharding =
        parse_sdy_sharding(&mlir::print_attr(sharding_attr)).map_err(|e| format!("'{side}_sharding': {e}"))?;
    let SdyMeshRef::Symbol(mesh_name) = &sharding.mesh else {
        return Err(format!("'{side}_sharding' must name a module-level sdy.mesh"));
    };
    let mesh_text = meshes
        .get(mesh_name)
        .ok_or_else(|| format!("'{side}_sharding' refers to @{mesh_name}, which the module does not declare"))?;
    let sdy_mesh = parse_sdy_mesh(mesh_text).map_err(|e| format!("@{mesh_name}: {e}"))?;
    let mesh = NamedMesh::from_sdy(mesh_name, &sdy_mesh).map_err(|e| format!("@{mesh_name}: {e}"))?;
    if mesh.shape() != [rows, cols] {
        return Err(format!("@{mesh_name} is {:?} but '{side}_logical_mesh' is {rows}x{cols}", mesh.shape()));
    }
    let spec = ShardingSpec::from_sdy(&sharding, &mesh).map_err(|e| format!("'{side}_sharding': {e}"))?;
    if spec.rank() != tensor.rank() {
        return Err(format!("'{side}_sharding' has rank {} but the value has rank {}", spec.rank(), tensor.rank()));
    }
    Ok(Layout { devices, mesh: [rows, cols], spec })
}

/// Reads an `alpa.transfer` or `alpa.transfer_plan` op's value and both layouts.
pub fn read_transfer(module: MlirOperation, op: MlirOperation) -> Result<TransferOp, String> {
    let operands = mlir::operands(op);
    let results = mlir::results(op);
    let (&[value], &[result]) = (&operands[..], &results[..]) else {
        return Err(format!("'{}' must take one value and return one", mlir::op_name(op)));
    };
    let ty = unsafe { mlirValueGetType(value) };
    let tensor = match mlir::value_type(ty) {
        Ok(ValueType::Tensor(t)) => t,
        _ => {
            return Err(format!(
                "'{}' moves a statically shaped tensor, not {}",
                mlir::op_name(op),
                mlir::print_type(ty)
            ))
        }
    };
    if mlir::print_type(unsafe { mlirValueGetType(result) }) != mlir::print_type(ty) {
        return Err(format!("'{}' must return the type it takes", mlir::op_name(op)));
    }
    let meshes = module_meshes(module);
    let src = layout(op, "src", &meshes, &tensor)?;
    let dst = layout(op, "dst", &meshes, &tensor)?;
    Ok(TransferOp { tensor, src, dst })
}

/// A float attribute MLIR parses back to the same value (`0e0` does not parse; `{:e}` of Rust
/// prints the shortest round-tripping digits).
pub fn float_text(value: f64) -> String {
    let text = format!("{value:e}");
    let text = match text.split_once('e') {
        Some((mantissa, exponent)) if !mantissa.contains('.') => format!("{mantissa}.0e{exponent}"),
        _ => text,
    };
    format!("{text} : f64")
}

fn slice_fields(slice: &Slice) -> String {
    format!(
        "offset = {}, sizes = {}",
        mlir::i64_array_text(slice.offset.iter().copied()),
        mlir::i64_array_text(slice.sizes.iter().copied())
    )
}

/// The plan's attributes, as `(name, text)` pairs.
pub fn plan_attributes(plan: &crate::resharding::TransferPlan, routes: &[Vec<usize>]) -> Vec<(&'static str, String)> {
    let pieces: Vec<String> = plan
        .pieces
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let route = match routes.get(i) {
                Some(route) if route.iter().any(|&from| from != p.src) => {
                    format!("from = {}, ", mlir::i64_array_text(route.iter().map(|&d| d as i64)))
                }
                _ => String::new(),
            };
            format!(
                "{{dsts = {}, {route}{}, src = {} : i64}}",
                mlir::i64_array_text(p.dsts.iter().map(|&d| d as i64)),
                slice_fields(&p.slice),
                p.src
            )
        })
        .collect();
    let gathers: Vec<String> = plan
        .gathers
        .iter()
        .map(|g| {
            let parts: Vec<String> = g.parts.iter().map(|p| format!("{{{}}}", slice_fields(p))).collect();
            format!(
                "{{devices = {}, dim = {} : i64, {}, parts = [{}]}}",
                mlir::i64_array_text(g.devices.iter().map(|&d| d as i64)),
                g.dim,
                slice_fields(&g.tile),
                parts.join(", ")
            )
        })
        .collect();
    vec![
        ("mode", format!("\"{}\"", plan.mode.name())),
        ("pieces", format!("[{}]", pieces.join(", "))),
        ("gathers", format!("[{}]", gathers.join(", "))),
        ("cost", float_text(plan.cost)),
        ("lower_bound", float_text(plan.lower_bound)),
        ("bytes_across_hosts", format!("{} : i64", plan.bytes_across_hosts)),
    ]
}

fn dict_field<'a>(dict: &'a BTreeMap<String, Attr>, name: &str, what: &str) -> Result<&'a Attr, String> {
    dict.get(name).ok_or_else(|| format!("{what} has no '{name}'"))
}

fn read_slice(dict: &BTreeMap<String, Attr>, what: &str) -> Result<Slice, String> {
    Ok(Slice {
        offset: i64s(dict_field(dict, "offset", what)?, "offset")?,
        sizes: i64s(dict_field(dict, "sizes", what)?, "sizes")?,
    })
}

fn dicts(value: Attr, what: &str) -> Result<Vec<BTreeMap<String, Attr>>, String> {
    match value {
        Attr::Array(items) => items
            .into_iter()
            .map(|item| match item {
                Attr::Dict(d) => Ok(d),
                _ => Err(format!("'{what}' must be an array of dictionaries")),
            })
            .collect(),
        _ => Err(format!("'{what}' must be an array of dictionaries")),
    }
}

/// The plan an `alpa.transfer_plan` op carries.
pub struct PlanAttributes {
    pub mode: Mode,
    pub pieces: Vec<Piece>,
    /// Per piece, the sender of each receiver (empty: the piece's source).
    pub routes: Vec<Vec<usize>>,
    pub gathers: Vec<Gather>,
}

pub fn read_plan(op: MlirOperation) -> Result<PlanAttributes, String> {
    let mode = match attr(op, "mode")? {
        Attr::Str(text) => text.parse::<Mode>().map_err(|e| format!("'mode': {e:?}"))?,
        _ => return Err("'mode' must be a string".into()),
    };
    if mode == Mode::Auto {
        return Err("'mode' must be resolved (send-recv, local-all-gather or broadcast), not auto".into());
    }
    let piece_dicts = dicts(attr(op, "pieces")?, "pieces")?;
    let routes = piece_dicts
        .iter()
        .map(|d| d.get("from").map_or(Ok(Vec::new()), |from| indices(from, "from")))
        .collect::<Result<Vec<_>, String>>()?;
    let pieces = piece_dicts
        .iter()
        .map(|d| {
            let src = match dict_field(d, "src", "a piece")? {
                Attr::Int(v) => usize::try_from(*v).map_err(|_| format!("a piece has a negative source device {v}"))?,
                _ => return Err("a piece's 'src' must be an integer".into()),
            };
            Ok(Piece {
                src,
                dsts: indices(dict_field(d, "dsts", "a piece")?, "dsts")?,
                slice: read_slice(d, "a piece")?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let gathers = dicts(attr(op, "gathers")?, "gathers")?
        .into_iter()
        .map(|d| {
            let dim = match dict_field(&d, "dim", "a gather")? {
                Attr::Int(v) => usize::try_from(*v).map_err(|_| format!("a gather has a negative dimension {v}"))?,
                _ => return Err("a gather's 'dim' must be an integer".into()),
            };
            let parts = dicts(dict_field(&d, "parts", "a gather")?.clone(), "parts")?
                .iter()
                .map(|p| read_slice(p, "a gather part"))
                .collect::<Result<Vec<_>, String>>()?;
            Ok(Gather {
                devices: indices(dict_field(&d, "devices", "a gather")?, "devices")?,
                dim,
                tile: read_slice(&d, "a gather")?,
                parts,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(PlanAttributes { mode, pieces, routes, gathers })
}

/// The operand, result type and every attribute of `op`, to rebuild it under another name.
pub fn replace_with(op: MlirOperation, name: &str, extra: &[(&str, MlirAttribute)]) -> MlirOperation {
    let operand = mlir::operands(op)[0];
    let mut attrs: Vec<(String, MlirAttribute)> = mlir::attributes(op);
    attrs.retain(|(k, _)| !extra.iter().any(|(e, _)| e == k));
    let mut all: Vec<(&str, MlirAttribute)> = attrs.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    all.extend_from_slice(extra);
    let new = mlir::insert_unary_op(name, operand, &all, op, false);
    unsafe {
        mlirValueReplaceAllUsesOfWith(mlir::results(op)[0], mlir::results(new)[0]);
        mlirOperationDestroy(op);
    }
    new
}
