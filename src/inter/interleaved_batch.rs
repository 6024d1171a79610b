//! The examples inside a merged dimension below another factor: sequence-major layouts
//! (`[L, N, E] -> [L * N, E]`, as PyTorch's `nn.MultiheadAttention` projects its inputs) keep
//! one value per example, interleaved with the other factor, and a later reshape
//! (`[L * N, F] -> [L, N, F]`) takes the examples back out as a dimension of their own.
//! `output_combine` tracks the batch as a whole dimension (or as its outermost factor); this
//! module follows it where it is an inner factor, through the ops such layouts use
//! (elementwise ops, broadcasts, transposes, reshapes, additive reductions, contractions), so
//! that what the examples give later is still known per example, summed or contracted.

use super::output_combine::{adds, BatchClass};
use crate::ir::attr_text::DotDimensionNumbers;
use crate::ir::graph::{Graph, OpNode, ValueRef};
use crate::ir::op_table::{canonical_name, elementwise_info, opaque_text};
use crate::ir::types::ValueType;

/// Where the examples are in a value: dimension `dim`, as the factor of `examples` entries
/// whose stride along it is `inner` (the entries of the factors inside it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub dim: usize,
    pub inner: i64,
}

/// What an op makes of examples laid out by its operands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Spread {
    /// The examples are the outermost factor of this result dimension.
    Outermost(usize),
    /// The examples are an inner factor of a result dimension.
    Within(Layout),
    /// Added up, with this many elements per microbatch.
    Summed(f64),
    /// Contracted with values shared by the examples (a weight gradient).
    Contracted,
}

fn shape_of(graph: &Graph, v: ValueRef) -> Option<Vec<i64>> {
    graph.value_type(v).and_then(ValueType::tensor).map(|t| t.shape.clone())
}

/// The layout of a value whose examples (`examples` of them) are the outermost factor of `dim`.
pub fn outermost(shape: &[i64], dim: usize, examples: i64) -> Option<Layout> {
    let size = *shape.get(dim)?;
    (examples > 0 && size % examples == 0).then_some(Layout { dim, inner: size / examples })
}

/// `layout` in a result of `shape`: the outermost factor of its dimension, or within it.
fn settle(layout: Layout, shape: &[i64], examples: i64) -> Option<Spread> {
    let size = *shape.get(layout.dim)?;
    if layout.inner * examples == size {
        Some(Spread::Outermost(layout.dim))
    } else {
        Some(Spread::Within(layout))
    }
}

/// What op `op` makes of examples laid out as `layouts` says (one entry per operand: `None` for
/// an operand that holds no examples, whose class is `classes`' entry).
pub fn spread(
    graph: &Graph,
    op: &OpNode,
    classes: &[BatchClass],
    layouts: &[Option<Layout>],
    examples: i64,
) -> Option<Spread> {
    // Every operand holds the examples laid out alike, or none of them.
    let mut with = layouts.iter().zip(classes).filter(|(l, c)| l.is_some() || **c != BatchClass::Independent);
    let (first, _) = with.next()?;
    let layout = (*first)?;
    if !with.all(|(l, _)| *l == Some(layout)) && canonical_name(&op.name) != "dot_general" {
        return None;
    }
    let result_shape = op.results.first().and_then(ValueType::tensor).map(|t| t.shape.clone())?;
    let operand_shape = shape_of(graph, *op.operands.first()?)?;
    let name = canonical_name(&op.name);
    let moved = |dim: usize| settle(Layout { dim, inner: layout.inner }, &result_shape, examples);
    match name.as_str() {
        n if elementwise_info(n).is_some() && operand_shape == result_shape => moved(layout.dim),
        "broadcast_in_dim" => {
            let map = op.attr("broadcast_dimensions")?.as_i64_array()?;
            moved(*map.get(layout.dim)? as usize)
        }
        "transpose" => {
            let permutation = op.attr("permutation")?.as_i64_array()?;
            moved(permutation.iter().position(|&p| p as usize == layout.dim)?)
        }
        "reshape" => reshaped(&operand_shape, layout, &result_shape, examples),
        "reduce" if adds(op) => {
            let dims: Vec<usize> = op.attr("dimensions")?.as_i64_array()?.iter().map(|&d| d as usize).collect();
            if dims.contains(&layout.dim) {
                Some(Spread::Summed(dims.iter().map(|&d| operand_shape.get(d).copied().unwrap_or(1) as f64).product()))
            } else {
                moved(layout.dim - dims.iter().filter(|&&d| d < layout.dim).count())
            }
        }
        "dot_general" => contracted(graph, op, classes, layouts, layout, &result_shape, examples),
        _ => None,
    }
}

