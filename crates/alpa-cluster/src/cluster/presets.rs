//! Built-in cluster descriptions, named `<family>-x<hosts>` (`p3.16xlarge-x8`, `h100-x1`, ...).
//!
//! Numbers and where they come from:
//! - `p3.16xlarge`, the Alpa paper's testbed (§8: 8 nodes of 8 V100 16 GB, NVLink inside a node,
//!   25 Gbps between nodes). V100 SXM2 peaks from NVIDIA's V100 datasheet: 7.8 TFLOP/s f64,
//!   15.7 f32, 125 f16 on tensor cores, 900 GB/s HBM2. V100 has no bf16 units; XLA computes bf16
//!   in f32, so bf16 gets the f32 peak. NVLink 2: six links of 25 GB/s per direction = 150 GB/s per GPU;
//!   the hybrid cube-mesh of p3.16xlarge lets a ring use all of them. Between hosts the 25 Gbps
//!   ENA link = 3.125 GB/s, TCP latency of tens of microseconds (30 us taken).
//! - `h100`, a current DGX/HGX H100 SXM node: 80 GB HBM3, dense peaks from NVIDIA's H100
//!   datasheet (989 TFLOP/s bf16/f16, 1979 f8/i8, 494.7 tf32, 67 f32 and f64 on tensor cores;
//!   3.35 TB/s HBM3); NVLink 4 with
//!   18 links = 450 GB/s per direction per GPU; 400 Gbps (50 GB/s) InfiniBand/RoCE between hosts
//!   with RDMA latency of about 10 us. The model treats every cross-host axis as limited by one
//!   400 Gbps link.
//! - `h200`, an HGX H200 node: the H100 SXM's chip and NVLink 4 (NVIDIA's H200 datasheet gives
//!   the same dense peaks) with 141 GB of HBM3e at 4.8 TB/s; the same links between hosts as
//!   `h100`.
//!
//! - `h200-measured`, the `h200` node with its chip as `alpa-calibrate` measured it on one lent
//!   H200 (`measured/h200-x1-2026-11-27.json`, written by `scripts/gpu-compare-device.sh`): the
//!   matmul plateaus per type and rates over a grid of GEMM shapes, the HBM copy bandwidth
//!   (4.31 TB/s of the datasheet's 4.8), the host links, and the memory the driver reports. One
//!   GPU measures no NVLink or NCCL, so links and collectives stay the spec sheet's.
//!
//! Latencies inside a host (a few microseconds) are NCCL's typical small-message times.

use std::collections::BTreeMap;

use crate::cluster::spec::{Cluster, DeviceSpec, LinkSpec};

const GIB: u64 = 1 << 30;

/// The canonical preset names; any `<family>-x<N>` with N in 1..=MAX_PRESET_HOSTS also works.
pub fn preset_names() -> Vec<&'static str> {
    vec![
        "p3.16xlarge-x8",
        "p3.16xlarge-x1",
        "h100-x8",
        "h100-x1",
        "h200-x8",
        "h200-x1",
        "h200-measured-x8",
        "h200-measured-x1",
    ]
}

/// `alpa-calibrate`'s file of one GPU of the `h200` family (see the module comment).
const H200_MEASURED: &str = include_str!("../../measured/h200-x1-2026-11-27.json");

pub const MAX_PRESET_HOSTS: usize = 1024;

/// A preset by name, or `None` when the name is not one.
pub fn preset(name: &str) -> Option<Cluster> {
    let (family, hosts) = name.rsplit_once("-x")?;
    if hosts.is_empty() || !hosts.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let hosts: usize = hosts.parse().ok()?;
    if hosts == 0 || hosts > MAX_PRESET_HOSTS {
        return None;
    }
    let mut cluster = match family {
        "p3.16xlarge" => p3_16xlarge(),
        "h100" => h100(),
        "h200" => h200(),
        "h200-measured" => with_measured_chip(h200(), H200_MEASURED),
        _ => return None,
    };
    cluster.name = name.to_string();
    cluster.hosts = hosts;
    Some(cluster)
}

