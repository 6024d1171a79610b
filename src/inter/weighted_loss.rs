//! A loss that is a ratio of two sums over the batch: a weighted or masked mean,
//! `sum(l * w) / sum(w)` (padding masks over tokens, sample weights), the denominator perhaps
//! guarded (`jnp.maximum(sum(w), 1)`, `+ eps`) or converted (a count of the labels kept), or
//! several such ratios over one denominator added up or scaled (a z-loss beside the
//! cross-entropy, each divided by the tokens' weight). The
//! microbatches' losses neither add up nor average into the global batch's: each divides by
//! its own weights. But the weights come from the batch inputs alone, so the gradient of a
//! microbatch's loss is its numerator's divided by a number the microbatch knows; weighting
//! each microbatch's loss and gradients by its denominator, adding them up and dividing by the
//! denominator of the summed weights gives the global batch's loss and gradients exactly.
//!
//! Only what carries the loss's `1 / denominator` combines so: `denominator_powers` tells, per
//! op, which power of the denominator its value is scaled by. A step that takes the gradient
//! of the numerator and divides it by the count afterwards (`grad(sum) / n`, as Hugging Face's
//! Flax scripts do) hands the update the numerator's gradient (power 0) and the count (power
//! 1): sums that add up.

use super::output_combine::{adds, BatchClass, BatchClasses};
use crate::ir::constant_fold::{folded_constants, Folded};
use crate::ir::graph::{Graph, OpNode, ValueRef};
use crate::ir::op_table::canonical_name;
use crate::ir::structural_hash::value_numbers;
use crate::ir::train_step::ancestors;
use crate::ir::types::ElementType;

/// How a ratio-of-sums loss divides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightedLoss {
    /// The sum of the weights (`sum(w)`), computed from the batch inputs and constants alone.
    pub weights: ValueRef,
    /// What the loss divides by: `weights` passed through `steps`.
    pub denominator: ValueRef,
    /// The ops from `weights` to `denominator`, in program order: each reads the value before
    /// it and at most one scalar constant (its other operand), and has no attributes.
    pub steps: Vec<DenominatorStep>,
    /// Whether the weights are known to be non-negative (a mask from a comparison, `y != pad`):
    /// a microbatch whose weights sum to zero then has only zero weights and a zero numerator,
    /// so its part of the combination is zero (its own loss may be 0/0).
    pub nonnegative: bool,
}

/// An op on the way from the weights' sum to the denominator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DenominatorStep {
    pub op: usize,
    /// Which operand is the value before it (the other, if any, is a scalar constant).
    pub from: usize,
}

/// How deep the terms of a loss over one denominator are followed.
const MAX_TERMS_DEPTH: usize = 256;

/// Ops a denominator may pass through on its way from the sum of the weights: they take no
/// attributes, so `@main` can compute them again on the global batch's weights.
const STEP_OPS: [&str; 7] = ["convert", "add", "subtract", "multiply", "divide", "maximum", "minimum"];

