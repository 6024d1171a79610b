//! Examples meeting a value computed from the step's gradients: a function of contractions over
//! the batch (weight gradients `x^T dy`) alone that a value per example then reads, as
//! sharpness-aware minimization adds `rho * g / |g|` to the weights before a second forward and
//! backward pass, or a lookahead step evaluates the loss at weights moved along the gradient. A
//! microbatch computes that value from its own examples' gradients, where the global step
//! computes it from the whole batch's, so the step differs from the global batch's whatever
//! loss it returns (the first pass's is a plain mean). The contraction need not be a gradient:
//! a cross-correlation of the batch's features in the loss (Barlow Twins') meets the examples
//! the same way in the backward pass. A contraction read as it is is a
//! statistic of the batch (`batch_statistics`). Functions of sums and means alone are not
//! followed: a masked mean's gradient scales every example by one over the mask's sum, and
//! `weighted_loss` combines the microbatches by their sums.

use super::batch_statistics::{Meeting, Met};
use super::output_combine::{known_rule, BatchClass, BatchClasses};
use crate::ir::graph::{Graph, ValueRef};
use crate::ir::train_step::ancestors;

/// Where values per example meet values computed from contractions over the batch.
#[derive(Debug, Default)]
pub struct GradientMeetings {
    /// The ops where they meet, in program order.
    pub meetings: Vec<Meeting>,
    /// Per op: whether one of its results is computed from the gradients and read, itself or
    /// through values computed from it, where the examples meet it (a discriminator updated,
    /// then run on the batch again in the same step).
    pub met_updates: Vec<bool>,
}

/// The ops where values per example meet a value computed from contractions over the batch, in
/// program order. Such a value reads a contraction, or such a value, and otherwise only values
/// independent of the batch and aggregates over it (a norm, a learning rate).
pub fn examples_meeting_gradients(
    graph: &Graph,
    batch_dims: &[Option<usize>],
    classes: &BatchClasses,
) -> GradientMeetings {
    // Per op, per result: whether the value is a contraction or computed from them.
    let mut from: Vec<Vec<bool>> = Vec::with_capacity(graph.ops().len());
    let mut met = Vec::new();
    for (index, op) in graph.ops().iter().enumerate() {
        let from_gradients = |v: &ValueRef| match *v {
            ValueRef::Op { op, result } => from[op].get(result).copied().unwrap_or(false),
            _ => false,
        };
        // A barrier hands each value on as it is: it is no meeting.
        if known_rule(graph, op).is_some_and(|rule| rule.carries_operands_through()) {
            from.push(op.operands.iter().map(from_gradients).collect());
            continue;
        }
        let classes_read: Vec<BatchClass> = op.operands.iter().map(|v| classes.of(*v, batch_dims)).collect();
        let derived =
            op.operands.iter().zip(&classes_read).any(|(v, c)| from_gradients(v) && *c != BatchClass::Contraction);
        let here = if classes[index] == BatchClass::Contraction {
            true
        } else if op.operands.iter().any(from_gradients) {
            if classes_read.iter().any(|c| matches!(c, BatchClass::PerExample(_))) {
                if derived {
                    met.push(Meeting { op: index, how: Met::Gradients });
                }
                false
            } else {
                op.operands
                    .iter()
                    .zip(&classes_read)
                    .all(|(v, c)| from_gradients(v) || *c == BatchClass::Independent || c.is_statistic())
            }
        } else {
            false
        };
        from.push(vec![here; op.results.len()]);
    }
    let read_where_met = ancestors(graph, met.iter().flat_map(|m| graph.ops()[m.op].operands.iter().copied()));
    let met_updates = from.iter().zip(read_where_met).map(|(results, read)| read && results.contains(&true)).collect();
    GradientMeetings { meetings: met, met_updates }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inter::output_combine::batch_classes;
    use crate::ir::graph::{Attrs, Param};
    use crate::ir::test_graphs::{op_index, t, Builder};

    /// `x: [8, 4]` batched, `w: [4, 4]` shared. The contraction `g = x^T x` (a weight's
    /// gradient), scaled by its norm, is added to `w` (`moved`); `x @ moved` is where the
    /// examples meet it, while the norm, the scaled gradient and the moved weight are computed
    /// from the gradient alone.
    #[test]
    fn a_value_per_example_reading_weights_moved_along_the_gradient_meets_it() {
        let mut b = Builder::new();
        let (x, w) = (ValueRef::Arg(0), ValueRef::Arg(1));
        let g = b.dot(x, x, 0, 0, t(&[4, 4]));
        let squares = b.binary("stablehlo.multiply", g, g, t(&[4, 4]));
        let norm = b.sum(squares);
        let spread = b.op("stablehlo.broadcast_in_dim", vec![norm], t(&[4, 4]), Attrs::new());
        let scaled = b.binary("stablehlo.divide", g, spread, t(&[4, 4]));
        let moved = b.binary("stablehlo.add", w, scaled, t(&[4, 4]));
        // Through a barrier (remat), each value is what it was: the meeting is after it.
        let carried =
            b.ops_results("stablehlo.optimization_barrier", vec![x, moved], vec![t(&[8, 4]), t(&[4, 4])], Attrs::new());
        let again = b.dot(carried[0], carried[1], 1, 0, t(&[8, 4]));
        // A plain layer reads the weight itself; the contraction read as it is is a statistic of
        // the batch; one over a sum (a masked mean's count) scales each example's gradient.
        let plain = b.dot(x, w, 1, 0, t(&[8, 4]));
        let direct = b.dot(x, g, 1, 0, t(&[8, 4]));
        let (one, count) = (b.scalar_constant(), b.sum(x));
        let inverse = b.binary("stablehlo.divide", one, count, t(&[]));
        let spread_inverse = b.op("stablehlo.broadcast_in_dim", vec![inverse], t(&[8, 4]), Attrs::new());
        let weighted = b.binary("stablehlo.multiply", x, spread_inverse, t(&[8, 4]));
        let graph = b.graph(
            vec![Param { ty: t(&[8, 4]), attrs: Attrs::new() }, Param { ty: t(&[4, 4]), attrs: Attrs::new() }],
            vec![again, plain, direct, weighted],
        );
        let dims = [Some(0), None];
        let met = examples_meeting_gradients(&graph, &dims, &batch_classes(&graph, &dims));
        assert_eq!(met.meetings, vec![Meeting { op: op_index(again), how: Met::Gradients }]);
        // The moved weight and what it is computed from are read where they meet; the
        // contraction read directly is not followed.
        let updates: Vec<usize> = (0..graph.ops().len()).filter(|&i| met.met_updates[i]).collect();
        let mut expected = [g, squares, norm, spread, scaled, moved, carried[1]].map(op_index);
        expected.sort_unstable();
        assert_eq!(updates, expected);
    }
}
