//! The stage-mesh DP (paper §5.2, Eq. 3-5; spec §4-5).
//!
//! For each candidate t_max (the distinct stage latencies, ascending) it computes
//! F(s, k, d; t_max): the least total latency of layers k..L cut into s stages on exactly d
//! devices, every stage no slower than t_max and fitting in memory at its pipeline depth s
//! (1F1B: mem_param + s x mem_act; GPipe: mem_param + B x mem_act). Then
//! T(t_max) = min_s F(s, 0, N x M; t_max) + (B - 1) x t_max and T* = min over t_max.
//!
//! Exact reductions of the spec's table (same optimum, fewer cells):
//! - depth classes: the depth s only matters through the memory check. With S_c the largest
//!   depth at which some option stops fitting (below s_max = min(L, N x M)), depths 1..=S_c are
//!   kept exactly and all depths > S_c form one class, where exactly the options that fit at
//!   every depth are allowed (with GPipe or loose memory there is just that class);
//! - each (range, submesh) keeps, per class, only its fastest option that fits;
//! - the first feasible t_max is found by bisection (feasibility only grows with t_max);
//! - from there the table is updated, not recomputed, as t_max grows: only new transitions
//!   and those reading an improved row are relaxed again;
//! - epsilon: candidates within epsilon of the first one of a group are not evaluated apart;
//!   the group is evaluated once, at its last candidate, so every plan whose slowest stage
//!   falls in the group is admitted and charged at most epsilon too much per microbatch:
//!   T <= T* + (B - 1) x epsilon. (Evaluating a group at its first candidate, as the paper
//!   words it, can miss the optimum's t_max by much more than epsilon when the next
//!   candidate is far; the proptest `epsilon_stays_within_b_epsilon` found such a case.)
//! - enumeration stops once B x t_max or min_sum + (B - 1) x t_max reaches the best T, where
//!   min_sum = F at t_max = infinity (both bound every plan whose slowest stage is >= t_max).
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §5.

use super::error::InterError;
use super::memory::stage_memory;
use super::plan::{StageDpOptions, StagePlan};
use super::progress::Progress;
use super::stage_table::DpTable;
use super::submesh::SubmeshShape;
use super::table::CostTable;
use serde::Serialize;
use std::ops::Range;
use std::time::Instant;

/// Counters of one DP run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DpStats {
    /// Distinct stage latencies (t_max candidates).
    pub candidates: usize,
    /// DP passes at a candidate during the ascending enumeration.
    pub evaluated: usize,
    /// DP passes of the bisection for the first feasible candidate (and the one at infinity).
    pub feasibility_probes: usize,
    /// Candidates not evaluated apart for being within epsilon of an earlier one.
    pub skipped_epsilon: usize,
    /// The enumeration stopped on the bound before the last candidate.
    pub stopped_early: bool,
    /// The time limit ended the enumeration (the plan is the best found so far).
    pub timed_out: bool,
    /// Depth classes of the table (exact depths + 1).
    pub depth_classes: usize,
    /// (row, option, class) transitions of the DP.
    pub moves: usize,
    pub best_t_max: f64,
    /// Least sum of stage latencies of any plan (no t_max bound).
    pub min_sum_latency: f64,
    pub seconds: f64,
}

/// The optimal plan and how it was found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StageDpResult {
    pub plan: StagePlan,
    pub stats: DpStats,
}

/// Runs the DP on every (range, submesh) of `table`.
pub fn solve_stage_dp(table: &CostTable, opts: &StageDpOptions) -> Result<StageDpResult, InterError> {
    solve_stage_dp_filtered(table, opts, &|_, _| true)
}

