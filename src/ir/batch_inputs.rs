//! Which arguments of a train step carry the batch, and on which dim: non-donated tensor
//! arguments of rank >= 1, on dim 0, unless the argument's `alpa.batch_dim` attribute says
//! otherwise (a dim, or -1 for an argument every microbatch shares).

use super::attr_text::{DotDimensionNumbers, GatherDimensionNumbers};
use super::graph::{Graph, OpNode, ValueRef};
use super::op_table::{canonical_name, opaque_text};
use super::types::ValueType;

/// The argument attribute that overrides the batch-input rule: the dim to split, or -1 for an
/// argument every microbatch shares.
pub const BATCH_DIM_ATTR: &str = "alpa.batch_dim";

/// An explicit `alpa.batch_dim` that is not a dim of its argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadBatchDim {
    pub arg: usize,
    pub dim: i64,
}

/// Whether `op` reads only arguments no microbatch splits (`dims`, as `batch_input_dims`
/// gives) and results of ops that `accepts`.
pub fn reads_only(op: &OpNode, dims: &[Option<usize>], mut accepts: impl FnMut(usize) -> bool) -> bool {
    op.operands.iter().all(|v| match *v {
        ValueRef::Op { op: p, .. } => accepts(p),
        ValueRef::Arg(a) => dims.get(a).copied().flatten().is_none(),
        ValueRef::Outer => false,
    })
}

/// Per op: whether it depends on a batch input (`dims` as `batch_input_dims` gives).
pub fn batch_dependent(graph: &Graph, dims: &[Option<usize>]) -> Vec<bool> {
    let mut dependent = vec![false; graph.ops().len()];
    for (index, op) in graph.ops().iter().enumerate() {
        dependent[index] = op.operands.iter().any(|v| match *v {
            ValueRef::Arg(a) => dims.get(a).copied().flatten().is_some(),
            ValueRef::Op { op, .. } => dependent[op],
            ValueRef::Outer => false,
        });
    }
    dependent
}

