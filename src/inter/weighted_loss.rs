//! A loss that is a ratio of two sums over the batch: a weighted or masked mean,
//! `sum(l * w) / sum(w)` (padding masks over tokens, sample weights), the denominator perhaps
//! guarded (`jnp.maximum(sum(w), 1)`, `+ eps`) or converted (a count of the labels kept). The
//! microbatches' losses neither add up nor average into the global batch's: each divides by
//! its own weights. But the weights come from the batch inputs alone, so the gradient of a
//! microbatch's loss is its numerator's divided by a number the microbatch knows; weighting
//! each microbatch's loss and gradients by its denominator, adding them up and dividing by the
//! denominator of the summed weights gives the global batch's loss and gradients exactly.

use super::output_combine::BatchClass;
use crate::ir::graph::{Graph, ValueRef};
use crate::ir::op_table::canonical_name;
use crate::ir::train_step::ancestors;

/// How a ratio-of-sums loss divides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightedLoss {
    /// The sum of the weights (`sum(w)`), computed from the batch inputs and constants alone.
    pub weights: ValueRef,
    /// What the loss divides by: `weights` passed through `steps`.
    pub denominator: ValueRef,
    /// The ops from `weights` to `denominator`, in program order: each reads the value before
    /// it and at most one scalar `stablehlo.constant` (its other operand), and has no attributes.
    pub steps: Vec<usize>,
}

/// Ops a denominator may pass through on its way from the sum of the weights: they take no
/// attributes, so `@main` can compute them again on the global batch's weights.
const STEP_OPS: [&str; 7] = ["convert", "add", "subtract", "multiply", "divide", "maximum", "minimum"];