/// The loss `loss` as a ratio of sums, when it is one: a `divide` of a sum over the batch (or
/// sums, differences and scalings by shared scalars of such divisions by one value) by a function
/// (`STEP_OPS` with constants) of another sum over the batch that depends on no argument but the
/// batch inputs. `batch_dims` are the arguments' batch dimensions, `classes` the ops' classes
/// (`output_combine::batch_classes`).
pub fn weighted_loss(
    graph: &Graph,
    loss: ValueRef,
    batch_dims: &[Option<usize>],
    classes: &BatchClasses,
) -> Option<WeightedLoss> {
    let ops = graph.ops();
    let op_of = |v: ValueRef| match v {
        ValueRef::Op { op, result: 0 } => Some(op),
        _ => None,
    };
    let scalar_constant = |v: ValueRef| {
        op_of(v).is_some_and(|op| {
            canonical_name(&ops[op].name) == "constant"
                && graph.value_type(v).and_then(|t| t.tensor()).is_some_and(|t| t.shape.is_empty())
        })
    };
    // A term may be scaled by any scalar the microbatches share (torch_xla passes label
    // smoothing's weights as arguments); only the denominator is computed again in `@main`.
    let shared_scalar = |v: ValueRef| {
        scalar_constant(v)
            || (graph.value_type(v).and_then(|t| t.tensor()).is_some_and(|t| t.shape.is_empty())
                && classes.of(v, batch_dims) == BatchClass::Independent)
    };
    let numbers = value_numbers(graph);
    let folded = folded_constants(graph);
    let Terms { denominator, shifted } =
        shared_denominator(graph, loss, classes, &shared_scalar, &numbers, &folded, 0)?;
    let mut steps = Vec::new();
    let mut value = denominator;
    let weights = loop {
        let op = op_of(value)?;
        if matches!(classes.of_result(op, 0), BatchClass::Sum { .. }) {
            break value;
        }
        let node = &ops[op];
        let name = canonical_name(&node.name);
        let mut others = node.operands.iter().enumerate().filter(|(_, v)| !scalar_constant(**v));
        let (Some((from, &before)), None) = (others.next(), others.next()) else { return None };
        if !STEP_OPS.contains(&name.as_str()) || !node.attrs.is_empty() || node.operands.len() > 2 {
            return None;
        }
        steps.push(DenominatorStep { op, from });
        value = before;
    };
    steps.reverse();
    // A term the microbatches share (a parameter penalty, a constant) is weighted by each
    // microbatch's denominator too: the combination holds it once only when the microbatches'
    // denominators add up to the global batch's, as they do through linear steps.
    let linear = |step: &DenominatorStep| match canonical_name(&ops[step.op].name).as_str() {
        "convert" | "multiply" => true,
        "divide" => step.from == 0,
        _ => false,
    };
    if shifted && !steps.iter().all(linear) {
        return None;
    }
    // From the batch inputs alone: no parameter's gradient goes through the denominator.
    let from = ancestors(graph, [weights]);
    let shared_argument =
        ops.iter().enumerate().filter(|(index, _)| from[*index]).flat_map(|(_, op)| &op.operands).any(|v| {
            matches!(v, ValueRef::Arg(a) if batch_dims.get(*a).copied().flatten().is_none()) || *v == ValueRef::Outer
        });
    let nonnegative = nonnegative_values(graph)[op_of(weights)?];
    (!shared_argument).then_some(WeightedLoss { weights, denominator, steps, nonnegative })
}

/// Per op: whether every element of its value is known to be `>= 0` (or NaN): comparisons and
/// conversions of booleans (masks), iotas, non-negative constants, absolute values and
/// exponentials, and what adds, multiplies, divides, chooses among, reduces or moves such values.
fn nonnegative_values(graph: &Graph) -> Vec<bool> {
    let ops = graph.ops();
    let folded = folded_constants(graph);
    let mut nonnegative: Vec<bool> = Vec::with_capacity(ops.len());
    for (index, op) in ops.iter().enumerate() {
        let of = |v: &ValueRef| match *v {
            ValueRef::Op { op, .. } => nonnegative[op],
            ValueRef::Arg(_) => graph
                .value_type(*v)
                .and_then(|t| t.tensor())
                .is_some_and(|t| matches!(t.element, ElementType::Bool | ElementType::UInt(_))),
            ValueRef::Outer => false,
        };
        let data = |range: std::ops::RangeFrom<usize>| {
            op.operands.get(range).is_some_and(|d| !d.is_empty() && d.iter().all(of))
        };
        let known = match canonical_name(&op.name).as_str() {
            "compare" | "iota" | "abs" | "exponential" | "sqrt" | "rsqrt" | "logistic" | "popcnt" => true,
            "constant" => match &folded[index] {
                Some(Folded::Uniform(c)) => *c >= 0.0,
                Some(Folded::Listed(values) | Folded::Repeated { values, .. }) => values.iter().all(|c| *c >= 0.0),
                _ => false,
            },
            "convert" => op.operands.first().is_some_and(|v| {
                of(v) || graph.value_type(*v).and_then(|t| t.tensor()).is_some_and(|t| t.element == ElementType::Bool)
            }),
            "maximum" => op.operands.iter().any(of),
            "select" => data(1..),
            "gather" | "dynamic_slice" => op.operands.first().is_some_and(of),
            "reduce" | "reduce_window" => {
                let body = op.regions.first().and_then(|r| r.blocks.first());
                let keeps_sign = body.is_some_and(|b| {
                    b.ops.iter().all(|o| {
                        matches!(
                            canonical_name(&o.name).as_str(),
                            "add" | "multiply" | "maximum" | "minimum" | "return"
                        )
                    })
                });
                keeps_sign && data(0..)
            }
            "add" | "multiply" | "divide" | "minimum" | "broadcast_in_dim" | "reshape" | "transpose" | "slice"
            | "concatenate" | "pad" | "reverse" | "copy" => data(0..),
            _ => false,
        };
        nonnegative.push(known);
    }
    nonnegative
}