/// A reshape moves the examples' stride over the flattened elements; they land in the result
/// dimension whose factors hold that stride and the `examples` entries above it.
pub fn reshaped(from: &[i64], layout: Layout, to: &[i64], examples: i64) -> Option<Spread> {
    let after: i64 = from.get(layout.dim + 1..)?.iter().product();
    let stride = layout.inner.checked_mul(after)?;
    let span = stride.checked_mul(examples)?;
    (0..to.len()).find_map(|j| {
        let dim_stride: i64 = to[j + 1..].iter().product();
        let dim_span = dim_stride.checked_mul(to[j])?;
        (stride % dim_stride == 0 && dim_span % span == 0)
            .then(|| settle(Layout { dim: j, inner: stride / dim_stride }, to, examples))
            .flatten()
    })
}

/// A contraction of one operand's examples: kept along a batching or free dimension, or summed
/// against values the examples share when their dimension is contracted.
fn contracted(
    graph: &Graph,
    op: &OpNode,
    classes: &[BatchClass],
    layouts: &[Option<Layout>],
    layout: Layout,
    result_shape: &[i64],
    examples: i64,
) -> Option<Spread> {
    let numbers = DotDimensionNumbers::parse(op.attr("dot_dimension_numbers").and_then(opaque_text)?).ok()?;
    let side = layouts.iter().position(Option::is_some)?;
    let other = 1 - side;
    if layouts.get(other).copied().flatten().is_some() || classes.get(other) != Some(&BatchClass::Independent) {
        return None;
    }
    let rank = |i: usize| op.operands.get(i).and_then(|v| shape_of(graph, *v)).map(|s| s.len());
    let (lhs_rank, rhs_rank) = (rank(0)?, rank(1)?);
    let (batching, contracting, own_rank) = if side == 0 {
        (&numbers.lhs_batching_dimensions, &numbers.lhs_contracting_dimensions, lhs_rank)
    } else {
        (&numbers.rhs_batching_dimensions, &numbers.rhs_contracting_dimensions, rhs_rank)
    };
    let d = layout.dim as i64;
    if contracting.contains(&d) {
        return Some(Spread::Contracted);
    }
    let to = |dim: usize| settle(Layout { dim, inner: layout.inner }, result_shape, examples);
    if let Some(i) = batching.iter().position(|&b| b == d) {
        return to(i);
    }
    let free = |r: usize, b: &[i64], c: &[i64]| (0..r as i64).filter(|x| !b.contains(x) && !c.contains(x)).count();
    let before = batching.len()
        + if side == 0 {
            0
        } else {
            free(lhs_rank, &numbers.lhs_batching_dimensions, &numbers.lhs_contracting_dimensions)
        };
    let own_free: Vec<i64> =
        (0..own_rank as i64).filter(|x| !batching.contains(x) && !contracting.contains(x)).collect();
    to(before + own_free.iter().position(|&x| x == d)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sequence_major_merge_keeps_the_examples_inside_and_the_split_takes_them_out() {
        // [L=8, N=4, E=16] -> [32, 16]: the 4 examples have stride 1 in the merged dimension.
        let merged = reshaped(&[8, 4, 16], Layout { dim: 1, inner: 1 }, &[32, 16], 4);
        assert_eq!(merged, Some(Spread::Within(Layout { dim: 0, inner: 1 })));
        // [32, 48] -> [8, 4, 48]: out again, the outermost (only) factor of dimension 1.
        assert_eq!(reshaped(&[32, 48], Layout { dim: 0, inner: 1 }, &[8, 4, 48], 4), Some(Spread::Outermost(1)));
        // [N=4, L=8, E] -> [32, E]: the batch-major merge is the outermost factor.
        let batch_major = outermost(&[4, 8, 16], 0, 4).unwrap();
        assert_eq!(reshaped(&[4, 8, 16], batch_major, &[32, 16], 4), Some(Spread::Outermost(0)));
        // A split that cuts through the examples' factor ([32] -> [16, 2] with N=4, stride 1)
        // leaves them nowhere.
        assert_eq!(reshaped(&[32], Layout { dim: 0, inner: 1 }, &[16, 2], 4), None);
    }
}
