//! How a value a train step returns combines over microbatches. A pipeline runs the step once
//! per microbatch; the global batch's value of a result is recovered only when the result is a
//! sum over the batch's examples (the microbatches' values add up) or a mean of one (they
//! average, the microbatches being of one size), a maximum or a minimum over them (the
//! largest or the smallest microbatch's), or when it keeps a value per example (the
//! microbatches' values side by side, unless its examples moved along the batch:
//! `batch_order::examples_moved`). A result that is some other function of the batch (a norm, a
//! ratio of two sums, the exponential of a mean) has no such combination per microbatch:
//! `inter/program.rs` computes it once from the combined sums and means where it reads
//! nothing else.
//!
//! The classes are propagated forward from the batch inputs: elementwise ops and data movement
//! keep a value per example (tracking which dimension is the batch's; a reshape that merges the
//! batch with the dimensions after it keeps the examples as the merged dimension's outermost
//! factor, one that merges it below another factor is followed by `interleaved_batch`); batch
//! norms whose features are the examples keep them apart; an additive reduction over that dimension makes a sum; dividing a sum by a number
//! that grows with the batch (the elements it added, the examples, or the examples times a whole
//! number), or multiplying by its inverse, makes a mean; sums and means stay what
//! they are when scaled by batch-independent values, added to their own kind, negated or
//! converted; a mean also when a batch-independent value is added to it or chosen in its place
//! by a batch-independent predicate, a sum when the value chosen instead is zero (Keras'
//! `divide_no_nan`, whose guarded divisor is folded from constants). A reduction by maximum
//! (minimum) over the batch makes an extreme, which data movement keeps and a negation turns
//! into the other (`extreme_class`). Anything else is `Other`. The results of an op that carries
//! its operands through (`optimization_barrier`, which `jax.checkpoint` recomputes from) each keep
//! their operand's class (`BatchClasses`).

use std::cell::Cell;

use super::batch_parts::{follow_parts, Held, Operand, PartAggregate};
use super::interleaved_batch::{outermost, reshaped, spread, Layout, Spread};
use super::loop_classes::carried_classes;
use super::scatter_bins::{adds_into_bins, index_component, positions_along};
use crate::ir::attr_text::{
    ConvDimensionNumbers, DotDimensionNumbers, GatherDimensionNumbers, ScatterDimensionNumbers,
};
use crate::ir::batch_inputs::{examples_counts, examples_per_microbatch};
use crate::ir::constant_fold::{folded_constants, Folded};
use crate::ir::constant_values::NOT_CONSTANT;
use crate::ir::graph::{Graph, OpNode, ValueRef};
use crate::ir::op_table::{canonical_name, elementwise_info, op_rule, opaque_text, FactorKind, OpRule};
use crate::ir::types::ValueType;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BatchClass {
    /// Computed without the batch: every microbatch computes the same value.
    Independent,
    /// One value per example, the batch in this dimension (`None`: a dimension lost track of).
    PerExample(Option<usize>),
    /// A sum over the batch of `count` elements per microbatch (scaled by batch-independent
    /// values).
    Sum {
        count: f64,
    },
    /// A mean over the batch.
    Mean,
    /// The largest (`max`) or the smallest element over the batch: the microbatches' values
    /// combine by their maximum (minimum).
    Extreme {
        max: bool,
    },
    /// Per-example terms contracted over the batch dimension (a weight gradient `x^T g`): an
    /// aggregate over the batch, but with weights this analysis does not track (the loss's
    /// 1/batch sits inside `g`), so whether the microbatches' values add up or average is
    /// unknown.
    Contraction,
    /// An aggregate over part of the batch (`batch_parts`): some chunks of a gradient
    /// accumulation within the step, a slice of the batch.
    Part(PartAggregate),
    Other,
}

impl BatchClass {
    /// A statistic of the whole batch: a sum, a mean, an extreme or a contraction over it.
    pub fn is_statistic(self) -> bool {
        matches!(self, BatchClass::Sum { .. } | BatchClass::Mean | BatchClass::Contraction | BatchClass::Extreme { .. })
    }
}

/// The class of every value the ops compute. Indexed by op, the op's class: its results'
/// where they share one. A result's own class (`of`) is known apart from its op's where the op
/// has one result, and by the op table's rule where its results carry its operands through
/// (`optimization_barrier`, as `jax.checkpoint` wraps the weights, activations and cotangents it
/// recomputes from) or each keep the examples apart (a sort's or an argmax's results, a batch
/// norm's statistics when its features are the examples), or a loop's body keeps the examples
/// apart (`loop_classes`); other loops' carried values share the loop's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BatchClasses {
    ops: Vec<BatchClass>,
    /// Per op whose results have classes of their own apart from the op's: each result's.
    results: Vec<Option<Vec<BatchClass>>>,
}

impl std::ops::Deref for BatchClasses {
    type Target = [BatchClass];

    fn deref(&self) -> &[BatchClass] {
        &self.ops
    }
}

impl BatchClasses {
    /// Classes of ops whose results share them.
    #[cfg(test)]
    pub fn per_op(ops: Vec<BatchClass>) -> Self {
        let results = vec![None; ops.len()];
        BatchClasses { ops, results }
    }

    /// The class of value `v`: a batch input's examples, a shared argument, its own class as a
    /// result, or its op's.
    pub fn of(&self, v: ValueRef, batch_dims: &[Option<usize>]) -> BatchClass {
        match v {
            ValueRef::Arg(a) => batch_dims
                .get(a)
                .copied()
                .flatten()
                .map_or(BatchClass::Independent, |d| BatchClass::PerExample(Some(d))),
            ValueRef::Op { op, result } => self.of_result(op, result),
            ValueRef::Outer => BatchClass::Other,
        }
    }

    /// The class of result `result` of op `op`.
    pub fn of_result(&self, op: usize, result: usize) -> BatchClass {
        self.results[op].as_ref().and_then(|own| own.get(result).copied()).unwrap_or(self.ops[op])
    }

    /// Whether `of(v)` is `v`'s own class, not one it shares with its op's other results.
    pub fn is_own(&self, graph: &Graph, v: ValueRef) -> bool {
        match v {
            ValueRef::Op { op, .. } => self.results[op].is_some() || graph.ops()[op].results.len() == 1,
            ValueRef::Arg(_) => true,
            ValueRef::Outer => false,
        }
    }

    fn push(&mut self, class: BatchClass, results: Option<Vec<BatchClass>>) {
        self.ops.push(class);
        self.results.push(results);
    }
}

/// The class of every value, given the batch dimension of each argument (`None`: not a batch
/// input).
pub fn batch_classes(graph: &Graph, batch_dims: &[Option<usize>]) -> BatchClasses {
    batch_classes_and_held(graph, batch_dims).0
}

/// `batch_classes`, and per op the examples its result holds where they are part of the batch
/// (`batch_parts::Held`; `None`: all of them, or no value per example).
pub fn batch_classes_and_held(graph: &Graph, batch_dims: &[Option<usize>]) -> (BatchClasses, Vec<Option<Held>>) {
    let inputs = BatchInputs {
        examples: examples_per_microbatch(graph, batch_dims),
        counts: examples_counts(graph, batch_dims),
        shared_shapes: graph
            .args
            .iter()
            .enumerate()
            .filter(|(a, _)| batch_dims.get(*a).copied().flatten().is_none())
            .filter_map(|(_, p)| p.ty.tensor().map(|t| t.shape.clone()))
            .collect(),
        loop_regions_left: Cell::new(LOOP_REGIONS),
    };
    classes_and_held(graph, batch_dims, &inputs)
}

/// `batch_classes_and_held` of `graph` (the step, or a loop's region) whose arguments have the
/// examples in `batch_dims`, the step's batch inputs being `inputs`.
fn classes_and_held(
    graph: &Graph,
    batch_dims: &[Option<usize>],
    inputs: &BatchInputs,
) -> (BatchClasses, Vec<Option<Held>>) {
    let ops = graph.ops();
    let folded = folded_constants(graph);
    let mut class = BatchClasses::default();
    // Per op: where the examples are when they are an inner factor of a dimension.
    let mut within: Vec<Option<Layout>> = Vec::with_capacity(ops.len());
    let mut held: Vec<Option<Held>> = Vec::with_capacity(ops.len());
    for op in ops {
        let operands: Vec<BatchClass> = op.operands.iter().map(|v| class.of(*v, batch_dims)).collect();
        let folded_of = |v: &ValueRef| match *v {
            ValueRef::Op { op, result: 0 } => folded[op].clone(),
            _ => None,
        };
        let c = if operands.iter().all(|c| *c == BatchClass::Independent) {
            BatchClass::Independent
        } else {
            classify(graph, op, &operands, inputs, folded_of)
        };
        let (c, inner) = match inputs.examples {
            Some(examples) => follow_inner_examples(graph, op, &operands, &within, c, examples),
            None => (c, None),
        };
        let (c, part) = match inputs.examples {
            Some(examples) if c != BatchClass::Independent => {
                let known: Vec<Operand> = op
                    .operands
                    .iter()
                    .zip(&operands)
                    .map(|(v, &class)| Operand {
                        class,
                        held: match *v {
                            ValueRef::Op { op, .. } => held[op],
                            _ => None,
                        },
                    })
                    .collect();
                follow_parts(graph, op, &known, c, examples, &folded_of)
            }
            _ => (c, None),
        };
        let own = match canonical_name(&op.name).as_str() {
            "while" if c != BatchClass::Independent => {
                carried_classes(op, &operands, |region, dims| kept_per_example(region, dims, inputs))
            }
            _ => None,
        };
        class.push(c, own.or_else(|| results_own_classes(graph, op, &operands, c)));
        within.push(inner);
        held.push(part);
    }
    (class, held)
}

/// Ops whose value is their operand's, moved, converted or negated: a sum or a mean stays one.
pub(super) const MOVES_OR_NEGATES: [&str; 8] =
    ["convert", "negate", "reshape", "broadcast_in_dim", "copy", "transpose", "slice", "reverse"];

/// The classes of `op`'s results where each has its own (`BatchClasses`), given its operands'.
/// `c` is the op's class. By the op table's rule: results that carry their operands through
/// keep their operands' classes; values per example keep the examples in every result that has
/// their factor as a dimension of its own, not always the same one (a batch norm whose features
/// are the examples has them in dimension 0 of its statistics).
fn results_own_classes(graph: &Graph, op: &OpNode, operands: &[BatchClass], c: BatchClass) -> Option<Vec<BatchClass>> {
    if op.results.len() < 2 {
        return None;
    }
    let rule = known_rule(graph, op)?;
    if rule.carries_operands_through() {
        return Some(operands.to_vec());
    }
    let BatchClass::PerExample(Some(dim)) = c else { return None };
    let dims = examples_dims(&rule, examples_factor(&rule, operands)?)?;
    (dims.first() == Some(&dim)).then(|| dims.into_iter().map(|d| BatchClass::PerExample(Some(d))).collect())
}

