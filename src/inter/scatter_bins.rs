//! Scatters that add the examples' updates into bins the examples' values choose: counts per
//! class (`segment_sum(ones, labels)`), a confusion matrix (`.at[labels, predictions].add(1)`),
//! per-class sums of a value of each example (`segment_sum(correct, labels)`, the numerator of
//! a per-class accuracy). Each is a sum over the batch of the examples' one-hot rows, so the
//! microbatches' values add up. A bin index that reads the examples' positions
//! (`jnp.arange(batch) * classes + labels`, take_along_axis's transpose) gives each example rows
//! of its own instead.

use super::batch_positions::iota_dim_of_extent;
use super::output_combine::{adds, BatchClass};
use crate::ir::attr_text::{ComparisonDirection, ScatterDimensionNumbers};
use crate::ir::graph::{Attr, Graph, OpNode, ValueRef};
use crate::ir::op_table::{canonical_name, elementwise_info, opaque_text};
use crate::ir::types::ValueType;

/// Whether scatter `op` adds, into a batch-independent operand, batch-independent updates or
/// updates per example (the examples along the indices' examples) at bins computed from the
/// examples' values and not their positions. `examples` is the batch's number of examples,
/// when known (an iota of that extent numbers them; without it, any iota may).
pub(super) fn adds_into_bins(graph: &Graph, op: &OpNode, operands: &[BatchClass], examples: Option<i64>) -> bool {
    let [BatchClass::Independent, BatchClass::PerExample(Some(indexed)), updates] = *operands else {
        return false;
    };
    let Some(numbers) =
        op.attr("scatter_dimension_numbers").and_then(opaque_text).and_then(|t| ScatterDimensionNumbers::parse(t).ok())
    else {
        return false;
    };
    let updates_follow_indices = match updates {
        BatchClass::Independent => true,
        BatchClass::PerExample(Some(d)) => indices_dim_of_update(graph, op, &numbers, d) == Some(indexed),
        _ => false,
    };
    let from_values = (0..numbers.scatter_dims_to_operand_dims.len()).all(|component| {
        index_component(graph, op.operands[1], numbers.index_vector_dim, component)
            .is_some_and(|index| !reads_positions(graph, index, examples, 0))
    });
    numbers.input_batching_dims.is_empty() && adds(op) && updates_follow_indices && from_values
}

/// The indices' dimension that update dimension `d` of a scatter follows: the updates'
/// dimensions that are no window dimensions follow the indices' but the index vector's, in order.
fn indices_dim_of_update(graph: &Graph, op: &OpNode, numbers: &ScatterDimensionNumbers, d: usize) -> Option<usize> {
    let rank = |v: ValueRef| graph.value_type(v).and_then(ValueType::tensor).map(|t| t.shape.len());
    let updates_rank = rank(*op.operands.get(2)?)?;
    let indices_rank = rank(*op.operands.get(1)?)?;
    let scatter_dims: Vec<usize> =
        (0..updates_rank).filter(|&u| !numbers.update_window_dims.contains(&(u as i64))).collect();
    let index_dims: Vec<usize> = (0..indices_rank).filter(|&i| i as i64 != numbers.index_vector_dim).collect();
    let at = scatter_dims.iter().position(|&u| u == d)?;
    (scatter_dims.len() == index_dims.len()).then(|| index_dims[at])
}

/// Whether index arithmetic computing `v` (elementwise ops, conversions and data movement) reads
/// an iota numbering the examples: one of the batch's extent, or any where that is unknown.
fn reads_positions(graph: &Graph, v: ValueRef, examples: Option<i64>, depth: usize) -> bool {
    let ValueRef::Op { op, .. } = v else { return false };
    if depth > 16 {
        return true;
    }
    let node = &graph.ops()[op];
    let name = canonical_name(&node.name);
    match name.as_str() {
        "iota" => iota_dim_of_extent(node, |extent| examples.is_none_or(|n| extent == n)).is_some(),
        "broadcast_in_dim" | "reshape" | "transpose" | "concatenate" | "slice" | "select" | "clamp" => {
            node.operands.iter().any(|&o| reads_positions(graph, o, examples, depth + 1))
        }
        n if elementwise_info(n).is_some() => {
            node.operands.iter().any(|&o| reads_positions(graph, o, examples, depth + 1))
        }
        _ => false,
    }
}

/// The value holding component `component` of a gather's or a scatter's index vectors
/// (`indices`, the vectors along `vector_dim`): the indices themselves when the vectors have one
/// component, else the piece of a concatenation along `vector_dim` that holds it alone.
pub(super) fn index_component(graph: &Graph, indices: ValueRef, vector_dim: i64, component: usize) -> Option<ValueRef> {
    let shape = &graph.value_type(indices)?.tensor()?.shape;
    let width = usize::try_from(vector_dim).ok().and_then(|d| shape.get(d)).copied().unwrap_or(1);
    if width == 1 {
        return (component == 0).then_some(indices);
    }
    let ValueRef::Op { op, .. } = indices else { return None };
    let node = &graph.ops()[op];
    if canonical_name(&node.name) != "concatenate" || node.attr("dimension").and_then(Attr::as_int) != Some(vector_dim)
    {
        return None;
    }
    let mut start = 0usize;
    for &piece in &node.operands {
        let size = usize::try_from(*graph.value_type(piece)?.tensor()?.shape.get(vector_dim as usize)?).ok()?;
        if (start..start + size).contains(&component) {
            return (size == 1).then_some(piece);
        }
        start += size;
    }
    None
}

/// Whether every element of `v` is its position along dimension `dim`: an iota, broadcast or
/// converted, perhaps through jnp's wrapping of negative indices (`where(i < 0, i + n, i)`, never
/// taken by positions).
pub(super) fn positions_along(graph: &Graph, v: ValueRef, dim: usize, depth: usize) -> bool {
    let ValueRef::Op { op, .. } = v else { return false };
    if depth > 16 {
        return false;
    }
    let node = &graph.ops()[op];
    let below = |v: ValueRef, dim: usize| positions_along(graph, v, dim, depth + 1);
    match canonical_name(&node.name).as_str() {
        "iota" => node.attr("iota_dimension").and_then(Attr::as_int) == Some(dim as i64),
        "convert" => below(node.operands[0], dim),
        "broadcast_in_dim" => {
            let size = |v: ValueRef, d: usize| {
                graph.value_type(v).and_then(ValueType::tensor).and_then(|t| t.shape.get(d).copied())
            };
            let Some(map) = node.attr("broadcast_dimensions").and_then(|a| a.as_i64_array()) else { return false };
            map.iter()
                .position(|&d| d == dim as i64)
                .is_some_and(|k| size(node.operands[0], k) == size(v, dim) && below(node.operands[0], k))
        }
        "select" => {
            let [predicate, _, otherwise] = node.operands[..] else { return false };
            let ValueRef::Op { op: compare, .. } = predicate else { return false };
            let compare = &graph.ops()[compare];
            let below_zero = canonical_name(&compare.name) == "compare"
                && compare.operands.first() == Some(&otherwise)
                && compare
                    .attr("comparison_direction")
                    .and_then(opaque_text)
                    .and_then(|t| ComparisonDirection::parse(t).ok())
                    == Some(ComparisonDirection::Lt);
            below_zero && below(otherwise, dim)
        }
        _ => false,
    }
}
