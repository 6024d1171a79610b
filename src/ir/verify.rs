//! The StableHLO verifier: MLIR 22 ships none, so every op the graph reader sees passes here.
//!
//! An op is well formed when the op table can build its rule (operand and result counts, dims
//! that fit, attributes that parse) and, for ops whose result shape follows from attributes the
//! rule does not need (windows, strides, padding, slice bounds), when the result has the shape
//! the op's semantics give. A wrong result shape is an error: it would be costed as given.
//! Required attributes are required; `while` / `case` / `if` have their region counts and the
//! types their regions take and yield.
//!
//! `padding` attributes arrive as dense elements; the reader passes them as `I64Array`
//! (row-major `[n, 2]`). Where an attribute is unreadable the check that needs it is skipped.

use crate::ir::attr_text::ConvDimensionNumbers;
use crate::ir::cost::op_cost;
use crate::ir::graph::{Attr, OpNode, ValueRef};
use crate::ir::op_table::{bad_attr, canonical_name, ints_attr, opaque_text, shape_err, Ints, OpTableError};
use crate::ir::types::{TensorType, ValueType};

/// Checks `op` against StableHLO's rules; `operands` are its operands' types (`None` for
/// values that are not ranked tensors or whose type is not known).
pub fn verify_op(op: &OpNode, operands: &[Option<&TensorType>]) -> Result<(), OpTableError> {
    let name = canonical_name(&op.name);
    arity::check_arity(op, &name, operands.len())?;
    for (i, result) in op.results.iter().enumerate() {
        value_fits(result).map_err(|m| shape_err(op, format!("result #{i}: {m}")))?;
    }
    required_attrs(op, &name)?;
    regions(op, &name, operands)?;
    // Before the rule, whose factor check would report the same faults less plainly.
    match name.as_str() {
        "gather" => gather_scatter::gather(op, operands)?,
        "scatter" => gather_scatter::scatter(op, operands)?,
        _ => {}
    }
    // Costing builds the op's rule and checks that its counts fit u64.
    op_cost(op, operands)?;
    match name.as_str() {
        "convolution" => convolution(op, operands),
        "slice" => slice(op, operands),
        "dynamic_slice" => dynamic_slice(op, operands),
        "iota" => iota(op),
        "reduce_window" => reduce_window(op, operands),
        "select_and_scatter" => select_and_scatter(op, operands),
        _ => Ok(()),
    }
}

/// Whether a value's bytes fit in u64, the width every size and cost is kept in: a larger
/// value cannot be costed (a saturated count would cost 2^96 elements as 2^64).
pub fn value_fits(value: &ValueType) -> Result<(), String> {
    match value.checked_byte_size() {
        Some(_) => Ok(()),
        None => Err(format!("{value} has more than 2^64 bytes: sizes past u64 cannot be costed")),
    }
}

fn missing(op: &OpNode, attr: &str) -> OpTableError {
    OpTableError::MissingAttr { op: op.name.clone(), attr: attr.into() }
}

