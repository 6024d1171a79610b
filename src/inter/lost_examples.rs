//! Where the batch analysis loses track of the examples on the way to a loss it cannot call a
//! sum or a mean: the op that computes, from values per example in known dimensions, a value
//! whose examples it no longer places (`BatchClass::PerExample(None)`) or of no known class
//! (`BatchClass::Other`). A warning there names the op the user can look at (a reshape of the
//! batch into a mixture of experts' gating groups of several examples, a loop), where one at
//! the loss could only guess at a masked mean. A loss whose unknown class comes from
//! statistics alone (a masked mean's guarded count) has no such op.

use super::output_combine::{BatchClass, BatchClasses};
use super::walk_back::{first_found_back_from, Step};
use crate::ir::graph::{Graph, ValueRef};

fn lost_track(class: BatchClass) -> bool {
    matches!(class, BatchClass::Other | BatchClass::PerExample(None))
}

/// The first op, in program order, among those value `v` is computed from through values whose
/// examples are lost track of (`lost_track`), that reads no such value and some value per
/// example in a known dimension. `None` when no such op is found.
pub fn examples_lost_before(
    graph: &Graph,
    batch_dims: &[Option<usize>],
    classes: &BatchClasses,
    v: ValueRef,
) -> Option<usize> {
    first_found_back_from(graph, batch_dims, classes, v, lost_track, |_, read| {
        let unknown: Vec<ValueRef> = read.iter().filter(|(_, c)| lost_track(*c)).map(|(v, _)| *v).collect();
        if unknown.is_empty() && read.iter().any(|(_, c)| matches!(c, BatchClass::PerExample(Some(_)))) {
            Step::Found
        } else {
            Step::Follow(unknown)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inter::output_combine::batch_classes;
    use crate::ir::graph::{Attrs, Param};
    use crate::ir::test_graphs::{op_index, t, Builder};

    /// `x: [8, 4]`, the batch, and `w: [16, 3]`, shared.
    fn lost(b: Builder, loss: ValueRef) -> Option<usize> {
        let params =
            vec![Param { ty: t(&[8, 4]), attrs: Attrs::new() }, Param { ty: t(&[16, 3]), attrs: Attrs::new() }];
        let graph = b.graph(params, vec![loss]);
        let dims = [Some(0), None];
        let classes = batch_classes(&graph, &dims);
        assert_eq!(classes.of(loss, &dims), BatchClass::Other, "the loss should be of no known class");
        examples_lost_before(&graph, &dims, &classes, loss)
    }

    #[test]
    fn a_reshape_of_the_batch_into_groups_is_where_the_examples_are_lost() {
        // Groups of four examples: [8, 4] -> [2, 16], then a gate's logits per group and a
        // nonlinear function of them summed up.
        let mut b = Builder::new();
        let grouped = b.op("stablehlo.reshape", vec![ValueRef::Arg(0)], t(&[2, 16]), Attrs::new());
        let _logits = b.dot(grouped, ValueRef::Arg(1), 1, 0, t(&[2, 3]));
        let gates = b.unary("stablehlo.exponential", _logits, t(&[2, 3]));
        let squared = b.binary("stablehlo.multiply", gates, gates, t(&[2, 3]));
        let loss = b.sum(squared);
        assert_eq!(lost(b, loss), Some(op_index(grouped)));
    }

    #[test]
    fn an_op_the_analysis_does_not_follow_is_where_the_examples_are_lost() {
        // A loop over the batch and the weights, its carried batch summed up; the first of two
        // such loops in program order is the one named.
        let mut b = Builder::new();
        let (x, w) = (ValueRef::Arg(0), ValueRef::Arg(1));
        let looped = b.ops_results("stablehlo.while", vec![x, w], vec![t(&[8, 4]), t(&[16, 3])], Attrs::new());
        let again = b.ops_results("stablehlo.while", vec![x, w], vec![t(&[8, 4]), t(&[16, 3])], Attrs::new());
        let (first, second) = (b.sum(looped[0]), b.sum(again[0]));
        let loss = b.binary("stablehlo.add", second, first, t(&[]));
        assert_eq!(lost(b, loss), Some(op_index(looped[0])));
    }

    #[test]
    fn a_ratio_by_a_guarded_count_loses_no_examples() {
        // sum(x) / max(sum(x), 1): statistics alone make its class unknown.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let (total, count, one) = (b.sum(x), b.sum(x), b.scalar_constant());
        let guarded = b.binary("stablehlo.maximum", count, one, t(&[]));
        let loss = b.binary("stablehlo.divide", total, guarded, t(&[]));
        assert_eq!(lost(b, loss), None);
    }
}