/// The loop regions one step's analysis may go through (`BatchInputs::loop_regions_left`).
const LOOP_REGIONS: u32 = 256;

/// The classes of what `region` (a loop's condition or body, its arguments holding the
/// examples in `dims`) returns, where every value it computes is independent of the batch or
/// holds the examples in a dimension of its own, each in its place (no aggregate over them, no
/// example moved, no position in the batch drawn: an `iota` or an op that is never constant,
/// `constant_values::NOT_CONSTANT`, is taken for that),
/// so that nothing in it meets the examples. `None` otherwise, and when the examples per
/// microbatch are unknown (then which examples a value holds is not tracked).
fn kept_per_example(region: &Graph, dims: &[Option<usize>], inputs: &BatchInputs) -> Option<Vec<BatchClass>> {
    inputs.examples?;
    let left = inputs.loop_regions_left.get().checked_sub(1)?;
    inputs.loop_regions_left.set(left);
    let (classes, held) = classes_and_held(region, dims, inputs);
    let kept = |c: BatchClass| matches!(c, BatchClass::Independent | BatchClass::PerExample(Some(_)));
    // Positions in the batch (iota) and what differs between calls (random bits, custom calls).
    let positional = |op: &OpNode| canonical_name(&op.name) == "iota" || NOT_CONSTANT.contains(&op.name.as_str());
    let every_op_keeps = region.ops().iter().enumerate().all(|(index, op)| {
        held[index].is_none()
            && !positional(op)
            && (0..op.results.len()).all(|result| kept(classes.of_result(index, result)))
    });
    every_op_keeps.then(|| region.returned.iter().map(|v| classes.of(*v, dims)).collect())
}

/// `c`, the class of `op`, where its operands hold the examples as an inner factor of a
/// dimension (`within`), or where a reshape put them there: what `interleaved_batch` makes of
/// them, and their layout in the result when they stay inside a dimension.
fn follow_inner_examples(
    graph: &Graph,
    op: &OpNode,
    operands: &[BatchClass],
    within: &[Option<Layout>],
    c: BatchClass,
    examples: i64,
) -> (BatchClass, Option<Layout>) {
    let shape = |v: &ValueRef| graph.value_type(*v).and_then(ValueType::tensor).map(|t| t.shape.clone());
    let layouts: Vec<Option<Layout>> = op
        .operands
        .iter()
        .zip(operands)
        .map(|(v, class)| match (*v, class) {
            (_, BatchClass::PerExample(Some(d))) => shape(v).and_then(|s| outermost(&s, *d, examples)),
            (ValueRef::Op { op, .. }, BatchClass::PerExample(None)) => within[op],
            _ => None,
        })
        .collect();
    let inside = op.operands.iter().any(|v| matches!(*v, ValueRef::Op { op, .. } if within[op].is_some()));
    let merged_below = c == BatchClass::PerExample(None) && canonical_name(&op.name) == "reshape";
    if !(inside || merged_below) {
        return (c, None);
    }
    match spread(graph, op, operands, &layouts, examples) {
        Some(Spread::Outermost(dim)) => (BatchClass::PerExample(Some(dim)), None),
        Some(Spread::Within(layout)) => (BatchClass::PerExample(None), Some(layout)),
        Some(Spread::Summed(count)) => (BatchClass::Sum { count }, None),
        Some(Spread::Contracted) => (BatchClass::Contraction, None),
        None => (c, None),
    }
}

/// Where the examples are in the first result of an op without a case of its own (`fft`,
/// `sort`, `cholesky`, a batch norm), by its op table rule: every value per example has them in
/// one factor that passes through to a dimension of every result, each example's slice
/// computed from its own slices only (a batch norm normalizing by statistics per feature, when
/// the examples are the features: a LayerNorm lowered over the tokens, as torch_xla writes
/// it). Results that have them in another dimension than the first's have classes of their own
/// (`results_own_classes`). Otherwise the examples are lost track of.
fn passed_through(graph: &Graph, op: &OpNode, operands: &[BatchClass]) -> Option<usize> {
    let rule = known_rule(graph, op)?;
    let dims = examples_dims(&rule, examples_factor(&rule, operands)?)?;
    dims.first().copied()
}

/// The dimension of every result of `rule` that is `factor` alone.
fn examples_dims(rule: &OpRule, factor: usize) -> Option<Vec<usize>> {
    rule.result_dims.iter().map(|result| result.iter().position(|f| f.as_slice() == [factor])).collect()
}

/// The factor of `rule` that every value per example among the operands has its examples in,
/// each whole in one dimension, where it passes through (each example's slice of a result is
/// computed from its own slices only).
fn examples_factor(rule: &OpRule, operands: &[BatchClass]) -> Option<usize> {
    let mut factors = operands.iter().zip(&rule.operand_dims).filter_map(|(c, dims)| match c {
        BatchClass::PerExample(d) => Some(d.and_then(|d| match dims.get(d)?.as_slice() {
            [f] => Some(*f),
            _ => None,
        })),
        _ => None,
    });
    let factor = factors.next()??;
    (factors.all(|f| f == Some(factor)) && rule.factors[factor].kind == FactorKind::PassThrough).then_some(factor)
}

/// `op`'s rule when the op table knows the op and the rule has a dims list for every operand.
pub(super) fn known_rule(graph: &Graph, op: &OpNode) -> Option<OpRule> {
    let types: Vec<_> = op.operands.iter().map(|v| graph.value_type(*v).and_then(ValueType::tensor)).collect();
    op_rule(op, &types).ok().filter(|r| r.known && r.operand_dims.len() == op.operands.len())
}

fn rank_of(graph: &Graph, v: ValueRef) -> Option<usize> {
    graph.value_type(v).and_then(ValueType::tensor).map(|t| t.shape.len())
}

fn classify(
    graph: &Graph,
    op: &OpNode,
    operands: &[BatchClass],
    inputs: &BatchInputs,
    folded_of: impl Fn(&ValueRef) -> Option<Folded>,
) -> BatchClass {
    use BatchClass::*;
    let name = canonical_name(&op.name);
    let batch_dim = operands.iter().find_map(|c| match c {
        PerExample(d) => Some(*d),
        _ => None,
    });
    let aggregates: Vec<BatchClass> = operands
        .iter()
        .copied()
        .filter(|c| matches!(c, Sum { .. } | Mean | Contraction | Part(_) | Other | PerExample(_)))
        .collect();
    if let Some(d) = batch_dim {
        // Values per example stay so through elementwise ops and data movement; a reduction
        // over the batch's dimension sums them.
        if aggregates.iter().any(|c| !matches!(c, PerExample(_))) {
            return Other;
        }
        return match name.as_str() {
            "reduce" => reduce_class(graph, op, d),
            "broadcast_in_dim" => PerExample(d.and_then(|d| {
                op.attr("broadcast_dimensions")
                    .and_then(|a| a.as_i64_array())
                    .and_then(|m| m.get(d).map(|&x| x as usize))
            })),
            "transpose" => PerExample(d.and_then(|d| {
                op.attr("permutation")
                    .and_then(|a| a.as_i64_array())
                    .and_then(|p| p.iter().position(|&x| x as usize == d))
            })),
            "reshape" => PerExample(d.and_then(|d| reshaped_dim(graph, op, d, inputs.examples))),
            "dot_general" => d.map_or(Other, |d| dot_class(graph, op, operands, d)),
            "convolution" if convolution_contracts_examples(op, operands) => Contraction,
            "convolution" => PerExample(d.and_then(|d| convolution_batch(op, operands, d))),
            "reduce_window" => PerExample(d.filter(|&d| window_keeps_dim(graph, op, d))),
            "top_k" | "chlo.top_k" => {
                // top_k works on the last dimension: the examples stay apart unless they are it.
                PerExample(d.filter(|&d| rank_of(graph, op.operands[0]).is_some_and(|r| d < r.saturating_sub(1))))
            }
            "gather" => PerExample(
                d.and_then(|d| gathered_batch(graph, op, operands, d))
                    .or_else(|| own_rows_gathered(graph, op, operands)),
            ),
            "scatter" if scatters_examples_additively(graph, op, operands, inputs) => Contraction,
            "scatter" if adds_into_bins(graph, op, operands, inputs.examples) => Contraction,
            "slice" | "pad" | "reverse" | "concatenate" | "dynamic_slice" | "dynamic_update_slice" => {
                let same_rank = rank_of(graph, op.operands[0])
                    == op.results.first().and_then(ValueType::tensor).map(|t| t.shape.len());
                PerExample(d.filter(|_| same_rank))
            }
            n if elementwise_info(n).is_some() => PerExample(d),
            _ => PerExample(passed_through(graph, op, operands)),
        };
    }
    // Only sums, means and batch-independent values from here on.
    let kinds: Vec<BatchClass> = operands.iter().copied().filter(|c| *c != Independent).collect();
    let one = kinds.len() == 1;
    if let [Extreme { max }] = kinds.as_slice() {
        return extreme_class(op, operands, *max, &folded_of);
    }
    match name.as_str() {
        n if MOVES_OR_NEGATES.contains(&n) => kinds[0],
        // A vector of metrics (`jnp.stack` of means): the microbatches' vectors combine element by
        // element, so pieces all of one kind combine as that kind (`pieces_class`).
        "concatenate" => pieces_class(op.operands.iter().zip(operands), &folded_of),
        // Adding up elements of sums (or of means) from zero, or none (Keras reduces a scalar
        // over no dimension), adds sums (means), which combine as they do.
        "reduce" if one && adds(op) && op.operands.get(1).and_then(&folded_of) == Some(Folded::Uniform(0.0)) => {
            kinds[0]
        }
        "multiply" if one => {
            let scale =
                op.operands.iter().zip(operands).find(|(_, c)| **c == Independent).and_then(|(v, _)| folded_of(v));
            match (kinds[0], scale) {
                (Sum { count }, Some(Folded::Uniform(c))) if divides_as_mean(1.0 / c, count, inputs.examples) => Mean,
                // A mean times a count of the examples (Keras' `total += loss * batch_size`) is
                // the sum it averaged, as a sum divided by its count is a mean.
                (Mean, Some(Folded::Uniform(c))) if inputs.counts.contains(&c) => Sum { count: c },
                // A number computed from constants that is not folded may be the batch's size.
                (Sum { .. } | Mean, Some(Folded::UniformUnfolded)) => Other,
                (k, _) => k,
            }
        }
        "divide" if one && operands[0] != Independent => match (kinds[0], op.operands.get(1).and_then(&folded_of)) {
            (Sum { count }, Some(Folded::Uniform(c))) if divides_as_mean(c, count, inputs.examples) => Mean,
            (Sum { .. } | Mean, Some(Folded::UniformUnfolded)) => Other,
            (k, _) => k,
        },
        // A choice the microbatches all make alike (`jnp.where(count == 0, 0, total / count)`,
        // Keras' divide_no_nan): its branches are the pieces.
        "select" if operands.first() == Some(&Independent) => {
            pieces_class(op.operands.iter().zip(operands).skip(1), &folded_of)
        }
        // A mean shifted by a constant averages to the global mean shifted; a sum does not,
        // unless the constant is zero (Python's `sum(terms)` and `total = 0.0; total += term`
        // start from one).
        "add" | "subtract" => match kinds.as_slice() {
            [Mean] | [Mean, Mean] => Mean,
            [Sum { count }, Sum { .. }] => Sum { count: *count },
            [kind] if adds_zero(op, operands, &folded_of) => *kind,
            _ => Other,
        },
        _ => Other,
    }
}

