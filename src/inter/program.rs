//! The pipelined program of a train step (paper §5, Fig. 5): the step's ops sliced into, per
//! stage, a forward, a backward and an apply function, and the order in which `@main` calls
//! them over B microbatches with gradient accumulation. Free of MLIR; `passes/` emits it.
//!
//! - The step is exported at microbatch size. Batch inputs (non-donated tensor arguments of
//!   rank >= 1, on dim 0 unless the argument's `alpa.batch_dim` says otherwise) become B times
//!   larger in `@main` and are sliced into B microbatches; everything else is shared.
//! - Apply ops run once per iteration on accumulated values. They are the update-phase ops
//!   that read no batch-shaped value: an update-phase op that reads a value per example (of any
//!   type, an activation can have a kernel's; a value whose own class the batch analysis
//!   says is per example, `BatchClasses::is_own`) or a batch-dependent value of a type no donated
//!   argument has (e.g. the reduction of a bias gradient over the batch) is still computing the
//!   gradient, so it runs per microbatch with the backward ops. A backward
//!   op on the way to the new state that reads only batch aggregates (sums, means) or values
//!   of apply ops is an apply op too: an optimizer's matrix products (Muon, Shampoo); so is one
//!   that reads only gradients (contractions over the batch on the way to the new state) and
//!   values of apply ops, wherever it leads: a returned global gradient norm.
//! - A value a per-microbatch function hands to an apply function or returns from the step is
//!   accumulated over the microbatches: batch-dependent values by their mean (the loss is a
//!   mean over the batch, so the global-batch gradient is the mean of the microbatch ones) or
//!   their sum (`GradientCombine::Sum`, and always for integer values such as counts);
//!   batch-independent values are taken from the last microbatch; maxima (minima) over the
//!   batch by the largest (smallest) microbatch's.
//! - A returned value computed from such sums, means and maxima alone (a perplexity
//!   `exp(loss)`, a norm `sqrt(sum(x * x))`, a ratio of two means) runs in an apply function,
//!   once, on their combined values: per microbatch it would be none of them.
//! - A value computed from constants only is recomputed in every function that reads it: it
//!   never crosses stages (an unrolled scan's loop-invariant values are read by every layer).
//! - Calls follow the schedule (1F1B or GPipe); the order is checked to respect every data
//!   dependency, so a stage assignment that would need a cycle is an error, never a wrong
//!   program.

use super::batch_order::{examples_moved, reordered_examples_meeting};
use super::batch_parts::Held;
use super::batch_positions::positions_meeting_examples;
use super::batch_statistics::statistics_meeting_examples;
use super::combined_metrics::CombinedReads;
use super::examples_count::counting_ops;
use super::gradient_meetings::{examples_meeting_gradients, GradientMeetings};
use super::gradient_seeds::{forward_value_aggregates, seeded, ForwardValueAggregates};
use super::lost_examples::examples_lost_before;
use super::meeting_warnings::meeting_warning;
use super::memory::Schedule;
use super::nonlinear_loss::nonlinear_statistics_term;
use super::output_combine::{
    assumed_count_means, batch_classes, batch_classes_and_held, AssumedCount, BatchClass, BatchClasses, Written,
};
use super::plan::StageId;
use super::weighted_loss::{denominator_powers, weighted_loss, WeightedLoss};
use crate::ir::batch_inputs::{batch_dependent, batch_input_dims, examples_per_microbatch, reads_only, BadBatchDim};
use crate::ir::constant_fold::folded_constants;
use crate::ir::constant_values::constant_ops;
use crate::ir::graph::{Graph, OpId, ValueRef};
use crate::ir::train_step::{analyze, ancestors, loss_candidates, producer, updates_state, Phase, TrainStep};
use crate::ir::types::ValueType;
use std::collections::{BTreeSet, HashMap};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FunctionKind {
    Forward,
    Backward,
    Apply,
}

impl FunctionKind {
    pub fn name(self) -> &'static str {
        match self {
            FunctionKind::Forward => "forward",
            FunctionKind::Backward => "backward",
            FunctionKind::Apply => "apply",
        }
    }
}

/// One stage function: its ops (indices into the entry's body, in program order), the values
/// it takes (in order) and the values it returns (in order).
#[derive(Clone, Debug, PartialEq)]
pub struct StageFunction {
    pub stage: StageId,
    pub kind: FunctionKind,
    pub ops: Vec<OpId>,
    pub inputs: Vec<ValueRef>,
    pub outputs: Vec<ValueRef>,
}

impl StageFunction {
    pub fn symbol(&self) -> String {
        format!("stage{}_{}", self.stage, self.kind.name())
    }
}

/// One call of `@main`: function `function` on microbatch `microbatch` (apply functions run
/// once, after all microbatches: `microbatch` is `None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Call {
    pub function: usize,
    pub microbatch: Option<usize>,
}

/// How a per-microbatch value that outlives its microbatch is combined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accumulate {
    Mean,
    Sum,
    /// Batch-independent: every microbatch computes the same value.
    Last,
    /// The largest (`max`) or the smallest of the microbatches' values.
    Extreme {
        max: bool,
    },
    /// A value per example, the examples in dimension `dim` in the batch's order: the
    /// microbatches' values side by side along it.
    Concatenate {
        dim: usize,
    },
    /// Under a ratio of sums (`of`: the loss's, `PipelineProgram::weighted_loss`, or a returned
    /// metric's): the microbatches' values weighted by their denominators, added up and divided
    /// by the denominator of the summed weights.
    WeightedMean {
        of: Ratio,
    },
}

/// Which ratio of sums a weighted mean divides as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ratio {
    /// The loss's: it and the values that carry its 1/denominator (its gradients).
    Loss,
    /// `PipelineProgram::ratio_metrics[i]`: a metric the step returns (a masked accuracy).
    Metric(usize),
}

