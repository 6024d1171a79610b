//! The readable summary `alpa-calibrate` prints after measuring or merging.

use std::fmt::Write;

use crate::cluster::measured::{CollectiveFits, MEASURED_COLLECTIVES};
use crate::cluster::{Cluster, LinkSpec};

fn link(l: &LinkSpec) -> String {
    format!("{:.1} GB/s, latency {:.1} us", l.bandwidth_bytes_per_s / 1e9, l.latency_s * 1e6)
}

fn fits(out: &mut String, title: &str, fits: &CollectiveFits) {
    if fits.is_empty() {
        return;
    }
    let _ = writeln!(out, "{title} (seconds = latency + bytes / bandwidth):");
    for (kind, name) in MEASURED_COLLECTIVES {
        for f in fits.of(kind) {
            let _ = writeln!(
                out,
                "  {name:<15} {:>3} GPUs  {:>8.1} GB/s  {:>8.1} us",
                f.devices,
                f.bandwidth_bytes_per_s / 1e9,
                f.latency_s * 1e6
            );
        }
    }
}

/// Several lines: the cluster's shape, then every measured number.
pub fn summary(c: &Cluster) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "cluster `{}`: {} host(s) x {} x {} ({:.1} GiB)",
        c.name,
        c.hosts,
        c.devices_per_host,
        c.device.name,
        c.device.memory_bytes as f64 / (1u64 << 30) as f64
    );
    let _ = writeln!(out, "intra-host link: {}", link(&c.intra_host));
    if let Some(inter) = &c.inter_host {
        let _ = writeln!(out, "inter-host link: {}", link(inter));
    }
    let Some(m) = &c.measured else {
        let _ = writeln!(out, "no measured numbers (spec-sheet values only)");
        return out;
    };
    let _ = writeln!(out, "measured on {} (CUDA driver {}) {}", m.gpu_name, m.driver_version, m.date);
    for (ty, p) in &m.matmul {
        let _ = writeln!(out, "matmul {ty:<5} plateau {:>8.1} TFLOP/s from n = {}", p.flops / 1e12, p.reached_at_size);
    }
    for (ty, points) in &m.matmul_shapes {
        let (slowest, fastest) =
            points.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), p| (lo.min(p.flops), hi.max(p.flops)));
        let _ = writeln!(
            out,
            "matmul {ty:<5} {} GEMM shapes, {:.1} to {:.1} TFLOP/s",
            points.len(),
            slowest / 1e12,
            fastest / 1e12
        );
    }
    if let Some(bw) = m.hbm_bytes_per_s {
        let _ = writeln!(out, "HBM (device copy, read + write): {:.1} GB/s", bw / 1e9);
    }
    if let Some(l) = &m.host_to_device {
        let _ = writeln!(out, "host -> device: {}", link(l));
    }
    if let Some(l) = &m.device_to_host {
        let _ = writeln!(out, "device -> host: {}", link(l));
    }
    for p in &m.peer {
        let _ = writeln!(
            out,
            "peer GPU {} -> {}: {:.1} GB/s, latency {:.1} us",
            p.from,
            p.to,
            p.bandwidth_bytes_per_s / 1e9,
            p.latency_s * 1e6
        );
    }
    fits(&mut out, "NCCL within a host", &m.intra_host);
    fits(&mut out, "NCCL across hosts", &m.inter_host);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibrate::build::tests::four_gpus;

    #[test]
    fn lists_every_measurement() {
        let text = summary(&four_gpus().to_cluster("t").unwrap());
        for needle in [
            "cluster `t`: 1 host(s) x 4 x Test GPU",
            "matmul bf16  plateau    700.0 TFLOP/s from n = 4096",
            "matmul bf16  8 GEMM shapes, 0.8 to 12.3 TFLOP/s",
            "HBM (device copy, read + write): 3000.0 GB/s",
            "peer GPU 1 -> 0: 250.0 GB/s",
            "all-reduce        4 GPUs     200.0 GB/s      40.0 us",
        ] {
            assert!(text.contains(needle), "missing `{needle}` in\n{text}");
        }
        let preset = summary(&crate::cluster::preset("h100-x1").unwrap());
        assert!(preset.contains("no measured numbers"), "{preset}");
    }
}
