//! The cluster model of alpa-mlir, free of MLIR: devices, links and logical meshes with the
//! alpha-beta collective costs ([`cluster`]), and the GPU-free half of `alpa-calibrate`, which
//! measures those numbers on real GPUs ([`calibrate`]). `alpa_mlir` re-exports both.

pub mod calibrate;
pub mod cluster;
