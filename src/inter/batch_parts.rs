//! Values over part of the batch: gradient accumulation written inside the step
//! (`x.reshape(k, -1, ...)[i]` under `lax.scan`, as big_vision's `accumulate_gradient` does;
//! `lax.dynamic_slice_in_dim(x, i * n, n)`, as t5x's microbatches do) computes each chunk's
//! loss and gradients from some of the microbatch's examples and adds the chunks up. A chunk's
//! sum or mean is no aggregate of the batch: the global step's chunk `i` holds other examples
//! than a microbatch's. The chunks' aggregates added up, each once and with one weight, are.
//! `output_combine` tracks values of the whole batch; this module follows which examples a
//! value holds (`Held`) and the aggregates over part of them (`BatchClass::Part`).

use super::interleaved_batch::{outermost, reshaped, Spread};
use super::output_combine::{adds, adds_zero, is_close, BatchClass};
use crate::ir::constant_fold::Folded;
use crate::ir::graph::{Graph, OpNode, ValueRef};
use crate::ir::op_table::{canonical_name, elementwise_info};
use crate::ir::types::ValueType;

/// The examples at positions `lo..hi` of the microbatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub lo: i64,
    pub hi: i64,
}

impl Span {
    fn len(self) -> i64 {
        self.hi - self.lo
    }
}

/// Examples split into chunks along two dimensions (`x.reshape(k, -1, ...)`): `chunk_dim`
/// numbers `count` chunks of `size` examples each, `dim` the example within its chunk; the
/// first one held is at position `start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunks {
    pub chunk_dim: usize,
    pub dim: usize,
    pub size: i64,
    pub start: i64,
    pub count: i64,
}

impl Chunks {
    fn span(self) -> Span {
        Span { lo: self.start, hi: self.start + self.count * self.size }
    }
}

/// Which examples a value per example holds, where that is not all of them in the class's
/// dimension (`None` in the per-op table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    /// Per example along the class's dimension: the examples of this span only.
    Span(Span),
    /// Per example across two dimensions (a `BatchClass::PerExample(None)`).
    Chunks(Chunks),
    /// Every example, out of the batch's order (`jnp.flip`, a roll, `x[permutation]`): a sum
    /// over them is the batch's, a slice of them no span.
    Shuffled,
    /// Some of the examples, which ones lost track of.
    Unknown,
}

/// `scale` times a sum of `count` elements of the examples in `span`: a chunk's sum, its mean
/// (`averaged`: divided by its count at some point), or several adjacent chunks' added up.
/// `whole`: the span is the whole microbatch, and the value the chunks' means added up without
/// dividing by their number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PartAggregate {
    pub span: Span,
    pub count: f64,
    pub scale: f64,
    pub averaged: bool,
    pub whole: bool,
}

/// What is known of an operand: its class, and the examples it holds when they are part of
/// the batch.
#[derive(Clone, Copy)]
pub struct Operand {
    pub class: BatchClass,
    pub held: Option<Held>,
}

