//! The memory rule of a pipeline stage under the chosen schedule.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §5.

use super::stage_cost::StageCostResult;
use serde::Serialize;

/// Pipeline schedule: decides how many microbatches' activations a stage holds at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Schedule {
    /// Synchronous 1F1B: the stage with `s` stages from it to the last (itself included)
    /// holds `s` microbatches, or all B when there are fewer:
    /// mem_param + min(s, B) x mem_act <= mem_device.
    OneFOneB,
    /// GPipe: every stage holds all B microbatches: mem_param + B x mem_act <= mem_device.
    GPipe,
}

/// The memory a stage needs per device at pipeline depth `depth` (stages from it to the last,
/// itself included) with `microbatches` microbatches.
pub fn stage_memory(opt: &StageCostResult, depth: usize, microbatches: usize, schedule: Schedule) -> f64 {
    let held = match schedule {
        // The spec's s is the microbatches in flight at the stage: no more than there are.
        Schedule::OneFOneB => depth.min(microbatches.max(1)),
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

#[cfg(test)]
mod tests {
    use super::*;

    const ACTIVATIONS: StageCostResult =
        StageCostResult { latency: 1.0, mem_param: 5.0, mem_act: 10.0, logical_mesh: [1, 1] };

    #[test]
    fn one_f_one_b_holds_the_stages_below_but_never_more_microbatches_than_there_are() {
        let held = |depth, b| stage_memory(&ACTIVATIONS, depth, b, Schedule::OneFOneB);
        assert_eq!(held(3, 8), 5.0 + 3.0 * 10.0);
        assert_eq!(held(8, 8), 5.0 + 8.0 * 10.0);
        assert_eq!(held(8, 2), 5.0 + 2.0 * 10.0);
        assert_eq!(held(4, 1), 5.0 + 10.0);
        // GPipe holds every microbatch at any depth.
        assert_eq!(stage_memory(&ACTIVATIONS, 1, 4, Schedule::GPipe), 5.0 + 4.0 * 10.0);
    }

    #[test]
    fn with_few_microbatches_every_depth_fits_once_b_fits() {
        // 25 bytes hold 2 microbatches: with B = 2 the stage fits at any depth.
        assert_eq!(max_fitting_depth(&ACTIVATIONS, 8, 2, Schedule::OneFOneB, 25.0), 8);
        assert_eq!(max_fitting_depth(&ACTIVATIONS, 8, 3, Schedule::OneFOneB, 25.0), 2);
        assert_eq!(max_fitting_depth(&ACTIVATIONS, 8, 3, Schedule::GPipe, 25.0), 0);
    }
}