/// The dim each argument is split on (`None`: shared by every microbatch). Of the arguments
/// the rule picks, one used as parameters are (`parameter_like`: a frozen teacher's weights)
/// or read only as a table (`looked_up_only`: a frozen embedding) is shared, and so is one
/// whose dim 0 is not the batch size (the size most batch inputs have, the larger on a tie): a
/// PRNG key, a table of a few rows beside the batch.
pub fn batch_input_dims(graph: &Graph) -> Result<Vec<Option<usize>>, BadBatchDim> {
    let mut by_rule = vec![false; graph.args.len()];
    let dims = graph
        .args
        .iter()
        .enumerate()
        .map(|(arg, param)| {
            let rank = match &param.ty {
                ValueType::Tensor(t) => t.rank(),
                _ => return Ok(None),
            };
            match param.attrs.get(BATCH_DIM_ATTR).and_then(|a| a.as_int()) {
                Some(-1) => Ok(None),
                Some(d) if d >= 0 && (d as usize) < rank => Ok(Some(d as usize)),
                Some(d) => Err(BadBatchDim { arg, dim: d }),
                None => {
                    by_rule[arg] =
                        !param.is_donated() && rank >= 1 && !parameter_like(graph, arg) && !looked_up_only(graph, arg);
                    Ok(by_rule[arg].then_some(0))
                }
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let size = |arg: usize| match (&graph.args[arg].ty, dims[arg]) {
        (ValueType::Tensor(t), Some(d)) => t.shape.get(d).copied(),
        _ => None,
    };
    let sizes: Vec<i64> = (0..dims.len()).filter_map(size).collect();
    let count = |s: i64| sizes.iter().filter(|&&x| x == s).count();
    let Some(batch) = sizes.iter().copied().max_by_key(|&s| (count(s), s)) else { return Ok(dims) };
    Ok((0..dims.len()).map(|arg| if by_rule[arg] && size(arg) != Some(batch) { None } else { dims[arg] }).collect())
}

/// Whether the step reads argument `arg` only as a table: every use gathers rows of its dim 0
/// by index (an embedding lookup, `table[ids]`), none takes them in order as a batch input's
/// examples are taken.
fn looked_up_only(graph: &Graph, arg: usize) -> bool {
    let mut uses = graph.ops().iter().flat_map(|op| {
        op.operands.iter().enumerate().filter(|(_, v)| **v == ValueRef::Arg(arg)).map(move |(at, _)| (op, at))
    });
    let looks_up = |(op, at): (&crate::ir::graph::OpNode, usize)| {
        at == 0
            && canonical_name(&op.name) == "gather"
            && op
                .attr("dimension_numbers")
                .and_then(opaque_text)
                .and_then(|t| GatherDimensionNumbers::parse(t).ok())
                .is_some_and(|numbers| {
                    numbers.start_index_map.contains(&0) && !numbers.operand_batching_dims.contains(&0)
                })
    };
    uses.next().is_some_and(looks_up) && uses.all(looks_up)
}

/// Whether the step reads argument `arg` as a parameter, never as examples: its dim 0 is
/// contracted by its matrix products (`x @ w` contracts `w`'s dim 0 and `x`'s features) or
/// broadcast to another dim (a bias added to `[batch, features]`), and no product or broadcast
/// keeps it in place as a batch input's dim 0 is kept.
fn parameter_like(graph: &Graph, arg: usize) -> bool {
    let mut as_parameter = false;
    for op in graph.ops() {
        for (at, _) in op.operands.iter().enumerate().filter(|(_, v)| **v == ValueRef::Arg(arg)) {
            let dim0_moved = match canonical_name(&op.name).as_str() {
                "dot_general" => {
                    let Some(numbers) = op
                        .attr("dot_dimension_numbers")
                        .and_then(opaque_text)
                        .and_then(|t| DotDimensionNumbers::parse(t).ok())
                    else {
                        return false;
                    };
                    let contracting =
                        if at == 0 { &numbers.lhs_contracting_dimensions } else { &numbers.rhs_contracting_dimensions };
                    contracting.contains(&0)
                }
                "broadcast_in_dim" => {
                    match op
                        .attr("broadcast_dimensions")
                        .and_then(|a| a.as_i64_array())
                        .and_then(|d| d.first().copied())
                    {
                        Some(d) => d != 0,
                        None => return false,
                    }
                }
                _ => continue,
            };
            if !dim0_moved {
                return false;
            }
            as_parameter = true;
        }
    }
    as_parameter
}

/// The number of examples the batch inputs (`dims`: each argument's batch dim) hold, when they
/// agree on one.
pub fn examples_per_microbatch(graph: &Graph, dims: &[Option<usize>]) -> Option<i64> {
    let mut sizes = graph.args.iter().zip(dims).filter_map(|(param, dim)| match (&param.ty, dim) {
        (ValueType::Tensor(t), Some(d)) => t.shape.get(*d).copied(),
        _ => None,
    });
    let first = sizes.next()?;
    sizes.all(|s| s == first).then_some(first)
}

/// The numbers that count a microbatch's examples as a step computes them from the batch's shape
/// (`x.shape[0]`, `values.size`): the examples, when the batch inputs agree on them, and each
/// batch input's elements. One is no count: with microbatches of one example, 1 is also every
/// step counter's increment.
pub fn examples_counts(graph: &Graph, dims: &[Option<usize>]) -> Vec<f64> {
    let elements = graph.args.iter().zip(dims).filter(|(_, d)| d.is_some()).filter_map(|(param, _)| match &param.ty {
        ValueType::Tensor(t) => t.checked_elements().map(|n| n as f64),
        _ => None,
    });
    let examples = examples_per_microbatch(graph, dims).map(|n| n as f64);
    elements.chain(examples).filter(|&n| n > 1.0).collect()
}

/// Arguments the rule shares although a dim other than dim 0 has the batch size: time-major
/// inputs (`[T, B, F]`) look like that, and so can a frozen table whose width happens to be the
/// batch size. `(argument, that dim, the batch size)`; the caller says which with a warning.
pub fn shared_with_a_batch_sized_dim(graph: &Graph, dims: &[Option<usize>]) -> Vec<(usize, usize, i64)> {
    let Some(batch) = examples_per_microbatch(graph, dims) else { return Vec::new() };
    graph
        .args
        .iter()
        .enumerate()
        .filter(|(a, param)| {
            dims[*a].is_none()
                && !param.is_donated()
                && !param.attrs.contains_key(BATCH_DIM_ATTR)
                && !parameter_like(graph, *a)
                && !looked_up_only(graph, *a)
        })
        .filter_map(|(a, param)| match &param.ty {
            ValueType::Tensor(t) if t.rank() >= 2 && t.shape[0] != batch => {
                t.shape.iter().position(|&s| s == batch).map(|d| (a, d, batch))
            }
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::graph::Attr;
    use crate::ir::test_graphs::tanh_mlp_step;

    #[test]
    fn the_attribute_overrides_the_rule() {
        let mut g = tanh_mlp_step(2, 4, 8);
        let x = g.args.len() - 1;
        assert_eq!(
            batch_input_dims(&g).unwrap(),
            vec![None, None, Some(0)],
            "weights are donated, x is split on dim 0"
        );
        g.args[x].attrs.insert(BATCH_DIM_ATTR.into(), Attr::Int(1));
        assert_eq!(batch_input_dims(&g).unwrap()[x], Some(1));
        g.args[x].attrs.insert(BATCH_DIM_ATTR.into(), Attr::Int(-1));
        assert_eq!(batch_input_dims(&g).unwrap()[x], None);
        g.args[x].attrs.insert(BATCH_DIM_ATTR.into(), Attr::Int(5));
        assert_eq!(batch_input_dims(&g), Err(BadBatchDim { arg: x, dim: 5 }));
    }

    #[test]
    fn an_argument_of_another_leading_size_than_the_batch_is_shared() {
        use crate::ir::graph::{Attrs, Param};
        use crate::ir::types::{ElementType, TensorType};
        let mut g = tanh_mlp_step(2, 4, 8);
        let arg = |shape: &[i64], e: ElementType| Param {
            ty: ValueType::Tensor(TensorType::new(shape.to_vec(), e)),
            attrs: Attrs::new(),
        };
        // Labels of the 4 examples, and a PRNG key: two u32 words.
        g.args.push(arg(&[4], ElementType::Int(32)));
        g.args.push(arg(&[2], ElementType::Int(32)));
        assert_eq!(batch_input_dims(&g).unwrap(), vec![None, None, Some(0), Some(0), None]);
        // Named explicitly, it is split all the same.
        g.args[4].attrs.insert(BATCH_DIM_ATTR.into(), Attr::Int(0));
        assert_eq!(batch_input_dims(&g).unwrap()[4], Some(0));
    }

    /// A frozen teacher passed in beside the batch (not donated, so the rule would take it):
    /// `x: [batch, width]`, labels `[batch]`, then `layers` weights `[width, width]` read as
    /// `x @ w` and as many biases `[width]` added to `[batch, width]`.
    fn distillation_step(batch: i64, width: i64, layers: usize) -> Graph {
        use crate::ir::graph::{Attr, Attrs, Param};
        use crate::ir::test_graphs::{attrs, t, Builder};
        let act = t(&[batch, width]);
        let mut b = Builder::new();
        let spread = |dim: i64| attrs(&[("broadcast_dimensions", Attr::I64Array(vec![dim]))]);
        let mut h = ValueRef::Arg(0);
        for k in 0..layers {
            let product = b.dot(h, ValueRef::Arg(2 + k), 1, 0, act.clone());
            let bias = b.op("stablehlo.broadcast_in_dim", vec![ValueRef::Arg(2 + layers + k)], act.clone(), spread(1));
            h = b.binary("stablehlo.add", product, bias, act.clone());
        }
        let labels = b.op("stablehlo.broadcast_in_dim", vec![ValueRef::Arg(1)], act.clone(), spread(0));
        let error = b.binary("stablehlo.subtract", h, labels, act.clone());
        let loss = b.sum(error);
        let param = |shape: &[i64]| Param { ty: t(shape), attrs: Attrs::new() };
        let mut args = vec![param(&[batch, width]), param(&[batch])];
        args.extend((0..layers).map(|_| param(&[width, width])));
        args.extend((0..layers).map(|_| param(&[width])));
        b.graph(args, vec![loss])
    }

    #[test]
    fn a_frozen_teacher_beside_the_batch_is_shared_however_many_its_arrays_or_their_size() {
        // Six teacher arrays of leading size 48 outnumbered x and the labels, and were split as
        // the batch; of the batch's own size (4), they were split with it.
        for width in [48, 4] {
            let g = distillation_step(4, width, 3);
            let dims = batch_input_dims(&g).unwrap();
            assert_eq!(dims, [vec![Some(0), Some(0)], vec![None; 6]].concat(), "width {width}");
            // Nor is a parameter taken for a time-major input.
            assert!(shared_with_a_batch_sized_dim(&g, &dims).is_empty(), "width {width}");
        }
    }

    #[test]
    fn frozen_tables_read_only_by_lookups_are_shared_and_do_not_vote_for_the_batch_size() {
        // ids [4, 6] and labels [4] of 4 examples; two frozen tables [10, 4] looked up by the
        // ids tied the vote with the examples and, the larger, were split as the batch; of the
        // batch's own size they were split with it.
        use crate::ir::graph::{Attrs, Param};
        use crate::ir::test_graphs::{attrs, t, Builder};
        for rows in [10, 4] {
            let mut b = Builder::new();
            let numbers = Attr::Opaque {
                dialect: "stablehlo".into(),
                data:
                    "gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>"
                        .into(),
            };
            let lookup = |b: &mut Builder, table: usize| {
                let ids = b.op("stablehlo.reshape", vec![ValueRef::Arg(0)], t(&[4, 6, 1]), attrs(&[]));
                b.op(
                    "stablehlo.gather",
                    vec![ValueRef::Arg(table), ids],
                    t(&[4, 6, 4]),
                    attrs(&[("dimension_numbers", numbers.clone())]),
                )
            };
            let first = lookup(&mut b, 2);
            let second = lookup(&mut b, 3);
            let sum = b.binary("stablehlo.add", first, second, t(&[4, 6, 4]));
            let loss = b.sum(sum);
            let param = |shape: &[i64]| Param { ty: t(shape), attrs: Attrs::new() };
            let g = b.graph(vec![param(&[4, 6]), param(&[4]), param(&[rows, 4]), param(&[rows, 4])], vec![loss]);
            let dims = batch_input_dims(&g).unwrap();
            assert_eq!(dims, vec![Some(0), Some(0), None, None], "{rows} rows");
            assert!(shared_with_a_batch_sized_dim(&g, &dims).is_empty(), "{rows} rows");
        }
    }

    #[test]
    fn a_shared_argument_with_a_dim_of_the_batch_size_is_reported() {
        use crate::ir::graph::{Attrs, Param};
        use crate::ir::types::{ElementType, TensorType};
        let mut g = tanh_mlp_step(2, 4, 8);
        let arg = |shape: &[i64]| Param {
            ty: ValueType::Tensor(TensorType::new(shape.to_vec(), ElementType::f32())),
            attrs: Attrs::new(),
        };
        // Labels of the 4 examples, time-major [T=3, B=4, F=8], a key of 2 words, a table with
        // no dim of 4.
        g.args.push(arg(&[4]));
        g.args.push(arg(&[3, 4, 8]));
        g.args.push(arg(&[2]));
        g.args.push(arg(&[6, 5]));
        let dims = batch_input_dims(&g).unwrap();
        assert_eq!(dims, vec![None, None, Some(0), Some(0), None, None, None]);
        assert_eq!(shared_with_a_batch_sized_dim(&g, &dims), vec![(4, 1, 4)]);
        // Said explicitly, it is split there and not reported.
        g.args[4].attrs.insert(BATCH_DIM_ATTR.into(), Attr::Int(1));
        let dims = batch_input_dims(&g).unwrap();
        assert_eq!(dims[4], Some(1));
        assert!(shared_with_a_batch_sized_dim(&g, &dims).is_empty());
    }
}
