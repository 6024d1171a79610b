//! Examples meeting a statistic of the batch: a value per example combined with a sum, a mean,
//! a maximum (minimum) or a contraction over the batch (batch normalization's mean and variance, computed by the
//! model or by a `batch_norm_training` op over the examples, a baseline
//! subtracted from every example's reward), with every other example of the batch (a
//! contrastive loss's logits `a @ b.T`, pairwise distances `a[:, None] - b[None]`), with the
//! examples a reduction over the batch selects (`x[jnp.argmax(losses)]`), or with its
//! neighbours along the batch's dimension (a
//! sort, top-k, FFT or cumulative window over the examples: hard-example mining's top-k of the
//! losses). A microbatch computes the statistic over its own examples, and an example meets
//! only those of its microbatch, so the step differs from the global batch's, as under any
//! gradient accumulation.

use super::output_combine::{known_rule, reduces_by, BatchClass, BatchClasses};
use crate::ir::attr_text::DotDimensionNumbers;
use crate::ir::graph::{Graph, OpNode, ValueRef};
use crate::ir::op_table::{canonical_name, elementwise_info, opaque_text, FactorKind};

/// An op where values per example meet other examples of the batch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Meeting {
    pub op: usize,
    pub how: Met,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Met {
    /// A statistic of the batch, computed by op `at`.
    Statistic { at: usize },
    /// A batch norm op that computes the examples' mean and variance itself.
    BatchNorm,
    /// The batch paired with itself: a product (`a @ b.T`) or an elementwise op of two values
    /// with the examples in different dimensions (`a[:, None] - b[None]`).
    EveryOther,
    /// An op that combines the elements along a dimension, applied along the batch's.
    AlongTheBatch,
    /// A value computed from contractions over the batch: the step's gradients, or a
    /// cross-correlation of the batch's features (`gradient_meetings`).
    Gradients,
}

/// The ops where values per example first meet a statistic of the batch or the other
/// examples, in program order. A meeting downstream of another one (a normalized activation
/// meeting the next layer's statistics) is included; callers report the first. `batch_dims` are
/// the batch inputs' dimensions, `classes` the ops' batch classes (`output_combine::batch_classes`).
pub fn statistics_meeting_examples(
    graph: &Graph,
    batch_dims: &[Option<usize>],
    classes: &BatchClasses,
) -> Vec<Meeting> {
    let class_of = |v: &ValueRef| classes.of(*v, batch_dims);
    let mut met = Vec::new();
    for (index, op) in graph.ops().iter().enumerate() {
        let operands: Vec<BatchClass> = op.operands.iter().map(class_of).collect();
        if !operands.iter().any(|c| matches!(c, BatchClass::PerExample(_))) {
            continue;
        }
        let statistic_op = op.operands.iter().zip(&operands).find_map(|(v, c)| match *v {
            ValueRef::Op { op, .. } if c.is_statistic() => Some(op),
            _ => None,
        });
        let along_the_batch = (classes[index] == BatchClass::PerExample(None)
            && combines_along_the_batch(graph, op, &operands))
            || (classes[index] == BatchClass::Other && reduces_the_batch(op, &operands));
        let how = if normalizes_across_examples(graph, op, &operands) {
            Met::BatchNorm
        } else if let Some(at) = statistic_op {
            Met::Statistic { at }
        } else if pairs_every_example_with_every_other(op, &operands) {
            Met::EveryOther
        } else if along_the_batch {
            Met::AlongTheBatch
        } else {
            continue;
        };
        met.push(Meeting { op: index, how });
    }
    met
}

/// Whether `op` combines the elements of an operand's batch dimension with each other: its op
/// table rule marks a factor of that dimension [`FactorKind::Combined`] (sorted, selected among,
/// transformed, or reduced in windows wider than one). Slicing, moving and reducing ops are
/// followed by the batch analysis itself.
fn combines_along_the_batch(graph: &Graph, op: &OpNode, operands: &[BatchClass]) -> bool {
    let Some(rule) = known_rule(graph, op) else { return false };
    let combined = |factors: &Vec<usize>| factors.iter().any(|&f| rule.factors[f].kind == FactorKind::Combined);
    operands.iter().zip(&rule.operand_dims).any(|(c, dims)| match c {
        BatchClass::PerExample(Some(d)) => dims.get(*d).is_some_and(combined),
        _ => false,
    })
}

