//! Positions in the microbatch: an iota over a dimension the size of the batch (`jnp.arange`
//! of the batch size, the counters behind `jax.random.split(key, batch)`) numbers the examples
//! 0..b-1 of every microbatch, where the global batch numbers them 0..B*b-1. Where such a value
//! meets the examples in arithmetic (a weight per position, a dropout mask from a per-example
//! key), the microbatches compute something other than the global step, and nothing else would
//! say so. Indexing the microbatch's own examples by position (a gather, `take_along_axis`) is
//! the same in both and is not reported.
//!
//! Positions are followed forward through the dimensions that carry them: elementwise ops,
//! broadcasts, transposes, reductions over other dimensions and data movement keep track; other
//! ops computed without the examples (a reshape, a loop hashing counters into keys) pass them on
//! to their result dimensions of the microbatch's size, and other ops with the examples lose them.

use super::output_combine::{known_rule, BatchClass, BatchClasses};
use crate::ir::graph::{Graph, OpNode, ValueRef};
use crate::ir::op_table::{canonical_name, elementwise_info};
use crate::ir::types::ValueType;
use std::collections::BTreeSet;

/// Which dimensions of an op's result count examples by position, and the iota they come from.
#[derive(Clone, Debug)]
struct Positions {
    dims: BTreeSet<usize>,
    iota: usize,
}

/// The iota ops whose positions meet the examples in arithmetic, each with the first op where
/// they do, in program order. `batch_dims` are the batch inputs' dimensions, `classes` the ops'
/// batch classes (`output_combine::batch_classes`).
pub fn positions_meeting_examples(
    graph: &Graph,
    batch_dims: &[Option<usize>],
    classes: &BatchClasses,
) -> Vec<(usize, usize)> {
    let sizes: BTreeSet<i64> = graph
        .args
        .iter()
        .zip(batch_dims)
        .filter_map(|(arg, dim)| arg.ty.tensor()?.shape.get((*dim)?).copied())
        .collect();
    let users = graph.body.users();
    let returned: BTreeSet<usize> = graph
        .returned
        .iter()
        .filter_map(|v| match *v {
            ValueRef::Op { op, .. } => Some(op),
            _ => None,
        })
        .collect();
    // Whether `start`'s value reaches a result of the step other than as an index: segment ids
    // offset by position into a scatter pick the microbatch's own slots, and a value that indexes
    // is an index in its other uses too (the bounds checks of a gather's indices).
    let indexes = |op: usize| users[op].iter().flatten().any(|&(user, at)| is_index_operand(&graph.ops()[user], at));
    let reaches_results = |start: usize| {
        let mut seen = BTreeSet::from([start]);
        let mut stack = vec![start];
        while let Some(op) = stack.pop() {
            if returned.contains(&op) {
                return true;
            }
            if indexes(op) {
                continue;
            }
            for &(user, _) in users[op].iter().flatten() {
                if seen.insert(user) {
                    stack.push(user);
                }
            }
        }
        false
    };
    // Per op, per result.
    let mut positions: Vec<Vec<Option<Positions>>> = Vec::with_capacity(graph.ops().len());
    let mut met: Vec<(usize, usize)> = Vec::new();
    for (index, op) in graph.ops().iter().enumerate() {
        let of = |v: &ValueRef| match *v {
            ValueRef::Op { op, result } if !indexes(op) => positions[op].get(result).and_then(Option::as_ref),
            _ => None,
        };
        let here: Vec<Option<Positions>> = (0..op.results.len())
            .map(|result| {
                let p = if canonical_name(&op.name) == "iota" {
                    iota_positions(op, &sizes).map(|dims| Positions { dims, iota: index })
                } else {
                    op.operands.iter().find_map(of).map(|first| Positions {
                        dims: op
                            .operands
                            .iter()
                            .enumerate()
                            .filter_map(|(at, v)| Some((at, of(v)?)))
                            .flat_map(|(at, p)| {
                                let class = classes.of(ValueRef::Op { op: index, result }, batch_dims);
                                carried_dims(graph, op, (at, result), p, &sizes, class)
                            })
                            .collect(),
                        iota: first.iota,
                    })
                };
                p.filter(|p| !p.dims.is_empty())
            })
            .collect();
        if let Some(p) = here.first().and_then(Option::as_ref) {
            let examples_at = op.operands.iter().find_map(|v| match classes.of(*v, batch_dims) {
                BatchClass::PerExample(d) => d,
                _ => None,
            });
            let arithmetic = elementwise_info(&canonical_name(&op.name)).is_some();
            let meets = op.operands.iter().filter_map(of).any(|q| examples_at.is_some_and(|d| q.dims.contains(&d)));
            if arithmetic && meets && !met.iter().any(|&(iota, _)| iota == p.iota) && reaches_results(index) {
                met.push((p.iota, index));
            }
        }
        positions.push(here);
    }
    met
}