/// What a loss's terms divide by.
struct Terms {
    /// The one value the terms' sums over the batch are divided by.
    denominator: ValueRef,
    /// Whether a term the microbatches share, not divided, is added (a parameter penalty).
    shifted: bool,
}

/// The one value `v`'s sums over the batch are divided by: `v` a `divide` of a sum by it, or
/// a sum, difference, negation, conversion or scaling by a shared scalar of such values (or one
/// of them plus a batch-independent value: zero, a constant, a parameter penalty), their
/// denominators of one value number (`numbers`) (at most
/// `MAX_TERMS_DEPTH` ops deep: a loss of more nested terms is not taken for one).
fn shared_denominator(
    graph: &Graph,
    v: ValueRef,
    classes: &BatchClasses,
    shared_scalar: &impl Fn(ValueRef) -> bool,
    numbers: &[usize],
    folded: &[Option<Folded>],
    depth: usize,
) -> Option<Terms> {
    let ValueRef::Op { op, result: 0 } = v else { return None };
    if depth > MAX_TERMS_DEPTH {
        return None;
    }
    let node = &graph.ops()[op];
    let below = |v: ValueRef| shared_denominator(graph, v, classes, shared_scalar, numbers, folded, depth + 1);
    let zero = |v: ValueRef| matches!(v, ValueRef::Op { op, result: 0 } if folded[op] == Some(Folded::Uniform(0.0)));
    let independent = |v: ValueRef| matches!(v, ValueRef::Op { op, result } if classes.of_result(op, result) == BatchClass::Independent);
    let shifted = |terms: Option<Terms>, by: ValueRef| terms.map(|t| Terms { shifted: t.shifted || !zero(by), ..t });
    // Two denominators computed alike are one (each `jnp.sum(mask)` of a step is its own op).
    let alike = |a: ValueRef, b: ValueRef| match (a, b) {
        (ValueRef::Op { op: x, result: i }, ValueRef::Op { op: y, result: j }) => numbers[x] == numbers[y] && i == j,
        _ => a == b,
    };
    match (canonical_name(&node.name).as_str(), &node.operands[..]) {
        ("divide", &[numerator, _]) if shared_scalar(node.operands[1]) => below(numerator),
        ("divide", &[ValueRef::Op { op: summed, result }, denominator]) => {
            matches!(classes.of_result(summed, result), BatchClass::Sum { .. })
                .then_some(Terms { denominator, shifted: false })
        }
        // A term added to zero (Python's `sum(terms)`) is the term.
        ("add" | "subtract", &[a, b]) if independent(a) => shifted(below(b), a),
        ("add" | "subtract", &[a, b]) if independent(b) => shifted(below(a), b),
        ("add" | "subtract", &[a, b]) => {
            let (first, second) = (below(a)?, below(b)?);
            alike(first.denominator, second.denominator)
                .then_some(Terms { denominator: first.denominator, shifted: first.shifted || second.shifted })
        }
        ("multiply", &[a, b]) if shared_scalar(a) => below(b),
        ("multiply", &[a, b]) if shared_scalar(b) => below(a),
        ("negate" | "convert", &[a]) => below(a),
        _ => None,
    }
}

