//! A loss that is a nonlinear function of statistics of the batch: a mixture of experts'
//! load-balancing loss multiplies two means over the tokens (the fraction routed to each expert
//! and its mean router probability), a penalty squares a mean activation. A microbatch computes
//! the statistics over its own examples, so its loss and gradient are not a part of the global
//! batch's, as they are for a sum or a mean of per-example terms. A ratio whose divisor depends
//! on the batch (a masked mean, its count guarded by `max(sum(mask), 1)`, or the sum times the
//! count's reciprocal) is `weighted_loss`' and the count's: a divisor is not followed here.

use super::output_combine::{adds, BatchClass, BatchClasses, MOVES_OR_NEGATES};
use super::walk_back::{first_found_back_from, Step};
use crate::ir::graph::{Graph, OpNode, ValueRef};
use crate::ir::op_table::canonical_name;

/// The first op, in program order, of those the loss is a sum of (through sums, additive
/// reductions, `MOVES_OR_NEGATES` ops, products with values independent of the batch and
/// numerators) that computes a nonlinear function of statistics of the batch and values
/// independent of it alone. `None` when the loss has none.
pub fn nonlinear_statistics_term(
    graph: &Graph,
    batch_dims: &[Option<usize>],
    classes: &BatchClasses,
    loss: ValueRef,
) -> Option<usize> {
    let ops = graph.ops();
    let through = |c: BatchClass| c == BatchClass::Other;
    let of_statistics = linear_in_statistics(graph, batch_dims, classes);
    let statistic =
        |v: ValueRef, c: BatchClass| c.is_statistic() || matches!(v, ValueRef::Op { op, .. } if of_statistics[op]);
    first_found_back_from(graph, batch_dims, classes, loss, through, |index, operands| {
        let op = &ops[index];
        let read = read_of_the_batch(operands);
        match linearity(op, &read) {
            // A numerator is a term; a divisor is not (a reciprocal of a count included).
            Linearity::Divides => Step::Follow(
                op.operands.first().filter(|v| read.iter().any(|(r, _)| r == *v)).copied().into_iter().collect(),
            ),
            Linearity::Linear => Step::Follow(read.iter().map(|(v, _)| *v).collect()),
            Linearity::Nonlinear if read.iter().all(|(v, c)| statistic(*v, *c)) => Step::Found,
            Linearity::Nonlinear => Step::Follow(read.iter().filter(|(_, c)| through(*c)).map(|(v, _)| *v).collect()),
        }
    })
}

enum Linearity {
    /// Each result is a linear function of the values of the batch it reads.
    Linear,
    /// A division: linear in its numerator, for a divisor independent of the batch.
    Divides,
    Nonlinear,
}

/// What `op` is as a function of the values it reads that depend on the batch (`read`).
fn linearity(op: &OpNode, read: &[(ValueRef, BatchClass)]) -> Linearity {
    let name = canonical_name(&op.name);
    if name == "divide" {
        Linearity::Divides
    } else if matches!(name.as_str(), "add" | "subtract")
        || MOVES_OR_NEGATES.contains(&name.as_str())
        || (name == "reduce" && adds(op))
        || (name == "multiply" && read.len() == 1)
    {
        Linearity::Linear
    } else {
        Linearity::Nonlinear
    }
}

fn read_of_the_batch(operands: &[(ValueRef, BatchClass)]) -> Vec<(ValueRef, BatchClass)> {
    operands.iter().copied().filter(|(_, c)| *c != BatchClass::Independent).collect()
}

