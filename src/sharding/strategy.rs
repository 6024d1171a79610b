//! Parallel strategies of one op on a 2-D mesh (paper §4.1, Table 3), derived from the op
//! table's factors by one generic routine.
//!
//! A strategy assigns each mesh axis of size > 1 to at most one factor of the op's rule (a factor
//! may take both axes, in either order: `S01`/`S10`). From that assignment follow the spec of
//! every operand and result (a dim's axes are those of its factors, major to minor) and the op's
//! own communication: a sharded reduction factor leaves each result that lacks it a partial sum,
//! all-reduced over the factor's axes; a sharded permutation factor (`reverse`) needs a
//! collective permute of each result that has it. An assignment is valid when:
//! - need-replication factors are unsharded, and each factor's size divides evenly;
//! - every dim's tile is contiguous: in a dim made of several factors, every sharded factor
//!   except the most minor one is split completely (one element per part), so the dim's split
//!   is one of R/S0/S1/S01/S10 (a reshape of `[B, T]` into `B*T` can shard `B`, not `T` alone);
//! - every result has each sharded non-reduction factor (else devices would disagree on it).
//!
//! Byte conventions of [`CollectiveUse`] follow `cluster::collective`: an all-reduce's bytes are
//! the result's per-device tile (as in Alpa's Table 3: `M / n0` for `RS0R = RS0S1 x RS1R`), an
//! all-gather's the gathered per-device tile, an all-to-all's and a permute's the per-device tile.
//!
//! Names follow Alpa: `"RS0S1 = RS0R x RRS1"`, `"RS0R = RS0S1 x RS1R @ allreduce{1}"` (results
//! joined by `, `, operands by ` x `, `-` for a value that is not a ranked tensor, `[]` for a
//! scalar).

use serde::Serialize;

use crate::sharding::spec::ShardingSpec;

pub use crate::sharding::reshard::CollectiveUse;

mod assign;
mod describe;
mod enumerate;
mod follow;
mod scatter;

#[cfg(test)]
mod test_util;
#[cfg(test)]
mod tests_contraction;
#[cfg(test)]
mod tests_follow;
#[cfg(test)]
mod tests_ops;

pub use describe::describe_op;
pub use enumerate::{argument_strategies, argument_strategy, op_strategies, replicated_strategy};
pub use follow::follow;

/// One parallel algorithm of an op: the specs it needs and produces and what it communicates.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Strategy {
    /// Alpa-style, e.g. `"S0S1 = S0R x RS1"` or `"RR = RS0 x S0R @ allreduce{0}"`.
    pub name: String,
    /// Per factor of the op's rule, the mesh axes it is split over, major first. For function
    /// arguments (no rule) one entry per tensor dim.
    pub factor_axes: Vec<Vec<usize>>,
    /// Per operand, the spec the strategy needs (`None`: not a ranked tensor of known type).
    pub operand_specs: Vec<Option<ShardingSpec>>,
    /// Per result, the spec the strategy produces.
    pub result_specs: Vec<Option<ShardingSpec>>,
    /// The op's own collectives, in result order.
    pub collectives: Vec<CollectiveUse>,
    /// The sum of the collectives' costs on the mesh.
    pub communication_cost: f64,
    /// Bytes of all result tiles one device holds.
    pub result_bytes_per_device: u64,
}

impl Strategy {
    /// The number of devices each copy of the computation is split over (1: replicated).
    pub fn parallelism(&self, mesh_shape: [usize; 2]) -> usize {
        let mut axes: Vec<usize> = self.factor_axes.iter().flatten().copied().collect();
        axes.sort_unstable();
        axes.dedup();
        axes.iter().map(|&a| mesh_shape.get(a).copied().unwrap_or(1)).product()
    }

    /// Whether every mesh axis of size > 1 splits some factor (no replicated computation).
    pub fn uses_all_devices(&self, mesh_shape: [usize; 2]) -> bool {
        self.parallelism(mesh_shape) == mesh_shape[0] * mesh_shape[1]
    }
}

/// Knobs of the enumeration (the pass options of the same names).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StrategyOptions {
    /// Heavy ops (dot_general, convolution: the caller says which) only get strategies that
    /// split them over every mesh axis of size > 1, as in Alpa. Where no such strategy divides
    /// the shapes, the ones using the most devices are kept.
    pub heavy_op_uses_all_devices: bool,
    /// Also offer heavy ops the fully replicated strategy (light ops always have it).
    pub allow_replicated: bool,
    /// When set, an op whose operand 0 and result 0 share their leading factor (a batch-like
    /// dim: the batch of a dot or an elementwise op, the rows of `x @ W`) must split that
    /// factor over exactly this mesh axis (ignored for an axis of size 1, and where no strategy
    /// can).
    pub force_batch_dim_to_mesh_dim: Option<usize>,
}

impl Default for StrategyOptions {
    fn default() -> Self {
        StrategyOptions { heavy_op_uses_all_devices: true, allow_replicated: false, force_batch_dim_to_mesh_dim: None }
    }
}