/// Ops that make a mean of a sum by a constant that may instead be a fixed coefficient of it,
/// with the divisor taken: a literal factor equal to 1/the sum's count (`0.25 * jnp.sum(l)` over
/// 4 examples), or a divisor or 1/factor (literal or folded from constants) that is the
/// examples times a whole number above one and not the sum's count (`jnp.sum(l * mask) / 28`
/// over 4 examples of 8 tokens, where JAX folded `batch * (seq - 1)`; the sum of a position mask
/// broadcast over the batch). JAX writes a mean as a division by its count, and a count of the
/// examples' tokens folds to such a constant; but a constant such as `sqrt(64)` may only happen
/// to relate to the microbatch's size. Dividing by the count or by the examples themselves
/// (`jnp.sum(l) / batch`), or multiplying by a reciprocal computed from constants (Keras'
/// counts), is not listed.
pub fn assumed_count_means(graph: &Graph, batch_dims: &[Option<usize>], classes: &[BatchClass]) -> Vec<AssumedCount> {
    let folded = folded_constants(graph);
    let examples = examples_per_microbatch(graph, batch_dims);
    let ops = graph.ops();
    let constant = |v: &ValueRef| match *v {
        ValueRef::Op { op, result: 0 } => match folded[op] {
            Some(Folded::Uniform(c)) => Some((c, canonical_name(&ops[op].name) == "constant")),
            _ => None,
        },
        _ => None,
    };
    let sum_count = |v: &ValueRef| match *v {
        ValueRef::Op { op, .. } => match classes[op] {
            BatchClass::Sum { count } => Some(count),
            _ => None,
        },
        _ => None,
    };
    (0..ops.len())
        .filter(|&op| classes[op] == BatchClass::Mean)
        .filter_map(|op| {
            let [a, b] = ops[op].operands.as_slice() else { return None };
            let (count, divisor, literal, written) = match canonical_name(&ops[op].name).as_str() {
                "multiply" => {
                    let (count, (factor, literal)) = match (sum_count(a), sum_count(b)) {
                        (Some(count), _) => (count, constant(b)?),
                        (_, Some(count)) => (count, constant(a)?),
                        _ => return None,
                    };
                    (count, 1.0 / factor, literal, Written::Times(factor))
                }
                "divide" => {
                    let (divisor, literal) = constant(b)?;
                    (sum_count(a)?, divisor, literal, Written::DividedBy)
                }
                _ => return None,
            };
            let by_count = is_close(divisor, count);
            let literal_count = by_count && literal && matches!(written, Written::Times(_));
            let beyond_examples = !by_count && examples_multiple(divisor, examples).is_some_and(|k| k > 1);
            // Either is a whole number: a factor folded in f32 does not leave its rounding in it.
            (literal_count || beyond_examples).then_some(AssumedCount { op, divisor: divisor.round(), written })
        })
        .collect()
}

/// A mean over the batch taken from a constant that may be a coefficient (`assumed_count_means`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AssumedCount {
    pub op: usize,
    /// What the sum is taken to be divided by.
    pub divisor: f64,
    pub written: Written,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Written {
    /// The sum times this factor, 1/divisor.
    Times(f64),
    DividedBy,
}

/// Whether every batch-independent operand of `op` is the constant zero.
pub(crate) fn adds_zero(op: &OpNode, operands: &[BatchClass], folded_of: impl Fn(&ValueRef) -> Option<Folded>) -> bool {
    op.operands
        .iter()
        .zip(operands)
        .all(|(v, c)| *c != BatchClass::Independent || folded_of(v) == Some(Folded::Uniform(0.0)))
}

/// The class of a value each of whose elements is one of `pieces`' (a concatenation, or a
/// select by a predicate every microbatch evaluates alike): means, with batch-independent
/// pieces that average to themselves, are a mean; sums of one count, with zeros that add up to
/// zero, are a sum; anything else is `Other`.
fn pieces_class<'a>(
    pieces: impl Iterator<Item = (&'a ValueRef, &'a BatchClass)>,
    folded_of: impl Fn(&ValueRef) -> Option<Folded>,
) -> BatchClass {
    use BatchClass::*;
    let mut class = Independent;
    let mut zeros_only = true;
    for (value, piece) in pieces {
        class = match (class, *piece) {
            (_, Independent) => {
                zeros_only &= folded_of(value) == Some(Folded::Uniform(0.0));
                class
            }
            (Independent, k @ (Mean | Sum { .. } | Extreme { .. })) => k,
            (Mean, Mean) => Mean,
            (Extreme { max }, Extreme { max: m }) if m == max => class,
            (Sum { count }, Sum { count: c }) if c == count => class,
            _ => return Other,
        };
    }
    match class {
        Sum { .. } if !zeros_only => Other,
        other => other,
    }
}

/// The class of `op` whose one batch-dependent operand is the largest (`max`) or smallest
/// element over the batch: data movement and conversions to floats keep it, a negation makes it the
/// other extreme, pieces of one extreme beside shared values (a concatenation, a select by a
/// shared predicate) are that extreme. Anything else is `Other`: a returned function of
/// extremes is computed once from their combined values (`inter/program.rs`).
fn extreme_class(
    op: &OpNode,
    operands: &[BatchClass],
    max: bool,
    folded_of: impl Fn(&ValueRef) -> Option<Folded>,
) -> BatchClass {
    use BatchClass::*;
    // Conversions to floats keep the order; to integers they may wrap, to booleans they do not.
    let to_float = || op.results.first().and_then(ValueType::tensor).is_some_and(|t| t.element.is_float());
    match canonical_name(&op.name).as_str() {
        "convert" if to_float() => Extreme { max },
        "reshape" | "broadcast_in_dim" | "copy" | "transpose" | "slice" | "reverse" => Extreme { max },
        "negate" => Extreme { max: !max },
        "reduce" if reduces_by(op, if max { "maximum" } else { "minimum" }) => Extreme { max },
        "concatenate" => pieces_class(op.operands.iter().zip(operands), &folded_of),
        "select" if operands.first() == Some(&Independent) => {
            pieces_class(op.operands.iter().zip(operands).skip(1), &folded_of)
        }
        _ => Other,
    }
}

/// Whether `op`'s region combines elements by `combiner` alone (a `reduce` by maximum).
pub(super) fn reduces_by(op: &OpNode, combiner: &str) -> bool {
    op.regions.first().and_then(|r| r.blocks.first()).is_some_and(|b| {
        b.ops.iter().all(|o| matches!(canonical_name(&o.name).as_str(), n if n == combiner || n == "return"))
            && b.ops.iter().any(|o| canonical_name(&o.name) == combiner)
    })
}

/// Whether a sum over the batch of `count` elements divided by `divisor` is a mean over the
/// batch: the divisor is the count, or the microbatch's examples times a whole number (the
/// elements per example that count, `sum(l * mask) / (batch * (seq - 1))`, or one,
/// `sum(l) / batch`), so that it grows with the batch as the sum does.
pub(crate) fn divides_as_mean(divisor: f64, count: f64, examples: Option<i64>) -> bool {
    is_close(divisor, count) || examples_multiple(divisor, examples).is_some()
}

/// `divisor` as the microbatch's examples times a whole number, that number.
pub(crate) fn examples_multiple(divisor: f64, examples: Option<i64>) -> Option<u64> {
    let examples = examples.filter(|&n| n > 1)? as f64;
    let k = (divisor / examples).round();
    (k >= 1.0 && is_close(divisor, k * examples)).then_some(k as u64)
}

/// Whether `a` equals `b` up to the rounding of a constant folded in f32.
pub(crate) fn is_close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * b.abs()
}

/// An additive reduction over the batch dimension `d` sums the examples; over other dimensions
/// it keeps one value per example.
fn reduce_class(graph: &Graph, op: &OpNode, d: Option<usize>) -> BatchClass {
    let Some(d) = d else { return BatchClass::Other };
    let Some(dims) = op.attr("dimensions").and_then(|a| a.as_i64_array()) else { return BatchClass::Other };
    let dims: Vec<usize> = dims.iter().map(|&x| x as usize).collect();
    if !dims.contains(&d) {
        // A dimension past the operand's rank (malformed input) is lost track of, not indexed.
        let rank = graph.value_type(op.operands[0]).and_then(ValueType::tensor).map_or(0, |t| t.shape.len());
        return BatchClass::PerExample((d < rank).then(|| d - dims.iter().filter(|&&x| x < d).count()));
    }
    let input = graph.value_type(op.operands[0]).and_then(ValueType::tensor);
    match (adds(op), input) {
        (true, Some(t)) => {
            BatchClass::Sum { count: dims.iter().map(|&x| t.shape.get(x).copied().unwrap_or(1) as f64).product() }
        }
        // Whatever its initial value: the maximum is idempotent, max(init, a, b) is
        // max(max(init, a), max(init, b)).
        _ if reduces_by(op, "maximum") => BatchClass::Extreme { max: true },
        _ if reduces_by(op, "minimum") => BatchClass::Extreme { max: false },
        _ => BatchClass::Other,
    }
}