/// How the gradients of the microbatches combine into the global-batch gradient.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GradientCombine {
    /// As the loss combines: `Sum` for a sum over the batch, by the denominators for a ratio of
    /// sums (`weighted_loss`), `Mean` otherwise.
    Auto,
    /// The loss is a mean over the batch (JAX's usual `mean` loss).
    Mean,
    /// The loss is a sum over the batch.
    Sum,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PipelineProgram {
    /// What the microbatches compute differently from the global batch, at the op that does it.
    pub warnings: Vec<(OpId, String)>,
    pub functions: Vec<StageFunction>,
    pub calls: Vec<Call>,
    pub microbatches: usize,
    /// Per entry argument: the dim it is split on into microbatches, if it is a batch input.
    pub batch_dims: Vec<Option<usize>>,
    /// Values accumulated over the microbatches, with how.
    pub accumulated: Vec<(ValueRef, Accumulate)>,
    /// The loss's weights and denominator when it is a ratio of sums and the gradients combine
    /// as [`Accumulate::WeightedMean`] (both are outputs of their functions).
    pub weighted_loss: Option<WeightedLoss>,
    /// Returned scalar metrics that are ratios of sums (`sum(correct * mask) / sum(mask)`), each with
    /// its weights and denominator (outputs of their functions), combined as
    /// [`Accumulate::WeightedMean`] of [`Ratio::Metric`].
    pub ratio_metrics: Vec<WeightedLoss>,
    /// Stage of every op of the entry body.
    pub stage_of_op: Vec<StageId>,
    /// Function of every op of the entry body (an op of constants is also in the `ops` of
    /// every function that reads it).
    pub function_of_op: Vec<usize>,
}

impl PipelineProgram {
    /// The weights and denominator of ratio `of`.
    pub fn ratio(&self, of: Ratio) -> Option<&WeightedLoss> {
        match of {
            Ratio::Loss => self.weighted_loss.as_ref(),
            Ratio::Metric(i) => self.ratio_metrics.get(i),
        }
    }

    /// Every ratio of sums the program combines by, with its weights and denominator.
    pub fn ratios(&self) -> impl Iterator<Item = (Ratio, &WeightedLoss)> {
        let loss = self.weighted_loss.iter().map(|w| (Ratio::Loss, w));
        loss.chain(self.ratio_metrics.iter().enumerate().map(|(i, w)| (Ratio::Metric(i), w)))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ProgramError {
    /// An op the slicing cannot move into a function (it captures values from outside).
    Capture { op: OpId },
    /// The stage assignment needs a value before the schedule computes it: `op` (of
    /// `function`) reads it.
    Order { op: OpId, function: String, needs: String },
    /// An explicit `alpa.batch_dim` that is not a dim of the argument.
    BadBatchDim { arg: usize, dim: i64 },
    /// Result `result` of the step (computed by `op`) has no global-batch value the
    /// microbatches' values combine into (`inter/output_combine.rs`).
    Combine { op: OpId, result: usize, why: &'static str },
}

impl From<BadBatchDim> for ProgramError {
    fn from(BadBatchDim { arg, dim }: BadBatchDim) -> Self {
        ProgramError::BadBatchDim { arg, dim }
    }
}

impl std::fmt::Display for ProgramError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProgramError::Capture { .. } => {
                write!(f, "this op's regions use values from outside the op; it cannot move into a stage function (a stablehlo.case, from lax.cond or lax.switch, is rewritten into selects only when its branches have no effects)")
            }
            ProgramError::Order { function, needs, .. } => {
                write!(f, "the stage assignment makes {function} need {needs} before the schedule computes it")
            }
            ProgramError::Combine { result, why, .. } => write!(
                f,
                "result {result} of the step {why}: microbatches cannot give its value for the whole batch (sums, means, maxima and minima over the batch combine, what is computed from them alone is computed once from their combined values, and values per example in the batch's order concatenate); return such values, or plan with microbatches=1"
            ),
            ProgramError::BadBatchDim { arg, dim } => {
                write!(f, "argument {arg} has alpa.batch_dim = {dim}, not one of its dims (or -1)")
            }
        }
    }
}

/// What each op is among the aggregates over the batch on the way to the new state.
struct Aggregates {
    /// A gradient: an aggregate over the batch that no forward op computes (a contraction, or a
    /// sum of per-example cotangents such as a bias's gradient, the transpose of its broadcast)
    /// on the way to the new value of a parameter (a donated argument the forward reads), that
    /// reads the loss's cotangent seed (`gradient_seeds`). Its microbatches' values combine as
    /// the gradients do: a sum under a mean loss holds the loss's 1/batch. A total that updates
    /// a metric's state, which the forward does not read, stays a sum.
    gradient: Vec<bool>,
    /// A sum over the batch of forward values (`gradient_seeds::ForwardValueAggregates`): adds
    /// up.
    forward_sum: Vec<bool>,
    /// A mean made of one: computed per microbatch, averaged.
    forward_mean: Vec<bool>,
}

impl Aggregates {
    fn new(graph: &Graph, step: &TrainStep, batch_dims: &[Option<usize>], classes: &[BatchClass]) -> Self {
        let mut read_by_forward = vec![false; graph.args.len()];
        for (op, _) in graph.ops().iter().zip(&step.phase).filter(|(_, phase)| **phase == Phase::Forward) {
            for operand in &op.operands {
                if let ValueRef::Arg(a) = *operand {
                    read_by_forward[a] = true;
                }
            }
        }
        let new_parameters = graph
            .args
            .iter()
            .zip(&read_by_forward)
            .filter(|(_, read)| **read)
            .filter_map(|(arg, _)| arg.aliased_output())
            .filter_map(|r| graph.returned.get(r).copied());
        let updates_parameters = ancestors(graph, new_parameters);
        let folded = folded_constants(graph);
        let examples = examples_per_microbatch(graph, batch_dims);
        let seeded = seeded(graph, &step.phase, &folded, classes, batch_dims, examples);
        let ForwardValueAggregates { sums: forward_sum, means: forward_mean } =
            forward_value_aggregates(graph, &step.phase, classes, &seeded, &folded, examples);
        let gradient = (0..graph.ops().len())
            .map(|i| {
                step.phase[i] != Phase::Forward
                    && updates_parameters[i]
                    && seeded[i]
                    && matches!(classes[i], BatchClass::Contraction | BatchClass::Sum { .. })
            })
            .collect();
        Aggregates { gradient, forward_sum, forward_mean }
    }
}