/// Ops whose value is a sum, a choice or a fixed linear map (`fft`, a complex number's parts) of
/// their data operands' values (the other operands, such as indices or a predicate, must not
/// scale with the denominator): every data operand carries the same power of it, or is zero.
fn homogeneous_data_operands(name: &str, operands: usize) -> Option<std::ops::Range<usize>> {
    Some(match name {
        "add"
        | "subtract"
        | "negate"
        | "convert"
        | "broadcast_in_dim"
        | "reshape"
        | "transpose"
        | "slice"
        | "reverse"
        | "copy"
        | "pad"
        | "concatenate"
        | "optimization_barrier"
        | "real"
        | "imag"
        | "complex"
        | "fft" => 0..operands,
        "select" => 1..operands,
        "gather" | "dynamic_slice" => 0..1,
        "dynamic_update_slice" => 0..2,
        // operand, then the forward's values (not scaled), then the cotangents and the zero.
        "select_and_scatter" => 1..operands,
        _ => return None,
    })
}

/// Per op: the power of the loss's denominator (`weighted.denominator`, or a value computed
/// alike) its value is scaled by, `None` where it is no such multiple (a nonlinear function of
/// the denominator). Values that do not read the denominator are of power 0; the cotangents
/// from the loss `numerator / denominator` back to the parameters are of power -1 (the
/// backward pass is linear in them), the denominator itself of power 1.
pub fn denominator_powers(graph: &Graph, weighted: &WeightedLoss) -> Vec<Option<i32>> {
    let ops = graph.ops();
    let numbers = value_numbers(graph);
    let folded = folded_constants(graph);
    let denominator = match weighted.denominator {
        ValueRef::Op { op, result: 0 } => numbers[op],
        _ => return vec![Some(0); ops.len()],
    };
    let mut powers: Vec<Option<i32>> = Vec::with_capacity(ops.len());
    for (index, op) in ops.iter().enumerate() {
        let power_of = |v: &ValueRef| match *v {
            ValueRef::Op { op, .. } => powers[op],
            _ => Some(0),
        };
        let zero = |v: &ValueRef| match *v {
            ValueRef::Op { op, .. } => matches!(folded[op], Some(Folded::Uniform(z)) if z == 0.0),
            _ => false,
        };
        let operand_powers: Option<Vec<i32>> = op.operands.iter().map(power_of).collect();
        let power = match operand_powers {
            _ if numbers[index] == denominator && op.results.len() == 1 => Some(1),
            None => None,
            Some(p) if p.iter().all(|&p| p == 0) => Some(0),
            Some(p) => {
                let name = canonical_name(&op.name);
                match name.as_str() {
                    // Checked: a value multiplied by itself over and over doubles its power.
                    "multiply" | "dot_general" | "dot" | "convolution" => {
                        p.iter().try_fold(0i32, |sum, &q| sum.checked_add(q))
                    }
                    "divide" => match p[..] {
                        [a, b] => a.checked_sub(b),
                        _ => None,
                    },
                    "reduce" | "reduce_window" if adds(op) => homogeneous(op, &p, |_| true, &zero),
                    // The inputs, the indices, then the updates: the indices must not scale.
                    "scatter" if adds(op) => homogeneous(op, &p, |i| i != p.len() / 2, &zero),
                    _ => homogeneous_data_operands(&name, p.len())
                        .and_then(|data| homogeneous(op, &p, |i| data.contains(&i), &zero)),
                }
            }
        };
        powers.push(power);
    }
    powers
}

