//! Which aggregates over the batch carry the loss's gradient. The backward pass starts from the
//! loss's cotangent seed, a floating-point constant (1, or 1/count for a mean) that every
//! gradient's computation reads. A sum over the batch of values the forward pass computed reads
//! none: a VQ-VAE's code counts and code sums (`onehot.sum(0)`, `onehot.T @ z`) or a center
//! loss's per-class feature sums, on the way to a state the forward pass reads. Such a sum is
//! the global batch's as the microbatches' sum, where a gradient combines as the loss does.
//! Index arithmetic, a comparison (a one-hot's, an argmax's), a reduction's initial value and
//! integer values carry no seed, nor does a constant the step adds, compares, clamps, raises to
//! or divides by (`scales`: a cotangent is linear in the seed); the ones a scatter adds at
//! indices computed from the examples (`segment_sum(ones, y)`: counts per class) are counted,
//! not a gradient's terms, where the transpose of `take_along_axis` adds the seed at each
//! example's own row. A loop or a conditional outside the forward pass (a loop over chunks
//! computing their gradients inside) is taken for seeded.

use super::output_combine::{divides_as_mean, examples_multiple, BatchClass};
use crate::ir::constant_fold::Folded;
use crate::ir::graph::{Graph, OpNode, ValueRef};
use crate::ir::op_table::{canonical_name, elementwise_info};
use crate::ir::train_step::{producer, Phase};
use crate::ir::types::ValueType;

/// The aggregates over the batch of values the forward pass computed, per op.
pub struct ForwardValueAggregates {
    /// A sum: an aggregate over the batch (a sum or a contraction) outside the forward pass
    /// that reads no seed (`seeded`). The microbatches' values add up to the global batch's.
    pub sums: Vec<bool>,
    /// A mean made of such a sum: a mean (`output_combine`'s class) of one, or a contraction of
    /// them divided by the microbatch's examples (times a whole number: `a.T @ a / batch`,
    /// K-FAC's factors), which keeps the contraction's class. The microbatches' values average
    /// to the global batch's; divided once after adding up, by the microbatch's count, they
    /// would not.
    pub means: Vec<bool>,
}

/// `ForwardValueAggregates` of `graph`, whose ops have phases `phase`, classes `classes`,
/// seeds `seeded` and folded constants `folded`; the microbatch has `examples` examples.
pub fn forward_value_aggregates(
    graph: &Graph,
    phase: &[Phase],
    classes: &[BatchClass],
    seeded: &[bool],
    folded: &[Option<Folded>],
    examples: Option<i64>,
) -> ForwardValueAggregates {
    let mut sums: Vec<bool> = (0..classes.len())
        .map(|i| {
            phase.get(i).is_some_and(|p| *p != Phase::Forward)
                && !seeded[i]
                && matches!(classes[i], BatchClass::Sum { .. } | BatchClass::Contraction)
        })
        .collect();
    let reads_sum = |v: &ValueRef| matches!(*v, ValueRef::Op { op, .. } if sums[op]);
    let divides_contraction = |a: &ValueRef, b: usize| {
        let contraction = matches!(*a, ValueRef::Op { op, .. } if classes[op] == BatchClass::Contraction);
        let divisor = match folded.get(b) {
            Some(Some(Folded::Uniform(c))) => Some(*c),
            _ => None,
        };
        contraction && divisor.zip(examples).is_some_and(|(c, n)| divides_as_mean(c, n as f64, examples))
    };
    let means: Vec<bool> = graph
        .ops()
        .iter()
        .enumerate()
        .map(|(index, op)| match (canonical_name(&op.name).as_str(), op.operands.as_slice()) {
            ("divide" | "multiply", _) if classes[index] == BatchClass::Mean => op.operands.iter().any(reads_sum),
            ("divide", [a, ValueRef::Op { op: b, .. }]) => reads_sum(a) && divides_contraction(a, *b),
            _ => false,
        })
        .collect();
    for (sum, mean) in sums.iter_mut().zip(&means) {
        *sum &= !mean;
    }
    ForwardValueAggregates { sums, means }
}