/// Per op: whether it runs in the apply function (see the module docs).
fn apply_ops(
    graph: &Graph,
    step: &TrainStep,
    batch_dims: &[Option<usize>],
    dependent: &[bool],
    classes: &BatchClasses,
) -> Vec<bool> {
    let donated_types: Vec<&ValueType> = graph.args.iter().filter(|a| a.is_donated()).map(|a| &a.ty).collect();
    let mut apply = vec![false; graph.ops().len()];
    let updates_state = updates_state(graph);
    let Aggregates { gradient, forward_sum, forward_mean } = Aggregates::new(graph, step, batch_dims, classes);
    let loss = producer(graph.returned[step.loss]);
    let combined = CombinedReads::new(graph, batch_dims, classes, &forward_sum);
    let mut of_combined = vec![false; graph.ops().len()];
    for (index, op) in graph.ops().iter().enumerate() {
        // The update-phase ops, and a backward op on the way to the new state that reads only
        // aggregates over the batch: an optimizer that multiplies gradient-derived matrices
        // (Muon's Newton-Schulz steps, Shampoo's preconditioners) feeds heavy ops, so the phases
        // call it backward, yet the global step computes it once, on the whole batch's gradient.
        let aggregate_only = || {
            reads_only(op, batch_dims, |p| {
                apply[p]
                    || matches!(
                        classes[p],
                        BatchClass::Independent | BatchClass::Sum { .. } | BatchClass::Mean | BatchClass::Contraction
                    )
            })
        };
        // A metric of the gradients alone (optax.tree.norm(grads)) is the global batch's when
        // computed once on the accumulated gradients; per microbatch it would be no sum or mean.
        // A returned x^T x of activations is no gradient (`gradients`).
        // A metric of combined sums is no gradient: what it reads is `combined_metrics`' to judge.
        let of_gradients = |p: usize| (apply[p] && !of_combined[p]) || gradient[p];
        let of_gradients_only = || {
            op.operands.iter().filter_map(|v| producer(*v)).any(of_gradients)
                && reads_only(op, batch_dims, |p| of_gradients(p) || classes[p] == BatchClass::Independent)
        };
        // A returned metric of sums, means and extremes over the batch alone is the global
        // batch's when computed once from their combined values (`combined_metrics`).
        let of_combined_values_only = || {
            dependent[index]
                && !updates_state[index]
                && combined.combines_once(op, classes[index], classes, batch_dims, &apply, loss)
        };
        let candidate = match step.phase[index] {
            // A mean of sums of forward values divides by the microbatch's count: it runs per
            // microbatch.
            _ if forward_mean[index] => false,
            Phase::Update => true,
            Phase::Backward if (updates_state[index] && aggregate_only()) || of_gradients_only() => true,
            Phase::Backward if of_combined_values_only() => {
                apply[index] = true;
                of_combined[index] = true;
                continue;
            }
            Phase::Backward | Phase::Forward => false,
        };
        if !candidate {
            continue;
        }
        // A value per example is batch-shaped whatever its type: a [batch, seq, hidden]
        // activation can have the type of a [heads, head_dim, hidden] kernel. Of the others, one
        // of a state's type is taken for a gradient, and a sum of forward values (counts per
        // class) for what it is. Only a value's own class says it is per example, not one it
        // shares with its op's other results (a weight gradient a loop carries beside the
        // activations).
        let reads_batch_shaped = op.operands.iter().any(|v| match *v {
            ValueRef::Op { op: p, .. } if dependent[p] && !apply[p] => {
                let per_example =
                    matches!(classes.of(*v, batch_dims), BatchClass::PerExample(_)) && classes.is_own(graph, *v);
                per_example || (!forward_sum[p] && graph.value_type(*v).is_some_and(|ty| !donated_types.contains(&ty)))
            }
            ValueRef::Arg(a) => batch_dims.get(a).copied().flatten().is_some(),
            _ => false,
        });
        apply[index] = !reads_batch_shaped;
    }
    // What a per-microbatch op reads is computed per microbatch too (e.g. the init constant of
    // a gradient reduction). An apply op reads a per-microbatch value combined as the gradients
    // are: right for what the backward pass computes from the examples (linear in the loss's
    // seed), wrong for a value computed once from aggregates before, now per microbatch, and
    // neither a gradient nor a sum, mean or extreme (exp(loss), which a running total of the
    // examples scaled by it also reads). An apply op reading such a value runs per microbatch
    // too, and so on until nothing changes (each round only turns apply ops into
    // per-microbatch ones).
    let of_aggregates = from_aggregates(graph, batch_dims, classes, loss);
    let was_apply = apply.clone();
    loop {
        for index in (0..graph.ops().len()).rev() {
            if !apply[index] {
                for operand in &graph.ops()[index].operands {
                    if let ValueRef::Op { op, .. } = *operand {
                        apply[op] = false;
                    }
                }
            }
        }
        let mut demoted = false;
        for (index, op) in graph.ops().iter().enumerate() {
            let uncombinable = |p: usize| {
                was_apply[p] && !apply[p] && of_aggregates[p] && !gradient[p] && classes[p] == BatchClass::Other
            };
            if apply[index] && op.operands.iter().filter_map(|v| producer(*v)).any(uncombinable) {
                apply[index] = false;
                demoted = true;
            }
        }
        if !demoted {
            return apply;
        }
    }
}

/// Per op: whether what it reads of the batch are only aggregates over it (the loss, sums,
/// means, extremes, contractions) or values computed from them alone: exp(loss), but not what
/// the backward pass computes from the examples' activations, even where its type hides the
/// batch (a value of a state's type is taken for no batch-shaped one).
fn from_aggregates(
    graph: &Graph,
    batch_dims: &[Option<usize>],
    classes: &[BatchClass],
    loss: Option<usize>,
) -> Vec<bool> {
    let mut of_aggregates = vec![false; graph.ops().len()];
    for (index, op) in graph.ops().iter().enumerate() {
        of_aggregates[index] = reads_only(op, batch_dims, |p| {
            of_aggregates[p]
                || loss == Some(p)
                || matches!(
                    classes[p],
                    BatchClass::Independent
                        | BatchClass::Sum { .. }
                        | BatchClass::Mean
                        | BatchClass::Extreme { .. }
                        | BatchClass::Contraction
                )
        });
    }
    of_aggregates
}