fn flops(entries: &[(&str, f64)]) -> BTreeMap<String, f64> {
    entries.iter().map(|&(k, v)| (k.to_string(), v)).collect()
}

fn p3_16xlarge() -> Cluster {
    Cluster {
        name: String::new(),
        hosts: 1,
        devices_per_host: 8,
        device: DeviceSpec {
            name: "NVIDIA V100-SXM2-16GB".to_string(),
            memory_bytes: 16 * GIB,
            peak_flops: flops(&[("f64", 7.8e12), ("f32", 15.7e12), ("bf16", 15.7e12), ("f16", 125e12)]),
            peak_flops_fallback: Some(15.7e12),
            hbm_bytes_per_s: Some(900e9),
        },
        intra_host: LinkSpec { bandwidth_bytes_per_s: 150e9, latency_s: 5e-6 },
        inter_host: Some(LinkSpec { bandwidth_bytes_per_s: 25e9 / 8.0, latency_s: 30e-6 }),
        measured: None,
    }
}

fn h100() -> Cluster {
    Cluster {
        name: String::new(),
        hosts: 1,
        devices_per_host: 8,
        device: DeviceSpec {
            name: "NVIDIA H100-SXM5-80GB".to_string(),
            memory_bytes: 80 * GIB,
            peak_flops: flops(&[
                ("f64", 67e12),
                ("f32", 67e12),
                ("tf32", 494.7e12),
                ("bf16", 989e12),
                ("f16", 989e12),
                ("f8E4M3FN", 1979e12),
                ("f8E5M2", 1979e12),
                ("i8", 1979e12),
            ]),
            peak_flops_fallback: Some(67e12),
            hbm_bytes_per_s: Some(3.35e12),
        },
        intra_host: LinkSpec { bandwidth_bytes_per_s: 450e9, latency_s: 3e-6 },
        inter_host: Some(LinkSpec { bandwidth_bytes_per_s: 400e9 / 8.0, latency_s: 10e-6 }),
        measured: None,
    }
}

fn h200() -> Cluster {
    let h100 = h100();
    Cluster {
        device: DeviceSpec {
            name: "NVIDIA H200-SXM-141GB".to_string(),
            memory_bytes: 141 * GIB,
            hbm_bytes_per_s: Some(4.8e12),
            ..h100.device
        },
        ..h100
    }
}