/// Per op: whether it reads a cotangent seed, directly or through ops outside the forward pass
/// (always `false` for a forward op and for a value of constants). `folded` are the ops' folded
/// constants, `phase` their phases, `classes` their classes over the batch; the arguments' batch
/// dimensions are `batch_dims` and the microbatch has `examples` examples.
pub fn seeded(
    graph: &Graph,
    phase: &[Phase],
    folded: &[Option<Folded>],
    classes: &[BatchClass],
    batch_dims: &[Option<usize>],
    examples: Option<i64>,
) -> Vec<bool> {
    let ops = graph.ops();
    let inputs_only = of_batch_inputs_only(graph, batch_dims);
    let float = |v: ValueRef| graph.value_type(v).and_then(ValueType::tensor).is_some_and(|t| t.element.is_float());
    let nonzero = |c: &f64| *c != 0.0 && c.is_finite();
    let seed = |op: usize, v: ValueRef| match folded.get(op) {
        Some(Some(Folded::Uniform(c))) => nonzero(c) && float(v),
        Some(Some(Folded::UniformUnfolded)) => float(v),
        // The seed already scaled by a constant mask (a mean over the positions that have a
        // next token, folded with its 1/count).
        Some(Some(Folded::Listed(values) | Folded::Repeated { values, .. })) => values.iter().any(nonzero) && float(v),
        _ => false,
    };
    let mut seeded = vec![false; ops.len()];
    for (index, op) in ops.iter().enumerate() {
        // A value of constants is a seed or none; its readers tell (`seed`).
        if phase.get(index).is_none_or(|p| *p == Phase::Forward) || folded.get(index).is_some_and(Option::is_some) {
            continue;
        }
        let name = canonical_name(&op.name);
        // A scatter's updates (operand 2) are the terms it adds, scaled before they are added.
        let added = |i: usize| name == "scatter" && i == 2;
        // Whole numbers a scatter adds up over the batch (`output_combine`'s counts per class)
        // count the examples; a mean loss's seed is a fraction, and a summed loss's gradients
        // add up as counts do. A reduction's initial values (a maximum's -inf) are its second
        // half.
        let counted = |i: usize| {
            added(i)
                && classes.get(index) == Some(&BatchClass::Contraction)
                && matches!(op.operands.get(2).and_then(|v| producer(*v)).and_then(|p| folded.get(p)),
                    Some(Some(Folded::Uniform(c))) if c.fract() == 0.0)
        };
        let initial = |i: usize| name == "reduce" && i >= op.operands.len() / 2;
        // One times a value of the batch inputs alone (Keras' metrics weigh labels by a sample
        // weight of 1.0) changes nothing: a summed loss's seed 1 reaches the examples through
        // the parameters' derivatives (`(softmax - onehot) * 1`).
        let identity = |i: usize| {
            let other = op.operands.get(1 - i.min(1));
            name == "multiply"
                && matches!(op.operands.get(i).and_then(|v| producer(*v)).and_then(|p| folded.get(p)),
                    Some(Some(Folded::Uniform(c))) if *c == 1.0)
                && other.is_some_and(|v| match *v {
                    ValueRef::Op { op: p, .. } => inputs_only[p],
                    ValueRef::Arg(a) => batch_dims.get(a).copied().flatten().is_some(),
                    ValueRef::Outer => false,
                })
        };
        // A constant scaling elementwise an aggregate over the batch computed outside the
        // forward pass (`0.1 * onehot.sum(0)`, a moving average's coefficient) is no seed: the
        // backward pass starts from the loss's seed spread over the examples, which a
        // contraction may read as it is (a linear last layer's gradient x^T (1/batch) under a
        // mean of its outputs), or times a statistic of the forward pass (the loss mean(h)^2's
        // 2 mean(h) seed).
        let statistic = |c: Option<&BatchClass>| c.is_some_and(|c| c.is_statistic());
        let aggregate = elementwise_info(&name).is_some()
            && statistic(classes.get(index))
            && op
                .operands
                .iter()
                .filter_map(|v| producer(*v))
                .any(|p| phase.get(p).is_some_and(|ph| *ph != Phase::Forward) && statistic(classes.get(p)));
        // A cotangent is a floating-point (or complex: an FFT's) value: an index or a
        // comparison carries none.
        seeded[index] = matches!(name.as_str(), "while" | "case" | "if")
            || op.operands.iter().enumerate().any(|(i, v)| match *v {
                ValueRef::Op { op: p, .. } if float(*v) && !initial(i) => {
                    seeded[p]
                        || (!counted(i)
                            && !identity(i)
                            && (!aggregate || added(i))
                            && scales(op, &name, i, folded, examples)
                            && seed(p, *v))
                }
                _ => false,
            });
    }
    seeded
}

