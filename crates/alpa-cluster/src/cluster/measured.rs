//! Numbers measured on real GPUs by `alpa-calibrate`: the optional `measured` section of a
//! cluster file. When present, the cost model prices matmuls and collectives with them instead
//! of the spec-sheet fields (`device.peak_flops`, `intra_host`, `inter_host`).
//!
//! A collective fit says `seconds(B) = latency_s + B / bandwidth_bytes_per_s` for a group of
//! `devices` GPUs, with B the bytes of the module table of `collective.rs` (the gathered result of
//! an all-gather, the reduced buffer of an all-reduce, ...).
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §1.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::cluster::collective::{volume_factor, Collective};
use crate::cluster::matmul_table::{check_table, MatmulRate};
use crate::cluster::spec::LinkSpec;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Measured {
    /// The GPU name the driver reports.
    pub gpu_name: String,
    /// The CUDA driver API version (`12.4`) the measurements ran under.
    pub driver_version: String,
    /// UTC date of the run, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub date: String,
    /// The command line that produced the file.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub command: String,
    /// cuBLAS matmul plateau per element type: MLIR spellings (`f32`, `bf16`, `f16`) and `tf32`
    /// (f32 data on tensor cores).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub matmul: BTreeMap<String, MatmulPlateau>,
    /// cuBLAS matmul throughput per element type (as `matmul`) over a grid of GEMM shapes
    /// (`matmul_table.rs`): what a contraction of a given shape reaches.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub matmul_shapes: BTreeMap<String, Vec<MatmulRate>>,
    /// Device-to-device copy, counting the bytes read and the bytes written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hbm_bytes_per_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_to_device: Option<LinkSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_to_host: Option<LinkSpec>,
    /// Copies between every ordered pair of local GPUs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub peer: Vec<PeerLink>,
    /// NCCL collectives over GPUs of one host.
    #[serde(default, skip_serializing_if = "CollectiveFits::is_empty")]
    pub intra_host: CollectiveFits,
    /// NCCL collectives across hosts (one process per host).
    #[serde(default, skip_serializing_if = "CollectiveFits::is_empty")]
    pub inter_host: CollectiveFits,
    /// What running XLA programs costs beyond their kernels' work, measured through the runtime
    /// that runs the stages (`python -m alpa_mlir.xla_overheads`, not `alpa-calibrate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xla: Option<XlaOverheads>,
}

/// The fixed costs of XLA programs on one device: a program that does almost nothing still
/// takes `program_dispatch_s` from the call to its results, and no kernel of a program takes
/// less than `kernel_launch_s` (its launch and the gap to the next one).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct XlaOverheads {
    pub program_dispatch_s: f64,
    pub kernel_launch_s: f64,
    /// The runtime and backend they were measured with (`jax 0.11.2, gpu`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub runtime: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatmulPlateau {
    pub flops: f64,
    /// The smallest square size n (an n x n by n x n product) from which on the plateau holds.
    pub reached_at_size: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PeerLink {
    pub from: usize,
    pub to: usize,
    pub latency_s: f64,
    pub bandwidth_bytes_per_s: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectiveFit {
    pub devices: usize,
    pub latency_s: f64,
    pub bandwidth_bytes_per_s: f64,
}

/// Fits per collective, one per measured group size.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectiveFits {
    #[serde(rename = "all-gather", default, skip_serializing_if = "Vec::is_empty")]
    pub all_gather: Vec<CollectiveFit>,
    #[serde(rename = "all-reduce", default, skip_serializing_if = "Vec::is_empty")]
    pub all_reduce: Vec<CollectiveFit>,
    #[serde(rename = "reduce-scatter", default, skip_serializing_if = "Vec::is_empty")]
    pub reduce_scatter: Vec<CollectiveFit>,
    #[serde(rename = "all-to-all", default, skip_serializing_if = "Vec::is_empty")]
    pub all_to_all: Vec<CollectiveFit>,
    #[serde(rename = "send-recv", default, skip_serializing_if = "Vec::is_empty")]
    pub send_recv: Vec<CollectiveFit>,
}

