//! The memory rule of a pipeline stage under the chosen schedule.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §5.

use super::stage_cost::StageCostResult;
use serde::Serialize;

/// Pipeline schedule: decides how many microbatches' activations a stage holds at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Schedule {
    /// Synchronous 1F1B: the stage with `s` stages from it to the last (itself included)
    /// holds `s` microbatches: mem_param + s x mem_act <= mem_device.
    OneFOneB,
    /// GPipe: every stage holds all B microbatches: mem_param + B x mem_act <= mem_device.
    GPipe,
}

/// The memory a stage needs per device at pipeline depth `depth` (stages from it to the last,
/// itself included) with `microbatches` microbatches.
pub fn stage_memory(opt: &StageCostResult, depth: usize, microbatches: usize, schedule: Schedule) -> f64 {
    let held = match schedule {
        Schedule::OneFOneB => depth,
        Schedule::GPipe => microbatches,
    };
    opt.mem_param + held as f64 * opt.mem_act
}

/// Whether `opt` fits in `mem_device` at `depth`.
pub fn fits(opt: &StageCostResult, depth: usize, microbatches: usize, schedule: Schedule, mem_device: f64) -> bool {
    stage_memory(opt, depth, microbatches, schedule) <= mem_device
}

/// The largest depth in 1..=max_depth at which `opt` fits (0 when it fits at none). Fitting is
/// monotone in the depth, so this is a binary search with the same test as [`fits`].
pub fn max_fitting_depth(
    opt: &StageCostResult,
    max_depth: usize,
    microbatches: usize,
    schedule: Schedule,
    mem_device: f64,
) -> usize {
    let (mut lo, mut hi) = (0usize, max_depth); // fits at lo (or lo == 0), answer in [lo, hi]
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits(opt, mid, microbatches, schedule, mem_device) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}
