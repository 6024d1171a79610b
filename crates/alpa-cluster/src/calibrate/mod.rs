//! The measuring logic of `alpa-calibrate` that needs no GPU: which sizes to measure, how to fit
//! and summarise the timings, how to turn them into a cluster file and how to merge per-host
//! files. The binary (`src/bin/alpa-calibrate/` of this crate) only runs the measurements through cudarc.

pub mod build;
pub mod date;
pub mod fit;
pub mod merge;
pub mod sizes;
pub mod summary;

pub use build::{Calibration, CollectiveSamples};
pub use fit::{fit_latency_bandwidth, plateau, Plateau, Sample};
pub use merge::merge;
pub use summary::summary;
