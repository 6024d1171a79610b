//! The JSON cluster description: hosts, devices, peak compute and the two kinds of links.
//!
//! ```json
//! {
//!   "name": "my-a100s",
//!   "hosts": 2,
//!   "devices_per_host": 8,
//!   "device": {
//!     "name": "NVIDIA A100 40GB",
//!     "memory_bytes": 42949672960,
//!     "peak_flops": { "f32": 19.5e12, "bf16": 312e12, "f16": 312e12 },
//!     "peak_flops_fallback": 19.5e12
//!   },
//!   "intra_host": { "bandwidth_bytes_per_s": 300e9, "latency_s": 5e-6 },
//!   "inter_host": { "bandwidth_bytes_per_s": 25e9, "latency_s": 1e-5 }
//! }
//! ```
//! `peak_flops` keys are MLIR element type spellings (`f32`, `bf16`, `f8E4M3FN`, `i8`, ...).
//! `inter_host` may be left out for a single-host cluster. Unknown fields are rejected so that a
//! typo does not silently fall back to a default. An optional `measured` section (written by
//! `alpa-calibrate`, see `measured.rs`) overrides the peaks and the collective costs it covers.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §1.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::cluster::error::ClusterError;
use crate::cluster::matmul_table::{interpolated_rate, GemmShape};
use crate::cluster::measured::Measured;
use crate::cluster::presets;

/// A homogeneous cluster: `hosts` machines with `devices_per_host` identical devices each.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cluster {
    #[serde(default)]
    pub name: String,
    pub hosts: usize,
    pub devices_per_host: usize,
    pub device: DeviceSpec,
    /// The link between two devices of the same host (NVLink, PCIe, ...).
    pub intra_host: LinkSpec,
    /// The link between two hosts; required when `hosts > 1`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inter_host: Option<LinkSpec>,
    /// Numbers measured on the GPUs; when present they take precedence over the fields above.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured: Option<Measured>,
}

/// One accelerator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeviceSpec {
    pub name: String,
    pub memory_bytes: u64,
    /// Peak FLOP/s per element type, keyed by the MLIR spelling of the type.
    pub peak_flops: BTreeMap<String, f64>,
    /// Used for element types missing from `peak_flops`; when absent, the smallest listed peak.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_flops_fallback: Option<f64>,
    /// Device memory bandwidth, bytes read plus bytes written per second. Without it (and
    /// without a measured one) ops are priced by their FLOPs alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hbm_bytes_per_s: Option<f64>,
}

/// A point-to-point link: `time(bytes) = latency_s + bytes / bandwidth_bytes_per_s`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    pub bandwidth_bytes_per_s: f64,
    pub latency_s: f64,
}

impl LinkSpec {
    /// The alpha of the alpha-beta model: seconds per message.
    pub fn alpha(&self) -> f64 {
        self.latency_s
    }

    /// The beta of the alpha-beta model: seconds per byte.
    pub fn beta(&self) -> f64 {
        1.0 / self.bandwidth_bytes_per_s
    }

    pub fn transfer_seconds(&self, bytes: f64) -> f64 {
        self.alpha() + self.beta() * bytes
    }

    fn check(&self, field: &str, problems: &mut Vec<String>) {
        let bw = self.bandwidth_bytes_per_s;
        if !(bw.is_finite() && bw > 0.0) {
            problems.push(format!("{field}.bandwidth_bytes_per_s must be a positive number, got {bw}"));
        }
        let lat = self.latency_s;
        if !(lat.is_finite() && lat >= 0.0) {
            problems.push(format!("{field}.latency_s must be a non-negative number, got {lat}"));
        }
    }
}

impl Cluster {
    /// A preset name (see [`presets::preset_names`]) or the path of a JSON cluster file.
    /// A string that names an existing file, ends in `.json` or contains a path separator is
    /// read as a file; anything else must be a preset.
    pub fn load(name_or_path: &str) -> Result<Cluster, ClusterError> {
        let text = name_or_path.trim();
        let path = Path::new(text);
        let looks_like_path = text.ends_with(".json") || text.contains('/') || text.contains('\\');
        if looks_like_path || (presets::preset(text).is_none() && path.is_file()) {
            return Cluster::from_json_file(path);
        }
        presets::preset(text).ok_or_else(|| ClusterError::Unknown {
            name: text.to_string(),
            presets: presets::preset_names().join(", "),
        })
    }

