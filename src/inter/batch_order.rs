//! Examples out of the batch's order: a value per example reordered along the batch
//! (`jnp.flip(x, 0)`, a roll made of slices of the batch, `x[permutation]`) pairs each example
//! with another one of its own microbatch, where the global batch pairs it with one of the
//! whole batch. Where a reordered value meets values in the batch's order in elementwise
//! arithmetic (mixup, a difference between neighbouring examples), the microbatches compute
//! something other than the global step. Reordering alone changes nothing: the examples stay
//! apart, and a sum or a mean over them is the same.

use super::batch_parts::Held;
use super::output_combine::{BatchClass, BatchClasses};
use crate::ir::attr_text::GatherDimensionNumbers;
use crate::ir::graph::{Graph, OpNode, ValueRef};
use crate::ir::op_table::{canonical_name, elementwise_info, opaque_text};
use crate::ir::train_step::producer;
use crate::ir::types::ValueType;
use std::collections::BTreeMap;

/// The ops that reorder the examples along the batch, each with the first op where what they
/// reordered meets the examples in another order, in program order. `batch_dims` are the batch
/// inputs' dimensions, `classes` the ops' batch classes and `held` the examples of part of the
/// batch they hold (`output_combine::batch_classes_and_held`). Values of one span of the batch
/// (the inputs' and the labels' slices of one chunk) are in one order; of two spans (`x[1:] -
/// x[:-1]`, the chunks `x[i]` and `y[i + 1]`), they are not: the op that moved them (the
/// meeting op itself where none did) is reported.
pub fn reordered_examples_meeting(
    graph: &Graph,
    batch_dims: &[Option<usize>],
    classes: &BatchClasses,
    held: &[Option<Held>],
) -> Vec<(usize, usize)> {
    let class_of = |v: &ValueRef| classes.of(*v, batch_dims);
    let order = examples_moved_by(graph, batch_dims, classes, |op, d_in, _| {
        d_in.is_some_and(|d| reorders(graph, op, d, &class_of))
    });
    let ops = graph.ops();
    let mut met: Vec<(usize, usize)> = Vec::new();
    for (index, op) in ops.iter().enumerate() {
        if elementwise_info(&canonical_name(&op.name)).is_none() {
            continue;
        }
        // Per order the operands are in: the op that moved them there.
        let mut orders: BTreeMap<(Option<usize>, Option<(i64, i64)>), Option<usize>> = BTreeMap::new();
        for v in op.operands.iter().filter(|v| matches!(class_of(v), BatchClass::PerExample(_))) {
            let moved = producer(*v).and_then(|p| order[p]);
            let span = producer(*v).and_then(|p| match held[p] {
                Some(Held::Span(span)) => Some((span.lo, span.hi)),
                _ => None,
            });
            // A slice of a span moves nothing the span does not say.
            let moved_beyond_span = moved.filter(|&m| span.is_none() || !slices(&ops[m]));
            orders.insert((moved_beyond_span, span), moved);
        }
        if orders.len() > 1 {
            let movers: Vec<usize> = orders.into_values().flatten().collect();
            let reported = if movers.is_empty() { vec![index] } else { movers };
            for reordering in reported {
                if !met.iter().any(|&(r, _)| r == reordering) {
                    met.push((reordering, index));
                }
            }
        }
    }
    met.sort_by_key(|&(_, meeting)| meeting);
    met
}

fn slices(op: &OpNode) -> bool {
    matches!(canonical_name(&op.name).as_str(), "slice" | "dynamic_slice")
}

/// Per op: the op that moved the examples its result holds away from where the batch has them
/// (`None`: each at its own position along the batch's dimension), counting, beside
/// reorderings, what joins values per example along the batch or overwrites some examples
/// there (`jnp.concatenate([x, y])`, `x.at[0].set(...)`). A value per example is the
/// concatenation of the microbatches' values only if nothing moved its examples.
pub fn examples_moved(graph: &Graph, batch_dims: &[Option<usize>], classes: &BatchClasses) -> Vec<Option<usize>> {
    let class_of = |v: &ValueRef| classes.of(*v, batch_dims);
    examples_moved_by(graph, batch_dims, classes, |op, d_in, d_out| {
        d_in.is_some_and(|d| reorders(graph, op, d, &class_of)) || joins_along(graph, op, d_out)
    })
}