/// `c`, the class `output_combine` gives `op`, and the examples its result holds, given its
/// operands' and `examples` per microbatch: aggregates over part of the batch become
/// `BatchClass::Part` (or the batch's sum or mean once every chunk is in), chunks are followed
/// through the ops that keep them apart and picked out by slices.
pub fn follow_parts(
    graph: &Graph,
    op: &OpNode,
    operands: &[Operand],
    c: BatchClass,
    examples: i64,
    folded_of: &dyn Fn(&ValueRef) -> Option<Folded>,
) -> (BatchClass, Option<Held>) {
    if operands.iter().any(|o| matches!(o.class, BatchClass::Part(_))) {
        return (part_class(graph, op, operands, examples, folded_of), None);
    }
    let per_example: Vec<(usize, Option<Held>)> = operands
        .iter()
        .enumerate()
        .filter(|(_, o)| matches!(o.class, BatchClass::PerExample(_)))
        .map(|(i, o)| (i, o.held))
        .collect();
    if per_example.iter().all(|(_, h)| h.is_none()) {
        if let Some(chunks) = split_batch(graph, op, operands, examples) {
            return (c, Some(Held::Chunks(chunks)));
        }
        let reordered = match c {
            BatchClass::PerExample(Some(d)) => reorders(op, operands, d),
            _ => false,
        };
        if !reordered && !matches!(canonical_name(&op.name).as_str(), "slice" | "dynamic_slice") {
            return (c, None);
        }
    }
    match shared(&per_example) {
        Some(Some(Held::Chunks(chunks))) => return through_chunks(graph, op, operands, chunks, examples, folded_of),
        _ if per_example.iter().any(|(_, h)| matches!(h, Some(Held::Chunks(_)))) => {
            return (BatchClass::PerExample(None), Some(Held::Unknown))
        }
        _ => {}
    }
    match c {
        BatchClass::PerExample(Some(d)) => {
            let first = per_example.first().map(|&(i, _)| i).unwrap_or(0);
            let held = match canonical_name(&op.name).as_str() {
                "slice" | "dynamic_slice" => sliced(graph, op, operands[first], d, examples, folded_of),
                "concatenate" => joined(graph, op, operands, d, examples),
                _ if reorders(op, operands, d) => match shared(&per_example) {
                    Some(None | Some(Held::Shuffled)) => Some(Held::Shuffled),
                    _ => Some(Held::Unknown),
                },
                _ => all_examples(&per_example).unwrap_or(Some(Held::Unknown)),
            };
            (c, held)
        }
        BatchClass::PerExample(None) => (c, shared(&per_example).unwrap_or(Some(Held::Unknown))),
        BatchClass::Sum { count } => match all_examples(&per_example) {
            Some(Some(Held::Span(span))) => (settle(PartAggregate::summed(span, count), examples), None),
            Some(None | Some(Held::Shuffled)) => (c, None),
            _ => (BatchClass::Other, None),
        },
        // A weight's gradient over a chunk: gradients combine as the loss says.
        BatchClass::Contraction => (c, None),
        // Anything else over part of the batch: no aggregate of it.
        BatchClass::Mean | BatchClass::Extreme { .. } => match all_examples(&per_example) {
            Some(None | Some(Held::Shuffled)) => (c, None),
            _ => (BatchClass::Other, None),
        },
        _ => (c, None),
    }
}

/// `shared`, with every example in the batch's order and out of it taken for every example out
/// of it (mixup's `x + flip(x)`).
fn all_examples(per_example: &[(usize, Option<Held>)]) -> Option<Option<Held>> {
    let every = per_example.iter().all(|(_, h)| matches!(h, None | Some(Held::Shuffled)));
    if every && per_example.iter().any(|(_, h)| *h == Some(Held::Shuffled)) {
        return Some(Some(Held::Shuffled));
    }
    shared(per_example)
}

/// Whether `op` moves the examples of values per example (batched in dimension `d`) along the
/// batch: a reverse of that dimension, a gather of its examples by shared indices.
fn reorders(op: &OpNode, operands: &[Operand], d: usize) -> bool {
    match canonical_name(&op.name).as_str() {
        "reverse" => {
            op.attr("dimensions").and_then(|a| a.as_i64_array()).is_some_and(|dims| dims.contains(&(d as i64)))
        }
        "gather" => {
            matches!(operands.first().map(|o| o.class), Some(BatchClass::PerExample(Some(_))))
                && operands.get(1).map(|o| o.class) == Some(BatchClass::Independent)
        }
        _ => false,
    }
}

impl PartAggregate {
    fn summed(span: Span, count: f64) -> Self {
        PartAggregate { span, count, scale: 1.0, averaged: false, whole: false }
    }
}

