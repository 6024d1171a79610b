//! Stage plans: what the DP, the baselines and the brute force return, and the evaluation of a
//! given cut into stages with given submeshes.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §5.

use super::memory::{fits, stage_memory, Schedule};
use super::stage_cost::StageCostResult;
use super::submesh::SubmeshShape;
use super::table::CostTable;
use serde::Serialize;
use std::ops::Range;
use std::time::Duration;

crate::typed_index::typed_index!(
    /// A stage of a pipeline plan, by its position in pipeline order.
    StageId
);

/// The pipeline setting shared by the DP, the baselines and the brute force.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StageDpOptions {
    /// B, the number of microbatches per iteration (>= 1).
    pub microbatches: usize,
    /// Memory per device, bytes.
    pub mem_device: f64,
    /// t_max candidates within `epsilon` of each other are evaluated together (paper: 1e-6 s;
    /// the result is then within (B - 1) x epsilon of the optimum; 0, the default, = exact,
    /// which also lets the cost table skip the pairs no faster plan can use: plan_floor.rs).
    pub epsilon: f64,
    pub schedule: Schedule,
    /// Stop enumerating t_max after this long and return the best plan so far.
    pub time_limit: Option<Duration>,
    pub progress: bool,
}

impl Default for StageDpOptions {
    fn default() -> Self {
        StageDpOptions {
            microbatches: 1,
            mem_device: f64::INFINITY,
            epsilon: 0.0,
            schedule: Schedule::OneFOneB,
            time_limit: None,
            progress: false,
        }
    }
}

/// One stage of a plan.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlannedStage {
    /// Layer indices (half-open).
    pub layers: Range<usize>,
    pub submesh: SubmeshShape,
    pub logical_mesh: [usize; 2],
    /// Per-microbatch latency of the stage, seconds: the intra-op plan's latency plus
    /// `transfer`.
    pub latency: f64,
    /// Cross-stage transfer seconds included in `latency` (0 unless modeled).
    pub transfer: f64,
    pub mem_param: f64,
    pub mem_act: f64,
    /// Memory per device at this stage's pipeline depth under the schedule.
    pub memory: f64,
}

/// A pipeline plan: stages in pipeline order and its modeled iteration time
/// T = sum of stage latencies + (B - 1) x the largest.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StagePlan {
    pub stages: Vec<PlannedStage>,
    pub iteration_time: f64,
    pub sum_latency: f64,
    pub max_latency: f64,
    pub microbatches: usize,
}

impl StagePlan {
    /// The plan's stages and T from chosen options (stage `j` of `S` sits at depth `S - j`);
    /// each stage's latency is the option's plus its cross-stage transfer under `opts`.
    pub(crate) fn from_choices(
        choices: Vec<(Range<usize>, SubmeshShape, StageCostResult)>,
        opts: &StageDpOptions,
    ) -> StagePlan {
        let n = choices.len();
        let stages: Vec<PlannedStage> = choices
            .into_iter()
            .enumerate()
            .map(|(j, (layers, submesh, o))| PlannedStage {
                transfer: 0.0,
                latency: o.latency,
                layers,
                submesh,
                logical_mesh: o.logical_mesh,
                mem_param: o.mem_param,
                mem_act: o.mem_act,
                memory: stage_memory(&o, n - j, opts.microbatches, opts.schedule),
            })
            .collect();
        let sum_latency: f64 = stages.iter().map(|s| s.latency).sum();
        let max_latency = stages.iter().map(|s| s.latency).fold(0.0, f64::max);
        StagePlan {
            iteration_time: pipeline_time(sum_latency, max_latency, opts.microbatches),
            stages,
            sum_latency,
            max_latency,
            microbatches: opts.microbatches,
        }
    }

    /// Submesh shapes in pipeline order (input of placement).
    pub fn submeshes(&self) -> Vec<SubmeshShape> {
        self.stages.iter().map(|s| s.submesh).collect()
    }
}

/// T = sum + (B - 1) x max.
pub fn pipeline_time(sum_latency: f64, max_latency: f64, microbatches: usize) -> f64 {
    sum_latency + microbatches.saturating_sub(1) as f64 * max_latency
}

/// The fastest option of `options` that fits at `depth` (first on ties).
pub fn best_fitting(options: &[StageCostResult], depth: usize, opts: &StageDpOptions) -> Option<StageCostResult> {
    options.iter().filter(|o| fits(o, depth, opts.microbatches, opts.schedule, opts.mem_device)).fold(
        None,
        |best: Option<StageCostResult>, o| match best {
            Some(b) if b.latency <= o.latency => Some(b),
            _ => Some(*o),
        },
    )
}

/// Evaluates a given cut (`(layer range, shape index)` in pipeline order): `None` unless the
/// ranges tile 0..L, the submeshes use exactly all devices and every stage has an option that
/// fits in memory at its depth (and the cross-stage transfer, if any, covers the layers).
pub fn evaluate_stages(
    table: &CostTable,
    stages: &[(Range<usize>, usize)],
    opts: &StageDpOptions,
) -> Option<StagePlan> {
    let mut next = 0;
    let mut devices = 0;
    let mut choices = Vec::with_capacity(stages.len());
    for (j, (r, s)) in stages.iter().enumerate() {
        if r.start != next || r.end <= r.start {
            return None;
        }
        next = r.end;
        let shape = *table.shapes().get(*s)?;
        devices += shape.devices();
        let o = best_fitting(table.options(r.clone(), *s), stages.len() - j, opts)?;
        choices.push((r.clone(), shape, o));
    }
    if next != table.num_layers() || devices != table.cluster().devices() {
        return None;
    }
    Some(StagePlan::from_choices(choices, opts))
}