    pub fn from_json_file(path: &Path) -> Result<Cluster, ClusterError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ClusterError::Io { path: path.display().to_string(), message: e.to_string() })?;
        Cluster::from_json_str(&text, &path.display().to_string())
    }

    /// Parses and validates a JSON description; `origin` names the source in error messages.
    pub fn from_json_str(text: &str, origin: &str) -> Result<Cluster, ClusterError> {
        let mut cluster: Cluster = serde_json::from_str(text)
            .map_err(|e| ClusterError::Json { origin: origin.to_string(), message: e.to_string() })?;
        if cluster.name.is_empty() {
            cluster.name = origin.to_string();
        }
        cluster.validate()?;
        Ok(cluster)
    }

    pub fn to_json_pretty(&self) -> String {
        // Serializing plain data with string keys cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Checks every field and reports all problems at once.
    pub fn validate(&self) -> Result<(), ClusterError> {
        let mut problems = Vec::new();
        if self.hosts == 0 {
            problems.push("hosts must be at least 1".to_string());
        }
        if self.devices_per_host == 0 {
            problems.push("devices_per_host must be at least 1".to_string());
        }
        if self.hosts.checked_mul(self.devices_per_host).is_none_or(|n| n > u32::MAX as usize) {
            problems.push("hosts * devices_per_host is too large".to_string());
        }
        if self.device.memory_bytes == 0 {
            problems.push("device.memory_bytes must be positive".to_string());
        }
        if self.device.peak_flops.is_empty() && self.device.peak_flops_fallback.is_none() {
            problems.push("device.peak_flops is empty and there is no peak_flops_fallback".to_string());
        }
        for (ty, &flops) in &self.device.peak_flops {
            if !(flops.is_finite() && flops > 0.0) {
                problems.push(format!("device.peak_flops[\"{ty}\"] must be a positive number, got {flops}"));
            }
        }
        if let Some(flops) = self.device.peak_flops_fallback {
            if !(flops.is_finite() && flops > 0.0) {
                problems.push(format!("device.peak_flops_fallback must be a positive number, got {flops}"));
            }
        }
        if let Some(bw) = self.device.hbm_bytes_per_s {
            if !(bw.is_finite() && bw > 0.0) {
                problems.push(format!("device.hbm_bytes_per_s must be a positive number, got {bw}"));
            }
        }
        self.intra_host.check("intra_host", &mut problems);
        match &self.inter_host {
            Some(link) => link.check("inter_host", &mut problems),
            None if self.hosts > 1 => {
                problems.push(format!("inter_host is required for a cluster of {} hosts", self.hosts))
            }
            None => {}
        }
        if let Some(measured) = &self.measured {
            measured.check(&mut problems);
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(ClusterError::Invalid { name: self.name.clone(), problems })
        }
    }

    pub fn num_devices(&self) -> usize {
        self.hosts * self.devices_per_host
    }

    /// Global id of device `local` on host `host`: hosts are numbered first (row-major).
    pub fn device_id(&self, host: usize, local: usize) -> u32 {
        (host * self.devices_per_host + local) as u32
    }

    pub fn host_of(&self, device_id: u32) -> usize {
        device_id as usize / self.devices_per_host.max(1)
    }

    /// The link between hosts; for a single-host cluster without one, the intra-host link.
    pub fn inter_host_link(&self) -> LinkSpec {
        self.inter_host.unwrap_or(self.intra_host)
    }

    /// The link two devices talk over.
    pub fn link_between(&self, a: u32, b: u32) -> LinkSpec {
        if self.host_of(a) == self.host_of(b) {
            self.intra_host
        } else {
            self.inter_host_link()
        }
    }

    /// Peak FLOP/s for an element type given by its MLIR spelling (`f32`, `bf16`, ...) or
    /// `tf32` (f32 data on tensor cores): the measured matmul plateau when the file has one,
    /// else the spec-sheet peak. A device with no TF32 rate runs `tf32` at its f32 rate.
    pub fn peak_flops(&self, element_type: &str) -> f64 {
        let measured = self.measured.as_ref().and_then(|m| m.matmul.get(element_type));
        if let Some(plateau) = measured {
            return plateau.flops;
        }
        if let Some(&flops) = self.device.peak_flops.get(element_type) {
            return flops;
        }
        if element_type == "tf32" {
            return self.peak_flops("f32");
        }
        if let Some(flops) = self.device.peak_flops_fallback {
            return flops;
        }
        self.device.peak_flops.values().copied().fold(f64::INFINITY, f64::min)
    }

    /// Time for `flops` floating point operations on one device at peak rate.
    pub fn compute_seconds(&self, flops: f64, element_type: &str) -> f64 {
        flops / self.peak_flops(element_type)
    }

    /// Device memory bandwidth (bytes read plus written per second): the measured copy
    /// bandwidth when the file has one, else the spec sheet's; `None` when neither is known.
    pub fn hbm_bytes_per_s(&self) -> Option<f64> {
        self.measured.as_ref().and_then(|m| m.hbm_bytes_per_s).or(self.device.hbm_bytes_per_s)
    }

    /// FLOP/s of a contraction of `shape` in `element_type`: the measured rate for that shape
    /// when the file has a shape table for the type (`matmul_table.rs`), else the type's peak.
    pub fn matmul_flops(&self, element_type: &str, shape: GemmShape) -> f64 {
        self.measured
            .as_ref()
            .and_then(|m| m.matmul_shapes.get(element_type))
            .and_then(|points| interpolated_rate(points, shape))
            .unwrap_or_else(|| self.peak_flops(element_type))
    }

    /// The least time one kernel of an XLA program takes (its launch and the gap to the next),
    /// as measured through XLA; 0 when the file has no such measurement.
    pub fn kernel_launch_s(&self) -> f64 {
        self.measured.as_ref().and_then(|m| m.xla.as_ref()).map_or(0.0, |x| x.kernel_launch_s)
    }

    /// What one XLA program costs beyond its kernels, from the call to its results, as measured
    /// through XLA; 0 when the file has no such measurement.
    pub fn program_dispatch_s(&self) -> f64 {
        self.measured.as_ref().and_then(|m| m.xla.as_ref()).map_or(0.0, |x| x.program_dispatch_s)
    }

    /// What running work as XLA programs adds to the kernels' roofline times: each kernel
    /// (`kernel_seconds`, one per kernel launched) shorter than a launch takes the launch, and
    /// each of `programs` programs its dispatch. 0 without measured XLA overheads.
    pub fn xla_overhead_seconds(&self, kernel_seconds: impl IntoIterator<Item = f64>, programs: usize) -> f64 {
        let launch = self.kernel_launch_s();
        let short_kernels: f64 = kernel_seconds.into_iter().map(|s| (launch - s).max(0.0)).sum();
        short_kernels + programs as f64 * self.program_dispatch_s()
    }

    /// One op on one device, roofline: the longer of its FLOPs and its device-memory traffic
    /// (`bytes`, read plus written) at the memory bandwidth. FLOPs run at the rate of the
    /// contraction's shape (`gemm`: dots, convolutions) where the file measured one, else at the
    /// type's peak.
    /// Without a bandwidth, the FLOPs' time.
    pub fn op_seconds(&self, flops: f64, element_type: &str, bytes: f64, gemm: Option<GemmShape>) -> f64 {
        let rate = gemm.map_or_else(|| self.peak_flops(element_type), |g| self.matmul_flops(element_type, g));
        let compute = flops / rate;
        self.hbm_bytes_per_s().map_or(compute, |bw| compute.max(bytes / bw))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::matmul_table::MatmulRate;
    use crate::cluster::measured::{MatmulPlateau, XlaOverheads};

    const TWO_HOSTS: &str = r#"{
        "name": "two",
        "hosts": 2, "devices_per_host": 4,
        "device": { "name": "gpu", "memory_bytes": 1000,
                    "peak_flops": { "f32": 10.0, "bf16": 40.0 } },
        "intra_host": { "bandwidth_bytes_per_s": 100.0, "latency_s": 0.5 },
        "inter_host": { "bandwidth_bytes_per_s": 10.0, "latency_s": 2.0 }
    }"#;

    #[test]
    fn module_doc_example_parses() {
        let doc: String = include_str!("spec.rs")
            .lines()
            .skip_while(|l| !l.starts_with("//! ```json"))
            .skip(1)
            .take_while(|l| !l.starts_with("//! ```"))
            .map(|l| l.trim_start_matches("//!"))
            .collect::<Vec<_>>()
            .join("\n");
        let c = Cluster::from_json_str(&doc, "doc").unwrap();
        assert_eq!((c.name.as_str(), c.num_devices()), ("my-a100s", 16));
        assert_eq!(c.peak_flops("bf16"), 312e12);
    }

    #[test]
    fn parses_and_looks_up_peaks() {
        let c = Cluster::from_json_str(TWO_HOSTS, "test").unwrap();
        assert_eq!(c.num_devices(), 8);
        assert_eq!(c.peak_flops("bf16"), 40.0);
        // Missing type without fallback: the smallest listed peak.
        assert_eq!(c.peak_flops("f16"), 10.0);
        assert_eq!(c.compute_seconds(100.0, "f32"), 10.0);
        assert_eq!(c.link_between(0, 3).latency_s, 0.5);
        assert_eq!(c.link_between(3, 4).latency_s, 2.0);
        assert_eq!(c.host_of(7), 1);
        assert_eq!(c.device_id(1, 2), 6);
    }

    #[test]
    fn fallback_peak_is_used() {
        let text = TWO_HOSTS.replace(r#""bf16": 40.0 }"#, r#""bf16": 40.0 }, "peak_flops_fallback": 7.0"#);
        let c = Cluster::from_json_str(&text, "test").unwrap();
        assert_eq!(c.peak_flops("f64"), 7.0);
    }

    #[test]
    fn tf32_runs_at_the_tf32_rate_where_there_is_one_else_at_f32() {
        let c = Cluster::from_json_str(TWO_HOSTS, "test").unwrap();
        assert_eq!(c.peak_flops("tf32"), c.peak_flops("f32"));
        let text = TWO_HOSTS.replace(r#""bf16": 40.0 }"#, r#""bf16": 40.0, "tf32": 20.0 }"#);
        assert_eq!(Cluster::from_json_str(&text, "test").unwrap().peak_flops("tf32"), 20.0);
        let mut measured = Cluster::from_json_str(&text, "test").unwrap();
        let plateau = MatmulPlateau { flops: 25.0, reached_at_size: 4096 };
        measured.measured = Some(Measured { matmul: [("tf32".to_string(), plateau)].into(), ..Measured::default() });
        assert_eq!(measured.peak_flops("tf32"), 25.0);
    }

    #[test]
    fn json_round_trip() {
        let c = Cluster::from_json_str(TWO_HOSTS, "test").unwrap();
        let again = Cluster::from_json_str(&c.to_json_pretty(), "again").unwrap();
        assert_eq!(c, again);
    }

    #[test]
    fn reports_every_problem() {
        let text = TWO_HOSTS
            .replace(r#""hosts": 2"#, r#""hosts": 0"#)
            .replace(r#""memory_bytes": 1000"#, r#""memory_bytes": 0"#)
            .replace(r#""latency_s": 2.0"#, r#""latency_s": -1.0"#);
        let err = Cluster::from_json_str(&text, "test").unwrap_err();
        let ClusterError::Invalid { problems, .. } = &err else { panic!("{err}") };
        assert_eq!(problems.len(), 3, "{problems:?}");
        let msg = err.to_string();
        assert!(msg.contains("hosts must be at least 1"), "{msg}");
        assert!(msg.contains("memory_bytes"), "{msg}");
        assert!(msg.contains("inter_host.latency_s"), "{msg}");
    }

    #[test]
    fn multi_host_needs_inter_host_link() {
        let mut c = Cluster::from_json_str(TWO_HOSTS, "test").unwrap();
        c.inter_host = None;
        let err = c.validate().unwrap_err();
        assert!(err.to_string().contains("inter_host is required"), "{err}");
        c.hosts = 1;
        assert!(c.validate().is_ok());
    }

    const MEASURED: &str = r#""measured": {
        "gpu_name": "gpu", "driver_version": "12.4",
        "matmul": { "bf16": { "flops": 30.0, "reached_at_size": 4096 } },
        "intra_host": { "all-reduce": [ { "devices": 4, "latency_s": 0.25, "bandwidth_bytes_per_s": 50.0 } ] }
    }"#;

    fn with_measured() -> Cluster {
        let text = TWO_HOSTS.replacen(r#""name": "two","#, &format!(r#""name": "two", {MEASURED},"#), 1);
        Cluster::from_json_str(&text, "test").unwrap()
    }

    #[test]
    fn measured_matmul_overrides_the_spec_sheet_peak() {
        let c = with_measured();
        assert_eq!(c.peak_flops("bf16"), 30.0);
        // Types without a measurement keep the spec-sheet numbers.
        assert_eq!(c.peak_flops("f32"), 10.0);
        let again = Cluster::from_json_str(&c.to_json_pretty(), "again").unwrap();
        assert_eq!(c, again);
    }

    #[test]
    fn a_shape_table_prices_contractions_by_shape_and_nothing_else() {
        let mut c = with_measured();
        let grid: Vec<MatmulRate> = [(1, 1, 10.0), (1, 4, 20.0), (4, 1, 20.0), (4, 4, 30.0)]
            .into_iter()
            .flat_map(|(m, n, flops)| {
                [1, 4].map(|k| MatmulRate { m, n, k, flops: if k == 4 { flops } else { flops / 2.0 } })
            })
            .collect();
        c.measured.as_mut().unwrap().matmul_shapes.insert("bf16".into(), grid);
        c.validate().unwrap();
        let square = GemmShape { batch: 1, m: 4, n: 4, k: 4 };
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12 * b;
        assert!(close(c.matmul_flops("bf16", square), 30.0));
        assert!(close(c.matmul_flops("bf16", GemmShape { k: 1, ..square }), 15.0));
        // Without a table for the type, or for ops that are not contractions: the peak.
        assert_eq!(c.matmul_flops("f32", square), 10.0);
        assert!(close(c.op_seconds(60.0, "bf16", 0.0, Some(GemmShape { k: 1, ..square })), 4.0));
        assert_eq!(c.op_seconds(60.0, "bf16", 0.0, None), 2.0);
        let again = Cluster::from_json_str(&c.to_json_pretty(), "again").unwrap();
        assert_eq!(c, again);
        c.measured.as_mut().unwrap().matmul_shapes.get_mut("bf16").unwrap().pop();
        assert!(c.validate().unwrap_err().to_string().contains("measured.matmul_shapes[\"bf16\"]: 7 points"));
    }

    #[test]
    fn measured_section_is_validated_and_rejects_unknown_fields() {
        let mut c = with_measured();
        c.measured.as_mut().unwrap().intra_host.all_reduce[0].devices = 1;
        let err = c.validate().unwrap_err().to_string();
        assert!(err.contains("measured.intra_host.all-reduce[0].devices"), "{err}");
        let typo = TWO_HOSTS.replacen(
            r#""name": "two","#,
            &format!(r#""name": "two", {},"#, MEASURED.replace("all-reduce", "allreduce")),
            1,
        );
        let err = Cluster::from_json_str(&typo, "t").unwrap_err().to_string();
        assert!(err.contains("allreduce"), "{err}");
    }

    #[test]
    fn xla_overheads_are_read_validated_and_zero_without_them() {
        let mut c = with_measured();
        assert_eq!((c.program_dispatch_s(), c.kernel_launch_s()), (0.0, 0.0));
        let text = TWO_HOSTS.replacen(
            r#""name": "two","#,
            &format!(
                r#""name": "two", {},"#,
                MEASURED.replace(
                    r#""driver_version": "12.4","#,
                    r#""driver_version": "12.4", "xla": {"program_dispatch_s": 1e-4, "kernel_launch_s": 3e-6},"#
                )
            ),
            1,
        );
        let read = Cluster::from_json_str(&text, "t").unwrap();
        assert_eq!((read.program_dispatch_s(), read.kernel_launch_s()), (1e-4, 3e-6));
        // Kernels of 1 and 2 us take the 3 us launch, one of 5 us its own time; 2 programs.
        let overhead = read.xla_overhead_seconds([1e-6, 2e-6, 5e-6], 2);
        assert!((overhead - (2e-6 + 1e-6 + 2e-4)).abs() < 1e-15, "{overhead}");
        assert_eq!(c.xla_overhead_seconds([1e-6], 3), 0.0);
        assert_eq!(Cluster::from_json_str(&read.to_json_pretty(), "again").unwrap(), read);
        c.measured.as_mut().unwrap().xla =
            Some(XlaOverheads { program_dispatch_s: f64::NAN, kernel_launch_s: -1.0, runtime: String::new() });
        let err = c.validate().unwrap_err().to_string();
        assert!(
            err.contains("measured.xla.program_dispatch_s") && err.contains("measured.xla.kernel_launch_s"),
            "{err}"
        );
    }

    #[test]
    fn unknown_fields_are_rejected() {
        let text = TWO_HOSTS.replace(r#""hosts": 2"#, r#""hosts": 2, "hostz": 3"#);
        let err = Cluster::from_json_str(&text, "t").unwrap_err();
        assert!(matches!(err, ClusterError::Json { .. }) && err.to_string().contains("hostz"), "{err}");
    }

    #[test]
    fn bad_json_is_an_error_value() {
        assert!(matches!(Cluster::from_json_str("{", "t"), Err(ClusterError::Json { .. })));
        assert!(matches!(Cluster::from_json_str(r#"{"hosts": -1}"#, "t"), Err(ClusterError::Json { .. })));
    }

    #[test]
    fn load_reads_user_files_and_rejects_unknown_names() {
        let dir = std::env::temp_dir().join(format!("alpa-cluster-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("mine.json");
        std::fs::write(&file, TWO_HOSTS).unwrap();
        let c = Cluster::load(file.to_str().unwrap()).unwrap();
        assert_eq!(c.name, "two");
        let missing = dir.join("missing.json");
        assert!(matches!(Cluster::load(missing.to_str().unwrap()), Err(ClusterError::Io { .. })));
        let err = Cluster::load("no-such-cluster").unwrap_err();
        assert!(err.to_string().contains("h100-x8"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