/// Whether operand `at` of `op` only says where to read or write.
fn is_index_operand(op: &OpNode, at: usize) -> bool {
    match canonical_name(&op.name).as_str() {
        "gather" | "dynamic_slice" => at >= 1,
        "dynamic_update_slice" => at >= 2,
        // Inputs, indices, updates: as many updates as inputs.
        "scatter" => at == (op.operands.len().saturating_sub(1)) / 2,
        _ => false,
    }
}

fn result_shape(op: &OpNode, result: usize) -> Option<&[i64]> {
    op.results.get(result).and_then(ValueType::tensor).map(|t| t.shape.as_slice())
}

fn iota_positions(op: &OpNode, sizes: &BTreeSet<i64>) -> Option<BTreeSet<usize>> {
    iota_dim_of_extent(op, |extent| sizes.contains(&extent)).map(|dim| BTreeSet::from([dim]))
}

/// The dimension iota `op` counts along, when its extent there is one `is_batch` accepts.
pub(super) fn iota_dim_of_extent(op: &OpNode, is_batch: impl Fn(i64) -> bool) -> Option<usize> {
    let dim = usize::try_from(op.attr("iota_dimension")?.as_int()?).ok()?;
    is_batch(*result_shape(op, 0)?.get(dim)?).then_some(dim)
}