/// The power every data operand (`data(index)`) that is not zero carries, when they agree and
/// the other operands carry none.
fn homogeneous(
    op: &OpNode,
    powers: &[i32],
    data: impl Fn(usize) -> bool,
    zero: &impl Fn(&ValueRef) -> bool,
) -> Option<i32> {
    let (mut inside, outside): (Vec<usize>, Vec<usize>) = (0..powers.len()).partition(|&i| data(i));
    if outside.iter().any(|&i| powers[i] != 0) {
        return None;
    }
    inside.retain(|&i| !zero(&op.operands[i]));
    let first = inside.first().map_or(0, |&i| powers[i]);
    inside.iter().all(|&i| powers[i] == first).then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inter::output_combine::batch_classes;
    use crate::ir::graph::{Attr, Attrs, Param};
    use crate::ir::test_graphs::{attrs, op_index, t, Builder};
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
        let zero = constant(&mut b, 0.0);
        let total = b.reduce_sum(summed, zero, &[0, 1], t(&[]));
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

    fn constant(b: &mut Builder, value: f64) -> ValueRef {
        let value = Attr::FloatScalar { ty: TensorType::new(vec![], ElementType::f32()), value };
        b.op("stablehlo.constant", vec![], t(&[]), attrs(&[("value", value)]))
    }

    #[test]
    fn a_sum_over_a_guarded_sum_of_the_weights_is_found_with_its_guard() {
        let (plain, total, _) = ratio(|_| ValueRef::Arg(1), |_, total| total);
        assert_eq!(plain, Some(WeightedLoss { weights: total, denominator: total, steps: vec![], nonnegative: false }));
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
        // max(sum, one): the sum is operand 0; eps + max: operand 1.
        let steps = vec![
            DenominatorStep { op: op_index(total) + 2, from: 0 },
            DenominatorStep { op: op_index(below), from: 1 },
        ];
        assert_eq!(guarded.steps, steps);
    }

    #[test]
    fn weights_from_comparisons_are_known_non_negative_and_float_inputs_are_not() {
        let convert = |b: &mut Builder, v| b.unary("stablehlo.convert", v, t(&[8, 4]));
        // (x != x) as a float mask, times itself; abs of the input; the float input as it is.
        let mask = |b: &mut Builder| {
            let kept = b.binary("stablehlo.compare", ValueRef::Arg(0), ValueRef::Arg(1), t(&[8, 4]));
            convert(b, kept)
        };
        let (squared_mask, ..) = ratio(
            |b| {
                let m = mask(b);
                b.binary("stablehlo.multiply", m, m, t(&[8, 4]))
            },
            |_, total| total,
        );
        let (absolute, ..) = ratio(|b| b.unary("stablehlo.abs", ValueRef::Arg(1), t(&[8, 4])), |_, total| total);
        let (input, ..) = ratio(|_| ValueRef::Arg(1), |_, total| total);
        let (signed, ..) = ratio(
            |b| {
                let m = mask(b);
                b.binary("stablehlo.subtract", m, ValueRef::Arg(1), t(&[8, 4]))
            },
            |_, total| total,
        );
        let known = [squared_mask, absolute, input, signed].map(|w| w.map(|w| w.nonnegative));
        assert_eq!(known, [Some(true), Some(true), Some(false), Some(false)]);
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

    #[test]
    fn powers_of_the_denominator_follow_the_cotangents_and_stop_at_nonlinear_ops() {
        let mut b = Builder::new();
        let (x, w) = (ValueRef::Arg(0), ValueRef::Arg(1));
        let weighted = b.binary("stablehlo.multiply", x, w, t(&[8, 4]));
        let numerator = b.sum(weighted);
        let total = b.sum(w);
        let loss = b.binary("stablehlo.divide", numerator, total, t(&[]));
        // The backward pass's seed 1 / total, spread over the examples and contracted with them.
        let one = constant(&mut b, 1.0);
        let seed = b.binary("stablehlo.divide", one, total, t(&[]));
        let everywhere = attrs(&[("broadcast_dimensions", Attr::I64Array(vec![]))]);
        let spread = b.op("stablehlo.broadcast_in_dim", vec![seed], t(&[8, 4]), everywhere.clone());
        let cotangent = b.binary("stablehlo.multiply", spread, w, t(&[8, 4]));
        let gradient = b.dot(x, cotangent, 0, 0, t(&[4, 4]));
        // relu's transpose: the cotangent where the forward was positive, else zero.
        let positive = b.binary("stablehlo.compare", x, x, t(&[8, 4]));
        let zero = constant(&mut b, 0.0);
        let zeros = b.op("stablehlo.broadcast_in_dim", vec![zero], t(&[8, 4]), everywhere);
        let chosen = b.binary("stablehlo.select", positive, cotangent, t(&[8, 4]));
        b.ops.last_mut().unwrap().operands.push(zeros);
        // The count summed again (a second jnp.sum(mask)) is the denominator too.
        let again = b.sum(w);
        let squared = b.binary("stablehlo.multiply", total, again, t(&[]));
        let exponential = b.unary("stablehlo.exponential", cotangent, t(&[8, 4]));
        let mixed = b.binary("stablehlo.add", cotangent, x, t(&[8, 4]));
        let unrelated = b.sum(x);
        let args = [t(&[8, 4]), t(&[8, 4])].map(|ty| Param { ty, attrs: Attrs::new() });
        let returned = vec![loss, gradient, chosen, squared, exponential, mixed, unrelated];
        let g = b.graph(args.to_vec(), returned.clone());
        let dims = [Some(0), Some(0)];
        let weighted = weighted_loss(&g, loss, &dims, &batch_classes(&g, &dims)).unwrap();
        let powers = denominator_powers(&g, &weighted);
        let got: Vec<Option<i32>> = returned.iter().map(|v| powers[op_index(*v)]).collect();
        assert_eq!(got, [Some(-1), Some(-1), Some(-1), Some(2), None, None, Some(0)]);
        assert_eq!(powers[op_index(again)], Some(1));
    }

    #[test]
    fn a_ratio_plus_what_the_microbatches_share_keeps_its_denominator_when_they_add_up() {
        // Python's `sum(terms)` (0 + r), r - 0, and r plus a parameter penalty or a constant:
        // weighted by the microbatches' denominators, a shared term comes back once when they
        // add up to the global batch's (a plain or scaled sum of the weights), not through a
        // guard (max(sum(w), 1)).
        let shifted_by = |guarded: bool, term: &dyn Fn(&mut Builder) -> ValueRef| {
            let mut b = Builder::new();
            let (x, w) = (ValueRef::Arg(0), ValueRef::Arg(1));
            let weighted = b.binary("stablehlo.multiply", x, w, t(&[8, 4]));
            let numerator = b.sum(weighted);
            let total = b.sum(w);
            let denominator = if guarded {
                let one = constant(&mut b, 1.0);
                b.binary("stablehlo.maximum", total, one, t(&[]))
            } else {
                let two = constant(&mut b, 2.0);
                b.binary("stablehlo.multiply", total, two, t(&[]))
            };
            let ratio = b.binary("stablehlo.divide", numerator, denominator, t(&[]));
            let shared = term(&mut b);
            let loss = b.binary("stablehlo.add", shared, ratio, t(&[]));
            let zero = constant(&mut b, 0.0);
            let loss = b.binary("stablehlo.subtract", loss, zero, t(&[]));
            let args = [t(&[8, 4]), t(&[8, 4]), t(&[4, 4])].map(|ty| Param { ty, attrs: Attrs::new() });
            let g = b.graph(args.to_vec(), vec![loss]);
            let dims = [Some(0), Some(0), None];
            weighted_loss(&g, loss, &dims, &batch_classes(&g, &dims)).map(|w| (w.weights, w.denominator))
        };
        let zero = |b: &mut Builder| constant(b, 0.0);
        let one = |b: &mut Builder| constant(b, 1.0);
        let penalty = |b: &mut Builder| {
            let squares = b.binary("stablehlo.multiply", ValueRef::Arg(2), ValueRef::Arg(2), t(&[4, 4]));
            b.sum(squares)
        };
        for term in [&zero as &dyn Fn(&mut Builder) -> ValueRef, &one, &penalty] {
            assert!(shifted_by(false, term).is_some());
        }
        assert!(shifted_by(true, &zero).is_some());
        assert_eq!(shifted_by(true, &one), None);
        assert_eq!(shifted_by(true, &penalty), None);
    }

    #[test]
    fn ratios_over_one_denominator_added_or_scaled_share_it() {
        // sum(x * w) / sum(w) + 0.5 * (sum(x * x * w) / sum(w)), the second sum(w) computed
        // again (as two jnp.sum(mask) are), and with the second term over another denominator
        // (the sum of the squares' weights).
        let loss_over = |own_denominator: bool| {
            let mut b = Builder::new();
            let (x, w) = (ValueRef::Arg(0), ValueRef::Arg(1));
            let weighted = b.binary("stablehlo.multiply", x, w, t(&[8, 4]));
            let first = b.sum(weighted);
            let squares = b.binary("stablehlo.multiply", weighted, x, t(&[8, 4]));
            let second = b.sum(squares);
            let total = b.sum(w);
            let other = if own_denominator { b.sum(squares) } else { b.sum(w) };
            let ratio = b.binary("stablehlo.divide", first, total, t(&[]));
            let z = b.binary("stablehlo.divide", second, other, t(&[]));
            let half = constant(&mut b, 0.5);
            let scaled = b.binary("stablehlo.multiply", half, z, t(&[]));
            let loss = b.binary("stablehlo.add", ratio, scaled, t(&[]));
            let args = [t(&[8, 4]), t(&[8, 4])].map(|ty| Param { ty, attrs: Attrs::new() });
            let g = b.graph(args.to_vec(), vec![loss]);
            let dims = [Some(0), Some(0)];
            (weighted_loss(&g, loss, &dims, &batch_classes(&g, &dims)), total)
        };
        let (shared, total) = loss_over(false);
        assert_eq!(
            shared,
            Some(WeightedLoss { weights: total, denominator: total, steps: vec![], nonnegative: false })
        );
        assert_eq!(loss_over(true).0, None);
    }

    #[test]
    fn terms_scaled_by_a_scalar_the_microbatches_share_keep_their_denominator() {
        // 0.9 * (sum(x * w) / sum(w)) with the 0.9 an argument (torch_xla passes label
        // smoothing's weights as data), and the same scaled by a sum over the batch instead.
        let scaled_by = |shared: bool| {
            let mut b = Builder::new();
            let (x, w, s) = (ValueRef::Arg(0), ValueRef::Arg(1), ValueRef::Arg(2));
            let weighted = b.binary("stablehlo.multiply", x, w, t(&[8, 4]));
            let numerator = b.sum(weighted);
            let total = b.sum(w);
            let ratio = b.binary("stablehlo.divide", numerator, total, t(&[]));
            let scale = if shared { s } else { b.sum(x) };
            let loss = b.binary("stablehlo.multiply", ratio, scale, t(&[]));
            let args = [t(&[8, 4]), t(&[8, 4]), t(&[])].map(|ty| Param { ty, attrs: Attrs::new() });
            let g = b.graph(args.to_vec(), vec![loss]);
            let dims = [Some(0), Some(0), None];
            (weighted_loss(&g, loss, &dims, &batch_classes(&g, &dims)), total)
        };
        let (shared, total) = scaled_by(true);
        assert_eq!(
            shared,
            Some(WeightedLoss { weights: total, denominator: total, steps: vec![], nonnegative: false })
        );
        assert_eq!(scaled_by(false).0, None);
    }
}