/// What the values per example among `per_example` hold, when they hold the same (`None`
/// inside: all of the examples).
fn shared(per_example: &[(usize, Option<Held>)]) -> Option<Option<Held>> {
    let first = per_example.first()?.1;
    per_example.iter().all(|(_, h)| *h == first).then_some(first)
}

/// The class of a part aggregate (or of several) after `op`: scaled by folded constants,
/// moved, converted, or added to the adjacent chunks' aggregate of the same weight; the
/// batch's sum or mean once the span is the whole microbatch. Anything else is `Other`: the
/// chunks' values met in another way than adding up.
fn part_class(
    graph: &Graph,
    op: &OpNode,
    operands: &[Operand],
    examples: i64,
    folded_of: &dyn Fn(&ValueRef) -> Option<Folded>,
) -> BatchClass {
    let classes: Vec<BatchClass> = operands.iter().map(|o| o.class).collect();
    let parts: Vec<PartAggregate> = classes
        .iter()
        .filter_map(|c| match c {
            BatchClass::Part(p) => Some(*p),
            _ => None,
        })
        .collect();
    let others_independent = classes.iter().all(|c| matches!(c, BatchClass::Part(_) | BatchClass::Independent));
    if !others_independent {
        return BatchClass::Other;
    }
    let folded_scale = |op: &OpNode| {
        op.operands.iter().zip(&classes).find(|(_, c)| **c == BatchClass::Independent).and_then(
            |(v, _)| match folded_of(v) {
                Some(Folded::Uniform(f)) => Some(f),
                _ => None,
            },
        )
    };
    let to_float = || op.results.first().and_then(ValueType::tensor).is_some_and(|t| t.element.is_float());
    let part = match (canonical_name(&op.name).as_str(), parts.as_slice()) {
        ("convert", [p]) if to_float() => Some(*p),
        ("reshape" | "broadcast_in_dim" | "copy" | "transpose", [p]) => Some(*p),
        ("negate", [p]) => Some(PartAggregate { scale: -p.scale, ..*p }),
        ("multiply", [p]) => folded_scale(op).map(|f| PartAggregate { scale: p.scale * f, ..*p }),
        ("divide", [p]) if matches!(classes.first(), Some(BatchClass::Part(_))) => {
            folded_scale(op).filter(|f| *f != 0.0).map(|f| PartAggregate { scale: p.scale / f, ..*p })
        }
        ("add", [a, b]) => adjacent(*a, *b),
        ("add" | "subtract", [p]) if adds_zero(op, &classes, folded_of) => Some(*p),
        ("reduce", [p]) if adds(op) && op.operands.get(1).and_then(folded_of) == Some(Folded::Uniform(0.0)) => {
            let input = graph.value_type(op.operands[0]).and_then(ValueType::tensor);
            let dims = op.attr("dimensions").and_then(|a| a.as_i64_array());
            match (input, dims) {
                (Some(t), Some(dims)) => {
                    let more: f64 =
                        dims.iter().map(|&d| t.shape.get(d as usize).copied().unwrap_or(1) as f64).product();
                    Some(PartAggregate { count: p.count * more, scale: p.scale, ..*p })
                }
                _ => None,
            }
        }
        _ => None,
    };
    part.map_or(BatchClass::Other, |p| settle(p, examples))
}

/// Two chunks' aggregates side by side, of one kind and one weight, added up.
fn adjacent(a: PartAggregate, b: PartAggregate) -> Option<PartAggregate> {
    let (first, second) = if a.span.hi == b.span.lo { (a, b) } else { (b, a) };
    let fits = first.span.hi == second.span.lo
        && first.averaged == second.averaged
        && !first.whole
        && !second.whole
        && is_close(first.scale, second.scale);
    fits.then_some(PartAggregate {
        span: Span { lo: first.span.lo, hi: second.span.hi },
        count: first.count + second.count,
        ..first
    })
}

