//! What the intra-op planner is asked: the mesh, the strategy space, the memory budget and the
//! solver's options.

use super::solution::SolveOptions;
use crate::cluster::mesh::DeviceMesh;
use crate::sharding::strategy::StrategyOptions;

#[derive(Clone, Debug)]
pub struct IntraOptions {
    pub mesh: DeviceMesh,
    pub strategy: StrategyOptions,
    pub allow_replicated_parameters: bool,
    /// Per-device bytes that live values may occupy at any point.
    pub memory_budget: Option<u64>,
    pub merge_trivial_ops: bool,
    pub solve: SolveOptions,
    /// After the solve, shard the weight update (paper §4.2): see [`super::weight_update`].
    pub prefer_reduce_scatter: bool,
    /// Price a move several consumer groups share once, exactly (extra nodes, see
    /// [`super::shared_moves`]); otherwise each group pays it in the objective.
    pub price_shared_moves: bool,
}

impl IntraOptions {
    /// The pass's defaults on `mesh`: replicated parameters allowed, no budget, trivial ops
    /// merged, the default solver, no weight-update sharding.
    pub fn on_mesh(mesh: DeviceMesh) -> IntraOptions {
        IntraOptions {
            mesh,
            strategy: StrategyOptions::default(),
            allow_replicated_parameters: true,
            memory_budget: None,
            merge_trivial_ops: true,
            solve: SolveOptions::default(),
            prefer_reduce_scatter: false,
            price_shared_moves: false,
        }
    }
}
