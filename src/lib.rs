pub mod cluster;
pub mod intra;
pub mod inter;
pub mod ir;
pub mod passes;
pub mod resharding;
pub mod rng;
pub mod sharding;