/// A contraction of a value per example: the batch dimension goes to its place among the
/// result's dimensions (batching dimensions, then the left operand's free ones, then the
/// right's); contracted, it is no sum we know the divisor of.
fn dot_class(graph: &Graph, op: &OpNode, operands: &[BatchClass], d: usize) -> BatchClass {
    let Some(numbers) =
        op.attr("dot_dimension_numbers").and_then(opaque_text).and_then(|t| DotDimensionNumbers::parse(t).ok())
    else {
        return BatchClass::PerExample(None);
    };
    let rank_in = |i: usize| op.operands.get(i).and_then(|v| rank_of(graph, *v));
    let (Some(lhs_rank), Some(rhs_rank)) = (rank_in(0), rank_in(1)) else { return BatchClass::PerExample(None) };
    let side = if matches!(operands[0], BatchClass::PerExample(_)) { 0 } else { 1 };
    let (batching, contracting, rank) = if side == 0 {
        (&numbers.lhs_batching_dimensions, &numbers.lhs_contracting_dimensions, lhs_rank)
    } else {
        (&numbers.rhs_batching_dimensions, &numbers.rhs_contracting_dimensions, rhs_rank)
    };
    let d = d as i64;
    if let Some(i) = batching.iter().position(|&b| b == d) {
        return BatchClass::PerExample(Some(i));
    }
    if let Some(k) = contracting.iter().position(|&c| c == d) {
        // Contracted over the batch (a weight gradient x^T g): a sum of one term per example,
        // when the other side is the same examples on the paired dimension or shared by them.
        let (other, other_contracting) = if side == 0 {
            (operands[1], &numbers.rhs_contracting_dimensions)
        } else {
            (operands[0], &numbers.lhs_contracting_dimensions)
        };
        let paired = other_contracting.get(k).map(|&e| e as usize);
        let same_examples = match other {
            BatchClass::Independent => true,
            BatchClass::PerExample(Some(e)) => Some(e) == paired,
            _ => false,
        };
        return if same_examples { BatchClass::Contraction } else { BatchClass::Other };
    }
    let free =
        |r: usize, b: &[i64], c: &[i64]| (0..r as i64).filter(|x| !b.contains(x) && !c.contains(x)).collect::<Vec<_>>();
    let lhs_free = free(lhs_rank, &numbers.lhs_batching_dimensions, &numbers.lhs_contracting_dimensions);
    let own_free = free(rank, batching, contracting);
    let before = batching.len() + if side == 0 { 0 } else { lhs_free.len() };
    BatchClass::PerExample(own_free.iter().position(|&x| x == d).map(|i| before + i))
}

/// Whether a convolution contracts the examples: both operands hold them in their input
/// feature dimensions, which a convolution sums over. That is a kernel's gradient (JAX's
/// transpose of a convolution with respect to its kernel puts the batch there), an aggregate
/// over the batch like a dense weight's `x^T g`. Feature groups would sum each group's own
/// examples only; batch groups split the other operand's batch, the channels here.
fn convolution_contracts_examples(op: &OpNode, operands: &[BatchClass]) -> bool {
    let Some(numbers) =
        op.attr("dimension_numbers").and_then(opaque_text).and_then(|t| ConvDimensionNumbers::parse(t).ok())
    else {
        return false;
    };
    let ungrouped_features = op.attr("feature_group_count").and_then(|a| a.as_int()).is_none_or(|g| g == 1);
    let at = |d: i64| usize::try_from(d).ok().map(|d| BatchClass::PerExample(Some(d)));
    ungrouped_features
        && operands.first().copied() == at(numbers.input_feature_dimension)
        && operands.get(1).copied() == at(numbers.kernel_input_feature_dimension)
}

/// Where a convolution puts the examples of an input batched in its batch dimension `d`, with
/// a kernel shared by the examples (a kernel's gradient, which moves the batch into the
/// contracted features, is `convolution_contracts_examples`).
fn convolution_batch(op: &OpNode, operands: &[BatchClass], d: usize) -> Option<usize> {
    let numbers = ConvDimensionNumbers::parse(opaque_text(op.attr("dimension_numbers")?)?).ok()?;
    let ungrouped = op.attr("batch_group_count").and_then(|a| a.as_int()).is_none_or(|g| g == 1);
    let shared_kernel = operands.get(1) == Some(&BatchClass::Independent);
    let output_batch = usize::try_from(numbers.output_batch_dimension).ok()?;
    (ungrouped && shared_kernel && numbers.input_batch_dimension == d as i64).then_some(output_batch)
}

/// Whether a window (pooling) keeps dimension `d` as it is: a window of 1 at stride 1 there,
/// so every example stays its own.
fn window_keeps_dim(graph: &Graph, op: &OpNode, d: usize) -> bool {
    let at = |name: &str| op.attr(name).and_then(|a| a.as_i64_array()).and_then(|v| v.get(d).copied());
    let same_size = graph.value_type(op.operands[0]).and_then(ValueType::tensor).map(|t| t.shape.get(d).copied())
        == op.results.first().and_then(ValueType::tensor).map(|t| t.shape.get(d).copied());
    at("window_dimensions") == Some(1) && at("window_strides").is_none_or(|s| s == 1) && same_size
}

/// Whether a scatter adds one update per example into a value shared by the examples (an
/// embedding table's gradient, the transpose of its lookup): like a weight gradient's
/// contraction, an aggregate over the batch of unknown scale. The value has a shared
/// argument's shape (in any element type: a bf16 model looks up a bf16 copy of its f32 table)
/// and is scattered into without batching dimensions; a scatter that writes each example's own
/// row (the transpose of take_along_axis) keeps the examples apart.
fn scatters_examples_additively(graph: &Graph, op: &OpNode, operands: &[BatchClass], inputs: &BatchInputs) -> bool {
    let [BatchClass::Independent, _, BatchClass::PerExample(Some(d))] = operands else { return false };
    let shared_shape = graph
        .value_type(op.operands[0])
        .and_then(ValueType::tensor)
        .is_some_and(|t| inputs.shared_shapes.contains(&t.shape));
    let Some(numbers) =
        op.attr("scatter_dimension_numbers").and_then(opaque_text).and_then(|t| ScatterDimensionNumbers::parse(t).ok())
    else {
        return false;
    };
    shared_shape
        && numbers.input_batching_dims.is_empty()
        && !numbers.update_window_dims.contains(&(*d as i64))
        && adds(op)
}

/// Whether `op`'s region adds its two arguments: a sum.
pub(crate) fn adds(op: &OpNode) -> bool {
    reduces_by(op, "add")
}

/// Where a gather from a table shared by the examples (an embedding lookup) puts the examples
/// of indices batched in dimension `d`: the result's dimensions that are not offsets follow the
/// indices' dimensions but the index vector's, in order.
fn gathered_batch(graph: &Graph, op: &OpNode, operands: &[BatchClass], d: usize) -> Option<usize> {
    if operands.first() != Some(&BatchClass::Independent) {
        return None;
    }
    let numbers = GatherDimensionNumbers::parse(opaque_text(op.attr("dimension_numbers")?)?).ok()?;
    gathered_dim(graph, op, &numbers, d)
}

/// The gather's result dimension that follows dimension `d` of its indices (`d` not the index
/// vector's): the result's dimensions that are not offsets follow the indices' in order.
fn gathered_dim(graph: &Graph, op: &OpNode, numbers: &GatherDimensionNumbers, d: usize) -> Option<usize> {
    let indices_rank = rank_of(graph, *op.operands.get(1)?)?;
    let result_rank = op.results.first().and_then(ValueType::tensor)?.shape.len();
    let index_dims: Vec<usize> = (0..indices_rank).filter(|&i| i as i64 != numbers.index_vector_dim).collect();
    let result_dims: Vec<usize> = (0..result_rank).filter(|&i| !numbers.offset_dims.contains(&(i as i64))).collect();
    if index_dims.len() != result_dims.len() {
        return None;
    }
    index_dims.iter().position(|&i| i == d).map(|p| result_dims[p])
}

/// Where a gather that picks each example's elements from the example's own row puts the
/// examples: the operand and the indices both per example, the operand's batch dimension a
/// batching dimension paired with the indices' (`jnp.take_along_axis`) or indexed by each
/// example's position along the indices' (`x[jnp.arange(b), i]`, pooling at each sequence's
/// last token).
fn own_rows_gathered(graph: &Graph, op: &OpNode, operands: &[BatchClass]) -> Option<usize> {
    let [BatchClass::PerExample(Some(rows)), BatchClass::PerExample(Some(examples))] = operands[..] else {
        return None;
    };
    let numbers = GatherDimensionNumbers::parse(opaque_text(op.attr("dimension_numbers")?)?).ok()?;
    let (rows, examples) = (rows as i64, examples as i64);
    if examples == numbers.index_vector_dim {
        return None;
    }
    let paired =
        numbers.operand_batching_dims.iter().zip(&numbers.start_indices_batching_dims).any(|p| p == (&rows, &examples));
    let by_position = || {
        let component = numbers.start_index_map.iter().position(|&d| d == rows)?;
        let one_row =
            op.attr("slice_sizes").and_then(|a| a.as_i64_array()).and_then(|s| s.get(rows as usize)) == Some(&1);
        let index = index_component(graph, op.operands[1], numbers.index_vector_dim, component)?;
        (one_row && numbers.collapsed_slice_dims.contains(&rows) && positions_along(graph, index, examples as usize, 0))
            .then_some(())
    };
    if !paired {
        by_position()?;
    }
    gathered_dim(graph, op, &numbers, examples as usize)
}

/// What the classes need to know of the batch inputs.
struct BatchInputs {
    /// The number of examples, when the batch inputs agree on one.
    examples: Option<i64>,
    /// The numbers that count the examples (`batch_inputs::examples_counts`).
    counts: Vec<f64>,
    /// The shapes of the arguments that are no batch input (parameters, state).
    shared_shapes: Vec<Vec<i64>>,
    /// How many more loop regions may be analysed (`kept_per_example`): nested loops multiply
    /// the rounds, so a deep nest keeps the shared class rather than taking long.
    loop_regions_left: Cell<u32>,
}