/// Whether `op` is a `reduce` over the batch's dimension of a value per example by anything but
/// an addition, a maximum or a minimum (whose results the reduction classes): it selects among
/// the examples or combines them otherwise (`jnp.argmax` over the batch, its value paired with
/// its position; a product over the batch).
fn reduces_the_batch(op: &OpNode, operands: &[BatchClass]) -> bool {
    let Some(dims) = op.attr("dimensions").and_then(|a| a.as_i64_array()) else { return false };
    canonical_name(&op.name) == "reduce"
        && !["add", "maximum", "minimum"].into_iter().any(|combiner| reduces_by(op, combiner))
        && operands.iter().any(|c| matches!(c, BatchClass::PerExample(Some(d)) if dims.contains(&(*d as i64))))
}

/// Whether `op` reduces over the batch's dimension of an operand and keeps that dimension in a
/// result, by its op table rule: each example meets the statistic the op computes over them
/// all (a batch norm in training, its forward or its gradient, whose features are not the
/// examples: torch_xla's BatchNorm2d).
fn normalizes_across_examples(graph: &Graph, op: &OpNode, operands: &[BatchClass]) -> bool {
    let Some(rule) = known_rule(graph, op) else { return false };
    operands.iter().zip(&rule.operand_dims).any(|(c, dims)| match c {
        BatchClass::PerExample(Some(d)) => dims.get(*d).is_some_and(|factors| {
            factors.iter().any(|&f| rule.factors[f].kind == FactorKind::Reduction && rule.in_results(f))
        }),
        _ => false,
    })
}