fn required_attrs(op: &OpNode, name: &str) -> Result<(), OpTableError> {
    let required: &[&str] = match name {
        "compare" => &["comparison_direction"],
        "gather" => &["dimension_numbers", "slice_sizes"],
        "dynamic_slice" => &["slice_sizes"],
        "slice" => &["start_indices", "limit_indices"],
        "iota" => &["iota_dimension"],
        "reduce_window" | "select_and_scatter" => &["window_dimensions"],
        "convolution" => &["dimension_numbers"],
        _ => &[],
    };
    match required.iter().find(|a| op.attr(a).is_none()) {
        Some(attr) => Err(missing(op, attr)),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------------
// Regions of while / case / if: counts and types only (their costing lives in ir::cost).

fn regions(op: &OpNode, name: &str, operands: &[Option<&TensorType>]) -> Result<(), OpTableError> {
    let results: Vec<&ValueType> = op.results.iter().collect();
    match name {
        "while" => {
            expect_regions(op, 2, 2)?;
            let carried: Vec<Option<&TensorType>> = operands.to_vec();
            let result_tensors: Vec<Option<&TensorType>> = results.iter().map(|r| r.tensor()).collect();
            if carried.len() != result_tensors.len() || !same_types(&carried, &result_tensors) {
                return Err(shape_err(op, "results must have the operands' types"));
            }
            region_args(op, 0, "condition", &carried)?;
            region_args(op, 1, "body", &carried)?;
            let i1 = TensorType::new(Vec::new(), crate::ir::types::ElementType::Bool);
            region_yield(op, 0, "condition", &[Some(&i1)])?;
            region_yield(op, 1, "body", &carried)
        }
        "case" | "if" => {
            if name == "case" {
                expect_regions(op, 1, usize::MAX)?;
            } else {
                expect_regions(op, 2, 2)?;
            }
            if operands.len() != 1 {
                return Err(shape_err(op, format!("expects 1 operand (the branch index), has {}", operands.len())));
            }
            let wanted = if name == "case" { "tensor<i32>" } else { "tensor<i1>" };
            if let Some(t) = operands[0] {
                if t.to_string() != wanted {
                    return Err(shape_err(op, format!("the branch index is {t}, expected {wanted}")));
                }
            }
            let result_tensors: Vec<Option<&TensorType>> = results.iter().map(|r| r.tensor()).collect();
            for r in 0..op.regions.len() {
                region_yield(op, r, &format!("branch {r}"), &result_tensors)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn expect_regions(op: &OpNode, min: usize, max: usize) -> Result<(), OpTableError> {
    let n = op.regions.len();
    if n < min || n > max {
        let wanted = if min == max { format!("{min}") } else { format!("at least {min}") };
        return Err(shape_err(op, format!("expects {wanted} regions, has {n}")));
    }
    if let Some(r) = op.regions.iter().position(|r| r.blocks.len() != 1) {
        return Err(shape_err(op, format!("region {r} has {} blocks, expected 1", op.regions[r].blocks.len())));
    }
    Ok(())
}

/// Two type lists agree where both are known.
fn same_types(a: &[Option<&TensorType>], b: &[Option<&TensorType>]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.is_none() || y.is_none() || x == y)
}

fn region_args(op: &OpNode, r: usize, what: &str, wanted: &[Option<&TensorType>]) -> Result<(), OpTableError> {
    let block = &op.regions[r].blocks[0];
    let args: Vec<Option<&TensorType>> = block.args.iter().map(ValueType::tensor).collect();
    if !same_types(&args, wanted) {
        return Err(shape_err(op, format!("the {what} region's arguments must have the operands' types")));
    }
    Ok(())
}

fn region_yield(op: &OpNode, r: usize, what: &str, wanted: &[Option<&TensorType>]) -> Result<(), OpTableError> {
    let block = &op.regions[r].blocks[0];
    let Some(terminator) = &block.terminator else { return Ok(()) };
    let yielded: Vec<Option<&TensorType>> = terminator
        .operands
        .iter()
        .map(|&v| if v == ValueRef::Outer { None } else { block.value_type(v).and_then(ValueType::tensor) })
        .collect();
    if !same_types(&yielded, wanted) {
        let types: Vec<String> = wanted.iter().map(|t| t.map_or("?".to_string(), |t| t.to_string())).collect();
        return Err(shape_err(op, format!("the {what} region must yield ({})", types.join(", "))));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Windows: convolution, reduce_window, select_and_scatter

/// A per-dim integer list: `default` when absent, `None` when unreadable; `n` entries, each
/// at least `min`.
fn per_dim(op: &OpNode, attr: &str, n: usize, default: i64, min: i64) -> Result<Option<Vec<i64>>, OpTableError> {
    let Some(values) = ints_attr(op, attr)?.or_fill(n, default) else { return Ok(None) };
    if values.len() != n {
        return Err(bad_attr(op, attr, format!("{} entries, expected {n}", values.len())));
    }
    if let Some(v) = values.iter().find(|&&v| v < min) {
        return Err(bad_attr(op, attr, format!("{v} is below {min}")));
    }
    Ok(Some(values))
}

/// `padding` as `n` (low, high) pairs: zeros when absent, `None` when unreadable.
fn padding(op: &OpNode, n: usize) -> Result<Option<Vec<(i64, i64)>>, OpTableError> {
    let values = match ints_attr(op, "padding")? {
        Ints::Absent => return Ok(Some(vec![(0, 0); n])),
        Ints::Unreadable => {
            return match op.attr("padding") {
                Some(Attr::Elements { ty, .. }) if ty.shape != [n as i64, 2] && !(n == 0 && ty.shape.contains(&0)) => {
                    Err(bad_attr(op, "padding", format!("has shape {:?}, expected [{n}, 2]", ty.shape)))
                }
                _ => Ok(None),
            }
        }
        Ints::Values(v) => v,
    };
    if values.len() != 2 * n {
        return Err(bad_attr(op, "padding", format!("{} values, expected {n} (low, high) pairs", values.len())));
    }
    Ok(Some(values.chunks(2).map(|p| (p[0], p[1])).collect()))
}

/// The size of a dim after dilation: `(size - 1) * dilation + 1`, 0 for an empty dim.
fn dilated(size: i64, dilation: i64) -> i64 {
    if size <= 0 {
        0
    } else {
        (size - 1).saturating_mul(dilation).saturating_add(1)
    }
}

/// Output size of one windowed dim (StableHLO's shape function for windows).
fn window_output(
    input: i64,
    (lo, hi): (i64, i64),
    base_dilation: i64,
    window: i64,
    window_dilation: i64,
    stride: i64,
) -> i64 {
    let padded = dilated(input, base_dilation).saturating_add(lo).saturating_add(hi);
    let span = dilated(window, window_dilation);
    if padded < 0 || padded < span {
        0
    } else {
        (padded - span) / stride + 1
    }
}

fn convolution(op: &OpNode, operands: &[Option<&TensorType>]) -> Result<(), OpTableError> {
    let (Some(Some(input)), Some(Some(kernel))) = (operands.first(), operands.get(1)) else { return Ok(()) };
    let Some(text) = op.attr("dimension_numbers").and_then(opaque_text) else { return Ok(()) };
    let Ok(dn) = ConvDimensionNumbers::parse(text) else { return Ok(()) };
    let ns = dn.input_spatial_dimensions.len();
    if dn.kernel_spatial_dimensions.len() != ns || dn.output_spatial_dimensions.len() != ns {
        return Err(bad_attr(op, "dimension_numbers", "input, kernel and output differ in spatial dims"));
    }
    let strides = per_dim(op, "window_strides", ns, 1, 1)?;
    let lhs_dilation = per_dim(op, "lhs_dilation", ns, 1, 1)?;
    let rhs_dilation = per_dim(op, "rhs_dilation", ns, 1, 1)?;
    per_dim(op, "window_reversal", ns, 0, 0)?;
    let pads = padding(op, ns)?;
    let Some(output) = op.results.first().and_then(ValueType::tensor) else { return Ok(()) };
    let (Some(strides), Some(lhs), Some(rhs), Some(pads)) = (strides, lhs_dilation, rhs_dilation, pads) else {
        return Ok(());
    };
    for k in 0..ns {
        let at = |t: &TensorType, d: i64| t.shape[d as usize];
        let window = at(kernel, dn.kernel_spatial_dimensions[k]);
        let expected =
            window_output(at(input, dn.input_spatial_dimensions[k]), pads[k], lhs[k], window, rhs[k], strides[k]);
        let actual = at(output, dn.output_spatial_dimensions[k]);
        if expected != actual {
            return Err(shape_err(
                op,
                format!("spatial dim {k}: the window gives {expected} outputs, the result has {actual}"),
            ));
        }
    }
    Ok(())
}

/// The shape `reduce_window` (and `select_and_scatter`'s source) has for `input`.
fn windowed_shape(op: &OpNode, input: &TensorType, dilations: bool) -> Result<Option<Vec<i64>>, OpTableError> {
    let rank = input.rank();
    let window = per_dim(op, "window_dimensions", rank, 1, 1)?;
    let strides = per_dim(op, "window_strides", rank, 1, 1)?;
    let (base, win) = if dilations {
        (per_dim(op, "base_dilations", rank, 1, 1)?, per_dim(op, "window_dilations", rank, 1, 1)?)
    } else {
        (Some(vec![1; rank]), Some(vec![1; rank]))
    };
    let pads = padding(op, rank)?;
    let (Some(window), Some(strides), Some(base), Some(win), Some(pads)) = (window, strides, base, win, pads) else {
        return Ok(None);
    };
    Ok(Some(
        (0..rank).map(|d| window_output(input.shape[d], pads[d], base[d], window[d], win[d], strides[d])).collect(),
    ))
}

fn reduce_window(op: &OpNode, operands: &[Option<&TensorType>]) -> Result<(), OpTableError> {
    let Some(Some(input)) = operands.first() else { return Ok(()) };
    let Some(expected) = windowed_shape(op, input, true)? else { return Ok(()) };
    for (r, result) in op.results.iter().enumerate() {
        if let Some(t) = result.tensor() {
            if t.shape != expected {
                return Err(shape_err(
                    op,
                    format!("result {r} has shape {:?}, the window gives {expected:?}", t.shape),
                ));
            }
        }
    }
    Ok(())
}

fn select_and_scatter(op: &OpNode, operands: &[Option<&TensorType>]) -> Result<(), OpTableError> {
    let (Some(Some(input)), Some(Some(source))) = (operands.first(), operands.get(1)) else { return Ok(()) };
    let Some(expected) = windowed_shape(op, input, false)? else { return Ok(()) };
    if source.shape != expected {
        return Err(shape_err(op, format!("source has shape {:?}, the window gives {expected:?}", source.shape)));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Slices and iota

fn slice(op: &OpNode, operands: &[Option<&TensorType>]) -> Result<(), OpTableError> {
    let Some(Some(input)) = operands.first() else { return Ok(()) };
    let rank = input.rank();
    let (Some(start), Some(limit)) =
        (per_dim(op, "start_indices", rank, 0, 0)?, per_dim(op, "limit_indices", rank, 0, 0)?)
    else {
        return Ok(());
    };
    per_dim(op, "strides", rank, 1, 1)?;
    for d in 0..rank {
        if start[d] > limit[d] {
            return Err(bad_attr(
                op,
                "limit_indices",
                format!("dim {d}: limit {} is below start {}", limit[d], start[d]),
            ));
        }
        if limit[d] > input.shape[d] {
            return Err(bad_attr(
                op,
                "limit_indices",
                format!("dim {d}: limit {} exceeds the size {}", limit[d], input.shape[d]),
            ));
        }
    }
    Ok(())
}

fn dynamic_slice(op: &OpNode, operands: &[Option<&TensorType>]) -> Result<(), OpTableError> {
    let Some(Some(input)) = operands.first() else { return Ok(()) };
    let rank = input.rank();
    if operands.len() != rank + 1 {
        return Err(shape_err(
            op,
            format!("expects the operand and {rank} start indices, has {} operands", operands.len()),
        ));
    }
    if let Some(index) = operands[1..].iter().flatten().find(|t| t.rank() != 0) {
        return Err(shape_err(op, format!("start indices must be scalars, got {index}")));
    }
    let Some(sizes) = per_dim(op, "slice_sizes", rank, 0, 0)? else { return Ok(()) };
    if let Some(d) = (0..rank).find(|&d| sizes[d] > input.shape[d]) {
        return Err(bad_attr(op, "slice_sizes", format!("dim {d}: {} exceeds the size {}", sizes[d], input.shape[d])));
    }
    Ok(())
}

fn iota(op: &OpNode) -> Result<(), OpTableError> {
    let Some(result) = op.results.first().and_then(ValueType::tensor) else { return Ok(()) };
    let dim = op
        .attr("iota_dimension")
        .and_then(Attr::as_int)
        .ok_or_else(|| bad_attr(op, "iota_dimension", "expected an integer"))?;
    if dim < 0 || dim as usize >= result.rank() {
        return Err(bad_attr(op, "iota_dimension", format!("{dim} is out of range for rank {}", result.rank())));
    }
    Ok(())
}

mod arity;
mod gather_scatter;
mod params;
pub use params::{verify_params, IssueSeverity, ParamIssue};

#[cfg(test)]
mod tests;