/// Runs the DP on the (range, submesh) pairs `allow` accepts (baselines restrict it).
pub fn solve_stage_dp_filtered(
    table: &CostTable,
    opts: &StageDpOptions,
    allow: &dyn Fn(Range<usize>, SubmeshShape) -> bool,
) -> Result<StageDpResult, InterError> {
    let start = Instant::now();
    if opts.microbatches == 0 {
        return Err(InterError::InvalidInput("microbatches must be >= 1".into()));
    }
    if !(opts.epsilon >= 0.0) || opts.mem_device.is_nan() {
        return Err(InterError::InvalidInput("epsilon must be >= 0 and device memory a number".into()));
    }
    let progress = Progress::new(opts.progress, "stage DP");
    let mut dp = DpTable::new(table, opts, allow);
    let mut stats = DpStats { depth_classes: dp.deep, moves: dp.num_moves(), ..Default::default() };
    let cands = dp.candidates();
    stats.candidates = cands.len();
    progress.say(|| {
        format!(
            "{} layers, {} devices, {} transitions, {} depth classes, {} t_max candidates",
            dp.layers,
            dp.devices,
            stats.moves,
            dp.deep,
            cands.len()
        )
    });

    let min_sum = dp.eval(f64::INFINITY);
    stats.feasibility_probes += 1;
    if !min_sum.is_finite() {
        return Err(no_plan(table, opts, allow));
    }
    stats.min_sum_latency = min_sum;

    // Bisection: the first candidate at which a plan exists.
    let (mut lo, mut hi) = (0usize, cands.len() - 1);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let v = dp.eval(cands[mid]);
        stats.feasibility_probes += 1;
        if v.is_finite() {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }

    // The enumeration updates the table from the first feasible candidate upwards.
    dp.eval(cands[lo]);
    let b = opts.microbatches as f64;
    let mut best = f64::INFINITY;
    let mut best_t = f64::NAN;
    let mut n = lo;
    while n < cands.len() {
        let t0 = cands[n];
        if b * t0 >= best || min_sum + (b - 1.0) * t0 >= best {
            stats.stopped_early = true;
            break;
        }
        // The epsilon group: candidates within epsilon of t0, evaluated once at its last one.
        let mut e = n;
        while e + 1 < cands.len() && cands[e + 1] - t0 < opts.epsilon {
            e += 1;
        }
        stats.skipped_epsilon += e - n;
        let t = cands[e];
        let v = dp.advance(t);
        stats.evaluated += 1;
        if v.is_finite() {
            let total = v + (b - 1.0) * t;
            if total < best {
                best = total;
                best_t = t;
            }
        }
        n = e + 1;
        if opts.time_limit.is_some_and(|lim| start.elapsed() >= lim) {
            stats.timed_out = n < cands.len();
            break;
        }
        progress.tick(|| format!("t_max {}/{} ({:.4e} s), best T {:.6e} s", n, cands.len(), t, best));
    }

    let plan = dp.reconstruct(best_t)?;
    stats.best_t_max = best_t;
    stats.seconds = start.elapsed().as_secs_f64();
    progress.say(|| {
        format!(
            "T = {:.6e} s with {} stages; {} passes + {} probes in {:.3} s",
            plan.iteration_time,
            plan.stages.len(),
            stats.evaluated,
            stats.feasibility_probes,
            stats.seconds
        )
    });
    Ok(StageDpResult { plan, stats })
}

/// Why no plan exists: the layer whose cheapest covering stage needs the most memory.
fn no_plan(table: &CostTable, opts: &StageDpOptions, allow: &dyn Fn(Range<usize>, SubmeshShape) -> bool) -> InterError {
    let l = table.num_layers();
    let devices = table.cluster().devices();
    let mut need = vec![f64::INFINITY; l];
    let mut from_floors = false;
    for k in 0..l {
        for i in k + 1..=l {
            for (s, &shape) in table.shapes().iter().enumerate() {
                if shape.devices() > devices || !allow(k..i, shape) {
                    continue;
                }
                // A pair skipped as over memory needs at least its floor.
                let floor = table.memory_floor(k..i, s);
                from_floors |= floor.is_some();
                for m in table
                    .options(k..i, s)
                    .iter()
                    .map(|o| stage_memory(o, 1, opts.microbatches, opts.schedule))
                    .chain(floor)
                {
                    for n in &mut need[k..i] {
                        *n = n.min(m);
                    }
                }
            }
        }
    }
    let (layer, memory) =
        need.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map(|(i, m)| (i, *m)).unwrap_or((0, f64::INFINITY));
    let detail = if memory.is_infinite() {
        format!("layer {layer} has no stage cost on any allowed submesh")
    } else if memory > opts.mem_device {
        format!(
            "layer {layer} needs at least {memory:.4e} bytes per device in any stage (last pipeline position), \
             device memory is {:.4e} bytes",
            opts.mem_device
        )
    } else if from_floors {
        format!(
            "no cut into stages fits within device memory {:.4e} bytes at the stages' pipeline depths, even at the \
             least memory any plan of each stage needs (its parameters, gradients, optimizer state and stored \
             activations split over all its devices); stages ruled out by that bound were not planned",
            opts.mem_device
        )
    } else {
        format!(
            "every layer fits in some stage, but no cut into stages uses exactly all {devices} devices \
             within device memory {:.4e} bytes at the stages' pipeline depths",
            opts.mem_device
        )
    };
    InterError::NoStagePlan {
        detail,
        mem_device: opts.mem_device,
        bottleneck_layer: memory.is_finite().then_some(layer),
        bottleneck_memory: memory.is_finite().then_some(memory),
    }
}
