//! Errors of the cross-mesh resharding planner.

use crate::cluster::ClusterError;

/// Every failure of `crate::resharding` is one of these values; the planner and the simulator
/// never panic on their inputs.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReshardingError {
    #[error("{layout} layout: sharding spec of rank {spec_rank} for a tensor of rank {tensor_rank}")]
    RankMismatch { layout: &'static str, spec_rank: usize, tensor_rank: usize },
    #[error("tensor dimension {dim} has negative size {size}")]
    NegativeDim { dim: usize, size: i64 },
    #[error("{layout} layout: {devices} device ids for a {}x{} mesh", mesh[0], mesh[1])]
    DeviceCount { layout: &'static str, devices: usize, mesh: [usize; 2] },
    #[error("{layout} layout: mesh shape {}x{} has an axis of size 0", mesh[0], mesh[1])]
    EmptyMesh { layout: &'static str, mesh: [usize; 2] },
    #[error("{layout} layout: device {device} appears more than once")]
    DuplicateDevice { layout: &'static str, device: usize },
    #[error("{layout} layout: device {device} is outside the cluster of {cluster_devices} devices")]
    DeviceOutsideCluster { layout: &'static str, device: usize, cluster_devices: usize },
    #[error("mesh position {position} is outside a mesh of {devices} devices")]
    PositionOutOfRange { position: usize, devices: usize },
    #[error("element size is 0 bytes")]
    ZeroElementSize,
    #[error("byte count overflows: {0}")]
    Overflow(String),
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    /// The simulator found a plan that does not do what it claims (a bug in the planner or a
    /// hand-edited plan).
    #[error("invalid plan: {0}")]
    InvalidPlan(String),
    #[error("host data has {got} elements, the tensor has {expected}")]
    DataLength { expected: u128, got: usize },
}
