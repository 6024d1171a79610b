//! Counts of the batch's examples the step computes from its shape: `x.shape[0]`,
//! `jnp.ones(b).sum()` (CLU's metrics count their examples so), `values.size`. In the export at
//! microbatch size they are constants of the microbatch's count, so the analyses that follow
//! values from the batch inputs take them for values independent of the batch, and a pipelined
//! step would return the microbatch's count where the global step returns the batch's.
//! A number computed from constants that equals the examples of a microbatch, or the elements
//! of a batch input, is such a count where the step returns it, adds it to a value it keeps
//! (`examples_seen + x.shape[0]`, Keras' metric counts) or weights a mean by it (Keras' loss
//! tracker: `total + loss * batch_size`): it adds up over the microbatches. One example is no
//! count: with microbatches of one, 1 is also every step counter's increment.

use super::output_combine::{BatchClass, BatchClasses};
use crate::ir::batch_inputs::examples_counts;
use crate::ir::constant_fold::Folded;
use crate::ir::graph::{Graph, ValueRef};
use crate::ir::op_table::canonical_name;

/// Per op: whether its result is a count of the microbatch's examples that the step returns,
/// adds to a value computed without the batch and not from constants, or multiplies a mean over
/// the batch by (`dependent`: the ops that read the batch; `classes`: their batch classes;
/// `folded`: `constant_fold::folded_constants` of the graph; `batch_dims`: the batch inputs').
pub fn counting_ops(
    graph: &Graph,
    batch_dims: &[Option<usize>],
    dependent: &[bool],
    classes: &BatchClasses,
    folded: &[Option<Folded>],
) -> Vec<bool> {
    let counts = examples_counts(graph, batch_dims);
    let is_count = |v: ValueRef| match v {
        ValueRef::Op { op, result: 0 } => {
            let one_number = graph.ops()[op].results[0].tensor().is_some_and(|t| t.checked_elements() == Some(1));
            matches!(folded[op], Some(Folded::Uniform(n)) if one_number && counts.contains(&n))
        }
        _ => false,
    };
    let kept = |v: ValueRef| match v {
        ValueRef::Arg(a) => batch_dims.get(a).copied().flatten().is_none(),
        ValueRef::Op { op, .. } => !dependent[op] && folded[op].is_none(),
        ValueRef::Outer => false,
    };
    let mut count = vec![false; graph.ops().len()];
    let mut mark = |v: ValueRef| {
        if let ValueRef::Op { op, .. } = v {
            count[op] = true;
        }
    };
    for &v in graph.returned.iter().filter(|v| is_count(**v)) {
        mark(v);
    }
    let mean = |v: ValueRef| classes.of(v, batch_dims) == BatchClass::Mean;
    for op in graph.ops() {
        let other_counts: &dyn Fn(ValueRef) -> bool = match canonical_name(&op.name).as_str() {
            "add" => &kept,
            "multiply" => &mean,
            _ => continue,
        };
        if let [a, b] = op.operands[..] {
            if is_count(a) && other_counts(b) {
                mark(a);
            } else if is_count(b) && other_counts(a) {
                mark(b);
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::constant_fold::folded_constants;
    use crate::ir::graph::{Attr, Attrs, Param};
    use crate::ir::test_graphs::{attrs, t, Builder};
    use crate::ir::types::{ElementType, TensorType};

    fn number(b: &mut Builder, value: f64) -> ValueRef {
        let value =
            Attr::Elements { ty: TensorType::new(vec![], ElementType::f32()), splat: true, values: Some(vec![value]) };
        b.op("stablehlo.constant", vec![], t(&[]), attrs(&[("value", value)]))
    }

    #[test]
    fn a_returned_constant_of_the_examples_or_of_a_batch_inputs_elements_is_a_count() {
        // x: [8, 4] batched in dimension 0, w: [4, 3] shared.
        let mut b = Builder::new();
        let examples = number(&mut b, 8.0);
        let elements = number(&mut b, 32.0);
        let other = number(&mut b, 3.0);
        let unreturned = number(&mut b, 8.0);
        let twice = b.binary("stablehlo.add", examples, unreturned, t(&[]));
        let ones = b.op("stablehlo.broadcast_in_dim", vec![examples], t(&[8]), Attrs::new());
        let returned = vec![examples, elements, other, twice, ones];
        let args = vec![Param { ty: t(&[8, 4]), attrs: Attrs::new() }, Param { ty: t(&[4, 3]), attrs: Attrs::new() }];
        let graph = b.graph(args, returned);
        let dependent = vec![false; graph.ops().len()];
        let classes = BatchClasses::per_op(vec![BatchClass::Independent; graph.ops().len()]);
        let counts = counting_ops(&graph, &[Some(0), None], &dependent, &classes, &folded_constants(&graph));
        // The shared argument's 12 elements count nothing; 16 is no count of this batch; a vector
        // is no count.
        assert_eq!(counts, [true, true, false, false, false, false]);
    }

    #[test]
    fn a_count_added_to_kept_state_is_a_count_and_added_to_a_constant_not() {
        // seen + x.shape[0] (seen: argument 2, a scalar kept by the step), 8 + 8.
        let mut b = Builder::new();
        let value =
            Attr::Elements { ty: TensorType::new(vec![], ElementType::f32()), splat: true, values: Some(vec![8.0]) };
        let examples = b.op("stablehlo.constant", vec![], t(&[]), attrs(&[("value", value.clone())]));
        let seen = b.binary("stablehlo.add", ValueRef::Arg(2), examples, t(&[]));
        let other = b.op("stablehlo.constant", vec![], t(&[]), attrs(&[("value", value)]));
        let doubled = b.binary("stablehlo.add", other, other, t(&[]));
        let args = vec![
            Param { ty: t(&[8, 4]), attrs: Attrs::new() },
            Param { ty: t(&[4, 3]), attrs: Attrs::new() },
            Param { ty: t(&[]), attrs: Attrs::new() },
        ];
        let graph = b.graph(args, vec![seen, doubled]);
        let dependent = vec![false; graph.ops().len()];
        let classes = BatchClasses::per_op(vec![BatchClass::Independent; graph.ops().len()]);
        let counts = counting_ops(&graph, &[Some(0), None, None], &dependent, &classes, &folded_constants(&graph));
        assert_eq!(counts, [true, false, false, false]);
    }

    #[test]
    fn a_count_weighting_a_mean_is_a_count_and_weighting_a_shared_value_not() {
        // loss * x.shape[0] (Keras' loss tracker), lr * 8 for a shared lr (argument 2).
        use crate::inter::output_combine::batch_classes;
        let mut b = Builder::new();
        let value =
            Attr::Elements { ty: TensorType::new(vec![], ElementType::f32()), splat: true, values: Some(vec![8.0]) };
        let total = b.sum(ValueRef::Arg(0));
        let value32 =
            Attr::Elements { ty: TensorType::new(vec![], ElementType::f32()), splat: true, values: Some(vec![32.0]) };
        let n = b.op("stablehlo.constant", vec![], t(&[]), attrs(&[("value", value32)]));
        let mean = b.binary("stablehlo.divide", total, n, t(&[]));
        let examples = b.op("stablehlo.constant", vec![], t(&[]), attrs(&[("value", value.clone())]));
        let weighted = b.binary("stablehlo.multiply", mean, examples, t(&[]));
        let eight = b.op("stablehlo.constant", vec![], t(&[]), attrs(&[("value", value)]));
        let scaled = b.binary("stablehlo.multiply", ValueRef::Arg(2), eight, t(&[]));
        let args = vec![
            Param { ty: t(&[8, 4]), attrs: Attrs::new() },
            Param { ty: t(&[4, 3]), attrs: Attrs::new() },
            Param { ty: t(&[]), attrs: Attrs::new() },
        ];
        let graph = b.graph(args, vec![weighted, scaled]);
        let dims = [Some(0), None, None];
        let classes = batch_classes(&graph, &dims);
        let dependent: Vec<bool> = classes.iter().map(|c| *c != BatchClass::Independent).collect();
        let counts = counting_ops(&graph, &dims, &dependent, &classes, &folded_constants(&graph));
        let marked: Vec<usize> = (0..counts.len()).filter(|&i| counts[i]).collect();
        assert_eq!(marked, [4]);
    }

    #[test]
    fn with_one_example_per_microbatch_a_step_counters_one_is_no_count() {
        // optax's count + 1 beside x: [1, 4].
        let mut b = Builder::new();
        let value =
            Attr::Elements { ty: TensorType::new(vec![], ElementType::f32()), splat: true, values: Some(vec![1.0]) };
        let one = b.op("stablehlo.constant", vec![], t(&[]), attrs(&[("value", value)]));
        let counter = b.binary("stablehlo.add", ValueRef::Arg(1), one, t(&[]));
        let args = vec![Param { ty: t(&[1, 4]), attrs: Attrs::new() }, Param { ty: t(&[]), attrs: Attrs::new() }];
        let graph = b.graph(args, vec![counter, one]);
        let dependent = vec![false; graph.ops().len()];
        let classes = BatchClasses::per_op(vec![BatchClass::Independent; graph.ops().len()]);
        let counts = counting_ops(&graph, &[Some(0), None], &dependent, &classes, &folded_constants(&graph));
        assert_eq!(counts, [false, false]);
    }
}