/// Per op: the last op before it, itself included, that `moves` (given the op, its first
/// operand's batch dimension and its result's) says moved the examples.
fn examples_moved_by(
    graph: &Graph,
    batch_dims: &[Option<usize>],
    classes: &BatchClasses,
    moves: impl Fn(&OpNode, Option<usize>, Option<usize>) -> bool,
) -> Vec<Option<usize>> {
    let class_of = |v: &ValueRef| classes.of(*v, batch_dims);
    let mut order: Vec<Option<usize>> = Vec::with_capacity(graph.ops().len());
    for (index, op) in graph.ops().iter().enumerate() {
        let here = match classes[index] {
            BatchClass::PerExample(d_out) => {
                let d_in = match op.operands.first().map(&class_of) {
                    Some(BatchClass::PerExample(d)) => d,
                    _ => None,
                };
                if moves(op, d_in, d_out) {
                    Some(index)
                } else {
                    op.operands
                        .iter()
                        .filter(|v| matches!(class_of(v), BatchClass::PerExample(_)))
                        .find_map(|v| producer(*v).and_then(|p| order[p]))
                }
            }
            _ => None,
        };
        order.push(here);
    }
    order
}

/// Whether `op`, whose result holds the examples in dimension `d`, puts other values beside
/// them along it or overwrites some of them.
fn joins_along(graph: &Graph, op: &OpNode, d: Option<usize>) -> bool {
    let Some(d) = d else { return false };
    let size = |v: Option<&ValueType>| v.and_then(ValueType::tensor).and_then(|t| t.shape.get(d).copied());
    match canonical_name(&op.name).as_str() {
        "concatenate" => op.attr("dimension").and_then(|a| a.as_int()).is_none_or(|dim| dim == d as i64),
        "dynamic_update_slice" => {
            op.operands.get(1).is_none_or(|u| size(graph.value_type(*u)) != size(op.results.first()))
        }
        _ => false,
    }
}