/// The train step of `graph` (`train_step::analyze`) with its per-microbatch and apply ops
/// placed where the schedule can run them. The stages' backward functions run last stage first, so a
/// per-microbatch op that reads another non-forward per-microbatch op's result is placed no
/// later than that op. A per-example quantity over every layer's gradients (DP-SGD's clipping
/// by the norm across layers) is known only once the first layer's backward has run, and so
/// is everything it scales. Program order puts readers after what they read: one pass.
pub fn analyze_train_step(graph: &Graph) -> Option<TrainStep> {
    let mut step = analyze(graph).ok()?;
    // A bad alpa.batch_dim is reported by build_program, at the argument.
    let Ok(batch_dims) = batch_input_dims(graph) else { return Some(step) };
    let dependent = batch_dependent(graph, &batch_dims);
    let classes = batch_classes(graph, &batch_dims);
    let apply = apply_ops(graph, &step, &batch_dims, &dependent, &classes);
    // A value of constants (a gradient seed) is recomputed wherever it is read: it orders nothing.
    let constant = constant_ops(graph);
    let per_microbatch_after_forward = |i: usize| step.phase[i] != Phase::Forward && !apply[i] && !constant[i];
    for (index, op) in graph.ops().iter().enumerate() {
        if !per_microbatch_after_forward(index) {
            continue;
        }
        let earliest_read = op
            .operands
            .iter()
            .filter_map(|v| producer(*v))
            .filter(|&p| per_microbatch_after_forward(p))
            .filter_map(|p| step.anchor[p])
            .min();
        if let (Some(read), Some(at)) = (earliest_read, step.anchor[index]) {
            step.anchor[index] = Some(at.min(read));
        }
    }
    // The apply functions run first stage first, so an apply op is placed no later than the
    // apply ops reading its result. Update-phase ops already are; an optimizer's backward ops
    // that run once per step (the gradient through a spectral norm's sigma, which reads the
    // later layer's gradient and the earlier layer's power iteration) are lowered here.
    let apply_op = |i: usize| apply[i] && !constant[i];
    // An apply op on the way to no state (a returned norm of every layer's gradients) has no
    // anchor, and would go with whatever op precedes it: it goes with the latest op it reads.
    for (index, op) in graph.ops().iter().enumerate() {
        if apply_op(index) && step.anchor[index].is_none() {
            step.anchor[index] = op.operands.iter().filter_map(|v| producer(*v)).filter_map(|p| step.anchor[p]).max();
        }
    }
    for (index, op) in graph.ops().iter().enumerate().rev() {
        let Some(at) = step.anchor[index].filter(|_| apply_op(index)) else { continue };
        for operand in op.operands.iter().filter_map(|v| producer(*v)).filter(|&p| apply_op(p)) {
            step.anchor[operand] = Some(step.anchor[operand].map_or(at, |a| a.min(at)));
        }
    }
    Some(step)
}

