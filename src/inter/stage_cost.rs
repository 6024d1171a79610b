//! The cost oracle the stage DP queries: latency and memory of a layer range on a submesh.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §5.

use super::submesh::SubmeshShape;
use serde::Serialize;
use std::ops::Range;

/// One intra-op plan of a stage on a submesh: its per-microbatch latency (seconds), the memory
/// per device for parameters, gradients and optimizer state (`mem_param`, bytes), the memory per
/// device for one microbatch's stored activations (`mem_act`, bytes), and the logical mesh
/// [a, b] (a x b = submesh devices) the plan uses.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StageCostResult {
    pub latency: f64,
    pub mem_param: f64,
    pub mem_act: f64,
    pub logical_mesh: [usize; 2],
}

impl StageCostResult {
    /// Finite, non-negative numbers (what the DP accepts).
    pub fn is_valid(&self) -> bool {
        [self.latency, self.mem_param, self.mem_act].iter().all(|v| v.is_finite() && *v >= 0.0)
    }
}

/// What every plan of a stage costs at least (`StageCost::floor`): no option the oracle can
/// return for the stage is faster than `latency` or needs less than `mem_param` / `mem_act`.
/// The table builder skips stages these floors already rule out (table_prune.rs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct StageFloor {
    pub latency: f64,
    pub mem_param: f64,
    pub mem_act: f64,
}

/// Cost oracle of the stage DP. The intra-op pass implements it by solving the ILP of the
/// layers on every logical mesh of the submesh.
pub trait StageCost {
    /// The fastest plan of `layers` (layer indices, half-open) on `submesh`; `None` when the
    /// stage cannot run there at all.
    fn cost(&self, layers: Range<usize>, submesh: SubmeshShape) -> Option<StageCostResult>;

    /// Every plan worth considering (e.g. one per logical mesh). The DP picks, for each
    /// pipeline depth, the fastest one that fits in memory (the paper's "pick the logical mesh
    /// shape that minimizes t_l and fits into the device memory"). Default: the one plan of
    /// [`StageCost::cost`].
    fn cost_options(&self, layers: Range<usize>, submesh: SubmeshShape) -> Vec<StageCostResult> {
        self.cost(layers, submesh).into_iter().collect()
    }

    /// [`StageCost::cost_options`] with `threads` threads to itself (the table builder's
    /// workers that have no other query): an oracle that plans parts of a query apart may plan
    /// them side by side.
    fn cost_options_on(&self, layers: Range<usize>, submesh: SubmeshShape, _threads: usize) -> Vec<StageCostResult> {
        self.cost_options(layers, submesh)
    }

    /// Lower bounds of every option of `layers` on `submesh`, cheap to compute (no planning);
    /// `None`: no bound is known (nothing is pruned).
    fn floor(&self, _layers: Range<usize>, _submesh: SubmeshShape) -> Option<StageFloor> {
        None
    }
}

impl<T: StageCost + ?Sized> StageCost for &T {
    fn cost(&self, layers: Range<usize>, submesh: SubmeshShape) -> Option<StageCostResult> {
        (**self).cost(layers, submesh)
    }
    fn cost_options(&self, layers: Range<usize>, submesh: SubmeshShape) -> Vec<StageCostResult> {
        (**self).cost_options(layers, submesh)
    }
    fn cost_options_on(&self, layers: Range<usize>, submesh: SubmeshShape, threads: usize) -> Vec<StageCostResult> {
        (**self).cost_options_on(layers, submesh, threads)
    }
    fn floor(&self, layers: Range<usize>, submesh: SubmeshShape) -> Option<StageFloor> {
        (**self).floor(layers, submesh)
    }
}

/// An oracle from a closure returning all options (tests, benches, adapters).
pub struct FnCost<F>(pub F);

impl<F> StageCost for FnCost<F>
where
    F: Fn(Range<usize>, SubmeshShape) -> Vec<StageCostResult>,
{
    fn cost(&self, layers: Range<usize>, submesh: SubmeshShape) -> Option<StageCostResult> {
        (self.0)(layers, submesh).into_iter().min_by(|a, b| a.latency.total_cmp(&b.latency))
    }
    fn cost_options(&self, layers: Range<usize>, submesh: SubmeshShape) -> Vec<StageCostResult> {
        (self.0)(layers, submesh)
    }
}