/// The collectives in file order, with their names in the file.
pub const MEASURED_COLLECTIVES: [(Collective, &str); 5] = [
    (Collective::AllGather, "all-gather"),
    (Collective::AllReduce, "all-reduce"),
    (Collective::ReduceScatter, "reduce-scatter"),
    (Collective::AllToAll, "all-to-all"),
    (Collective::PointToPoint, "send-recv"),
];

impl CollectiveFits {
    pub fn is_empty(&self) -> bool {
        MEASURED_COLLECTIVES.iter().all(|&(kind, _)| self.of(kind).is_empty())
    }

    pub fn of(&self, kind: Collective) -> &[CollectiveFit] {
        match kind {
            Collective::AllGather => &self.all_gather,
            Collective::AllReduce => &self.all_reduce,
            Collective::ReduceScatter => &self.reduce_scatter,
            Collective::AllToAll => &self.all_to_all,
            Collective::PointToPoint => &self.send_recv,
        }
    }

    pub fn of_mut(&mut self, kind: Collective) -> &mut Vec<CollectiveFit> {
        match kind {
            Collective::AllGather => &mut self.all_gather,
            Collective::AllReduce => &mut self.all_reduce,
            Collective::ReduceScatter => &mut self.reduce_scatter,
            Collective::AllToAll => &mut self.all_to_all,
            Collective::PointToPoint => &mut self.send_recv,
        }
    }

    /// The fit for a group of `n`: the one measured on `n` devices, else on the largest measured
    /// group below `n`, else on the smallest above.
    pub fn nearest(&self, kind: Collective, n: usize) -> Option<&CollectiveFit> {
        let fits = self.of(kind);
        fits.iter()
            .filter(|f| f.devices <= n)
            .max_by_key(|f| f.devices)
            .or_else(|| fits.iter().min_by_key(|f| f.devices))
    }

    /// Seconds for `kind` over `n` devices on `bytes`, or `None` without a fit for `kind`.
    /// A fit on another group size is read as a link: its latency, and the inverse bandwidth
    /// that gives its measured time with the module table's volume, then priced for `n`.
    pub fn seconds(&self, kind: Collective, n: usize, bytes: f64) -> Option<f64> {
        if n <= 1 {
            return Some(0.0);
        }
        let fit = self.nearest(kind, n)?;
        let measured_volume = volume_factor(kind, fit.devices);
        let volume = volume_factor(kind, n);
        Some(fit.latency_s + volume / measured_volume * bytes / fit.bandwidth_bytes_per_s)
    }

    pub(crate) fn check(&self, field: &str, problems: &mut Vec<String>) {
        for (kind, name) in MEASURED_COLLECTIVES {
            let fits = self.of(kind);
            for (i, fit) in fits.iter().enumerate() {
                let at = format!("{field}.{name}[{i}]");
                if fit.devices < 2 {
                    problems.push(format!("{at}.devices must be at least 2, got {}", fit.devices));
                }
                if fits[..i].iter().any(|f| f.devices == fit.devices) {
                    problems.push(format!("{at}: a second fit for {} devices", fit.devices));
                }
                check_link(&at, fit.latency_s, fit.bandwidth_bytes_per_s, problems);
            }
        }
    }
}

fn check_link(at: &str, latency_s: f64, bandwidth: f64, problems: &mut Vec<String>) {
    if !(bandwidth.is_finite() && bandwidth > 0.0) {
        problems.push(format!("{at}.bandwidth_bytes_per_s must be a positive number, got {bandwidth}"));
    }
    if !(latency_s.is_finite() && latency_s >= 0.0) {
        problems.push(format!("{at}.latency_s must be a non-negative number, got {latency_s}"));
    }
}

