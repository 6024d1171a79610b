//! `gather` and `scatter` against StableHLO's shape rules: the result shape of a gather (the
//! indices' batch dims and the slice sizes left after collapsed and batching dims, placed at
//! `offset_dims`), a scatter's results (its inputs' types) and updates (the indices' batch dims
//! and windows no larger than the input, placed at `update_window_dims`), and the dim lists'
//! order and sizes the op table's rule does not need.

use crate::ir::attr_text::{GatherDimensionNumbers, ScatterDimensionNumbers};
use crate::ir::graph::OpNode;
use crate::ir::op_table::{bad_attr, ints_attr, opaque_text, shape_err, Ints, OpTableError};
use crate::ir::types::TensorType;

const GATHER_DN: &str = "dimension_numbers";
const SCATTER_DN: &str = "scatter_dimension_numbers";

fn sorted(op: &OpNode, attr: &str, field: &str, dims: &[i64]) -> Result<(), OpTableError> {
    if dims.windows(2).any(|w| w[0] >= w[1]) {
        return Err(bad_attr(op, attr, format!("{field} {dims:?} must be sorted")));
    }
    Ok(())
}

/// `start_index_map` / `scatter_dims_to_operand_dims` name one operand dim per index vector entry.
fn index_vector_len(
    op: &OpNode,
    attr: &str,
    field: &str,
    map: &[i64],
    indices: &TensorType,
    ivd: i64,
) -> Result<(), OpTableError> {
    let len = usize::try_from(ivd).ok().and_then(|d| indices.shape.get(d)).copied().unwrap_or(1);
    if map.len() as i64 != len {
        return Err(bad_attr(op, attr, format!("{field} has {} entries, the index vector {len}", map.len())));
    }
    Ok(())
}

/// Operand batching dims have the sizes of the indices' batching dims.
fn batching_sizes(
    op: &OpNode,
    attr: &str,
    operand: &TensorType,
    dims: &[i64],
    indices: &TensorType,
    index_dims: &[i64],
) -> Result<(), OpTableError> {
    for (&d, &i) in dims.iter().zip(index_dims) {
        let (a, b) = (operand.shape.get(d as usize), indices.shape.get(i as usize));
        if let (Some(a), Some(b)) = (a, b) {
            if a != b {
                return Err(bad_attr(
                    op,
                    attr,
                    format!("batching dim {d} has size {a}, the indices' batching dim {i} {b}"),
                ));
            }
        }
    }
    Ok(())
}

/// `batch` (the indices' dims but the index vector dim) and `window` sizes, the latter placed at
/// `window_dims` of a tensor of rank `batch + window`.
fn combine(batch: Vec<i64>, window: Vec<i64>, window_dims: &[i64]) -> Vec<i64> {
    let rank = batch.len() + window.len();
    let (mut batch, mut window) = (batch.into_iter(), window.into_iter());
    (0..rank as i64).map(|d| if window_dims.contains(&d) { window.next() } else { batch.next() }.unwrap_or(0)).collect()
}

fn indices_batch(indices: &TensorType, ivd: i64) -> Vec<i64> {
    indices.shape.iter().enumerate().filter(|&(d, _)| d as i64 != ivd).map(|(_, &s)| s).collect()
}

pub(super) fn gather(op: &OpNode, operands: &[Option<&TensorType>]) -> Result<(), OpTableError> {
    let (Some(Some(operand)), Some(Some(indices))) = (operands.first(), operands.get(1)) else { return Ok(()) };
    let Some(dn) = op.attr(GATHER_DN).and_then(opaque_text).and_then(|t| GatherDimensionNumbers::parse(t).ok()) else {
        return Ok(());
    };
    sorted(op, GATHER_DN, "offset_dims", &dn.offset_dims)?;
    sorted(op, GATHER_DN, "collapsed_slice_dims", &dn.collapsed_slice_dims)?;
    sorted(op, GATHER_DN, "operand_batching_dims", &dn.operand_batching_dims)?;
    if let Some(d) = dn.start_index_map.iter().find(|d| dn.operand_batching_dims.contains(d)) {
        return Err(bad_attr(op, GATHER_DN, format!("start_index_map names operand batching dim {d}")));
    }
    index_vector_len(op, GATHER_DN, "start_index_map", &dn.start_index_map, indices, dn.index_vector_dim)?;
    batching_sizes(op, GATHER_DN, operand, &dn.operand_batching_dims, indices, &dn.start_indices_batching_dims)?;
    let Ints::Values(sizes) = ints_attr(op, "slice_sizes")? else { return Ok(()) };
    if sizes.len() != operand.rank() {
        return Err(bad_attr(op, "slice_sizes", format!("{} entries for rank {}", sizes.len(), operand.rank())));
    }
    let offsets: Vec<i64> = (0..operand.rank() as i64)
        .filter(|d| !dn.collapsed_slice_dims.contains(d) && !dn.operand_batching_dims.contains(d))
        .map(|d| sizes[d as usize])
        .collect();
    if offsets.len() != dn.offset_dims.len() {
        return Err(bad_attr(
            op,
            GATHER_DN,
            format!(
                "{} offset_dims, but the operand's rank {} less its collapsed and batching dims leaves {}",
                dn.offset_dims.len(),
                operand.rank(),
                offsets.len()
            ),
        ));
    }
    let expected = combine(indices_batch(indices, dn.index_vector_dim), offsets, &dn.offset_dims);
    let Some(result) = op.results.first().and_then(|r| r.tensor()) else { return Ok(()) };
    if result.shape != expected {
        return Err(shape_err(op, format!("the result has shape {:?}, the gather gives {expected:?}", result.shape)));
    }
    if result.element != operand.element {
        return Err(shape_err(
            op,
            format!("the result's element type {} is not the operand's {}", result.element, operand.element),
        ));
    }
    Ok(())
}