/// The loss `loss` as a ratio of sums, when it is one: a `divide` of a sum over the batch by a
/// function (`STEP_OPS` with constants) of another sum over the batch that depends on no
/// argument but the batch inputs. `batch_dims` are the arguments' batch dimensions, `classes`
/// the ops' classes (`output_combine::batch_classes`).
pub fn weighted_loss(
    graph: &Graph,
    loss: ValueRef,
    batch_dims: &[Option<usize>],
    classes: &[BatchClass],
) -> Option<WeightedLoss> {
    let ops = graph.ops();
    let op_of = |v: ValueRef| match v {
        ValueRef::Op { op, result: 0 } => Some(op),
        _ => None,
    };
    let divide = &ops[op_of(loss)?];
    let [numerator, denominator] = divide.operands[..] else { return None };
    if canonical_name(&divide.name) != "divide" || !matches!(classes[op_of(numerator)?], BatchClass::Sum { .. }) {
        return None;
    }
    let scalar_constant = |v: ValueRef| {
        op_of(v).is_some_and(|op| {
            canonical_name(&ops[op].name) == "constant"
                && graph.value_type(v).and_then(|t| t.tensor()).is_some_and(|t| t.shape.is_empty())
        })
    };
    let mut steps = Vec::new();
    let mut value = denominator;
    let weights = loop {
        let op = op_of(value)?;
        if matches!(classes[op], BatchClass::Sum { .. }) {
            break value;
        }
        let node = &ops[op];
        let name = canonical_name(&node.name);
        let mut others = node.operands.iter().copied().filter(|v| !scalar_constant(*v));
        let (Some(before), None) = (others.next(), others.next()) else { return None };
        if !STEP_OPS.contains(&name.as_str()) || !node.attrs.is_empty() || node.operands.len() > 2 {
            return None;
        }
        steps.push(op);
        value = before;
    };
    steps.reverse();
    // From the batch inputs alone: no parameter's gradient goes through the denominator.
    let from = ancestors(graph, [weights]);
    let shared_argument =
        ops.iter().enumerate().filter(|(index, _)| from[*index]).flat_map(|(_, op)| &op.operands).any(|v| {
            matches!(v, ValueRef::Arg(a) if batch_dims.get(*a).copied().flatten().is_none()) || *v == ValueRef::Outer
        });
    (!shared_argument).then_some(WeightedLoss { weights, denominator, steps })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inter::output_combine::batch_classes;
    use crate::ir::graph::{Attr, Attrs, Param};
    use crate::ir::test_graphs::{attrs, t, Builder};
    use crate::ir::types::{ElementType, TensorType};

    /// `x: [8, 4]` and `w: [8, 4]` batched in dimension 0, `p: [4, 4]` not; the loss is
    /// `sum(x * w) / denominator(b, sum(weights(b)))`: what `weighted_loss` finds, and the
    /// weights' sum and the denominator built.
    fn ratio(
        weights: impl Fn(&mut Builder) -> ValueRef,
        denominator: impl Fn(&mut Builder, ValueRef) -> ValueRef,
    ) -> (Option<WeightedLoss>, ValueRef, ValueRef) {
        let mut b = Builder::new();
        let (x, w) = (ValueRef::Arg(0), ValueRef::Arg(1));
        let weighted = b.binary("stablehlo.multiply", x, w, t(&[8, 4]));
        let numerator = b.sum(weighted);
        let summed = weights(&mut b);
        let total = b.sum(summed);
        let below = denominator(&mut b, total);
        let loss = b.binary("stablehlo.divide", numerator, below, t(&[]));
        let args = [t(&[8, 4]), t(&[8, 4]), t(&[4, 4])].map(|ty| Param { ty, attrs: Attrs::new() });
        let g = b.graph(args.to_vec(), vec![loss]);
        let dims = [Some(0), Some(0), None];
        (weighted_loss(&g, loss, &dims, &batch_classes(&g, &dims)), total, below)
    }

    fn loss_of(denominator: impl Fn(&mut Builder, ValueRef) -> ValueRef) -> Option<WeightedLoss> {
        ratio(|_| ValueRef::Arg(1), denominator).0
    }

    fn op_index(v: ValueRef) -> usize {
        let ValueRef::Op { op, .. } = v else { panic!("{v:?}") };
        op
    }

    fn constant(b: &mut Builder, value: f64) -> ValueRef {
        let value = Attr::FloatScalar { ty: TensorType::new(vec![], ElementType::f32()), value };
        b.op("stablehlo.constant", vec![], t(&[]), attrs(&[("value", value)]))
    }

    #[test]
    fn a_sum_over_a_guarded_sum_of_the_weights_is_found_with_its_guard() {
        let (plain, total, _) = ratio(|_| ValueRef::Arg(1), |_, total| total);
        assert_eq!(plain, Some(WeightedLoss { weights: total, denominator: total, steps: vec![] }));
        // jnp.maximum(sum(w), 1.0) + 1e-6: two steps, in program order.
        let (guarded, total, below) = ratio(
            |_| ValueRef::Arg(1),
            |b, total| {
                let one = constant(b, 1.0);
                let at_least_one = b.binary("stablehlo.maximum", total, one, t(&[]));
                let eps = constant(b, 1e-6);
                b.binary("stablehlo.add", eps, at_least_one, t(&[]))
            },
        );
        let guarded = guarded.unwrap();
        assert_eq!((guarded.weights, guarded.denominator), (total, below));
        assert_eq!(guarded.steps, vec![op_index(total) + 2, op_index(below)]);
    }

    #[test]
    fn denominators_from_parameters_or_other_functions_are_not_ratios_of_sums() {
        // Weights scaled by a parameter before the sum: the denominator has a gradient.
        let (scaled, ..) =
            ratio(|b| b.binary("stablehlo.multiply", ValueRef::Arg(1), ValueRef::Arg(2), t(&[8, 4])), |_, total| total);
        assert_eq!(scaled, None);
        // The weights' sum times a parameter's sum: two values, not one passed through steps.
        let times = loss_of(|b, total| {
            let p = b.sum(ValueRef::Arg(2));
            b.binary("stablehlo.multiply", total, p, t(&[]))
        });
        assert_eq!(times, None);
        // A square root of the weights' sum: not an op @main computes again.
        assert_eq!(loss_of(|b, total| b.unary("stablehlo.sqrt", total, t(&[]))), None);
        // A sum of the batch multiplied by itself: not one sum passed through steps.
        assert_eq!(loss_of(|b, total| b.binary("stablehlo.multiply", total, total, t(&[]))), None);
    }
}
