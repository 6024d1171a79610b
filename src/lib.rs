pub mod cluster;
pub mod ir;
pub mod passes;
pub mod sharding;