pub(super) fn scatter(op: &OpNode, operands: &[Option<&TensorType>]) -> Result<(), OpTableError> {
    let total = operands.len();
    if total < 3 || total.is_multiple_of(2) {
        return Ok(()); // the op table reports the operand count
    }
    let n = (total - 1) / 2;
    let (inputs, indices, updates) = (&operands[..n], operands[n], &operands[n + 1..]);
    for (r, result) in op.results.iter().enumerate() {
        if let (Some(Some(input)), Some(result)) = (inputs.get(r), result.tensor()) {
            if input != &result {
                return Err(shape_err(op, format!("result #{r} is {result}, its input is {input}")));
            }
        }
    }
    if op.results.len() != n {
        return Err(shape_err(op, format!("{n} inputs but {} results", op.results.len())));
    }
    let (Some(Some(input)), Some(indices)) = (inputs.first(), indices) else { return Ok(()) };
    let Some(dn) = op.attr(SCATTER_DN).and_then(opaque_text).and_then(|t| ScatterDimensionNumbers::parse(t).ok())
    else {
        return Ok(());
    };
    sorted(op, SCATTER_DN, "update_window_dims", &dn.update_window_dims)?;
    sorted(op, SCATTER_DN, "inserted_window_dims", &dn.inserted_window_dims)?;
    sorted(op, SCATTER_DN, "input_batching_dims", &dn.input_batching_dims)?;
    if let Some(d) = dn.scatter_dims_to_operand_dims.iter().find(|d| dn.input_batching_dims.contains(d)) {
        return Err(bad_attr(op, SCATTER_DN, format!("scatter_dims_to_operand_dims names input batching dim {d}")));
    }
    index_vector_len(
        op,
        SCATTER_DN,
        "scatter_dims_to_operand_dims",
        &dn.scatter_dims_to_operand_dims,
        indices,
        dn.index_vector_dim,
    )?;
    batching_sizes(op, SCATTER_DN, input, &dn.input_batching_dims, indices, &dn.scatter_indices_batching_dims)?;
    let window: Vec<usize> = (0..input.rank())
        .filter(|d| !dn.inserted_window_dims.contains(&(*d as i64)) && !dn.input_batching_dims.contains(&(*d as i64)))
        .collect();
    if window.len() != dn.update_window_dims.len() {
        return Err(bad_attr(
            op,
            SCATTER_DN,
            format!(
                "{} update_window_dims, but the input's rank {} less its inserted and batching dims leaves {}",
                dn.update_window_dims.len(),
                input.rank(),
                window.len()
            ),
        ));
    }
    let batch = indices_batch(indices, dn.index_vector_dim);
    for (u, update) in updates.iter().enumerate() {
        let Some(update) = update else { continue };
        let Some(input_u) = inputs.get(u).copied().flatten() else { continue };
        if update.element != input_u.element {
            return Err(shape_err(
                op,
                format!("update #{u}'s element type {} is not its input's {}", update.element, input_u.element),
            ));
        }
        let window_sizes: Vec<i64> =
            dn.update_window_dims.iter().map(|&d| update.shape.get(d as usize).copied().unwrap_or(-1)).collect();
        let expected = combine(batch.clone(), window_sizes.clone(), &dn.update_window_dims);
        if update.shape != expected {
            return Err(shape_err(
                op,
                format!("update #{u} has shape {:?}, the indices' batch dims give {expected:?}", update.shape),
            ));
        }
        if let Some((k, &d)) = window.iter().enumerate().find(|&(k, &d)| window_sizes[k] > input.shape[d]) {
            return Err(shape_err(
                op,
                format!(
                    "update #{u}'s window dim {} has size {}, larger than input dim {d} ({})",
                    dn.update_window_dims[k], window_sizes[k], input.shape[d]
                ),
            ));
        }
    }
    Ok(())
}