/// The class of `part`: the batch's sum once it spans the microbatch unscaled by a mean's
/// divisor, its mean once divided by its whole count; the chunks' means added up stay a part
/// aggregate (`whole`), which `inter/program.rs` combines as a mean with a warning.
fn settle(part: PartAggregate, examples: i64) -> BatchClass {
    let averaged = part.averaged || is_close(part.scale * part.count, 1.0);
    let part = PartAggregate { averaged, ..part };
    if part.span.len() != examples {
        return BatchClass::Part(part);
    }
    if is_close(part.scale * part.count, 1.0) {
        BatchClass::Mean
    } else if !averaged {
        BatchClass::Sum { count: part.count }
    } else {
        BatchClass::Part(PartAggregate { whole: true, ..part })
    }
}

fn shape_of(graph: &Graph, v: ValueRef) -> Option<Vec<i64>> {
    graph.value_type(v).and_then(ValueType::tensor).map(|t| t.shape.clone())
}

/// A reshape that splits the batch's dimension of a value of every example into chunks
/// (`[b, F] -> [k, b / k, F]`): where they go.
fn split_batch(graph: &Graph, op: &OpNode, operands: &[Operand], examples: i64) -> Option<Chunks> {
    if canonical_name(&op.name) != "reshape" {
        return None;
    }
    let BatchClass::PerExample(Some(d)) = operands.first()?.class else { return None };
    let from = shape_of(graph, op.operands[0])?;
    let to = op.results.first().and_then(ValueType::tensor)?.shape.clone();
    if *from.get(d)? != examples {
        return None;
    }
    let after: i64 = from[d + 1..].iter().product();
    (0..to.len().saturating_sub(1))
        .find(|&j| {
            to[j] > 1 && to[j + 1] > 1 && to[j] * to[j + 1] == examples && to[j + 2..].iter().product::<i64>() == after
        })
        .map(|j| Chunks { chunk_dim: j, dim: j + 1, size: to[j + 1], start: 0, count: to[j] })
}