/// Per op: whether it reads nothing but the batch inputs (those with a dimension in
/// `batch_dims`) and constants: labels, their one-hot, not the parameters.
fn of_batch_inputs_only(graph: &Graph, batch_dims: &[Option<usize>]) -> Vec<bool> {
    let mut inputs_only: Vec<bool> = Vec::with_capacity(graph.ops().len());
    for op in graph.ops() {
        let only = op.operands.iter().all(|v| match *v {
            ValueRef::Op { op: p, .. } => inputs_only.get(p).copied().unwrap_or(false),
            ValueRef::Arg(a) => batch_dims.get(a).copied().flatten().is_some(),
            ValueRef::Outer => false,
        });
        inputs_only.push(op.operands.is_empty() || (only && op.regions.iter().all(|r| r.blocks.is_empty())));
    }
    inputs_only
}

/// Whether a constant read as operand `i` of `op` (named `name`, its operands' folded constants
/// in `folded`) may be the seed. A cotangent is linear in the seed, which enters where values are
/// scaled or moved, never where a constant is added, compared, clamped or raised to
/// (`log(p + 1e-8)`, `maximum(x, -inf)` in a max's `initial`, `x ** 1.5`), nor divides
/// (`x / 2`), nor is chosen in place of a value (`where(valid, z, 0.1)`; a cotangent's select, a
/// ReLU's, chooses it or zero): those are forward arithmetic outside the forward pass. A divisor
/// that counts the microbatch's `examples` (`(x / batch).T @ x`), or may (computed from
/// constants, not folded), reads as the seed 1/count does.
fn scales(op: &OpNode, name: &str, i: usize, folded: &[Option<Folded>], examples: Option<i64>) -> bool {
    let folded_operand = |i: usize| op.operands.get(i).and_then(|v| producer(*v)).and_then(|p| folded.get(p)?.as_ref());
    match name {
        "multiply" | "negate" | "convert" | "reduce_precision" | "complex" | "real" | "imag" => true,
        "divide" => match folded_operand(1) {
            _ if i == 0 => true,
            Some(Folded::Uniform(c)) => examples_multiple(*c, examples).is_some(),
            // A divisor computed from constants and not folded may be the examples' count.
            Some(Folded::UniformUnfolded) => true,
            _ => false,
        },
        "select" => i > 0 && folded_operand(3 - i).is_some(),
        n => elementwise_info(n).is_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inter::output_combine::batch_classes;
    use crate::ir::constant_fold::folded_constants;
    use crate::ir::graph::{Attr, Attrs, Param};
    use crate::ir::test_graphs::{attrs, op_index, t, Builder};
    use crate::ir::types::ElementType;

    /// `x: [8, 4]` the batch (a forward value), `y: [8, 1]` its labels. A weight gradient
    /// x^T (x * seed) reads the seed 1/8; the sum of a one-hot of x's comparison with zero reads
    /// none; nor do counts a scatter adds up from ones at the labels. The seed added at each
    /// example's own row (an iota beside the label: take_along_axis's transpose) is one.
    #[test]
    fn a_sum_of_forward_values_reads_no_seed_and_a_gradient_does() {
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let labels = ValueRef::Arg(1);
        let one_eighth = b.splat(0.125, t(&[]));
        let seeds = b.spread(one_eighth, &[8, 4]);
        let cotangent = b.binary("stablehlo.multiply", x, seeds, t(&[8, 4]));
        let weight_gradient = b.dot(x, cotangent, 0, 0, t(&[4, 4]));
        let linear_gradient = b.dot(x, seeds, 0, 0, t(&[4, 4]));
        let zero = b.splat(0.0, t(&[]));
        let zeros = b.spread(zero, &[8, 4]);
        let hit = b.binary("stablehlo.compare", x, zeros, t(&[8, 4]));
        let one_hot = b.unary("stablehlo.convert", hit, t(&[8, 4]));
        let code_counts = b.reduce_sum(one_hot, zero, &[0], t(&[4]));
        let numbers = |inserted: &str| {
            Attr::Opaque {
                dialect: "stablehlo".into(),
                data: format!("scatter<update_window_dims = [], inserted_window_dims = [{inserted}], scatter_dims_to_operand_dims = [{inserted}], index_vector_dim = 1>"),
            }
        };
        let one = b.splat(1.0, t(&[]));
        let ones = b.spread(one, &[8]);
        let bins = b.spread(zero, &[4]);
        let class_counts = b.scatter_add(bins, labels, ones, numbers("0"), t(&[4]));
        let fractions = b.spread(one_eighth, &[8]);
        let class_fractions = b.scatter_add(bins, labels, fractions, numbers("0"), t(&[4]));
        let rows = b.spread(zero, &[8, 4]);
        let iota = b.op("stablehlo.iota", vec![], t(&[8, 1]), attrs(&[("iota_dimension", Attr::Int(0))]));
        let positions = b.concatenate(vec![iota, labels], 1, t(&[8, 2]));
        let picked_cotangent = b.scatter_add(rows, positions, fractions, numbers("0, 1"), t(&[8, 4]));
        // A maximum's -inf initial value, and the comparison that finds where it is, are no seed.
        let lowest = b.splat(f64::NEG_INFINITY, t(&[]));
        let largest = b.reduce_by("stablehlo.maximum", x, lowest, &[1], t(&[8]));
        let spread_largest = b.op("stablehlo.broadcast_in_dim", vec![largest], t(&[8, 4]), Attrs::new());
        let at_largest = b.binary("stablehlo.compare", x, spread_largest, t(&[8, 4]));
        let largest_hot = b.unary("stablehlo.convert", at_largest, t(&[8, 4]));
        let largest_counts = b.reduce_sum(largest_hot, zero, &[0], t(&[4]));
        // A moving average's coefficient scaling the counts after they are summed is no seed.
        let tenth = b.splat(0.1, t(&[]));
        let tenths = b.spread(tenth, &[4]);
        let scaled_code_counts = b.binary("stablehlo.multiply", code_counts, tenths, t(&[4]));
        // The seed folded with a constant mask over the features is one.
        let mask_type = crate::ir::types::TensorType::new(vec![8, 4], ElementType::f32());
        let mask_values = (0..32).map(|i| if i % 4 == 3 { 0.0 } else { 0.05 }).collect();
        let mask = Attr::Elements { ty: mask_type, splat: false, values: Some(mask_values) };
        let masked_seeds = b.op("stablehlo.constant", vec![], t(&[8, 4]), attrs(&[("value", mask)]));
        let masked_gradient = b.dot(x, masked_seeds, 0, 0, t(&[4, 4]));
        // Through complex values: the cotangent of an RFFT's spectrum.
        let complex = ValueType::Tensor(crate::ir::types::TensorType::new(vec![8, 4], ElementType::Complex(32)));
        let spectrum = b.unary("stablehlo.fft", cotangent, complex);
        let real = b.unary("stablehlo.real", spectrum, t(&[8, 4]));
        let spectral_gradient = b.dot(x, real, 0, 0, t(&[4, 4]));
        // The seed of the loss mean(x)^2 times the forward pass's mean is one.
        let forward_mean = b.reduce_sum(x, zero, &[0], t(&[4]));
        let eighths = b.spread(one_eighth, &[4]);
        let statistic_cotangent = b.binary("stablehlo.multiply", forward_mean, eighths, t(&[4]));
        let params = vec![Param { ty: t(&[8, 4]), attrs: Attrs::new() }, Param { ty: t(&[8, 1]), attrs: Attrs::new() }];
        let returned = vec![
            spectral_gradient,
            masked_gradient,
            statistic_cotangent,
            linear_gradient,
            scaled_code_counts,
            weight_gradient,
            code_counts,
            class_counts,
            class_fractions,
            picked_cotangent,
            largest,
            largest_counts,
        ];
        let graph = b.graph(params, returned.clone());
        let classes = batch_classes(&graph, &[Some(0), Some(0)]);
        let mut phase = vec![Phase::Backward; graph.ops().len()];
        phase[op_index(forward_mean)] = Phase::Forward;
        let seeded = seeded(&graph, &phase, &folded_constants(&graph), &classes, &[Some(0), Some(0)], Some(8));
        let got: Vec<bool> = returned.iter().map(|v| seeded[op_index(*v)]).collect();
        assert_eq!(got, [true, true, true, true, false, true, false, false, true, true, false, false]);
        let forward = vec![Phase::Forward; graph.ops().len()];
        assert!(super::seeded(&graph, &forward, &folded_constants(&graph), &classes, &[Some(0), Some(0)], Some(8))
            .iter()
            .all(|s| !s));
    }

    /// Constants a sum of forward values computes with outside the forward pass are no seed:
    /// added (`log(p + 1e-8)`), a maximum's or a clamp's bound, an exponent, a divisor, a value
    /// chosen in place of one (`where(x > 0, x, 0.1)`). The seed is read where it scales, and
    /// where a select chooses it or zero (a ReLU's cotangent); a divisor that counts the examples,
    /// or may, reads as the seed 1/count. One times the labels changes nothing.
    #[test]
    fn constants_of_forward_arithmetic_are_no_seed() {
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let spread = |b: &mut Builder, value: f64| {
            let scalar = b.splat(value, t(&[]));
            b.spread(scalar, &[8, 4])
        };
        let zero = b.splat(0.0, t(&[]));
        let contracted = |b: &mut Builder, name: &str, operands: Vec<ValueRef>| {
            let value = b.op(name, operands, t(&[8, 4]), Attrs::new());
            b.dot(x, value, 0, 0, t(&[4, 4]))
        };
        let epsilon = spread(&mut b, 1e-8);
        let shifted = contracted(&mut b, "stablehlo.add", vec![x, epsilon]);
        let floor = spread(&mut b, f64::NEG_INFINITY);
        let bounded = contracted(&mut b, "stablehlo.maximum", vec![floor, x]);
        let (low, high) = (spread(&mut b, -0.5), spread(&mut b, 0.5));
        let clamped = contracted(&mut b, "stablehlo.clamp", vec![low, x, high]);
        let exponent = spread(&mut b, 1.5);
        let powered = contracted(&mut b, "stablehlo.power", vec![x, exponent]);
        let two = spread(&mut b, 2.0);
        let halved = contracted(&mut b, "stablehlo.divide", vec![x, two]);
        let zeros = b.spread(zero, &[8, 4]);
        let positive = b.binary("stablehlo.compare", x, zeros, t(&[8, 4]));
        let tenth = spread(&mut b, 0.1);
        let chosen = contracted(&mut b, "stablehlo.select", vec![positive, x, tenth]);
        let count = spread(&mut b, 8.0);
        let averaged = contracted(&mut b, "stablehlo.divide", vec![x, count]);
        // Keras' count, the product of the shape: a reduction of constants, not folded.
        let (two_scalar, one) = (b.splat(2.0, t(&[])), b.splat(1.0, t(&[])));
        let shape = b.spread(two_scalar, &[3]);
        let product = b.reduce_by("stablehlo.multiply", shape, one, &[0], t(&[]));
        let computed_count = b.spread(product, &[8, 4]);
        let computed_average = contracted(&mut b, "stablehlo.divide", vec![x, computed_count]);
        // One times the labels' one-hot (a Keras metric's sample weight) is no seed; one times
        // a value of the parameters (a summed loss's seed) is.
        let one_hot = b.unary("stablehlo.convert", positive, t(&[8, 4]));
        let ones = spread(&mut b, 1.0);
        let weighed_labels = contracted(&mut b, "stablehlo.multiply", vec![one_hot, ones]);
        let weighted = b.binary("stablehlo.multiply", x, ValueRef::Arg(1), t(&[8, 4]));
        let derivative = b.unary("stablehlo.tanh", weighted, t(&[8, 4]));
        let summed_loss_cotangent = contracted(&mut b, "stablehlo.multiply", vec![derivative, ones]);
        let seeds = spread(&mut b, 0.125);
        let rectified = contracted(&mut b, "stablehlo.select", vec![positive, seeds, zeros]);
        let scaled = contracted(&mut b, "stablehlo.multiply", vec![x, seeds]);
        let params = vec![Param { ty: t(&[8, 4]), attrs: Attrs::new() }, Param { ty: t(&[8, 4]), attrs: Attrs::new() }];
        let returned = vec![
            shifted,
            bounded,
            clamped,
            powered,
            halved,
            chosen,
            weighed_labels,
            averaged,
            computed_average,
            summed_loss_cotangent,
            rectified,
            scaled,
        ];
        let graph = b.graph(params, returned.clone());
        let classes = batch_classes(&graph, &[Some(0), None]);
        let phase = vec![Phase::Backward; graph.ops().len()];
        let seeded = seeded(&graph, &phase, &folded_constants(&graph), &classes, &[Some(0), None], Some(8));
        let got: Vec<bool> = returned.iter().map(|v| seeded[op_index(*v)]).collect();
        assert_eq!(got, [false, false, false, false, false, false, false, true, true, true, true, true]);
    }
}