/// `node` with the device and the measured section of a one-GPU calibration file: its links and
/// host layout are the node's, since one GPU measures neither NVLink nor collectives.
fn with_measured_chip(node: Cluster, calibration: &str) -> Cluster {
    let chip = Cluster::from_json_str(calibration, "a built-in calibration file")
        .expect("built-in calibration files are valid (every_canonical_preset_is_valid)");
    let mut peak_flops = node.device.peak_flops;
    peak_flops.extend(chip.device.peak_flops);
    Cluster {
        device: DeviceSpec {
            name: chip.device.name,
            memory_bytes: chip.device.memory_bytes,
            peak_flops,
            ..node.device
        },
        measured: chip.measured,
        ..node
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::GemmShape;

    #[test]
    fn every_canonical_preset_is_valid() {
        for name in preset_names() {
            let c = preset(name).unwrap_or_else(|| panic!("{name}"));
            c.validate().unwrap();
            assert_eq!(c.name, name);
            assert_eq!(Cluster::load(name).unwrap(), c);
        }
    }

    #[test]
    fn paper_testbed() {
        let c = preset("p3.16xlarge-x8").unwrap();
        assert_eq!((c.hosts, c.devices_per_host, c.num_devices()), (8, 8, 64));
        assert_eq!(c.device.memory_bytes, 16 * 1024 * 1024 * 1024);
        assert_eq!(c.peak_flops("f32"), 15.7e12);
        assert_eq!(c.peak_flops("f16"), 125e12);
        assert_eq!(c.inter_host_link().bandwidth_bytes_per_s, 3.125e9);
    }

    #[test]
    fn h100_cluster() {
        let c = preset("h100-x8").unwrap();
        assert_eq!(c.num_devices(), 64);
        assert_eq!(c.peak_flops("bf16"), 989e12);
        assert_eq!(c.peak_flops("f32"), 67e12);
        assert_eq!(c.intra_host.bandwidth_bytes_per_s, 450e9);
        assert_eq!(c.inter_host_link().bandwidth_bytes_per_s, 50e9);
    }

    #[test]
    fn h100_runs_f32_contractions_as_tf32() {
        let c = preset("h100-x1").unwrap();
        assert_eq!((c.peak_flops("tf32"), c.peak_flops("f32")), (494.7e12, 67e12));
        // The V100 has no tensor-float-32: its f32 rate.
        assert_eq!(preset("p3.16xlarge-x1").unwrap().peak_flops("tf32"), 15.7e12);
    }

    #[test]
    fn h200_measured_is_the_h200_node_with_the_calibrated_chip() {
        let (spec, measured) = (preset("h200-x2").unwrap(), preset("h200-measured-x2").unwrap());
        let file = Cluster::from_json_str(H200_MEASURED, "test").unwrap();
        let calibration = file.measured.clone().unwrap();
        assert_eq!((calibration.gpu_name.as_str(), calibration.date.as_str()), ("NVIDIA H200", "2026-11-27"));
        assert_eq!((measured.hosts, measured.devices_per_host), (2, 8));
        assert_eq!((measured.intra_host, measured.inter_host), (spec.intra_host, spec.inter_host));
        assert_eq!(measured.device.memory_bytes, file.device.memory_bytes);
        for ty in ["f32", "tf32", "bf16", "f16"] {
            assert_eq!(measured.peak_flops(ty), calibration.matmul[ty].flops, "{ty}");
            assert_ne!(measured.peak_flops(ty), spec.peak_flops(ty), "{ty}");
        }
        // Types the calibration does not time keep the spec sheet's peak.
        assert_eq!(measured.peak_flops("f8E4M3FN"), spec.peak_flops("f8E4M3FN"));
        assert!(calibration.intra_host.is_empty() && calibration.inter_host.is_empty());
        // Copies beyond the L2 cache: below the datasheet's 4.8 TB/s, as sustained bandwidth is.
        let hbm = measured.hbm_bytes_per_s().unwrap();
        assert!(hbm > 3e12 && hbm < spec.hbm_bytes_per_s().unwrap(), "{hbm}");
        assert_eq!(calibration.hbm_bytes_per_s, Some(hbm));
        // Contractions run at the rate of their shape: thin ones below the plateau.
        let tf32 = &calibration.matmul_shapes["tf32"];
        assert_eq!(tf32.len(), 125);
        let attention = GemmShape { batch: 256, m: 1024, n: 1024, k: 80 };
        assert!(measured.matmul_flops("tf32", attention) < 0.7 * measured.peak_flops("tf32"));
    }

    #[test]
    fn h200_is_an_h100_with_more_memory() {
        let (h100, h200) = (preset("h100-x2").unwrap(), preset("h200-x2").unwrap());
        assert_eq!(h200.device.memory_bytes, 141 * GIB);
        assert_eq!(h200.device.peak_flops, h100.device.peak_flops);
        assert_eq!((h200.intra_host, h200.inter_host, h200.hosts), (h100.intra_host, h100.inter_host, 2));
    }

    #[test]
    fn any_host_count_and_bad_names() {
        assert_eq!(preset("h100-x3").unwrap().hosts, 3);
        for bad in ["h100", "h100-x0", "h100-x", "h100-x+2", "a100-x8", "h100-x99999", ""] {
            assert!(preset(bad).is_none(), "{bad}");
        }
    }
}