/// What an op makes of chunks of the examples: kept apart by elementwise ops, broadcasts and
/// transposes, some of them picked by a slice of the chunks' dimension, taken back out as a
/// dimension of examples by a reshape, added up by a reduction over both of their dimensions.
fn through_chunks(
    graph: &Graph,
    op: &OpNode,
    operands: &[Operand],
    chunks: Chunks,
    examples: i64,
    folded_of: &dyn Fn(&ValueRef) -> Option<Folded>,
) -> (BatchClass, Option<Held>) {
    let lost = (BatchClass::PerExample(None), Some(Held::Unknown));
    let Some(result_shape) = op.results.first().and_then(ValueType::tensor).map(|t| t.shape.clone()) else {
        return lost;
    };
    let Some(operand_shape) = shape_of(graph, op.operands[0]) else { return lost };
    let kept = |chunks: Chunks| (BatchClass::PerExample(None), Some(Held::Chunks(chunks)));
    let others_independent =
        operands.iter().all(|o| o.class == BatchClass::Independent || o.held == Some(Held::Chunks(chunks)));
    if !others_independent {
        return lost;
    }
    let name = canonical_name(&op.name);
    match name.as_str() {
        n if elementwise_info(n).is_some() && operand_shape == result_shape => kept(chunks),
        "broadcast_in_dim" | "transpose" => {
            let moved = |d: usize| -> Option<usize> {
                if name == "transpose" {
                    op.attr("permutation")?.as_i64_array()?.iter().position(|&p| p as usize == d)
                } else {
                    op.attr("broadcast_dimensions")?.as_i64_array()?.get(d).map(|&x| x as usize)
                }
            };
            match (moved(chunks.chunk_dim), moved(chunks.dim)) {
                (Some(chunk_dim), Some(dim)) => kept(Chunks { chunk_dim, dim, ..chunks }),
                _ => lost,
            }
        }
        "slice" | "dynamic_slice" => {
            let bounds = slice_bounds(op, &operand_shape, folded_of);
            let at = |d: usize| bounds.as_ref().and_then(|b| b.get(d).copied().flatten());
            match (at(chunks.chunk_dim), at(chunks.dim)) {
                (Some((c0, c1)), Some(within)) if within == (0, chunks.size) && c1 > c0 => {
                    kept(Chunks { start: chunks.start + c0 * chunks.size, count: c1 - c0, ..chunks })
                }
                _ => lost,
            }
        }
        "reshape" if chunks.chunk_dim + 1 == chunks.dim && chunks.dim < operand_shape.len() => {
            // Adjacent, the chunks are one run of examples: a dimension of them merged.
            let mut merged = operand_shape.clone();
            merged[chunks.chunk_dim] = chunks.count * chunks.size;
            merged.remove(chunks.dim);
            let held = chunks.count * chunks.size;
            let spread = outermost(&merged, chunks.chunk_dim, held)
                .and_then(|layout| reshaped(&merged, layout, &result_shape, held));
            match spread {
                Some(Spread::Outermost(j)) => {
                    let span = chunks.span();
                    (BatchClass::PerExample(Some(j)), (span.len() != examples).then_some(Held::Span(span)))
                }
                _ => lost,
            }
        }
        "reduce" if adds(op) => {
            let Some(dims) = op.attr("dimensions").and_then(|a| a.as_i64_array()) else { return lost };
            let dims: Vec<usize> = dims.iter().map(|&d| d as usize).collect();
            let (over_chunks, over_examples) = (dims.contains(&chunks.chunk_dim), dims.contains(&chunks.dim));
            if over_chunks && over_examples {
                let count: f64 = dims.iter().map(|&d| operand_shape.get(d).copied().unwrap_or(1) as f64).product();
                (settle(PartAggregate::summed(chunks.span(), count), examples), None)
            } else if !over_chunks && !over_examples {
                let shift = |d: usize| d - dims.iter().filter(|&&x| x < d).count();
                kept(Chunks { chunk_dim: shift(chunks.chunk_dim), dim: shift(chunks.dim), ..chunks })
            } else {
                (BatchClass::Other, None)
            }
        }
        _ => lost,
    }
}

/// Per dimension of a slice's (or a dynamic slice's) operand: the range it keeps (`None` where
/// it strides, keeping every other position or fewer, and for a dynamic slice's start that
/// does not fold).
fn slice_bounds(
    op: &OpNode,
    operand_shape: &[i64],
    folded_of: &dyn Fn(&ValueRef) -> Option<Folded>,
) -> Option<Vec<Option<(i64, i64)>>> {
    if canonical_name(&op.name) == "slice" {
        let (start, limit, strides) = op.slice_indices()?;
        let bounds = start.into_iter().zip(limit).zip(strides);
        return Some(bounds.map(|(range, stride)| (stride == 1).then_some(range)).collect());
    }
    let sizes = op.attr("slice_sizes")?.as_i64_array()?.to_vec();
    let starts = op.operands.get(1..)?.iter().map(|v| match folded_of(v) {
        Some(Folded::Uniform(f)) if f.fract() == 0.0 => Some(f as i64),
        _ => None,
    });
    // XLA clamps a dynamic slice's start so that the slice fits.
    let bounds = starts.zip(sizes).zip(operand_shape).map(|((start, size), &dim)| {
        let s = start.filter(|_| size <= dim)?.clamp(0, dim - size);
        Some((s, s + size))
    });
    Some(bounds.collect())
}