/// Whether `op` moves the examples of its first operand, batched in dimension `d`, along it.
fn reorders(graph: &Graph, op: &OpNode, d: usize, class_of: &impl Fn(&ValueRef) -> BatchClass) -> bool {
    let size = |v: Option<&ValueType>| v.and_then(ValueType::tensor).and_then(|t| t.shape.get(d).copied());
    let resized = || size(graph.value_type(op.operands[0])) != size(op.results.first());
    match canonical_name(&op.name).as_str() {
        "reverse" => {
            op.attr("dimensions").and_then(|a| a.as_i64_array()).is_some_and(|dims| dims.contains(&(d as i64)))
        }
        // Part of the batch: its examples sit at other positions than in the batch.
        "slice" | "dynamic_slice" | "pad" => resized(),
        // Examples picked by indices computed without them (a permutation drawn from a key).
        "gather" => {
            let Some(numbers) =
                op.attr("dimension_numbers").and_then(opaque_text).and_then(|t| GatherDimensionNumbers::parse(t).ok())
            else {
                return false;
            };
            let d = d as i64;
            numbers.start_index_map.contains(&d)
                && !numbers.operand_batching_dims.contains(&d)
                && op.operands.get(1).is_some_and(|i| class_of(i) == BatchClass::Independent)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inter::output_combine::{batch_classes, batch_classes_and_held};
    use crate::ir::graph::{Attr, Attrs, Param};
    use crate::ir::test_graphs::{attrs, t, Builder};

    /// `x: [8, 4]`, batched in dimension 0: `x * reorder(x)` summed, with `reorder` built on `b`.
    fn meeting(reorder: impl Fn(&mut Builder, ValueRef) -> ValueRef) -> Vec<(usize, usize)> {
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let moved = reorder(&mut b, x);
        let product = b.binary("stablehlo.multiply", x, moved, t(&[8, 4]));
        let loss = b.sum(product);
        let g = b.graph(vec![Param { ty: t(&[8, 4]), attrs: Attrs::new() }], vec![loss]);
        let dims = [Some(0)];
        {
            let (classes, held) = batch_classes_and_held(&g, &dims);
            reordered_examples_meeting(&g, &dims, &classes, &held)
        }
    }

    fn reverse(b: &mut Builder, x: ValueRef, dim: i64) -> ValueRef {
        b.op("stablehlo.reverse", vec![x], t(&[8, 4]), attrs(&[("dimensions", Attr::I64Array(vec![dim]))]))
    }

    fn slice(b: &mut Builder, x: ValueRef, rows: (i64, i64)) -> ValueRef {
        let bounds = [
            ("start_indices", Attr::I64Array(vec![rows.0, 0])),
            ("limit_indices", Attr::I64Array(vec![rows.1, 4])),
            ("strides", Attr::I64Array(vec![1, 1])),
        ];
        b.op("stablehlo.slice", vec![x], t(&[rows.1 - rows.0, 4]), attrs(&bounds))
    }

    #[test]
    fn examples_reversed_or_rolled_along_the_batch_meeting_the_batch_are_reported() {
        // mixup's partner jnp.flip(x, 0): reported at the product (op 1).
        assert_eq!(meeting(|b, x| reverse(b, x, 0)), vec![(0, 1)]);
        // A roll by one: concatenate(x[1:], x[:1]).
        let rolled = meeting(|b, x| {
            let (tail, head) = (slice(b, x, (1, 8)), slice(b, x, (0, 1)));
            let dim = attrs(&[("dimension", Attr::Int(0))]);
            b.op("stablehlo.concatenate", vec![tail, head], t(&[8, 4]), dim)
        });
        assert_eq!(rolled, vec![(0, 3)]);
    }

    /// Which ops `examples_moved` says moved the examples of `x: [8, 4]` (batched in dimension
    /// 0) on the way to the returned value `moving(b, x)`.
    fn moved(moving: impl Fn(&mut Builder, ValueRef) -> ValueRef) -> Vec<Option<usize>> {
        let mut b = Builder::new();
        let returned = moving(&mut b, ValueRef::Arg(0));
        let g = b.graph(vec![Param { ty: t(&[8, 4]), attrs: Attrs::new() }], vec![returned]);
        let dims = [Some(0)];
        examples_moved(&g, &dims, &batch_classes(&g, &dims))
    }

    #[test]
    fn joining_values_along_the_batch_or_overwriting_some_examples_moves_them() {
        let concatenated = |dimension: i64, shape: [i64; 2]| {
            move |b: &mut Builder, x: ValueRef| {
                let joined =
                    b.op("stablehlo.concatenate", vec![x, x], t(&shape), attrs(&[("dimension", Attr::Int(dimension))]));
                b.unary("stablehlo.tanh", joined, t(&shape))
            }
        };
        // Along the batch: moved there, and so is what is computed from it.
        assert_eq!(moved(concatenated(0, [16, 4])), vec![Some(0), Some(0)]);
        // Along the features: every example keeps its place.
        assert_eq!(moved(concatenated(1, [8, 8])), vec![None, None]);
        // An update of the first example only, or of all of them.
        let updated = |rows: i64| {
            move |b: &mut Builder, x: ValueRef| {
                let update = b.op("stablehlo.constant", vec![], t(&[rows, 4]), Attrs::new());
                let zero = b.op("stablehlo.constant", vec![], t(&[]), Attrs::new());
                b.op("stablehlo.dynamic_update_slice", vec![x, update, zero, zero], t(&[8, 4]), Attrs::new())
            }
        };
        assert_eq!(moved(updated(1)), vec![None, None, Some(2)]);
        assert_eq!(moved(updated(8)), vec![None, None, None]);
        // A reversal along the batch moves them, as it reorders them.
        assert_eq!(moved(|b, x| reverse(b, x, 0)), vec![Some(0)]);
        assert_eq!(moved(|b, x| reverse(b, x, 1)), vec![None]);
    }

    #[test]
    fn reordering_other_dimensions_or_twice_the_same_way_is_not_reported() {
        // Features reversed: every example keeps its place.
        assert_eq!(meeting(|b, x| reverse(b, x, 1)), vec![]);
        // The whole batch sliced: nothing moves.
        assert_eq!(meeting(|b, x| slice(b, x, (0, 8))), vec![]);
        // Examples reversed, alone, then summed: the same sum as in the batch's order.
        let mut b = Builder::new();
        let flipped = reverse(&mut b, ValueRef::Arg(0), 0);
        let squared = b.binary("stablehlo.multiply", flipped, flipped, t(&[8, 4]));
        let loss = b.sum(squared);
        let g = b.graph(vec![Param { ty: t(&[8, 4]), attrs: Attrs::new() }], vec![loss]);
        let dims = [Some(0)];
        assert_eq!(
            {
                let (classes, held) = batch_classes_and_held(&g, &dims);
                reordered_examples_meeting(&g, &dims, &classes, &held)
            },
            vec![]
        );
    }
}