/// Where dimension `d` of a reshape's operand goes, the examples (`examples` of them, or the
/// whole dimension when unknown) being its outermost factor: the result dimension whose
/// outermost factor they are again (`interleaved_batch::reshaped`), if any. Merging the batch
/// with the dimensions after it (`[B, T, V] -> [B*T, V]`, a loss over tokens) keeps the
/// examples outermost in the merged dimension, and splitting that dimension back finds them.
fn reshaped_dim(graph: &Graph, op: &OpNode, d: usize, examples: Option<i64>) -> Option<usize> {
    let from = graph.value_type(op.operands[0]).and_then(ValueType::tensor)?;
    let to = op.results.first().and_then(ValueType::tensor)?;
    let size = *from.shape.get(d)?;
    let outer = examples.filter(|&b| b > 0 && size % b == 0).unwrap_or(size);
    match reshaped(&from.shape, outermost(&from.shape, d, outer)?, &to.shape, outer)? {
        Spread::Outermost(j) => Some(j),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::BatchClass::*;
    use super::*;
    use crate::ir::graph::{Attr, Attrs, Param};
    use crate::ir::test_graphs::{attrs, t, Builder};
    use crate::ir::types::{ElementType, TensorType};

    /// `x: [8, 4]` batched in dimension 0, `w: [4, 3]` not.
    fn args() -> Vec<Param> {
        vec![Param { ty: t(&[8, 4]), attrs: Attrs::new() }, Param { ty: t(&[4, 3]), attrs: Attrs::new() }]
    }

    fn constant(b: &mut Builder, value: f64) -> ValueRef {
        let value = Attr::FloatScalar { ty: TensorType::new(vec![], ElementType::f32()), value };
        b.op("stablehlo.constant", vec![], t(&[]), attrs(&[("value", value)]))
    }

    fn classes_of(b: Builder, returned: Vec<ValueRef>) -> Vec<BatchClass> {
        let graph = b.graph(args(), returned.clone());
        let classes = batch_classes(&graph, &[Some(0), None]);
        returned.iter().map(|v| if let ValueRef::Op { op, .. } = v { classes[*op] } else { Independent }).collect()
    }

    #[test]
    fn a_vector_of_means_or_of_like_sums_is_still_one() {
        // jnp.stack of metrics: each reshaped to [1], then concatenated.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let total = b.sum(x);
        let n = constant(&mut b, 32.0);
        let mean = b.binary("stablehlo.divide", total, n, t(&[]));
        let other_total = b.sum(x);
        let [mean1, total1, other1] = [mean, total, other_total].map(|v| b.unary("stablehlo.reshape", v, t(&[1])));
        let rate = constant(&mut b, 0.1);
        let rate1 = b.unary("stablehlo.reshape", rate, t(&[1]));
        let zero = constant(&mut b, 0.0);
        let zero1 = b.unary("stablehlo.reshape", zero, t(&[1]));
        let join = |b: &mut Builder, parts: Vec<ValueRef>| {
            let ty = t(&[parts.len() as i64]);
            b.op("stablehlo.concatenate", parts, ty, attrs(&[("dimension", Attr::Int(0))]))
        };
        let means = join(&mut b, vec![mean1, mean1, rate1]);
        let sums = join(&mut b, vec![total1, other1]);
        let mixed = join(&mut b, vec![mean1, total1]);
        let sum_and_rate = join(&mut b, vec![total1, rate1]);
        let zero_and_sum = join(&mut b, vec![zero1, total1]);
        let got = classes_of(b, vec![means, sums, mixed, sum_and_rate, zero_and_sum]);
        // A batch-independent piece averages to itself, but would add up unless it is zero.
        assert_eq!(got, vec![Mean, Sum { count: 32.0 }, Other, Other, Sum { count: 32.0 }]);
    }

    #[test]
    fn a_sum_plus_zero_is_the_sum_and_plus_another_constant_is_not() {
        // Python's `sum(terms)` and `total = 0.0; total += term` start from a zero.
        let mut b = Builder::new();
        let total = b.sum(ValueRef::Arg(0));
        let zero = constant(&mut b, 0.0);
        let from_zero = b.binary("stablehlo.add", zero, total, t(&[]));
        let minus_zero = b.binary("stablehlo.subtract", total, zero, t(&[]));
        let one = constant(&mut b, 1.0);
        let shifted = b.binary("stablehlo.add", total, one, t(&[]));
        let n = constant(&mut b, 32.0);
        let mean = b.binary("stablehlo.divide", total, n, t(&[]));
        let mean_from_zero = b.binary("stablehlo.add", zero, mean, t(&[]));
        let classes = classes_of(b, vec![from_zero, minus_zero, shifted, mean_from_zero]);
        assert_eq!(classes, [Sum { count: 32.0 }, Sum { count: 32.0 }, Other, Mean]);
    }

    #[test]
    fn a_sum_over_a_number_growing_with_the_examples_is_a_mean_and_one_other_than_them_or_the_count_is_listed() {
        // Over 8 examples of 4 elements (32): divided by 32 or by 8 (`jnp.sum(l) / batch`) a
        // mean; by 24, the examples times 3 (`batch * (seq - 1)` folded by JAX), a mean listed
        // as a guess, as is 1/32 or 1/24 written as a factor, and 24 computed from constants (a
        // mask's sum), but not 1/32 computed from constants (Keras' counts); by 12 or times 0.5
        // still a sum.
        let mut b = Builder::new();
        let total = b.sum(ValueRef::Arg(0));
        let divided = |b: &mut Builder, n: f64| {
            let n = constant(b, n);
            b.binary("stablehlo.divide", total, n, t(&[]))
        };
        let times = |b: &mut Builder, f: f64| {
            let f = constant(b, f);
            b.binary("stablehlo.multiply", total, f, t(&[]))
        };
        // As an f32 constant prints it: its reciprocal is 23.9999992..., listed as 24.
        let f32_reciprocal_of_24 = f64::from(1.0f32 / 24.0);
        let (by_count, by_examples, by_tokens, by_twelve) =
            (divided(&mut b, 32.0), divided(&mut b, 8.0), divided(&mut b, 24.0), divided(&mut b, 12.0));
        let (reciprocal, token_reciprocal, halved) =
            (times(&mut b, 1.0 / 32.0), times(&mut b, f32_reciprocal_of_24), times(&mut b, 0.5));
        let (three, eight) = (constant(&mut b, 3.0), constant(&mut b, 8.0));
        let computed = b.binary("stablehlo.multiply", three, eight, t(&[]));
        let by_computed = b.binary("stablehlo.divide", total, computed, t(&[]));
        let (one, n) = (constant(&mut b, 1.0), constant(&mut b, 32.0));
        let computed_reciprocal = b.binary("stablehlo.divide", one, n, t(&[]));
        let by_computed_reciprocal = b.binary("stablehlo.multiply", computed_reciprocal, total, t(&[]));
        let returned = vec![
            by_count,
            by_examples,
            by_tokens,
            by_twelve,
            reciprocal,
            token_reciprocal,
            halved,
            by_computed,
            by_computed_reciprocal,
        ];
        let graph = b.graph(args(), returned.clone());
        let classes = batch_classes(&graph, &[Some(0), None]);
        let op = |v: ValueRef| match v {
            ValueRef::Op { op, .. } => op,
            _ => unreachable!("the values are ops"),
        };
        let sum = Sum { count: 32.0 };
        let got: Vec<BatchClass> = returned.iter().map(|&v| classes[op(v)]).collect();
        assert_eq!(got, [Mean, Mean, Mean, sum, Mean, Mean, sum, Mean, Mean]);
        let listed = assumed_count_means(&graph, &[Some(0), None], &classes);
        let want = [
            AssumedCount { op: op(by_tokens), divisor: 24.0, written: Written::DividedBy },
            AssumedCount { op: op(reciprocal), divisor: 32.0, written: Written::Times(1.0 / 32.0) },
            AssumedCount { op: op(token_reciprocal), divisor: 24.0, written: Written::Times(f32_reciprocal_of_24) },
            AssumedCount { op: op(by_computed), divisor: 24.0, written: Written::DividedBy },
        ];
        assert_eq!(listed, want);
    }

    #[test]
    fn a_maximum_over_the_batch_is_an_extreme_that_data_movement_keeps_and_negation_reverses() {
        // jnp.max(l), and jnp.max over the features, then over the batch; -jnp.max(-l) is a
        // minimum. Anything else of an extreme (its sum, its product with a constant) is no
        // extreme: a returned function of it is computed once from the combined value.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let lowest = constant(&mut b, f64::NEG_INFINITY);
        let largest = b.reduce_by("stablehlo.maximum", x, lowest, &[0, 1], t(&[]));
        let per_example = b.reduce_by("stablehlo.maximum", x, lowest, &[1], t(&[8]));
        let then_over_batch = b.reduce_by("stablehlo.maximum", per_example, lowest, &[0], t(&[]));
        let negated = b.unary("stablehlo.negate", x, t(&[8, 4]));
        let most_negative = b.reduce_by("stablehlo.maximum", negated, lowest, &[0, 1], t(&[]));
        let smallest = b.unary("stablehlo.negate", most_negative, t(&[]));
        let smallest_too = b.reduce_by("stablehlo.minimum", x, lowest, &[0, 1], t(&[]));
        let as_vector = b.unary("stablehlo.reshape", smallest, t(&[1]));
        let zero = constant(&mut b, 0.0);
        let summed = b.reduce_sum(as_vector, zero, &[0], t(&[]));
        let two = constant(&mut b, 2.0);
        let doubled = b.binary("stablehlo.multiply", largest, two, t(&[]));
        let minimum_of_maxima = b.reduce_by("stablehlo.minimum", per_example, lowest, &[0], t(&[]));
        let scalar_of = |e: ElementType| ValueType::Tensor(TensorType::new(vec![], e));
        let f64_type = ElementType::Float { name: "f64".into(), bits: 64 };
        let as_double = b.unary("stablehlo.convert", largest, scalar_of(f64_type));
        let as_flag = b.unary("stablehlo.convert", largest, scalar_of(ElementType::Bool));
        let got = classes_of(
            b,
            vec![
                largest,
                per_example,
                then_over_batch,
                smallest,
                smallest_too,
                as_vector,
                summed,
                doubled,
                minimum_of_maxima,
                as_double,
                as_flag,
            ],
        );
        let (max, min) = (Extreme { max: true }, Extreme { max: false });
        // A boolean of a maximum is no maximum of booleans: max(0, -1) is 0 (false), -1 is true.
        assert_eq!(got, [max, PerExample(Some(0)), max, min, min, min, Other, Other, min, max, Other]);
    }

    #[test]
    fn a_reduction_over_the_batch_is_a_sum_and_divided_by_its_count_a_mean() {
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let sq = b.binary("stablehlo.multiply", x, x, t(&[8, 4]));
        let total = b.sum(sq);
        let n = constant(&mut b, 32.0);
        let mean = b.binary("stablehlo.divide", total, n, t(&[]));
        let inverse = constant(&mut b, 1.0 / 32.0);
        let mean_too = b.binary("stablehlo.multiply", inverse, total, t(&[]));
        let half = constant(&mut b, 0.5);
        let half_sum = b.binary("stablehlo.multiply", total, half, t(&[]));
        // Divided by a number that counts no examples (the 8 examples' 4 elements are 32).
        let by_other = constant(&mut b, 12.0);
        let not_mean = b.binary("stablehlo.divide", total, by_other, t(&[]));
        let both = b.binary("stablehlo.add", mean, mean_too, t(&[]));
        let sums = b.binary("stablehlo.subtract", total, half_sum, t(&[]));
        let got = classes_of(b, vec![total, mean, mean_too, half_sum, not_mean, both, sums]);
        assert_eq!(
            got,
            [Sum { count: 32.0 }, Mean, Mean, Sum { count: 32.0 }, Sum { count: 32.0 }, Mean, Sum { count: 32.0 }]
        );
    }

    #[test]
    fn a_sum_divided_by_a_count_folded_from_constants_is_a_mean_and_by_an_unfolded_one_other() {
        // Keras: sum / cast(prod(shape(values))); a divisor this analysis cannot fold may be the
        // batch's size, so what it makes of a sum or a mean is unknown.
        let i32 = ValueType::Tensor(TensorType::new(vec![], ElementType::Int(32)));
        let splat = |b: &mut Builder, value: f64, ty: &ValueType| {
            let tensor = ty.tensor().cloned().expect("a tensor type");
            let value = Attr::Elements { ty: tensor, splat: true, values: Some(vec![value]) };
            b.op("stablehlo.constant", vec![], ty.clone(), attrs(&[("value", value)]))
        };
        let mut b = Builder::new();
        let total = b.sum(ValueRef::Arg(0));
        let twos = splat(&mut b, 2.0, &ValueType::Tensor(TensorType::new(vec![5], ElementType::Int(32))));
        let one = splat(&mut b, 1.0, &i32);
        let product =
            b.op("stablehlo.reduce", vec![twos, one], i32.clone(), attrs(&[("dimensions", Attr::I64Array(vec![0]))]));
        let mut body = crate::ir::op_table::test_util::add_body();
        body.blocks[0].ops[0].name = "stablehlo.multiply".into();
        b.ops.last_mut().expect("the reduce").regions.push(body);
        let count = b.unary("stablehlo.convert", product, t(&[]));
        let half = constant(&mut b, 0.5);
        let two = constant(&mut b, 2.0);
        let quarter = b.binary("stablehlo.divide", half, two, t(&[]));
        let cosine = b.unary("stablehlo.cosine", two, t(&[]));
        let mean = b.binary("stablehlo.divide", total, count, t(&[]));
        let scaled = b.binary("stablehlo.multiply", quarter, total, t(&[]));
        let by_unknown = b.binary("stablehlo.divide", total, cosine, t(&[]));
        let times_unknown = b.binary("stablehlo.multiply", cosine, total, t(&[]));
        let mean_by_unknown = b.binary("stablehlo.divide", mean, cosine, t(&[]));
        let mean_by_argument = b.binary("stablehlo.divide", mean, ValueRef::Arg(1), t(&[]));
        let got = classes_of(b, vec![mean, scaled, by_unknown, times_unknown, mean_by_unknown, mean_by_argument]);
        assert_eq!(got, [Mean, Sum { count: 32.0 }, Other, Other, Other, Mean]);
    }

    #[test]
    fn a_mean_times_the_examples_is_their_sum_and_adding_up_sums_keeps_a_sum() {
        // Keras' metric total: reduce(loss * batch_size) over no dimension; a sum of per-class
        // sums; a maximum of sums is neither.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let n = constant(&mut b, 32.0);
        let total = b.sum(x);
        let mean = b.binary("stablehlo.divide", total, n, t(&[]));
        let examples = constant(&mut b, 8.0);
        let weighted = b.binary("stablehlo.multiply", mean, examples, t(&[]));
        let zero = constant(&mut b, 0.0);
        let kept = b.reduce_sum(weighted, zero, &[], t(&[]));
        let columns = b.reduce_sum(x, zero, &[0], t(&[4]));
        let all = b.reduce_sum(columns, zero, &[0], t(&[]));
        let largest =
            b.op("stablehlo.reduce", vec![columns, zero], t(&[]), attrs(&[("dimensions", Attr::I64Array(vec![0]))]));
        let mut max_body = crate::ir::op_table::test_util::add_body();
        max_body.blocks[0].ops[0].name = "stablehlo.maximum".into();
        b.ops.last_mut().expect("the reduce").regions.push(max_body);
        let got = classes_of(b, vec![weighted, kept, all, largest]);
        assert_eq!(got, [Sum { count: 8.0 }, Sum { count: 8.0 }, Sum { count: 8.0 }, Other]);
    }

    #[test]
    fn a_mean_may_be_shifted_a_sum_not_and_nonlinear_functions_of_either_are_other() {
        let mut b = Builder::new();
        let total = b.sum(ValueRef::Arg(0));
        let n = constant(&mut b, 32.0);
        let mean = b.binary("stablehlo.divide", total, n, t(&[]));
        let one = constant(&mut b, 1.0);
        let shifted_mean = b.binary("stablehlo.add", mean, one, t(&[]));
        let shifted_sum = b.binary("stablehlo.add", total, one, t(&[]));
        let root = b.unary("stablehlo.sqrt", total, t(&[]));
        let ratio = b.binary("stablehlo.divide", total, mean, t(&[]));
        let mixed = b.binary("stablehlo.add", total, mean, t(&[]));
        let got = classes_of(b, vec![shifted_mean, shifted_sum, root, ratio, mixed]);
        assert_eq!(got, [Mean, Other, Other, Other, Other]);
    }

    #[test]
    fn values_per_example_keep_track_of_the_batch_dimension() {
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let h = b.dot(x, ValueRef::Arg(1), 1, 0, t(&[8, 3]));
        let init = constant(&mut b, 0.0);
        let per_row = b.reduce_sum(h, init, &[1], t(&[8]));
        let tr =
            b.op("stablehlo.transpose", vec![h], t(&[3, 8]), attrs(&[("permutation", Attr::I64Array(vec![1, 0]))]));
        let over_batch = b.reduce_sum(tr, init, &[1], t(&[3]));
        let over_features = b.reduce_sum(tr, init, &[0], t(&[8]));
        let max = b.op("stablehlo.reduce", vec![h, init], t(&[]), attrs(&[("dimensions", Attr::I64Array(vec![0, 1]))]));
        let got = classes_of(b, vec![h, per_row, tr, over_batch, over_features, max]);
        assert_eq!(
            got,
            [
                PerExample(Some(0)),
                PerExample(Some(0)),
                PerExample(Some(1)),
                Sum { count: 8.0 },
                PerExample(Some(0)),
                Other
            ]
        );
    }

    #[test]
    fn a_contraction_over_the_batch_is_an_aggregate_of_unknown_scale() {
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let g = b.unary("stablehlo.tanh", x, t(&[8, 4]));
        // x^T g: a weight gradient.
        let dw = b.dot(x, g, 0, 0, t(&[4, 4]));
        let one = constant(&mut b, 1.0);
        let shared = b.op(
            "stablehlo.broadcast_in_dim",
            vec![one],
            t(&[8, 4]),
            attrs(&[("broadcast_dimensions", Attr::I64Array(vec![]))]),
        );
        let weighted = b.dot(x, shared, 0, 0, t(&[4, 4]));
        let tr =
            b.op("stablehlo.transpose", vec![g], t(&[4, 8]), attrs(&[("permutation", Attr::I64Array(vec![1, 0]))]));
        let paired = b.dot(x, tr, 0, 1, t(&[4, 4]));
        let dw_t =
            b.op("stablehlo.transpose", vec![dw], t(&[4, 4]), attrs(&[("permutation", Attr::I64Array(vec![1, 0]))]));
        let total = b.sum(x);
        let total_t =
            b.op("stablehlo.transpose", vec![total], t(&[]), attrs(&[("permutation", Attr::I64Array(vec![]))]));
        let got = classes_of(b, vec![dw, weighted, paired, dw_t, total_t]);
        assert_eq!(got, [Contraction, Contraction, Contraction, Contraction, Sum { count: 32.0 }]);
    }

    fn opaque(data: &str) -> Attr {
        Attr::Opaque { dialect: "stablehlo".into(), data: data.into() }
    }

    #[test]
    fn examples_merged_below_the_sequence_stay_apart_and_come_back_out() {
        // x: [8, 4] is the batch (8 examples of 4 tokens); PyTorch's attention layout: the
        // tokens first, examples and tokens merged to [32, 1], projected by w, split again.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let tokens_first =
            b.op("stablehlo.transpose", vec![x], t(&[4, 8]), attrs(&[("permutation", Attr::I64Array(vec![1, 0]))]));
        let merged = b.unary("stablehlo.reshape", tokens_first, t(&[32, 1]));
        let w = b.unary("stablehlo.reshape", ValueRef::Arg(1), t(&[1, 12]));
        let projected = b.op(
            "stablehlo.dot_general",
            vec![merged, w],
            t(&[32, 12]),
            attrs(&[(
                "dot_dimension_numbers",
                opaque("#stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>"),
            )]),
        );
        let activated = b.unary("stablehlo.tanh", projected, t(&[32, 12]));
        let split = b.unary("stablehlo.reshape", activated, t(&[4, 8, 12]));
        let examples_first = b.op(
            "stablehlo.transpose",
            vec![split],
            t(&[8, 4, 12]),
            attrs(&[("permutation", Attr::I64Array(vec![1, 0, 2]))]),
        );
        let init = constant(&mut b, 0.0);
        let summed_inside = b.reduce_sum(activated, init, &[0, 1], t(&[]));
        let per_token = b.reduce_sum(activated, init, &[1], t(&[32]));
        // A split that cuts through the examples ([32] -> [16, 2]: 2 examples per row) loses them.
        let cut = b.unary("stablehlo.reshape", per_token, t(&[16, 2]));
        let got = classes_of(b, vec![merged, projected, split, examples_first, summed_inside, per_token, cut]);
        assert_eq!(
            got,
            [
                PerExample(None),
                PerExample(None),
                PerExample(Some(1)),
                PerExample(Some(0)),
                Sum { count: 384.0 },
                PerExample(None),
                PerExample(None)
            ]
        );
    }

    #[test]
    fn a_norm_whose_features_are_the_examples_keeps_them_apart() {
        // torch_xla's LayerNorm: the tokens of every example as batch_norm's features.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let features = b.unary("stablehlo.reshape", x, t(&[1, 8, 4]));
        let per_example = b.batch_norm_training(features, &[1, 8, 4], 1);
        let across_examples = b.batch_norm_training(features, &[1, 8, 4], 2);
        assert_eq!(classes_of(b, vec![per_example, across_examples]), [PerExample(Some(1)), PerExample(None)]);
    }

    #[test]
    fn results_carried_through_or_keeping_the_examples_apart_have_classes_of_their_own() {
        // jax.checkpoint recomputes from an optimization_barrier of the weights, the saved
        // activations and the cotangents: a product after it is what it is without the barrier.
        let mut b = Builder::new();
        let (x, w) = (ValueRef::Arg(0), ValueRef::Arg(1));
        let total = b.sum(x);
        let carried = b.ops_results(
            "stablehlo.optimization_barrier",
            vec![w, x, total],
            vec![t(&[4, 3]), t(&[8, 4]), t(&[])],
            Attrs::new(),
        );
        let recomputed = b.dot(carried[1], carried[0], 1, 0, t(&[8, 3]));
        // Statistics per feature: per example where the features are the examples.
        let features = b.unary("stablehlo.reshape", x, t(&[1, 8, 4]));
        let norm = |b: &mut Builder, feature: usize| {
            let stats = t(&[[1, 8, 4][feature]]);
            let attrs = attrs(&[("feature_index", Attr::Int(feature as i64)), ("epsilon", Attr::Float(1e-5))]);
            let (scale, offset) = (b.scalar_constant(), b.scalar_constant());
            let results = vec![t(&[1, 8, 4]), stats.clone(), stats];
            b.ops_results("stablehlo.batch_norm_training", vec![features, scale, offset], results, attrs)
        };
        let of_examples = norm(&mut b, 1);
        let over_examples = norm(&mut b, 2);
        // A sort of values and their keys within each example, and an argmax of each example's
        // values (a reduction of values and indices): every result keeps the examples.
        let attrs_of = |name: &str, value: Attr| attrs(&[(name, value)]);
        let sorted = b.ops_results(
            "stablehlo.sort",
            vec![x, x],
            vec![t(&[8, 4]), t(&[8, 4])],
            attrs_of("dimension", Attr::Int(1)),
        );
        let inits = [b.scalar_constant(), b.scalar_constant()];
        let argmax = |b: &mut Builder, dim: i64, result: ValueType| {
            b.ops_results(
                "stablehlo.reduce",
                vec![x, x, inits[0], inits[1]],
                vec![result.clone(), result],
                attrs_of("dimensions", Attr::I64Array(vec![dim])),
            )
        };
        let argmax_per_example = argmax(&mut b, 1, t(&[8]));
        let argmax_over_examples = argmax(&mut b, 0, t(&[4]));
        // A loop's carried values are its body's: they share the loop's class.
        let looped = b.ops_results("stablehlo.while", vec![w, x], vec![t(&[4, 3]), t(&[8, 4])], Attrs::new());
        let returned = [
            carried.clone(),
            vec![recomputed],
            of_examples.clone(),
            over_examples.clone(),
            sorted,
            argmax_per_example,
            argmax_over_examples,
            looped.clone(),
        ];
        let returned: Vec<ValueRef> = returned.concat();
        let graph = b.graph(args(), returned.clone());
        let dims = [Some(0), None];
        let classes = batch_classes(&graph, &dims);
        let got: Vec<(BatchClass, bool)> =
            returned.iter().map(|&v| (classes.of(v, &dims), classes.is_own(&graph, v))).collect();
        let shared = (PerExample(None), false);
        let want = [
            (Independent, true),
            (PerExample(Some(0)), true),
            (Sum { count: 32.0 }, true),
            (PerExample(Some(0)), true),
            (PerExample(Some(1)), true),
            (PerExample(Some(0)), true),
            (PerExample(Some(0)), true),
            shared,
            shared,
            shared,
            (PerExample(Some(0)), true),
            (PerExample(Some(0)), true),
            (PerExample(Some(0)), true),
            (PerExample(Some(0)), true),
            (Other, false),
            (Other, false),
            shared,
            shared,
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn convolutions_pooling_lookups_and_top_k_keep_the_examples_apart() {
        // x: [8, 4] is the batch; images, ids and kernels come from it or from w.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let w = ValueRef::Arg(1);
        let image = b.unary("stablehlo.reshape", x, t(&[8, 2, 2, 1]));
        let kernel = b.unary("stablehlo.reshape", w, t(&[2, 2, 1, 3]));
        let conv = |b: &mut Builder, lhs, rhs, batch_groups: i64| {
            b.op(
                "stablehlo.convolution",
                vec![lhs, rhs],
                t(&[8, 1, 1, 3]),
                attrs(&[
                    ("dimension_numbers", opaque("conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>")),
                    ("batch_group_count", Attr::Int(batch_groups)),
                ]),
            )
        };
        let convolved = conv(&mut b, image, kernel, 1);
        let per_example_kernel = b.unary("stablehlo.reshape", x, t(&[2, 2, 1, 8]));
        let not_shared = conv(&mut b, image, per_example_kernel, 1);
        let init = constant(&mut b, 0.0);
        let window = |b: &mut Builder, dims: &[i64], out: &[i64]| {
            b.op(
                "stablehlo.reduce_window",
                vec![convolved, init],
                t(out),
                attrs(&[("window_dimensions", Attr::I64Array(dims.to_vec()))]),
            )
        };
        let pooled = window(&mut b, &[1, 1, 1, 3], &[8, 1, 1, 1]);
        let across_examples = window(&mut b, &[2, 1, 1, 1], &[7, 1, 1, 3]);
        let ids = b.unary("stablehlo.convert", x, t(&[8, 4, 1]));
        let table = b.unary("stablehlo.reshape", w, t(&[12]));
        let table = b.unary("stablehlo.reshape", table, t(&[6, 2]));
        let looked_up = b.op(
            "stablehlo.gather",
            vec![table, ids],
            t(&[8, 4, 2]),
            attrs(&[(
                "dimension_numbers",
                opaque("gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>"),
            )]),
        );
        let top = b.op("chlo.top_k", vec![x], t(&[8, 2]), attrs(&[]));
        let scores =
            b.op("stablehlo.transpose", vec![x], t(&[4, 8]), attrs(&[("permutation", Attr::I64Array(vec![1, 0]))]));
        let top_over_batch = b.op("chlo.top_k", vec![scores], t(&[4, 2]), attrs(&[]));
        let got =
            classes_of(b, vec![convolved, not_shared, pooled, across_examples, looked_up, top, scores, top_over_batch]);
        assert_eq!(
            got,
            [
                PerExample(Some(0)),
                PerExample(None),
                PerExample(Some(0)),
                PerExample(None),
                PerExample(Some(0)),
                PerExample(Some(0)),
                PerExample(Some(1)),
                PerExample(None)
            ]
        );
    }

    #[test]
    fn ops_whose_rule_passes_the_batch_through_keep_the_examples_and_others_lose_them() {
        // x: [8, 4] is the batch; fft, sort and cholesky work on the trailing dims by their rules.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let fft = |b: &mut Builder, x, lengths: &[i64], shape: &[i64]| {
            let ty = ValueType::Tensor(TensorType::new(shape.to_vec(), ElementType::Complex(32)));
            let fft_type = opaque("<fft_type FFT>");
            b.op(
                "stablehlo.fft",
                vec![x],
                ty,
                attrs(&[("fft_type", fft_type), ("fft_length", Attr::I64Array(lengths.to_vec()))]),
            )
        };
        let spectrum = fft(&mut b, x, &[4], &[8, 4]);
        let over_examples = fft(&mut b, x, &[8, 4], &[8, 4]);
        let real = b.unary("stablehlo.real", spectrum, t(&[8, 4]));
        let sort = |b: &mut Builder, x, dimension: i64| {
            b.op("stablehlo.sort", vec![x], t(&[8, 4]), attrs(&[("dimension", Attr::Int(dimension))]))
        };
        let sorted = sort(&mut b, real, 1);
        let sorted_examples = sort(&mut b, x, 0);
        let matrices = b.unary("stablehlo.reshape", x, t(&[8, 2, 2]));
        let factored = b.op("stablehlo.cholesky", vec![matrices], t(&[8, 2, 2]), attrs(&[]));
        let zero = constant(&mut b, 0.0);
        let total = b.reduce_sum(sorted, zero, &[0, 1], t(&[]));
        let count = constant(&mut b, 32.0);
        let mean = b.binary("stablehlo.divide", total, count, t(&[]));
        let got = classes_of(b, vec![spectrum, over_examples, sorted, sorted_examples, factored, mean]);
        assert_eq!(
            got,
            [PerExample(Some(0)), PerExample(None), PerExample(Some(0)), PerExample(None), PerExample(Some(0)), Mean]
        );
    }

    #[test]
    fn a_gather_of_each_examples_own_row_keeps_the_examples() {
        // rows: [8, 2, 2], each example's two rows; index: [8, 1], a row per example.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let rows = b.unary("stablehlo.reshape", x, t(&[8, 2, 2]));
        let index = b.op("stablehlo.slice", vec![x], t(&[8, 1]), attrs(&[]));
        // rows[jnp.arange(8), index]: positions wrapped as jnp wraps negative indices.
        let positions = b.op("stablehlo.iota", vec![], t(&[8]), attrs(&[("iota_dimension", Attr::Int(0))]));
        let zero = constant(&mut b, 0.0);
        let below_zero = b.op(
            "stablehlo.compare",
            vec![positions, zero],
            t(&[8]),
            attrs(&[("comparison_direction", opaque("<comparison_direction LT>"))]),
        );
        let eight = constant(&mut b, 8.0);
        let wrapped = b.binary("stablehlo.add", positions, eight, t(&[8]));
        let chosen = b.op("stablehlo.select", vec![below_zero, wrapped, positions], t(&[8]), attrs(&[]));
        let column = b.op(
            "stablehlo.broadcast_in_dim",
            vec![chosen],
            t(&[8, 1]),
            attrs(&[("broadcast_dimensions", Attr::I64Array(vec![0]))]),
        );
        let by_position =
            b.op("stablehlo.concatenate", vec![column, index], t(&[8, 2]), attrs(&[("dimension", Attr::Int(1))]));
        let by_index =
            b.op("stablehlo.concatenate", vec![index, index], t(&[8, 2]), attrs(&[("dimension", Attr::Int(1))]));
        let pick = |b: &mut Builder, indices| {
            b.op(
                "stablehlo.gather",
                vec![rows, indices],
                t(&[8, 2]),
                attrs(&[
                    (
                        "dimension_numbers",
                        opaque("gather<offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>"),
                    ),
                    ("slice_sizes", Attr::I64Array(vec![1, 1, 2])),
                ]),
            )
        };
        let own = pick(&mut b, by_position);
        let others = pick(&mut b, by_index);
        // jnp.take_along_axis: the examples a batching dimension of both.
        let along = b.unary("stablehlo.reshape", index, t(&[8, 1, 1]));
        let along_axis = b.op(
            "stablehlo.gather",
            vec![rows, along],
            t(&[8, 1, 2]),
            attrs(&[
                (
                    "dimension_numbers",
                    opaque("gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>"),
                ),
                ("slice_sizes", Attr::I64Array(vec![1, 1, 2])),
            ]),
        );
        let got = classes_of(b, vec![own, others, along_axis]);
        assert_eq!(got, [PerExample(Some(0)), PerExample(None), PerExample(Some(0))]);
    }

    #[test]
    fn a_convolution_over_the_examples_as_features_is_a_contraction() {
        // A kernel's gradient as JAX writes it: the images [8, 2, 2, 1] and the cotangents
        // [8, 1, 1, 3] (8 examples each) convolved with the examples as the contracted
        // features, into a [2, 2, 1, 3] kernel; and with feature groups, or one side shared.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let w = ValueRef::Arg(1);
        let images = b.unary("stablehlo.reshape", x, t(&[8, 2, 2, 1]));
        let cotangents = b.unary("stablehlo.reshape", x, t(&[8, 1, 1, 4]));
        let shared = b.unary("stablehlo.reshape", w, t(&[1, 1, 1, 12]));
        let conv = |b: &mut Builder, rhs, feature_groups: i64| {
            b.op(
                "stablehlo.convolution",
                vec![images, rhs],
                t(&[2, 2, 1, 4]),
                attrs(&[
                    ("dimension_numbers", opaque("conv<[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]>")),
                    ("feature_group_count", Attr::Int(feature_groups)),
                ]),
            )
        };
        let kernel_gradient = conv(&mut b, cotangents, 1);
        let grouped = conv(&mut b, cotangents, 2);
        let against_shared = conv(&mut b, shared, 1);
        let got = classes_of(b, vec![kernel_gradient, grouped, against_shared]);
        assert_eq!(got, [Contraction, PerExample(None), PerExample(None)]);
    }

    #[test]
    fn a_batch_dimension_past_an_operands_rank_is_lost_track_of_not_indexed() {
        // A malformed broadcast maps the batch to dimension 7 of a rank-2 value.
        let mut b = Builder::new();
        let bad = b.op(
            "stablehlo.broadcast_in_dim",
            vec![ValueRef::Arg(0)],
            t(&[8, 4]),
            attrs(&[("broadcast_dimensions", Attr::I64Array(vec![7, 1]))]),
        );
        let flat = b.unary("stablehlo.reshape", bad, t(&[32]));
        let init = constant(&mut b, 0.0);
        let per_row = b.reduce_sum(bad, init, &[1], t(&[8]));
        let got = classes_of(b, vec![bad, flat, per_row]);
        assert_eq!(got, [PerExample(Some(7)), PerExample(None), PerExample(None)]);
    }

    #[test]
    fn the_batch_merged_with_the_next_dimension_stays_its_outermost_factor() {
        // x: [8, 4] (8 examples) as [32] (a loss over tokens), split back, and mis-merged.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let tokens = b.unary("stablehlo.reshape", x, t(&[32]));
        let back = b.unary("stablehlo.reshape", tokens, t(&[8, 4]));
        let pairs = b.unary("stablehlo.reshape", tokens, t(&[16, 2]));
        let quarters = b.unary("stablehlo.reshape", x, t(&[4, 8]));
        let total = b.sum(tokens);
        let n = constant(&mut b, 32.0);
        let mean = b.binary("stablehlo.divide", total, n, t(&[]));
        let by_examples = constant(&mut b, 8.0);
        let per_example_mean = b.binary("stablehlo.divide", total, by_examples, t(&[]));
        let got = classes_of(b, vec![tokens, back, pairs, quarters, mean, per_example_mean]);
        assert_eq!(
            got,
            [
                PerExample(Some(0)),
                PerExample(Some(0)),
                PerExample(Some(0)),
                // 4 rows of 8 elements: the examples are no factor of a dimension.
                PerExample(None),
                Mean,
                // The tokens' sum over the examples: the mean over them of each one's sum.
                Mean
            ]
        );
    }

    #[test]
    fn a_choice_every_microbatch_makes_alike_keeps_a_mean_or_a_sum_guarded_by_zero() {
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let total = b.sum(x);
        let count = constant(&mut b, 32.0);
        let zero = constant(&mut b, 0.0);
        let one = constant(&mut b, 1.0);
        let compare = |b: &mut Builder, lhs, rhs| {
            let direction = opaque("<comparison_direction EQ>");
            b.op("stablehlo.compare", vec![lhs, rhs], t(&[]), attrs(&[("comparison_direction", direction)]))
        };
        let select = |b: &mut Builder, pred, yes, no| b.op("stablehlo.select", vec![pred, yes, no], t(&[]), attrs(&[]));
        // divide_no_nan(total, count): the guarded divisor folds to the count.
        let empty = compare(&mut b, count, zero);
        let divisor = select(&mut b, empty, one, count);
        let quotient = b.binary("stablehlo.divide", total, divisor, t(&[]));
        let mean = select(&mut b, empty, zero, quotient);
        let mean_or_one = select(&mut b, ValueRef::Arg(1), one, mean);
        let sum_or_zero = select(&mut b, ValueRef::Arg(1), total, zero);
        let sum_or_one = select(&mut b, ValueRef::Arg(1), total, one);
        let by_the_batch = compare(&mut b, total, zero);
        let chosen_by_the_batch = select(&mut b, by_the_batch, zero, mean);
        let got = classes_of(b, vec![mean, mean_or_one, sum_or_zero, sum_or_one, chosen_by_the_batch]);
        assert_eq!(got, [Mean, Mean, Sum { count: 32.0 }, Other, Other]);
    }

    #[test]
    fn a_scatter_adding_one_update_per_example_into_a_shared_value_is_a_contraction() {
        // The gradient of an embedding table shaped like w ([4, 3]) looked up by the examples' ids.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let updates = b.unary("stablehlo.tanh", x, t(&[8, 4]));
        let ids = b.unary("stablehlo.convert", x, t(&[8, 4]));
        let zero = constant(&mut b, 0.0);
        let zeros = |b: &mut Builder, shape: &[i64]| {
            let dims = attrs(&[("broadcast_dimensions", Attr::I64Array(vec![]))]);
            b.op("stablehlo.broadcast_in_dim", vec![zero], t(shape), dims)
        };
        let table = zeros(&mut b, &[4, 3]);
        let rows = zeros(&mut b, &[8, 4]);
        let numbers = |window: i64, batching: &str| {
            opaque(&format!("scatter<update_window_dims = [{window}], inserted_window_dims = [0], {batching}scatter_dims_to_operand_dims = [0], index_vector_dim = 1>"))
        };
        let gradient = b.scatter_add(table, ids, updates, numbers(1, ""), t(&[4, 3]));
        // A bf16 model's: its f32 table looked up as bf16, the gradient scattered in bf16.
        let bf16 = |shape: &[i64]| {
            ValueType::Tensor(TensorType::new(shape.to_vec(), ElementType::Float { name: "bf16".into(), bits: 16 }))
        };
        let bf16_updates = b.unary("stablehlo.convert", updates, bf16(&[8, 4]));
        let bf16_table = b.unary("stablehlo.convert", table, bf16(&[4, 3]));
        let bf16_gradient = b.scatter_add(bf16_table, ids, bf16_updates, numbers(1, ""), bf16(&[4, 3]));
        // The examples as the updates' window: they land side by side, not added.
        let side_by_side = b.scatter_add(table, ids, updates, numbers(0, ""), t(&[4, 3]));
        // Into a value per example, or a buffer of the examples' rows (take_along_axis's
        // transpose, with batching dimensions or without): no aggregate.
        let into_examples = b.scatter_add(updates, ids, updates, numbers(1, ""), t(&[8, 4]));
        let own_rows = b.scatter_add(rows, ids, updates, numbers(1, ""), t(&[8, 4]));
        let batched = "input_batching_dims = [1], scatter_indices_batching_dims = [0], ";
        let batched_rows = b.scatter_add(table, ids, updates, numbers(1, batched), t(&[4, 3]));
        let replaced = b.op(
            "stablehlo.scatter",
            vec![table, ids, updates],
            t(&[4, 3]),
            attrs(&[("scatter_dimension_numbers", numbers(1, ""))]),
        );
        let got =
            classes_of(b, vec![gradient, bf16_gradient, side_by_side, into_examples, own_rows, batched_rows, replaced]);
        assert_eq!(
            got,
            [
                Contraction,
                Contraction,
                PerExample(None),
                PerExample(None),
                PerExample(None),
                PerExample(None),
                PerExample(None)
            ]
        );
    }

    #[test]
    fn a_scatter_adding_constants_at_the_examples_values_counts_them() {
        // Counts per class of the examples' labels (segment_sum(ones, labels)) and a confusion
        // matrix of labels and predictions: sums over the batch. Ones added at the examples'
        // positions (jnp.arange(batch) beside the labels) fill each example's own row instead.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let labels = b.unary("stablehlo.convert", x, t(&[8, 1]));
        let one = constant(&mut b, 1.0);
        let zero = constant(&mut b, 0.0);
        let ones = b.spread(one, &[8]);
        let bins = b.spread(zero, &[4]);
        let numbers = |window: &str, inserted: &str, to_operand: &str, vector: i64| {
            opaque(&format!("scatter<update_window_dims = [{window}], inserted_window_dims = [{inserted}], scatter_dims_to_operand_dims = [{to_operand}], index_vector_dim = {vector}>"))
        };
        let class_counts = b.scatter_add(bins, labels, ones, numbers("", "0", "0", 1), t(&[4]));
        let predictions = b.unary("stablehlo.floor", x, t(&[8, 1]));
        let pairs = b.concatenate(vec![labels, predictions], 1, t(&[8, 2]));
        let cells = b.spread(zero, &[4, 4]);
        let confusion = b.scatter_add(cells, pairs, ones, numbers("", "0, 1", "0, 1", 1), t(&[4, 4]));
        let rows = b.spread(zero, &[8, 4]);
        let iota = b.op("stablehlo.iota", vec![], t(&[8, 1]), attrs(&[("iota_dimension", Attr::Int(0))]));
        let positions = b.concatenate(vec![iota, labels], 1, t(&[8, 2]));
        let one_hot = b.scatter_add(rows, positions, ones, numbers("", "0, 1", "0, 1", 1), t(&[8, 4]));
        let got = classes_of(b, vec![class_counts, confusion, one_hot]);
        assert_eq!(got, [Contraction, Contraction, PerExample(None)]);
    }

    #[test]
    fn a_scatter_adding_each_examples_values_at_its_label_sums_them_per_class() {
        // segment_sum(correct, labels) and segment_sum(x, labels) (a per-class accuracy's hits,
        // per-class sums of features) add up over the batch. Each example's values added at
        // jnp.arange(batch) * classes + labels, flattened, fill a one-hot row of its own.
        let mut b = Builder::new();
        let x = ValueRef::Arg(0);
        let labels = b.unary("stablehlo.convert", x, t(&[8, 1]));
        let zero = constant(&mut b, 0.0);
        let numbers = |window: &str| {
            opaque(&format!("scatter<update_window_dims = [{window}], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>"))
        };
        let correct = b.reduce_sum(x, zero, &[1], t(&[8]));
        let bins = b.spread(zero, &[4]);
        let hits = b.scatter_add(bins, labels, correct, numbers(""), t(&[4]));
        let rows = b.spread(zero, &[4, 4]);
        let feature_sums = b.scatter_add(rows, labels, x, numbers("1"), t(&[4, 4]));
        let iota = b.op("stablehlo.iota", vec![], t(&[8, 1]), attrs(&[("iota_dimension", Attr::Int(0))]));
        let four = constant(&mut b, 4.0);
        let strides = b.spread(four, &[8, 1]);
        let row_starts = b.binary("stablehlo.multiply", iota, strides, t(&[8, 1]));
        let cells = b.binary("stablehlo.add", row_starts, labels, t(&[8, 1]));
        let flat = b.spread(zero, &[32]);
        let flat_one_hot = b.scatter_add(flat, cells, correct, numbers(""), t(&[32]));
        let got = classes_of(b, vec![hits, feature_sums, flat_one_hot]);
        assert_eq!(got, [Contraction, Contraction, PerExample(None)]);
    }

    #[test]
    fn what_reads_no_batch_input_is_independent() {
        let mut b = Builder::new();
        let w = b.unary("stablehlo.tanh", ValueRef::Arg(1), t(&[4, 3]));
        assert_eq!(classes_of(b, vec![w]), [Independent]);
    }
}