/// Per op: whether it computes a linear function of statistics of the batch alone (values
/// independent of it aside), as `c / batch - I` of a cross-correlation `c` of the batch's
/// features does: a nonlinear function of it is one of the statistics, though the class of a
/// contraction shifted by a constant is no statistic's. A divisor is not followed: a reciprocal
/// of a count is the ratio's (`weighted_loss`).
fn linear_in_statistics(graph: &Graph, batch_dims: &[Option<usize>], classes: &BatchClasses) -> Vec<bool> {
    let mut linear: Vec<bool> = Vec::with_capacity(graph.ops().len());
    for op in graph.ops() {
        let operands: Vec<(ValueRef, BatchClass)> =
            op.operands.iter().map(|v| (*v, classes.of(*v, batch_dims))).collect();
        let read = read_of_the_batch(&operands);
        let statistic = |(v, c): &(ValueRef, BatchClass)| {
            c.is_statistic() || matches!(*v, ValueRef::Op { op, .. } if linear.get(op).copied().unwrap_or(false))
        };
        let here = !read.is_empty()
            && match linearity(op, &read) {
                Linearity::Linear => read.iter().all(statistic),
                Linearity::Divides => {
                    op.operands.first().is_some_and(|n| read.iter().any(|(r, _)| r == n))
                        && op.operands.get(1).is_some_and(|d| read.iter().all(|(r, _)| r != d))
                        && read.iter().all(statistic)
                }
                Linearity::Nonlinear => false,
            };
        linear.push(here);
    }
    linear
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inter::output_combine::batch_classes;
    use crate::ir::graph::{Attrs, Param};
    use crate::ir::test_graphs::{op_index, t, Builder};

    fn term(b: Builder, loss: ValueRef) -> Option<usize> {
        let graph = b.graph(vec![Param { ty: t(&[8, 4]), attrs: Attrs::new() }], vec![loss]);
        let dims = [Some(0)];
        nonlinear_statistics_term(&graph, &dims, &batch_classes(&graph, &dims), loss)
    }

    /// `x: [8, 4]`, the batch: per feature, the sum over the examples (`[4]`).
    fn feature_sums(b: &mut Builder, x: ValueRef) -> ValueRef {
        let zero = b.scalar_constant();
        b.reduce_sum(x, zero, &[0], t(&[4]))
    }

    #[test]
    fn a_product_of_two_statistics_added_to_a_sum_is_the_term() {
        // A load-balancing loss: sum over experts of (sums of x) * (sums of exp x), scaled,
        // added to the sum of x.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let routed = feature_sums(&mut b, x);
        let e = b.unary("stablehlo.exponential", x, t(&[8, 4]));
        let probabilities = feature_sums(&mut b, e);
        let product = b.binary("stablehlo.multiply", routed, probabilities, t(&[4]));
        let zero = b.scalar_constant();
        let balance = b.reduce_sum(product, zero, &[0], t(&[]));
        let weight = b.scalar_constant();
        let scaled = b.binary("stablehlo.multiply", weight, balance, t(&[]));
        let main = b.sum(x);
        let loss = b.binary("stablehlo.add", main, scaled, t(&[]));
        assert_eq!(term(b, loss), Some(op_index(product)));
    }

    #[test]
    fn a_function_of_one_statistic_is_the_term_and_a_ratio_by_a_guarded_count_is_none() {
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let total = b.sum(x);
        let exp = b.unary("stablehlo.exponential", total, t(&[]));
        let log = b.unary("stablehlo.log", exp, t(&[]));
        assert_eq!(term(b, log), Some(op_index(exp)));

        // sum(x) / max(sum(x), 1): the guard is the divisor's, not a term of the loss.
        let mut b = Builder::new();
        let total = b.sum(x);
        let count = b.sum(x);
        let one = b.scalar_constant();
        let guarded = b.binary("stablehlo.maximum", count, one, t(&[]));
        let ratio = b.binary("stablehlo.divide", total, guarded, t(&[]));
        assert_eq!(term(b, ratio), None);

        // The same ratio written as the sum times the guarded count's reciprocal.
        let mut b = Builder::new();
        let total = b.sum(x);
        let count = b.sum(x);
        let one = b.scalar_constant();
        let guarded = b.binary("stablehlo.maximum", count, one, t(&[]));
        let reciprocal = b.binary("stablehlo.divide", one, guarded, t(&[]));
        let ratio = b.binary("stablehlo.multiply", total, reciprocal, t(&[]));
        assert_eq!(term(b, ratio), None);

        // A sum is no nonlinear term.
        let mut b = Builder::new();
        let total = b.sum(x);
        assert_eq!(term(b, total), None);
    }

    #[test]
    fn a_function_of_a_statistic_shifted_and_scaled_is_the_term() {
        // Barlow Twins: the squares of x^T x / 8 - I, a cross-correlation of the batch's
        // features compared with the identity, summed.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let correlation = b.dot(x, x, 0, 0, t(&[4, 4]));
        let count = b.op("stablehlo.constant", vec![], t(&[4, 4]), Attrs::new());
        let scaled = b.binary("stablehlo.divide", correlation, count, t(&[4, 4]));
        let identity = b.op("stablehlo.constant", vec![], t(&[4, 4]), Attrs::new());
        let shifted = b.binary("stablehlo.subtract", scaled, identity, t(&[4, 4]));
        let squares = b.binary("stablehlo.multiply", shifted, shifted, t(&[4, 4]));
        let loss = b.sum(squares);
        assert_eq!(term(b, loss), Some(op_index(squares)));
    }
}