/// The dimensions of `op`'s result `result` that carry the positions `p` of its operand `at`.
fn carried_dims(
    graph: &Graph,
    op: &OpNode,
    (at, result): (usize, usize),
    p: &Positions,
    sizes: &BTreeSet<i64>,
    class: BatchClass,
) -> BTreeSet<usize> {
    let name = canonical_name(&op.name);
    let ints = |attr: &str| op.attr(attr).and_then(|a| a.as_i64_array()).unwrap_or_default();
    let same_rank =
        op.operands.first().and_then(|v| graph.value_type(*v)).and_then(ValueType::tensor).map(|t| t.rank())
            == result_shape(op, result).map(<[i64]>::len);
    match name.as_str() {
        "broadcast_in_dim" => {
            let map = ints("broadcast_dimensions");
            p.dims.iter().filter_map(|&d| map.get(d).and_then(|&x| usize::try_from(x).ok())).collect()
        }
        "transpose" => {
            let permutation = ints("permutation");
            p.dims.iter().filter_map(|&d| permutation.iter().position(|&x| x == d as i64)).collect()
        }
        "reduce" => {
            let reduced = ints("dimensions");
            p.dims
                .iter()
                .filter(|&&d| !reduced.contains(&(d as i64)))
                .map(|&d| d - reduced.iter().filter(|&&r| r < d as i64).count())
                .collect()
        }
        n if same_rank
            && (elementwise_info(n).is_some()
                || matches!(
                    n,
                    "slice" | "pad" | "reverse" | "concatenate" | "select" | "clamp" | "bitcast_convert"
                )) =>
        {
            p.dims.clone()
        }
        // A product computed without the examples keeps them in its batching and free
        // dimensions, and sums them away where it contracts them (a one-hot over as many
        // classes as the microbatch has examples, contracted with a table).
        "dot_general" if class == BatchClass::Independent => match known_rule(graph, op) {
            Some(rule) => p
                .dims
                .iter()
                .filter_map(|&d| match rule.operand_dims.get(at)?.get(d)?.as_slice() {
                    [factor] => rule.result_dims.get(result)?.iter().position(|f| f.as_slice() == [*factor]),
                    _ => None,
                })
                .collect(),
            None => BTreeSet::new(),
        },
        // A product with the examples (noise added to a weight, then x @ w) keeps no positions
        // this module can place; counters hashed into keys, before they meet any example, do.
        _ if class != BatchClass::Independent => BTreeSet::new(),
        _ => {
            let shape = result_shape(op, result).unwrap_or_default();
            (0..shape.len()).filter(|&d| sizes.contains(&shape[d])).collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inter::output_combine::batch_classes;
    use crate::ir::graph::{Attr, Attrs, OpNode, Param};
    use crate::ir::test_graphs::{attrs, op_index, t, Builder};

    /// `x: [8, 4]` batched in dimension 0.
    fn positions_met(b: Builder, returned: Vec<ValueRef>) -> Vec<(usize, usize)> {
        let graph = b.graph(vec![Param { ty: t(&[8, 4]), attrs: Attrs::new() }], returned);
        let batch_dims = [Some(0)];
        positions_meeting_examples(&graph, &batch_dims, &batch_classes(&graph, &batch_dims))
    }

    fn iota(b: &mut Builder, shape: &[i64], dim: i64) -> ValueRef {
        b.op("stablehlo.iota", vec![], t(shape), attrs(&[("iota_dimension", Attr::Int(dim))]))
    }

    fn broadcast(b: &mut Builder, x: ValueRef, shape: &[i64], dims: &[i64]) -> ValueRef {
        b.op(
            "stablehlo.broadcast_in_dim",
            vec![x],
            t(shape),
            attrs(&[("broadcast_dimensions", Attr::I64Array(dims.to_vec()))]),
        )
    }

    #[test]
    fn a_weight_per_position_in_the_batch_meets_the_examples() {
        // x * arange(8)[:, None]: the iota (op 0) meets the examples at the multiply (op 2).
        let mut b = Builder::new();
        let positions = iota(&mut b, &[8], 0);
        let spread = broadcast(&mut b, positions, &[8, 4], &[0]);
        let weighted = b.binary("stablehlo.multiply", ValueRef::Arg(0), spread, t(&[8, 4]));
        assert_eq!(positions_met(b, vec![weighted]), vec![(0, 2)]);
    }

    #[test]
    fn positions_through_a_loop_and_a_reshape_still_meet_the_examples() {
        // jax.random.split(key, 8): counters 0..7 hashed by a loop with other results, the two
        // halves joined into [8, 2] keys, one column spread over an example's features.
        let mut b = Builder::new();
        let counters = iota(&mut b, &[8], 0);
        let mut hash = OpNode {
            name: "stablehlo.while".into(),
            location: String::new(),
            operands: vec![counters, counters],
            results: vec![t(&[]), t(&[8])],
            attrs: Attrs::new(),
            regions: vec![],
        };
        hash.regions.clear();
        b.ops.push(hash);
        let hashed = ValueRef::Op { op: 1, result: 1 };
        let keys = b.unary("stablehlo.reshape", hashed, t(&[8, 1]));
        let spread = broadcast(&mut b, keys, &[8, 4], &[0, 1]);
        let masked = b.binary("stablehlo.multiply", spread, ValueRef::Arg(0), t(&[8, 4]));
        assert_eq!(positions_met(b, vec![masked]), vec![(0, 4)]);
    }

    #[test]
    fn positions_along_another_dimension_or_used_as_indices_do_not() {
        // x: [8, 8], w: [8, 8]. A one-hot over 8 classes compares along dimension 1; take_along_axis picks
        // the examples' own rows by position; a transposed iota puts its positions on the batch.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let classes = iota(&mut b, &[8, 8], 1);
        let one_hot = b.binary("stablehlo.compare", x, classes, t(&[8, 8]));
        let rows = iota(&mut b, &[8, 1], 0);
        let picked = b.op("stablehlo.gather", vec![x, rows], t(&[8, 1]), Attrs::new());
        let across = iota(&mut b, &[8, 8], 1);
        let swap = attrs(&[("permutation", Attr::I64Array(vec![1, 0]))]);
        let down = b.op("stablehlo.transpose", vec![across], t(&[8, 8]), swap);
        let weighted = b.binary("stablehlo.multiply", x, down, t(&[8, 8]));
        // Noise over a weight of the batch's shape, then x @ w: positions of the weight's rows.
        let rows_noise = iota(&mut b, &[8, 8], 0);
        let noisy = b.binary("stablehlo.add", ValueRef::Arg(1), rows_noise, t(&[8, 8]));
        let product = b.dot(x, noisy, 1, 0, t(&[8, 8]));
        let activated = b.unary("stablehlo.tanh", product, t(&[8, 8]));
        let args = vec![Param { ty: t(&[8, 8]), attrs: Attrs::new() }, Param { ty: t(&[8, 8]), attrs: Attrs::new() }];
        // Segment ids offset by position (x + 8 * row) into a scatter, and checked against bounds:
        // indices of its own slots.
        let slots = iota(&mut b, &[8, 8], 0);
        let ids = b.binary("stablehlo.add", x, slots, t(&[8, 8]));
        let pooled = b.op("stablehlo.scatter", vec![x, ids, x], t(&[8, 8]), Attrs::new());
        let in_range = b.binary("stablehlo.compare", ids, ValueRef::Arg(1), t(&[8, 8]));
        let checked = b.op("stablehlo.select", vec![in_range, x, x], t(&[8, 8]), Attrs::new());
        let graph = b.graph(args, vec![one_hot, picked, weighted, activated, pooled, checked]);
        let batch_dims = [Some(0), None];
        let classes = batch_classes(&graph, &batch_dims);
        assert_eq!(positions_meeting_examples(&graph, &batch_dims, &classes), vec![(4, 6)]);
    }

    #[test]
    fn a_product_without_the_examples_keeps_positions_where_it_does_not_contract_them() {
        // x: [8, 8], w: [8, 8]. A one-hot over 8 classes (as many as the examples) contracted
        // with w sums its positions away; rows numbered by position and multiplied by w keep
        // them in the rows, which then weight the examples.
        let mut b = Builder::new();
        let (x, w) = (ValueRef::Arg(0), ValueRef::Arg(1));
        let classes = iota(&mut b, &[8, 8], 1);
        let one_hot = b.binary("stablehlo.compare", w, classes, t(&[8, 8]));
        let looked_up = b.dot(one_hot, w, 1, 0, t(&[8, 8]));
        let scaled = b.binary("stablehlo.multiply", x, looked_up, t(&[8, 8]));
        let rows = iota(&mut b, &[8, 8], 0);
        let numbered = b.dot(rows, w, 1, 0, t(&[8, 8]));
        let weighted = b.binary("stablehlo.multiply", x, numbered, t(&[8, 8]));
        let args = vec![Param { ty: t(&[8, 8]), attrs: Attrs::new() }, Param { ty: t(&[8, 8]), attrs: Attrs::new() }];
        let graph = b.graph(args, vec![scaled, weighted]);
        let batch_dims = [Some(0), None];
        let classes = batch_classes(&graph, &batch_dims);
        assert_eq!(
            positions_meeting_examples(&graph, &batch_dims, &classes),
            vec![(op_index(rows), op_index(weighted))]
        );
    }
}