/// Slices `graph` (a train step with `stage_of_op`) into stage functions and schedules them.
pub fn build_program(
    graph: &Graph,
    step: &TrainStep,
    stage_of_op: &[StageId],
    num_stages: usize,
    microbatches: usize,
    schedule: Schedule,
    combine: GradientCombine,
) -> Result<PipelineProgram, ProgramError> {
    let ops = graph.ops();
    for (index, op) in ops.iter().enumerate() {
        if op.regions.iter().flat_map(|r| &r.blocks).any(captures) {
            return Err(ProgramError::Capture { op: OpId::new(index) });
        }
    }
    let batch_dims = batch_input_dims(graph)?;
    let dependent = batch_dependent(graph, &batch_dims);
    let (classes, held) = batch_classes_and_held(graph, &batch_dims);
    let apply = apply_ops(graph, step, &batch_dims, &dependent, &classes);
    let examples_count = counting_ops(graph, &batch_dims, &dependent, &classes, &folded_constants(graph));
    let kind_of = |index: usize| match (step.phase[index], apply[index]) {
        // Computed per microbatch, so that the microbatches' counts add up.
        _ if examples_count[index] => FunctionKind::Forward,
        (_, true) => FunctionKind::Apply,
        (Phase::Forward, _) => FunctionKind::Forward,
        _ => FunctionKind::Backward,
    };

    // Values of constants are computed by every function that reads them (see
    // ir/constant_values.rs): an op of constants stays in its own function only when the step
    // returns it or nothing reads it.
    let mut constant = constant_ops(graph);
    // A count of the examples is computed per microbatch and accumulated, not recomputed.
    for (index, count) in examples_count.iter().enumerate() {
        constant[index] &= !count;
    }
    let users = graph.body.users();
    let returned: BTreeSet<usize> = graph.returned.iter().filter_map(|v| producer(*v)).collect();
    let stays_home =
        |i: usize| !constant[i] || returned.contains(&i) || users[i].iter().all(|readers| readers.is_empty());

    // Functions in a fixed order: forward by stage, backward by stage, apply by stage.
    let mut index_of: HashMap<(usize, FunctionKind), usize> = HashMap::new();
    let mut functions: Vec<StageFunction> = Vec::new();
    let mut function_of_op = vec![0; ops.len()];
    for kind in [FunctionKind::Forward, FunctionKind::Backward, FunctionKind::Apply] {
        for stage in 0..num_stages {
            let home = |i: usize| stage_of_op[i].index().min(num_stages - 1) == stage && kind_of(i) == kind;
            let own: Vec<usize> = (0..ops.len()).filter(|&i| home(i) && stays_home(i)).collect();
            if own.is_empty() {
                continue;
            }
            let f = functions.len();
            for i in (0..ops.len()).filter(|&i| home(i)) {
                function_of_op[i] = f;
            }
            index_of.insert((stage, kind), f);
            let members = with_constants_read(graph, &constant, own);
            functions.push(StageFunction {
                stage: StageId::new(stage),
                kind,
                ops: members.into_iter().map(OpId::new).collect(),
                inputs: Vec::new(),
                outputs: Vec::new(),
            });
        }
    }
    let owner = |v: ValueRef| match v {
        ValueRef::Op { op, .. } => Some(function_of_op[op]),
        _ => None,
    };
    // Inputs: operands from outside the function, in order of first use (never a value of
    // constants: the function computes it). Outputs: values used by another function or
    // returned, in program order.
    let mut outputs: Vec<BTreeSet<(usize, usize)>> = vec![BTreeSet::new(); functions.len()];
    for (f, function) in functions.iter_mut().enumerate() {
        let mut seen = BTreeSet::new();
        for &op in &function.ops {
            for &v in &ops[op.index()].operands {
                let computed_here = owner(v) == Some(f) || producer(v).is_some_and(|p| constant[p]);
                if !computed_here && !matches!(v, ValueRef::Outer) && seen.insert(v) {
                    function.inputs.push(v);
                }
            }
        }
        for &v in &function.inputs {
            if let ValueRef::Op { op, result } = v {
                outputs[function_of_op[op]].insert((op, result));
            }
        }
    }
    // A loss that is a ratio of sums combines exactly by its denominators, which the
    // microbatches' functions then return beside the weights.
    let loss_neither_sum_nor_mean = loss_class(graph, step, &dependent, &classes).is_some_and(|(_, class)| {
        !matches!(class, BatchClass::Sum { .. } | BatchClass::Mean | BatchClass::Independent)
    });
    let kinds: Vec<FunctionKind> = functions.iter().map(|f| f.kind).collect();
    let per_microbatch = |v: ValueRef| owner(v).is_some_and(|f| kinds[f] != FunctionKind::Apply);
    let weighted = (microbatches > 1 && combine == GradientCombine::Auto)
        .then(|| weighted_loss(graph, graph.returned[step.loss], &batch_dims, &classes))
        .flatten()
        .filter(|_| loss_neither_sum_nor_mean)
        .filter(|w| per_microbatch(w.weights) && per_microbatch(w.denominator));
    // So does a metric the step returns that is a ratio of sums (a masked accuracy).
    let ratio_metrics: Vec<(ValueRef, WeightedLoss)> = graph
        .returned
        .iter()
        .enumerate()
        .filter(|&(r, _)| microbatches > 1 && r != step.loss)
        .filter_map(|(_, &v)| {
            let ValueRef::Op { .. } = v else { return None };
            // Scalars only: the updated state the step returns is of the same classes, and
            // each candidate costs whole-graph analyses.
            let scalar = graph.value_type(v).and_then(ValueType::tensor).is_some_and(|t| t.shape.is_empty());
            // A metric computed once from the combined sums (an apply op) needs no weights.
            let class = classes.of(v, &batch_dims);
            if !scalar || !per_microbatch(v) || !matches!(class, BatchClass::Other | BatchClass::Contraction) {
                return None;
            }
            let ratio = weighted_loss(graph, v, &batch_dims, &classes)?;
            (per_microbatch(ratio.weights) && per_microbatch(ratio.denominator)).then_some((v, ratio))
        })
        .collect();
    let kept = weighted.iter().chain(ratio_metrics.iter().map(|(_, w)| w)).flat_map(|w| [w.weights, w.denominator]);
    for v in graph.returned.iter().copied().chain(kept) {
        if let ValueRef::Op { op, result } = v {
            outputs[function_of_op[op]].insert((op, result));
        }
    }
    for (function, outs) in functions.iter_mut().zip(outputs) {
        function.outputs = outs.into_iter().map(|(op, result)| ValueRef::Op { op, result }).collect();
    }

    // Accumulated values: per-microbatch results that apply functions read or the step returns.
    let mut accumulated: Vec<(ValueRef, Accumulate)> = Vec::new();
    let mut outlives: BTreeSet<ValueRef> = graph.returned.iter().copied().filter(|v| per_microbatch(*v)).collect();
    let mut read_by_apply = BTreeSet::new();
    for function in functions.iter().filter(|f| f.kind == FunctionKind::Apply) {
        read_by_apply.extend(function.inputs.iter().copied().filter(|v| per_microbatch(*v)));
    }
    outlives.extend(read_by_apply.iter().copied());
    let Aggregates { gradient, forward_sum, forward_mean } = Aggregates::new(graph, step, &batch_dims, &classes);
    let moved = examples_moved(graph, &batch_dims, &classes);
    let classes = (microbatches > 1).then_some(&classes);
    let mut warnings = Vec::new();
    // The chunks' means added up combine as a mean (warned where it is returned).
    let loss = classes.and_then(|c| loss_class(graph, step, &dependent, c)).map(|(op, class)| match class {
        BatchClass::Part(part) if part.whole => (op, BatchClass::Mean),
        class => (op, class),
    });
    let combine = match (combine, loss) {
        (GradientCombine::Auto, _) => {
            let summed = matches!(loss, Some((_, BatchClass::Sum { .. })));
            // A ratio of sums is told by its form: a sum returned beside it (the count of the
            // tokens it divides by) is no candidate.
            if let (Some((op, _)), Some(classes), None) = (loss, classes, &weighted) {
                // Another scalar result over the batch of the other kind could be the loss.
                let other = loss_candidates(graph).into_iter().filter(|&r| r != step.loss).find(|&r| {
                    let v = graph.returned[r];
                    matches!(v, ValueRef::Op { op, .. } if dependent[op]
                        && matches!((summed, classes.of(v, &batch_dims)), (true, BatchClass::Mean) | (false, BatchClass::Sum { .. })))
                });
                if let Some(r) = other {
                    let (taken, other_kind, set) = match loss {
                        _ if summed => ("a sum", "a mean", "mean"),
                        Some((_, BatchClass::Mean)) => ("a mean", "a sum", "sum"),
                        _ => ("neither a sum nor a mean, averaged", "a sum", "sum"),
                    };
                    warnings.push((op, format!("gradient-accumulation=auto combines the gradients as the loss, result {} ({taken} over the batch), does; result {r} is {other_kind} over the batch: if that is the loss, set gradient-accumulation={set} (or name the loss `loss`)", step.loss)));
                }
            }
            if summed {
                GradientCombine::Sum
            } else {
                GradientCombine::Mean
            }
        }
        (GradientCombine::Mean, Some((op, BatchClass::Sum { .. }))) => {
            warnings.push((op, "the loss is a sum over the batch, but gradient-accumulation=mean averages the microbatches' gradients: each update is 1/microbatches of the global batch's (leave gradient-accumulation at auto, or set it to sum)".to_string()));
            combine
        }
        (GradientCombine::Sum, Some((op, BatchClass::Mean))) => {
            warnings.push((op, "the loss is a mean over the batch, but gradient-accumulation=sum adds up the microbatches' gradients: each update is microbatches times the global batch's (leave gradient-accumulation at auto, or set it to mean)".to_string()));
            combine
        }
        _ => combine,
    };
    // How the gradients (and what combines as they do) combine.
    let gradient_mode = match (combine, &weighted) {
        (GradientCombine::Sum, _) => Accumulate::Sum,
        (_, Some(_)) => Accumulate::WeightedMean { of: Ratio::Loss },
        _ => Accumulate::Mean,
    };
    let powers = weighted
        .as_ref()
        .filter(|_| matches!(gradient_mode, Accumulate::WeightedMean { .. }))
        .map(|w| denominator_powers(graph, w));
    // What combines as the gradients do: under a ratio-of-sums loss, by the power of its
    // denominator the value carries; `None`, with the gradients' combination, when none fits.
    let as_gradient = |op: usize, warnings: &mut Vec<(OpId, String)>| {
        let mode = match (&powers, classes) {
            (Some(powers), Some(classes)) => by_denominator_power(powers[op], classes[op]),
            _ => Some(gradient_mode),
        };
        mode.unwrap_or_else(|| {
            warnings.push((OpId::new(op), UNSCALED.to_string()));
            gradient_mode
        })
    };
    const PART_OF_BATCH: &str = "is computed from part of the microbatch's examples (a slice of the batch, or some of the chunks of a gradient accumulation within the step), which are other examples in the global batch";
    const CHUNK_MEANS: &str = "this value adds up the means of the batch's chunks (a gradient accumulation within the step) without dividing by their number: it is combined as a mean over the batch, as it is when the step cuts any batch into that many chunks; if the chunks have a fixed size instead (more of them in a larger batch), the global batch's value is the microbatches' times their number: divide by the number of chunks to make it a mean either way";
    const NONLINEAR_LOSS: &str = "the loss is neither a sum nor a mean over the batch: it is a nonlinear function of statistics of the batch here (a product of two means, as a mixture of experts' load-balancing loss multiplies the fraction of tokens routed to each expert by its mean router probability, or a function of one, as Barlow Twins' squared distance of the batch's cross-correlation from the identity): each microbatch's loss and gradient follow its own examples' statistics, so the step differs from the global batch's, as under any gradient accumulation; write the term as a sum or a mean of per-example terms, or plan with microbatches=1";
    const UPDATED_THEN_MET: &str = "is computed from the step's gradients and the examples are run through it again in the same step (a model updated before another model's loss reads it, as a GAN's discriminator before its generator's step: alternate the two updates over steps), so each microbatch would compute it from its own examples' gradients only";
    const UNSCALED: &str = "under the loss's ratio of sums (a masked or weighted mean), this value the update reads carries neither the loss's 1/denominator, as its gradients do, nor is it a sum or a mean over the batch (a guarded count the update divides by: max(sum(mask), 1)): it is combined by the microbatches' denominators as the gradients are, which differs from the global batch's unless their denominators are equal";
    if let Some(classes) = classes {
        // An apply op runs once, on the combined values: whether it is a sum or a mean combines nothing.
        let returned = ancestors(graph, graph.returned.iter().copied());
        for AssumedCount { op, divisor, written } in
            assumed_count_means(graph, &batch_dims, classes).into_iter().filter(|a| returned[a.op] && !apply[a.op])
        {
            let (scaled, constant) = match written {
                Written::Times(factor) => (format!("times {factor}, a constant equal to 1/{divisor}"), factor),
                Written::DividedBy => (format!("divided by {divisor}, a constant"), divisor),
            };
            warnings.push((OpId::new(op), format!("this sum over the batch {scaled} that counts the microbatch's examples or their elements, is taken for a mean over the batch: if {constant} is a fixed coefficient of the sum rather than a count that grows with the batch, the microbatches' values should add up instead, and the step differs from the global batch's (a mean written as jnp.mean over the elements that count, or divided by a mask's sum, is no such guess)")));
        }
    }
    // The first meeting only: every later layer of a batch-normalized model meets its own.
    let meetings = classes.map(|c| statistics_meeting_examples(graph, &batch_dims, c)).unwrap_or_default();
    let GradientMeetings { meetings: gradient_meetings, met_updates } =
        classes.map(|c| examples_meeting_gradients(graph, &batch_dims, c)).unwrap_or_default();
    // A loss computed from examples that met a statistic of the batch (or the step's gradients)
    // is explained by that.
    let before_loss = ancestors(graph, [graph.returned[step.loss]]);
    let loss_met_statistic = [meetings.first(), gradient_meetings.first()]
        .into_iter()
        .flatten()
        .any(|m| before_loss.get(m.op).copied().unwrap_or(false));
    for v in outlives {
        let ValueRef::Op { op, .. } = v else { continue };
        // A result is combined as what it is over the batch: a sum adds up, a mean averages.
        // What the apply functions read (gradients), and a loss that is neither (a masked
        // mean: a ratio of two sums), combine as `combine` says; another result that is
        // neither has no global-batch value to give.
        let result = graph.returned.iter().position(|r| *r == v);
        if examples_count[op] && classes.is_some() {
            accumulated.push((v, Accumulate::Sum));
            continue;
        }
        if let (Some(result), Some(classes), true) = (result, &classes, dependent[op]) {
            let mode = match classes.of(v, &batch_dims) {
                // A gradient returned as it is combines as the gradients do.
                _ if gradient[op] => combined(as_gradient(op, &mut warnings), graph, v),
                BatchClass::Sum { .. } => Accumulate::Sum,
                BatchClass::Mean => Accumulate::Mean,
                BatchClass::Independent => Accumulate::Last,
                // A loss that is a maximum has the gradient of one example: warned below.
                BatchClass::Extreme { max } if result != step.loss => Accumulate::Extreme { max },
                BatchClass::Part(part) if part.whole => {
                    warnings.push((OpId::new(op), CHUNK_MEANS.to_string()));
                    Accumulate::Mean
                }
                BatchClass::Part(_) if result == step.loss => {
                    warnings.push((OpId::new(op), format!("the loss {PART_OF_BATCH}: the microbatches' losses and gradients are combined as gradient-accumulation says, which differs from the global batch's")));
                    combined(gradient_mode, graph, v)
                }
                BatchClass::Part(_) => {
                    return Err(ProgramError::Combine { op: OpId::new(op), result, why: PART_OF_BATCH })
                }
                _ if result == step.loss && weighted.is_some() => Accumulate::WeightedMean { of: Ratio::Loss },
                _ if result == step.loss && loss_met_statistic => combined(gradient_mode, graph, v),
                _ if result == step.loss
                    && let Some(term) = nonlinear_statistics_term(graph, &batch_dims, classes, v) =>
                {
                    warnings.push((OpId::new(term), NONLINEAR_LOSS.to_string()));
                    combined(gradient_mode, graph, v)
                }
                _ if result == step.loss
                    && let Some(lost) = examples_lost_before(graph, &batch_dims, classes, v) =>
                {
                    let how = match ops[lost].short_name() {
                        "reshape" => "a reshape that merges them with another dimension or splits them into groups (a mixture of experts' gating groups of several examples)".to_string(),
                        name => format!("a {name} whose result it cannot relate to the examples it reads"),
                    };
                    warnings.push((OpId::new(lost), format!("the loss is neither a sum nor a mean over the batch that this analysis can follow: it loses track of the examples here, at {how}; the microbatches' losses and gradients are combined as gradient-accumulation says, which is the global batch's only when the loss is a sum or a mean of terms each computed from one example, or from a group of examples that lies within one microbatch: compare the pipelined step with the global one (python -m alpa_mlir.pipeline run PLAN --reference GLOBAL_STEP), or plan with microbatches=1")));
                    combined(gradient_mode, graph, v)
                }
                _ if result == step.loss => {
                    warnings.push((
                        OpId::new(op),
                        "the loss is neither a sum nor a mean over the batch (a mean over a batch-dependent count, such as a masked mean): the microbatches' losses and gradients are combined as gradient-accumulation says, which differs from the global batch's unless the microbatches' counts are equal".to_string(),
                    ));
                    combined(gradient_mode, graph, v)
                }
                BatchClass::PerExample(Some(_)) if matches!(held[op], Some(Held::Span(_) | Held::Unknown)) => {
                    return Err(ProgramError::Combine { op: OpId::new(op), result, why: PART_OF_BATCH })
                }
                BatchClass::PerExample(Some(dim)) if moved[op].is_none() && !read_by_apply.contains(&v) => {
                    Accumulate::Concatenate { dim }
                }
                BatchClass::PerExample(_) => {
                    return Err(ProgramError::Combine {
                        op: OpId::new(op),
                        result,
                        why: match moved[op] {
                            Some(_) => "keeps the batch dimension with its examples moved along it (reordered, joined with other values or partly overwritten), so the microbatches' values side by side are not the global batch's",
                            None => "keeps the batch dimension in a layout this analysis lost track of",
                        },
                    })
                }
                // Counts per class the step returns (a confusion matrix) add up.
                BatchClass::Contraction if forward_sum[op] => Accumulate::Sum,
                BatchClass::Contraction | BatchClass::Other
                    if let Some(i) = ratio_metrics.iter().position(|(metric, _)| *metric == v) =>
                {
                    Accumulate::WeightedMean { of: Ratio::Metric(i) }
                }
                BatchClass::Contraction | BatchClass::Other | BatchClass::Extreme { .. } => {
                    return Err(ProgramError::Combine {
                        op: OpId::new(op),
                        result,
                        why: if met_updates.get(op).copied().unwrap_or(false) { UPDATED_THEN_MET } else { "is neither a sum nor a mean over the batch" },
                    })
                }
            };
            accumulated.push((v, mode));
            continue;
        }
        // What the apply functions read: the gradients combine as `combine` says; a sum or a mean
        // over the batch that is no gradient (a running total kept in the state: total + sum of
        // the losses) as what it is.
        let mode = match classes.map(|c| c.of(v, &batch_dims)) {
            // A value the batch does not reach, though its op reads the batch (a weight an
            // optimization_barrier carries beside the activations), is every microbatch's.
            Some(BatchClass::Independent) => Accumulate::Last,
            _ if !dependent[op] => Accumulate::Last,
            Some(BatchClass::Sum { .. }) if !gradient[op] => Accumulate::Sum,
            Some(BatchClass::Mean) if !gradient[op] => Accumulate::Mean,
            Some(BatchClass::Contraction) if forward_sum[op] => Accumulate::Sum,
            _ if forward_mean[op] => Accumulate::Mean,
            Some(BatchClass::Extreme { max }) => Accumulate::Extreme { max },
            _ => combined(as_gradient(op, &mut warnings), graph, v),
        };
        accumulated.push((v, mode));
    }

    if let Some(classes) = classes {
        for (_, meeting) in positions_meeting_examples(graph, &batch_dims, classes) {
            warnings.push((OpId::new(meeting), "the examples meet their positions in the microbatch here (an iota over the batch: jnp.arange(batch), the counters of a jax.random draw of the batch's shape or of jax.random.split(key, batch)): positions restart in every microbatch, so each microbatch is numbered (or draws its random values) as the first examples of the global batch do, and the step differs from the global batch's; pass per-example values in with the batch (an argument batched like the inputs), or plan with microbatches=1".to_string()));
        }
    }
    if let Some(classes) = classes {
        for list in [&meetings, &gradient_meetings] {
            if let Some(&first) = list.first() {
                warnings.push((OpId::new(first.op), meeting_warning(graph, classes, first, list.len() - 1)));
            }
        }
    }
    if let Some(classes) = classes {
        for (reordering, meeting) in reordered_examples_meeting(graph, &batch_dims, classes, &held) {
            let how = graph.ops()[reordering].short_name();
            warnings.push((OpId::new(meeting), format!("examples meet other examples of the batch here, reordered along the batch by a {how} (jnp.flip, a roll, x[permutation]): within a microbatch each example meets one of the same microbatch, where the global batch pairs it with one of the whole batch (mixup, differences between neighbours), so the step differs from the global batch's; pass the partners in with the batch (an argument batched like the inputs), or plan with microbatches=1")));
        }
    }
    // Copies of one source line (layers a loop unrolled) say the same thing at the same place.
    let mut said = BTreeSet::new();
    warnings.retain(|(op, message)| said.insert((ops[op.index()].location.clone(), message.clone())));
    let calls = schedule_calls(&functions, &index_of, num_stages, microbatches, schedule);
    let program = PipelineProgram {
        warnings,
        functions,
        calls,
        microbatches,
        batch_dims,
        accumulated,
        weighted_loss: weighted,
        ratio_metrics: ratio_metrics.into_iter().map(|(_, w)| w).collect(),
        stage_of_op: stage_of_op.to_vec(),
        function_of_op,
    };
    check_order(graph, &program)?;
    Ok(program)
}