/// The examples a slice of values per example (the batch in dimension `d`) keeps.
fn sliced(
    graph: &Graph,
    op: &OpNode,
    operand: Operand,
    d: usize,
    examples: i64,
    folded_of: &dyn Fn(&ValueRef) -> Option<Folded>,
) -> Option<Held> {
    let shape = shape_of(graph, op.operands[0])?;
    let span = match operand.held {
        None => Span { lo: 0, hi: examples },
        Some(Held::Span(span)) => span,
        Some(_) => return Some(Held::Unknown),
    };
    // Only a dimension that is the examples themselves is sliced by example.
    if shape.get(d) != Some(&span.len()) {
        return Some(Held::Unknown);
    }
    let Some((lo, hi)) = slice_bounds(op, &shape, folded_of).and_then(|b| b.get(d).copied().flatten()) else {
        return Some(Held::Unknown);
    };
    let kept = Span { lo: span.lo + lo, hi: span.lo + hi };
    (kept.len() != examples).then_some(Held::Span(kept))
}

/// The examples a concatenation along the batch's dimension `d` holds: its pieces' spans, when
/// they make one run (in any order: a roll), else lost track of.
fn joined(graph: &Graph, op: &OpNode, operands: &[Operand], d: usize, examples: i64) -> Option<Held> {
    let mut spans = Vec::new();
    for (v, o) in op.operands.iter().zip(operands) {
        let span = match (o.class, o.held) {
            (BatchClass::PerExample(Some(e)), None) if e == d => Span { lo: 0, hi: examples },
            (BatchClass::PerExample(Some(e)), Some(Held::Span(span))) if e == d => span,
            _ => return Some(Held::Unknown),
        };
        if shape_of(graph, *v).and_then(|s| s.get(d).copied()) != Some(span.len()) {
            return Some(Held::Unknown);
        }
        spans.push(span);
    }
    let run = |spans: &[Span]| spans.windows(2).all(|w| w[0].hi == w[1].lo);
    let in_order = run(&spans);
    spans.sort_by_key(|s| s.lo);
    match (run(&spans), spans.first(), spans.last()) {
        (true, Some(first), Some(last)) => {
            let span = Span { lo: first.lo, hi: last.hi };
            match (in_order, span.len() == examples) {
                (true, true) => None,
                (true, false) => Some(Held::Span(span)),
                // A roll: every example, out of order.
                (false, true) => Some(Held::Shuffled),
                (false, false) => Some(Held::Unknown),
            }
        }
        _ => Some(Held::Unknown),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inter::output_combine::batch_classes_and_held;
    use crate::ir::graph::{Attr, Attrs, Param};
    use crate::ir::test_graphs::{attrs, t, Builder};
    use crate::ir::types::{ElementType, TensorType};

    /// The class and the held examples of each of `values`, built on `b` over `x: [8, 4]`
    /// batched in dimension 0.
    fn classes_of(b: Builder, values: &[ValueRef]) -> Vec<(BatchClass, Option<Held>)> {
        let g = b.graph(vec![Param { ty: t(&[8, 4]), attrs: Attrs::new() }], values.to_vec());
        let (classes, held) = batch_classes_and_held(&g, &[Some(0)]);
        values
            .iter()
            .map(|v| match *v {
                ValueRef::Op { op, .. } => (classes[op], held[op]),
                _ => unreachable!("the values are ops"),
            })
            .collect()
    }

    fn number(b: &mut Builder, value: f64) -> ValueRef {
        let value =
            Attr::Elements { ty: TensorType::new(vec![], ElementType::f32()), splat: true, values: Some(vec![value]) };
        b.op("stablehlo.constant", vec![], t(&[]), attrs(&[("value", value)]))
    }

    fn slice(b: &mut Builder, x: ValueRef, start: &[i64], limit: &[i64]) -> ValueRef {
        b.slice(x, start, limit, &vec![1; start.len()])
    }

    /// The sum of all elements of `x` (of rank `rank`).
    fn total(b: &mut Builder, x: ValueRef, rank: i64) -> ValueRef {
        let zero = number(b, 0.0);
        b.reduce_sum(x, zero, &(0..rank).collect::<Vec<_>>(), t(&[]))
    }

    fn times(b: &mut Builder, x: ValueRef, factor: f64) -> ValueRef {
        let f = number(b, factor);
        b.binary("stablehlo.multiply", x, f, t(&[]))
    }

    /// `x.reshape(2, 4, 4)`'s chunks `[0]` and `[1]`, each summed.
    fn chunk_sums(b: &mut Builder) -> (ValueRef, ValueRef, ValueRef) {
        let chunks = b.unary("stablehlo.reshape", ValueRef::Arg(0), t(&[2, 4, 4]));
        let first = slice(b, chunks, &[0, 0, 0], &[1, 4, 4]);
        let second = slice(b, chunks, &[1, 0, 0], &[2, 4, 4]);
        let (s0, s1) = (total(b, first, 3), total(b, second, 3));
        (chunks, s0, s1)
    }

    fn part(lo: i64, hi: i64, count: f64, scale: f64, averaged: bool) -> BatchClass {
        BatchClass::Part(PartAggregate { span: Span { lo, hi }, count, scale, averaged, whole: false })
    }

    #[test]
    fn the_sums_of_chunks_split_by_a_reshape_are_parts_of_the_batch_and_added_up_its_sum() {
        let mut b = Builder::new();
        let (chunks, s0, s1) = chunk_sums(&mut b);
        let both = b.binary("stablehlo.add", s0, s1, t(&[]));
        let got = classes_of(b, &[chunks, s0, s1, both]);
        let split = Chunks { chunk_dim: 0, dim: 1, size: 4, start: 0, count: 2 };
        assert_eq!(got[0], (BatchClass::PerExample(None), Some(Held::Chunks(split))));
        assert_eq!(got[1], (part(0, 4, 16.0, 1.0, false), None));
        assert_eq!(got[2], (part(4, 8, 16.0, 1.0, false), None));
        assert_eq!(got[3], (BatchClass::Sum { count: 32.0 }, None));
    }

    #[test]
    fn the_means_of_chunks_added_up_are_a_mean_once_divided_by_their_number() {
        let mut b = Builder::new();
        let (_, s0, s1) = chunk_sums(&mut b);
        let (m0, m1) = (times(&mut b, s0, 1.0 / 16.0), times(&mut b, s1, 1.0 / 16.0));
        let both = b.binary("stablehlo.add", m0, m1, t(&[]));
        let mean = times(&mut b, both, 0.5);
        let got = classes_of(b, &[m0, both, mean]);
        assert_eq!(got[0].0, part(0, 4, 16.0, 1.0 / 16.0, true));
        let whole =
            PartAggregate { span: Span { lo: 0, hi: 8 }, count: 32.0, scale: 1.0 / 16.0, averaged: true, whole: true };
        assert_eq!(got[1].0, BatchClass::Part(whole));
        assert_eq!(got[2].0, BatchClass::Mean);
    }

    #[test]
    fn chunks_weighted_differently_or_met_otherwise_are_no_aggregate_of_the_batch() {
        let mut b = Builder::new();
        let (_, s0, s1) = chunk_sums(&mut b);
        let doubled = times(&mut b, s0, 2.0);
        let weighted = b.binary("stablehlo.add", doubled, s1, t(&[]));
        let product = b.binary("stablehlo.multiply", s0, s1, t(&[]));
        let twice = b.binary("stablehlo.add", s0, s0, t(&[]));
        let got = classes_of(b, &[weighted, product, twice]);
        assert_eq!(got.iter().map(|g| g.0).collect::<Vec<_>>(), vec![BatchClass::Other; 3]);
    }

    #[test]
    fn a_slice_of_the_batch_holds_a_span_and_its_sum_is_part_of_the_batch() {
        // x[:2].sum(), and x[2:] added to it: the batch's sum.
        let mut b = Builder::new();
        let head = slice(&mut b, ValueRef::Arg(0), &[0, 0], &[2, 4]);
        let tail = slice(&mut b, ValueRef::Arg(0), &[2, 0], &[8, 4]);
        let (h, rest) = (total(&mut b, head, 2), total(&mut b, tail, 2));
        let both = b.binary("stablehlo.add", h, rest, t(&[]));
        let got = classes_of(b, &[head, h, both]);
        assert_eq!(got[0], (BatchClass::PerExample(Some(0)), Some(Held::Span(Span { lo: 0, hi: 2 }))));
        assert_eq!(got[1].0, part(0, 2, 8.0, 1.0, false));
        assert_eq!(got[2].0, BatchClass::Sum { count: 32.0 });
    }

    #[test]
    fn a_slice_striding_another_dimension_keeps_every_example_and_one_striding_the_batch_loses_them() {
        // RoPE's x[..., ::2] keeps the batch whole; x[::2] keeps every other example.
        let mut b = Builder::new();
        let evens = b.slice(ValueRef::Arg(0), &[0, 0], &[8, 4], &[1, 2]);
        let sum = total(&mut b, evens, 2);
        let every_other_example = b.slice(ValueRef::Arg(0), &[0, 0], &[8, 4], &[2, 1]);
        let got = classes_of(b, &[evens, sum, every_other_example]);
        assert_eq!(got[0], (BatchClass::PerExample(Some(0)), None));
        assert_eq!(got[1], (BatchClass::Sum { count: 16.0 }, None));
        assert_eq!(got[2], (BatchClass::PerExample(Some(0)), Some(Held::Unknown)));
    }

    #[test]
    fn a_dynamic_slice_at_a_folded_start_holds_its_span_clamped_into_the_batch() {
        let mut b = Builder::new();
        let at = |b: &mut Builder, row: f64| {
            let (row, zero) = (number(b, row), number(b, 0.0));
            let sizes = attrs(&[("slice_sizes", Attr::I64Array(vec![4, 4]))]);
            b.op("stablehlo.dynamic_slice", vec![ValueRef::Arg(0), row, zero], t(&[4, 4]), sizes)
        };
        let (second, beyond) = (at(&mut b, 4.0), at(&mut b, 6.0));
        let got = classes_of(b, &[second, beyond]);
        let upper = Some(Held::Span(Span { lo: 4, hi: 8 }));
        assert_eq!(got, vec![(BatchClass::PerExample(Some(0)), upper); 2]);
    }

    #[test]
    fn a_roll_holds_every_example_out_of_order_and_its_sum_is_the_batchs() {
        let mut b = Builder::new();
        let (tail, head) =
            (slice(&mut b, ValueRef::Arg(0), &[1, 0], &[8, 4]), slice(&mut b, ValueRef::Arg(0), &[0, 0], &[1, 4]));
        let dim = attrs(&[("dimension", Attr::Int(0))]);
        let rolled = b.op("stablehlo.concatenate", vec![tail, head], t(&[8, 4]), dim);
        let sum = total(&mut b, rolled, 2);
        let got = classes_of(b, &[rolled, sum]);
        assert_eq!(got[0], (BatchClass::PerExample(Some(0)), Some(Held::Shuffled)));
        assert_eq!(got[1].0, BatchClass::Sum { count: 32.0 });
    }

    #[test]
    fn chunks_taken_back_out_by_a_reshape_are_a_span_of_examples() {
        // x.reshape(2, 4, 4)[1:].reshape(4, 4): the second half of the batch.
        let mut b = Builder::new();
        let chunks = b.unary("stablehlo.reshape", ValueRef::Arg(0), t(&[2, 4, 4]));
        let second = slice(&mut b, chunks, &[1, 0, 0], &[2, 4, 4]);
        let rows = b.unary("stablehlo.reshape", second, t(&[4, 4]));
        let got = classes_of(b, &[rows]);
        assert_eq!(got[0], (BatchClass::PerExample(Some(0)), Some(Held::Span(Span { lo: 4, hi: 8 }))));
    }
}
