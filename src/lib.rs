/// The cluster model lives in its own crate (crates/alpa-cluster), so alpa-calibrate links no MLIR.
pub use alpa_cluster::cluster;
pub mod inter;
pub mod intra;
pub mod ir;
pub mod pass_options;
pub mod passes;
pub mod resharding;
pub mod rng;
pub mod sharding;
mod typed_index;