/// The loss's op and its class over the batch, when it depends on the batch.
fn loss_class(
    graph: &Graph,
    step: &TrainStep,
    dependent: &[bool],
    classes: &BatchClasses,
) -> Option<(OpId, BatchClass)> {
    match *graph.returned.get(step.loss)? {
        ValueRef::Op { op, result } if dependent[op] => Some((OpId::new(op), classes.of_result(op, result))),
        _ => None,
    }
}

/// How a value combines that the update reads (or a gradient returned) under a ratio-of-sums
/// loss, by the power of the loss's denominator it carries (`denominator_powers`): with the
/// loss's 1/denominator (the loss's gradients), or through ops that analysis does not follow
/// (cotangents carried by a loop), by the denominators; without it as what it is over the
/// batch, a contraction of the examples' terms (the numerator's gradient) adding up; the
/// denominator itself adds up when it is the weights' sum. `None`: no combination known.
fn by_denominator_power(power: Option<i32>, class: BatchClass) -> Option<Accumulate> {
    match (power, class) {
        (None | Some(-1), _) => Some(Accumulate::WeightedMean { of: Ratio::Loss }),
        (Some(0), BatchClass::Sum { .. } | BatchClass::Contraction) | (Some(1), BatchClass::Sum { .. }) => {
            Some(Accumulate::Sum)
        }
        (Some(0), BatchClass::Mean) => Some(Accumulate::Mean),
        (Some(0), BatchClass::Independent) => Some(Accumulate::Last),
        _ => None,
    }
}

