//! The batch classes of the values a `while` loop carries, each its own, where its body keeps
//! the examples apart: a loop kept whole (`unroll-loops=false`, or one without a static trip
//! count) over layers carries the activations per example beside the weights and the counter,
//! and stacks per-example outputs layer by layer. Without this, every carried value shared the
//! loop's class, and a loss computed from them was of no known class. The classes are a
//! fixpoint over the iterations: a value is per example in a dimension if its initial value or
//! the body's makes it so; a loop whose body aggregates over the examples, moves them or draws
//! per-position values, whose values change dimension, or whose condition depends on the batch
//! (a microbatch would iterate differently from the global batch) keeps the shared class.

use super::output_combine::BatchClass;
use crate::ir::graph::{Attrs, Graph, OpNode, Param, Region};

/// A carried value's examples: `None` independent of the batch, `Some(d)` in dimension `d`.
type Carried = Option<usize>;

/// The classes of `op`'s results, given its operands' (`operands`), when `op` is a loop whose
/// condition and body `region_classes` analyses: the classes of what a region returns given its
/// arguments' examples (`None` where the region meets the examples or loses track of them).
pub fn carried_classes(
    op: &OpNode,
    operands: &[BatchClass],
    region_classes: impl Fn(&Graph, &[Carried]) -> Option<Vec<BatchClass>>,
) -> Option<Vec<BatchClass>> {
    let [condition, body] = op.regions.as_slice() else { return None };
    let (condition, body) = (region_graph(condition)?, region_graph(body)?);
    if op.results.len() != operands.len() || body.returned.len() != operands.len() {
        return None;
    }
    let mut carried: Vec<Carried> = operands.iter().map(|c| carried_of(*c)).collect::<Option<_>>()?;
    // Each round moves a value from independent to per example, or gives up: at most one per value.
    for _ in 0..=carried.len() {
        let next: Vec<Carried> = region_classes(&body, &carried)?.into_iter().map(carried_of).collect::<Option<_>>()?;
        let joined: Vec<Carried> = carried.iter().zip(&next).map(|(a, b)| join(*a, *b)).collect::<Option<_>>()?;
        if joined == carried {
            let predicate = region_classes(&condition, &carried)?;
            return (predicate == [BatchClass::Independent]).then(|| {
                carried.iter().map(|c| c.map_or(BatchClass::Independent, |d| BatchClass::PerExample(Some(d)))).collect()
            });
        }
        carried = joined;
    }
    None
}

fn carried_of(class: BatchClass) -> Option<Carried> {
    match class {
        BatchClass::Independent => Some(None),
        BatchClass::PerExample(Some(d)) => Some(Some(d)),
        _ => None,
    }
}

/// A value that is `a` in some iterations and `b` in others.
fn join(a: Carried, b: Carried) -> Option<Carried> {
    match (a, b) {
        (Some(d), Some(e)) if d != e => None,
        _ => Some(a.or(b)),
    }
}