/// Whether every example meets every example of another operand at `op`: an elementwise op
/// of values per example whose examples are in different dimensions (pairwise distances or
/// kernels, `a[:, None] - b[None]`, as a triplet loss's hardest negative or an MMD loss
/// computes them), or a `dot_general` that contracts neither their examples together (a weight
/// gradient) nor keeps them paired as a batching dimension (`a @ b.T`).
fn pairs_every_example_with_every_other(op: &OpNode, operands: &[BatchClass]) -> bool {
    let name = canonical_name(&op.name);
    if elementwise_info(&name).is_some() {
        let mut dims = operands.iter().filter_map(|c| match c {
            BatchClass::PerExample(Some(d)) => Some(*d),
            _ => None,
        });
        let first = dims.next();
        return dims.any(|d| Some(d) != first);
    }
    let [BatchClass::PerExample(Some(l)), BatchClass::PerExample(Some(r))] = operands else { return false };
    if name != "dot_general" {
        return false;
    }
    let Some(numbers) =
        op.attr("dot_dimension_numbers").and_then(opaque_text).and_then(|t| DotDimensionNumbers::parse(t).ok())
    else {
        return false;
    };
    let (l, r) = (*l as i64, *r as i64);
    let paired = |lhs: &[i64], rhs: &[i64]| lhs.iter().zip(rhs).any(|(&a, &b)| a == l && b == r);
    !paired(&numbers.lhs_batching_dimensions, &numbers.rhs_batching_dimensions)
        && !paired(&numbers.lhs_contracting_dimensions, &numbers.rhs_contracting_dimensions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inter::output_combine::batch_classes;
    use crate::ir::graph::{Attr, Attrs, Param};
    use crate::ir::test_graphs::{attrs, op_index, t, Builder};

    fn meetings(b: Builder, returned: ValueRef) -> Vec<Meeting> {
        let g = b.graph(
            vec![Param { ty: t(&[8, 4]), attrs: Attrs::new() }, Param { ty: t(&[4, 4]), attrs: Attrs::new() }],
            vec![returned],
        );
        let dims = [Some(0), None];
        statistics_meeting_examples(&g, &dims, &batch_classes(&g, &dims))
    }

    /// A statistic per feature (`[4]`) broadcast to every example of `x: [8, 4]`.
    fn to_every_example(b: &mut Builder, statistic: ValueRef) -> ValueRef {
        let dims = attrs(&[("broadcast_dimensions", Attr::I64Array(vec![1]))]);
        b.op("stablehlo.broadcast_in_dim", vec![statistic], t(&[8, 4]), dims)
    }

    #[test]
    fn examples_minus_their_batch_mean_meet_it() {
        // Batch normalization's centring: x - mean(x over the batch), the mean as x's sum / 8.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let init = b.scalar_constant();
        let total = b.reduce_sum(x, init, &[0], t(&[4]));
        let count = b.op(
            "stablehlo.constant",
            vec![],
            t(&[4]),
            attrs(&[(
                "value",
                Attr::FloatScalar {
                    ty: crate::ir::types::TensorType::new(vec![4], crate::ir::types::ElementType::f32()),
                    value: 8.0,
                },
            )]),
        );
        let mean = b.binary("stablehlo.divide", total, count, t(&[4]));
        let spread = to_every_example(&mut b, mean);
        let centred = b.binary("stablehlo.subtract", x, spread, t(&[8, 4]));
        let loss = b.sum(centred);
        assert_eq!(
            meetings(b, loss),
            vec![Meeting { op: op_index(centred), how: Met::Statistic { at: op_index(spread) } }]
        );
    }

    #[test]
    fn examples_divided_by_their_batch_maximum_meet_it() {
        // x / max(x over the batch): scaled by the largest example of the microbatch only.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let init = b.scalar_constant();
        let largest = b.reduce_by("stablehlo.maximum", x, init, &[0], t(&[4]));
        let spread = to_every_example(&mut b, largest);
        let scaled = b.binary("stablehlo.divide", x, spread, t(&[8, 4]));
        let loss = b.sum(scaled);
        assert_eq!(
            meetings(b, loss),
            vec![Meeting { op: op_index(scaled), how: Met::Statistic { at: op_index(spread) } }]
        );
    }

    #[test]
    fn a_product_of_the_batch_with_itself_pairs_every_example_with_every_other() {
        // Contrastive logits x @ x.T ([8, 8]) meet; x @ w and x * x and a weight gradient
        // x.T @ x do not.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let dot = |b: &mut Builder, rhs, l: i64, r: i64, shape: &[i64]| b.dot(x, rhs, l, r, t(shape));
        let logits = dot(&mut b, x, 1, 1, &[8, 8]);
        let projected = dot(&mut b, ValueRef::Arg(1), 1, 0, &[8, 4]);
        let squared = b.binary("stablehlo.multiply", x, x, t(&[8, 4]));
        let gram = dot(&mut b, x, 0, 0, &[4, 4]);
        let sums: Vec<ValueRef> = [logits, projected, squared, gram].into_iter().map(|v| b.sum(v)).collect();
        let a = b.binary("stablehlo.add", sums[0], sums[1], t(&[]));
        let c = b.binary("stablehlo.add", sums[2], sums[3], t(&[]));
        let loss = b.binary("stablehlo.add", a, c, t(&[]));
        assert_eq!(meetings(b, loss), vec![Meeting { op: op_index(logits), how: Met::EveryOther }]);
    }

    #[test]
    fn a_reduction_over_the_batch_that_is_no_sum_or_extreme_meets_the_examples() {
        // A product over the batch's dimension combines the examples; one over the features,
        // and a sum over the batch, do not meet them.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let init = b.scalar_constant();
        let per_example = b.reduce_by("stablehlo.multiply", x, init, &[1], t(&[8]));
        let summed = b.reduce_sum(x, init, &[0], t(&[4]));
        let over_the_batch = b.reduce_by("stablehlo.multiply", x, init, &[0], t(&[4]));
        let (p, s, o) = (b.sum(per_example), b.sum(summed), b.sum(over_the_batch));
        let a = b.binary("stablehlo.add", p, s, t(&[]));
        let loss = b.binary("stablehlo.add", a, o, t(&[]));
        assert_eq!(meetings(b, loss), vec![Meeting { op: op_index(over_the_batch), how: Met::AlongTheBatch }]);
    }

    #[test]
    fn pairwise_differences_by_broadcasting_pair_every_example_with_every_other() {
        // x[:, None] - x[None] ([8, 8, 4]): every pair of examples meets; x[:, None] - x[:, None]
        // (the examples in the same dimension) does not.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let spread = |b: &mut Builder, dims: &[i64]| {
            b.op(
                "stablehlo.broadcast_in_dim",
                vec![x],
                t(&[8, 8, 4]),
                attrs(&[("broadcast_dimensions", Attr::I64Array(dims.to_vec()))]),
            )
        };
        let rows = spread(&mut b, &[0, 2]);
        let columns = spread(&mut b, &[1, 2]);
        let same = b.binary("stablehlo.subtract", rows, rows, t(&[8, 8, 4]));
        let pairwise = b.binary("stablehlo.subtract", rows, columns, t(&[8, 8, 4]));
        let (a, c) = (b.sum(same), b.sum(pairwise));
        let loss = b.binary("stablehlo.add", a, c, t(&[]));
        assert_eq!(meetings(b, loss), vec![Meeting { op: op_index(pairwise), how: Met::EveryOther }]);
    }

    #[test]
    fn a_sort_top_k_or_window_along_the_batch_meets_the_examples_and_one_along_the_features_or_a_stride_not() {
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let sort = |b: &mut Builder, dimension: i64| {
            b.op("stablehlo.sort", vec![x], t(&[8, 4]), attrs(&[("dimension", Attr::Int(dimension))]))
        };
        let init = b.scalar_constant();
        let window = |b: &mut Builder, dims: &[i64]| {
            b.op(
                "stablehlo.reduce_window",
                vec![x, init],
                t(&[8, 4]),
                attrs(&[("window_dimensions", Attr::I64Array(dims.to_vec()))]),
            )
        };
        let sorted_features = sort(&mut b, 1);
        let per_feature_window = window(&mut b, &[1, 2]);
        let sorted_examples = sort(&mut b, 0);
        let cumulative_over_examples = window(&mut b, &[8, 1]);
        // Every other example, a window of one strided by two: examples are dropped, none meet.
        let every_other_example = b.op(
            "stablehlo.reduce_window",
            vec![x, init],
            t(&[4, 4]),
            attrs(&[("window_dimensions", Attr::I64Array(vec![1, 1])), ("window_strides", Attr::I64Array(vec![2, 1]))]),
        );
        let scores =
            b.op("stablehlo.transpose", vec![x], t(&[4, 8]), attrs(&[("permutation", Attr::I64Array(vec![1, 0]))]));
        let hardest = b.op("chlo.top_k", vec![scores], t(&[4, 2]), attrs(&[]));
        let sums: Vec<ValueRef> = [
            sorted_features,
            per_feature_window,
            sorted_examples,
            cumulative_over_examples,
            every_other_example,
            hardest,
        ]
        .into_iter()
        .map(|v| b.sum(v))
        .collect();
        let loss = sums[1..].iter().fold(sums[0], |acc, &s| b.binary("stablehlo.add", acc, s, t(&[])));
        let along = |v| Meeting { op: op_index(v), how: Met::AlongTheBatch };
        assert_eq!(meetings(b, loss), vec![along(sorted_examples), along(cumulative_over_examples), along(hardest)]);
    }

    #[test]
    fn a_batch_norm_op_over_the_examples_meets_its_own_statistics_and_one_over_them_as_features_not() {
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let image = b.unary("stablehlo.reshape", x, t(&[8, 4, 1]));
        // Channels as features (BatchNorm): statistics over the examples.
        let across = b.batch_norm_training(image, &[8, 4, 1], 1);
        // The examples as features (torch_xla's LayerNorm): statistics per example.
        let tokens = b.unary("stablehlo.reshape", x, t(&[1, 8, 4]));
        let per_example = b.batch_norm_training(tokens, &[1, 8, 4], 1);
        let first = b.unary("stablehlo.reshape", across, t(&[8, 4]));
        let second = b.unary("stablehlo.reshape", per_example, t(&[8, 4]));
        let both = b.binary("stablehlo.add", first, second, t(&[8, 4]));
        let loss = b.sum(both);
        assert_eq!(meetings(b, loss), vec![Meeting { op: op_index(across), how: Met::BatchNorm }]);
    }
}