/// How a batch-dependent value combines when the gradients combine as `gradients`. A mean of
/// integers does not exist in the value's type: integer per-microbatch results (counts) add up.
fn combined(gradients: Accumulate, graph: &Graph, v: ValueRef) -> Accumulate {
    let float = graph.value_type(v).and_then(ValueType::tensor).is_some_and(|t| t.element.is_float());
    if float {
        gradients
    } else {
        Accumulate::Sum
    }
}

/// `own` (ops, in program order) and every op of constants they read, directly or through
/// other such ops, in program order.
fn with_constants_read(graph: &Graph, constant: &[bool], own: Vec<usize>) -> Vec<usize> {
    let mut members: BTreeSet<usize> = own.iter().copied().collect();
    let mut stack = own;
    while let Some(op) = stack.pop() {
        for p in graph.ops()[op].operands.iter().filter_map(|v| producer(*v)) {
            if constant[p] && members.insert(p) {
                stack.push(p);
            }
        }
    }
    members.into_iter().collect()
}

fn captures(block: &crate::ir::graph::Block) -> bool {
    block.ops.iter().any(|op| {
        op.operands.iter().any(|v| matches!(v, ValueRef::Outer))
            || op.regions.iter().flat_map(|r| &r.blocks).any(captures)
    }) || block.terminator.as_ref().is_some_and(|t| t.operands.iter().any(|v| matches!(v, ValueRef::Outer)))
}

