//! Errors of sharding specs, meshes and the sdy/GSPMD parsers.

/// Every failure in `crate::sharding` is one of these values; parsers never panic on user text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardingError {
    #[error("cannot parse `{input}` at byte {offset}: {message}")]
    Parse { input: String, offset: usize, message: String },
    #[error("invalid sharding: {0}")]
    Invalid(String),
    #[error("sharding of rank {sharding_rank} does not fit a tensor of rank {tensor_rank}")]
    RankMismatch { sharding_rank: usize, tensor_rank: usize },
    #[error("tensor dimensions not divisible by their number of shards: {}", describe_dims(dims))]
    NotDivisible { dims: Vec<IndivisibleDim> },
    #[error("invalid mesh: {0}")]
    Mesh(String),
    #[error("not expressible as an R/S0/S1/S01/S10 spec on this mesh: {0}")]
    NotExpressible(String),
    #[error("unsupported: {0}")]
    Unsupported(String),
}

/// One tensor dimension whose size the shard count does not divide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndivisibleDim {
    pub dim: usize,
    pub size: i64,
    pub shards: usize,
}

fn describe_dims(dims: &[IndivisibleDim]) -> String {
    dims.iter()
        .map(|d| format!("dim {} (size {}) into {} shards", d.dim, d.size, d.shards))
        .collect::<Vec<_>>()
        .join(", ")
}