/// The graph view of a region of one block whose terminator returns its values.
fn region_graph(region: &Region) -> Option<Graph> {
    let [block] = region.blocks.as_slice() else { return None };
    let returned = block.terminator.as_ref()?.operands.clone();
    let param = |ty: &crate::ir::types::ValueType| Param { ty: ty.clone(), attrs: Attrs::new() };
    let results = returned.iter().map(|v| block.value_type(*v).map(param)).collect::<Option<_>>()?;
    Some(Graph {
        func_name: String::new(),
        args: block.args.iter().map(param).collect(),
        results,
        body: block.clone(),
        returned,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inter::output_combine::{batch_classes, BatchClass::*};
    use crate::ir::graph::{Block, ValueRef};
    use crate::ir::test_graphs::{attrs, t, Builder};
    use crate::ir::types::{ElementType, TensorType, ValueType};

    fn i32_scalar() -> ValueType {
        ValueType::Tensor(TensorType::new(vec![], ElementType::parse("i32").unwrap()))
    }

    fn region(args: Vec<ValueType>, b: Builder, returned: Vec<ValueRef>) -> Region {
        let terminator = OpNode {
            name: "stablehlo.return".into(),
            location: String::new(),
            operands: returned,
            results: vec![],
            attrs: Attrs::new(),
            regions: vec![],
        };
        Region { blocks: vec![Block { args, ops: b.ops, terminator: Some(terminator) }] }
    }

    /// `counter < bound`, both carried (`bound` read from a batch-independent argument).
    fn condition(args: Vec<ValueType>, left: usize, right: usize) -> Region {
        let mut b = Builder::new();
        let predicate = b.op(
            "stablehlo.compare",
            vec![ValueRef::Arg(left), ValueRef::Arg(right)],
            ValueType::Tensor(TensorType::new(vec![], ElementType::parse("i1").unwrap())),
            attrs(&[]),
        );
        region(args, b, vec![predicate])
    }

    /// The classes of a step's loop over (counter, bound, x: [8, 4] batched, w: [4, 4], a
    /// stack [3, 8] that the body writes a per-example value into, an extra carried value
    /// starting from x or from zeros, which `update` makes of the activations and itself).
    fn loop_classes(
        batched_init: bool,
        update: impl Fn(&mut Builder, ValueRef, ValueRef) -> ValueRef,
    ) -> Vec<BatchClass> {
        let types = vec![i32_scalar(), i32_scalar(), t(&[8, 4]), t(&[4, 4]), t(&[3, 8]), t(&[8, 4])];
        let mut body = Builder::new();
        let (x, w, stack, extra) = (ValueRef::Arg(2), ValueRef::Arg(3), ValueRef::Arg(4), ValueRef::Arg(5));
        let next = body.dot(x, w, 1, 0, t(&[8, 4]));
        let activation = body.unary("stablehlo.tanh", next, t(&[8, 4]));
        let zero = body.scalar_constant();
        let per_example = body.reduce_sum(activation, zero, &[1], t(&[8]));
        let row = body.op("stablehlo.reshape", vec![per_example], t(&[1, 8]), attrs(&[]));
        let stacked = body.op(
            "stablehlo.dynamic_update_slice",
            vec![stack, row, ValueRef::Arg(0), ValueRef::Arg(0)],
            t(&[3, 8]),
            attrs(&[]),
        );
        let updated = update(&mut body, activation, extra);
        let returned = vec![ValueRef::Arg(0), ValueRef::Arg(1), activation, w, stacked, updated];
        let mut step = Builder::new();
        let zeros = step.scalar_constant();
        let empty = step.op("stablehlo.broadcast_in_dim", vec![zeros], t(&[3, 8]), attrs(&[]));
        let extra = match batched_init {
            true => ValueRef::Arg(1),
            false => step.op("stablehlo.broadcast_in_dim", vec![zeros], t(&[8, 4]), attrs(&[])),
        };
        let init = vec![ValueRef::Arg(0), ValueRef::Arg(0), ValueRef::Arg(1), ValueRef::Arg(2), empty, extra];
        let results = step.ops_results("stablehlo.while", init, types.clone(), attrs(&[]));
        step.ops.last_mut().unwrap().regions = vec![condition(types.clone(), 0, 1), region(types, body, returned)];
        let params = vec![
            Param { ty: i32_scalar(), attrs: Attrs::new() },
            Param { ty: t(&[8, 4]), attrs: Attrs::new() },
            Param { ty: t(&[4, 4]), attrs: Attrs::new() },
        ];
        let graph = step.graph(params, results.clone());
        let dims = [None, Some(0), None];
        let classes = batch_classes(&graph, &dims);
        results.iter().map(|v| classes.of(*v, &dims)).collect()
    }

    #[test]
    fn a_loop_over_layers_keeps_its_activations_per_example_and_its_weights_shared() {
        // The extra value starts independent of the batch and becomes per example.
        let got = loop_classes(false, |b, activation, extra| b.binary("stablehlo.add", extra, activation, t(&[8, 4])));
        let per = |d| PerExample(Some(d));
        assert_eq!(got, vec![Independent, Independent, per(0), Independent, per(1), per(0)]);
    }

    #[test]
    fn a_loop_whose_body_aggregates_over_the_examples_keeps_one_class() {
        // The extra value is the activations minus their mean over the batch: a statistic meets
        // the examples inside the loop, so nothing is known per carried value.
        let got = loop_classes(true, |b, activation, _| {
            let zero = b.scalar_constant();
            let sums = b.reduce_sum(activation, zero, &[0], t(&[4]));
            let spread = b.op(
                "stablehlo.broadcast_in_dim",
                vec![sums],
                t(&[8, 4]),
                attrs(&[("broadcast_dimensions", crate::ir::graph::Attr::I64Array(vec![1]))]),
            );
            b.binary("stablehlo.subtract", activation, spread, t(&[8, 4]))
        });
        assert!(got.iter().all(|c| *c == got[0]) && got[0] != Independent, "{got:?}");
    }

    /// A loop over (counter, bound, x: [8, 4], a sum of activations) whose body is `depth - 1`
    /// such loops, nested. The sum starts independent of the batch: every level needs a second
    /// round, which analyses the levels inside it again.
    fn nest(b: &mut Builder, operands: Vec<ValueRef>, depth: usize) -> Vec<ValueRef> {
        let types = vec![i32_scalar(), i32_scalar(), t(&[8, 4]), t(&[8, 4])];
        let mut body = Builder::new();
        let returned = match depth {
            1 => {
                let activation = body.unary("stablehlo.tanh", ValueRef::Arg(2), t(&[8, 4]));
                let sum = body.binary("stablehlo.add", ValueRef::Arg(3), activation, t(&[8, 4]));
                vec![ValueRef::Arg(0), ValueRef::Arg(1), activation, sum]
            }
            _ => nest(&mut body, (0..4).map(ValueRef::Arg).collect(), depth - 1),
        };
        let results = b.ops_results("stablehlo.while", operands, types.clone(), attrs(&[]));
        b.ops.last_mut().unwrap().regions = vec![condition(types.clone(), 0, 1), region(types, body, returned)];
        results
    }

    #[test]
    fn loops_nested_deeper_than_the_analysis_goes_keep_one_class_quickly() {
        let classes_of_nest = |depth: usize| {
            let mut step = Builder::new();
            let zero = step.scalar_constant();
            let zeros = step.op("stablehlo.broadcast_in_dim", vec![zero], t(&[8, 4]), attrs(&[]));
            let operands = vec![ValueRef::Arg(0), ValueRef::Arg(0), ValueRef::Arg(1), zeros];
            let results = nest(&mut step, operands, depth);
            let params =
                vec![Param { ty: i32_scalar(), attrs: Attrs::new() }, Param { ty: t(&[8, 4]), attrs: Attrs::new() }];
            let graph = step.graph(params, results.clone());
            let dims = [None, Some(0)];
            let classes = batch_classes(&graph, &dims);
            results.iter().map(|v| classes.of(*v, &dims)).collect::<Vec<_>>()
        };
        let per = PerExample(Some(0));
        assert_eq!(classes_of_nest(3), vec![Independent, Independent, per, per]);
        // Past the bound on the regions analysed (here quadratic in the depth; it multiplies where
        // every level takes several rounds), the loop keeps the shared class.
        let deep = classes_of_nest(40);
        assert!(deep.iter().all(|c| *c == deep[0]), "{deep:?}");
    }

    #[test]
    fn a_loop_whose_condition_reads_the_batch_keeps_one_class() {
        let types = vec![i32_scalar(), t(&[8, 4])];
        let mut body = Builder::new();
        let activation = body.unary("stablehlo.tanh", ValueRef::Arg(1), t(&[8, 4]));
        let mut cond = Builder::new();
        let total = cond.sum(ValueRef::Arg(1));
        let bound = cond.scalar_constant();
        let predicate = cond.op(
            "stablehlo.compare",
            vec![total, bound],
            ValueType::Tensor(TensorType::new(vec![], ElementType::parse("i1").unwrap())),
            attrs(&[]),
        );
        let mut step = Builder::new();
        let results =
            step.ops_results("stablehlo.while", vec![ValueRef::Arg(0), ValueRef::Arg(1)], types.clone(), attrs(&[]));
        step.ops.last_mut().unwrap().regions =
            vec![region(types.clone(), cond, vec![predicate]), region(types, body, vec![ValueRef::Arg(0), activation])];
        let params =
            vec![Param { ty: i32_scalar(), attrs: Attrs::new() }, Param { ty: t(&[8, 4]), attrs: Attrs::new() }];
        let graph = step.graph(params, results.clone());
        let dims = [None, Some(0)];
        let classes = batch_classes(&graph, &dims);
        assert_eq!(classes.of(results[0], &dims), classes.of(results[1], &dims));
    }
}