impl Measured {
    /// Every problem of the section, as messages for `Cluster::validate`.
    pub(crate) fn check(&self, problems: &mut Vec<String>) {
        for (ty, plateau) in &self.matmul {
            if !(plateau.flops.is_finite() && plateau.flops > 0.0) {
                problems
                    .push(format!("measured.matmul[\"{ty}\"].flops must be a positive number, got {}", plateau.flops));
            }
        }
        for (ty, points) in &self.matmul_shapes {
            check_table(&format!("measured.matmul_shapes[\"{ty}\"]"), points, problems);
        }
        if let Some(bw) = self.hbm_bytes_per_s {
            if !(bw.is_finite() && bw > 0.0) {
                problems.push(format!("measured.hbm_bytes_per_s must be a positive number, got {bw}"));
            }
        }
        for (field, link) in
            [("measured.host_to_device", &self.host_to_device), ("measured.device_to_host", &self.device_to_host)]
        {
            if let Some(link) = link {
                check_link(field, link.latency_s, link.bandwidth_bytes_per_s, problems);
            }
        }
        for (i, p) in self.peer.iter().enumerate() {
            let at = format!("measured.peer[{i}]");
            if p.from == p.to {
                problems.push(format!("{at} links GPU {} with itself", p.from));
            }
            check_link(&at, p.latency_s, p.bandwidth_bytes_per_s, problems);
        }
        self.intra_host.check("measured.intra_host", problems);
        self.inter_host.check("measured.inter_host", problems);
        if let Some(xla) = &self.xla {
            for (field, seconds) in
                [("program_dispatch_s", xla.program_dispatch_s), ("kernel_launch_s", xla.kernel_launch_s)]
            {
                if !(seconds.is_finite() && seconds >= 0.0) {
                    problems.push(format!("measured.xla.{field} must be a non-negative number, got {seconds}"));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fit(devices: usize, latency_s: f64, bandwidth_bytes_per_s: f64) -> CollectiveFit {
        CollectiveFit { devices, latency_s, bandwidth_bytes_per_s }
    }

    #[test]
    fn measured_group_size_gives_the_fit_itself() {
        let fits = CollectiveFits { all_reduce: vec![fit(2, 1e-5, 1e11), fit(8, 3e-5, 2e11)], ..Default::default() };
        let s = fits.seconds(Collective::AllReduce, 8, 4e9).unwrap();
        assert_eq!(s, 3e-5 + 4e9 / 2e11);
        let s = fits.seconds(Collective::AllReduce, 2, 4e9).unwrap();
        assert_eq!(s, 1e-5 + 4e9 / 1e11);
        assert_eq!(fits.seconds(Collective::AllReduce, 1, 4e9), Some(0.0));
        assert_eq!(fits.seconds(Collective::AllGather, 8, 4e9), None);
    }

    #[test]
    fn other_group_sizes_scale_with_the_volume_of_the_nearest_fit() {
        let fits = CollectiveFits { all_gather: vec![fit(2, 1e-5, 1e11), fit(4, 2e-5, 1e11)], ..Default::default() };
        // 8 devices: the fit on 4 read as a link, volume (8-1)/8 instead of (4-1)/4.
        let s = fits.seconds(Collective::AllGather, 8, 1e9).unwrap();
        let expected = 2e-5 + (7.0 / 8.0) / (3.0 / 4.0) * 1e9 / 1e11;
        assert!((s - expected).abs() < 1e-15, "{s} vs {expected}");
        // 3 devices: the largest fit below, on 2.
        assert_eq!(fits.nearest(Collective::AllGather, 3).unwrap().devices, 2);
        // Send/recv does not depend on the group size.
        let p2p = CollectiveFits { send_recv: vec![fit(2, 5e-6, 5e10)], ..Default::default() };
        assert_eq!(p2p.seconds(Collective::PointToPoint, 16, 1e6), Some(5e-6 + 1e6 / 5e10));
    }

    #[test]
    fn group_below_every_fit_uses_the_smallest() {
        let fits = CollectiveFits { all_to_all: vec![fit(4, 1e-5, 1e11), fit(8, 1e-5, 1e11)], ..Default::default() };
        assert_eq!(fits.nearest(Collective::AllToAll, 2).unwrap().devices, 4);
    }

    #[test]
    fn check_reports_bad_fits() {
        let fits = CollectiveFits { reduce_scatter: vec![fit(1, -1.0, 0.0), fit(1, 0.0, 1.0)], ..Default::default() };
        let mut problems = Vec::new();
        fits.check("m", &mut problems);
        assert_eq!(problems.len(), 5, "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("m.reduce-scatter[1]: a second fit")));
    }
}