/// The calls of one iteration: per-microbatch forward and backward calls in the schedule's
/// order (1F1B: each stage warms up with as many forwards as stages after it, then alternates
/// one forward and one backward; GPipe: all forwards, then all backwards), then the apply
/// functions. The global order lists, tick by tick, every stage whose next task is ready.
fn schedule_calls(
    functions: &[StageFunction],
    index_of: &HashMap<(usize, FunctionKind), usize>,
    stages: usize,
    microbatches: usize,
    schedule: Schedule,
) -> Vec<Call> {
    #[derive(Clone, Copy, PartialEq)]
    enum Task {
        F(usize),
        B(usize),
    }
    let tasks: Vec<Vec<Task>> = (0..stages)
        .map(|s| match schedule {
            Schedule::GPipe => (0..microbatches).map(Task::F).chain((0..microbatches).map(Task::B)).collect(),
            Schedule::OneFOneB => {
                let warmup = (stages - 1 - s).min(microbatches);
                let mut list: Vec<Task> = (0..warmup).map(Task::F).collect();
                let (mut f, mut b) = (warmup, 0);
                while b < microbatches {
                    if f < microbatches {
                        list.push(Task::F(f));
                        f += 1;
                    }
                    list.push(Task::B(b));
                    b += 1;
                }
                list
            }
        })
        .collect();
    let mut next = vec![0usize; stages];
    let mut forward_done = vec![vec![false; microbatches]; stages];
    let mut backward_done = vec![vec![false; microbatches]; stages];
    let mut calls = Vec::new();
    let total: usize = tasks.iter().map(Vec::len).sum();
    let mut listed = 0;
    while listed < total {
        let mut progressed = false;
        // Readiness is judged on the state at the start of the tick: a task finishing in this
        // tick feeds the next stage in the next tick.
        let (forward_before, backward_before) = (forward_done.clone(), backward_done.clone());
        for s in 0..stages {
            let Some(&task) = tasks[s].get(next[s]) else { continue };
            let ready = match task {
                Task::F(k) => s == 0 || forward_before[s - 1][k],
                Task::B(k) => forward_before[s][k] && (s + 1 == stages || backward_before[s + 1][k]),
            };
            if !ready {
                continue;
            }
            let (kind, k) = match task {
                Task::F(k) => {
                    forward_done[s][k] = true;
                    (FunctionKind::Forward, k)
                }
                Task::B(k) => {
                    backward_done[s][k] = true;
                    (FunctionKind::Backward, k)
                }
            };
            if let Some(&f) = index_of.get(&(s, kind)) {
                calls.push(Call { function: f, microbatch: Some(k) });
            }
            next[s] += 1;
            listed += 1;
            progressed = true;
        }
        if !progressed {
            break; // unreachable: the first stage's forwards are always ready
        }
    }
    // Apply functions last, in stage order.
    for (f, function) in functions.iter().enumerate() {
        if function.kind == FunctionKind::Apply {
            calls.push(Call { function: f, microbatch: None });
        }
    }
    calls
}

/// Every call's inputs are computed by an earlier call (of the same microbatch, or of any
/// microbatch for an accumulated value read by an apply function).
fn check_order(graph: &Graph, p: &PipelineProgram) -> Result<(), ProgramError> {
    let mut done: BTreeSet<(usize, Option<usize>)> = BTreeSet::new();
    let all_microbatches_done =
        |done: &BTreeSet<(usize, Option<usize>)>, f: usize| (0..p.microbatches).all(|k| done.contains(&(f, Some(k))));
    for call in &p.calls {
        let function = &p.functions[call.function];
        for &v in &function.inputs {
            let ValueRef::Op { op, .. } = v else { continue };
            let producer = p.function_of_op[op];
            // The first op of the function that reads it, where the diagnostic points.
            let reader = || {
                let reads = |o: &&OpId| graph.ops()[o.index()].operands.contains(&v);
                function.ops.iter().find(reads).copied().unwrap_or(OpId::new(op))
            };
            let ready = match (call.microbatch, p.functions[producer].kind) {
                (Some(k), _) => done.contains(&(producer, Some(k))),
                (None, FunctionKind::Apply) => done.contains(&(producer, None)),
                (None, _) => all_microbatches_done(&done, producer),
            };
            if !ready {
                return Err(ProgramError::Order {
                    op: reader(),
                    function: format!("@{}", function.symbol()),
                    needs: format!("a result of @{}", p.functions[producer].symbol()),
                });
            }
        }
        done.insert((call.function, call.microbatch));
    }
    Ok(())
}
