//! Merging the files of several hosts into one cluster: the hosts' own files (hosts = 1, GPUs of
//! one host) and the file of a cross-host run (`measured.inter_host`). A synchronous step runs at
//! the pace of its slowest participant, so every merged number is the slowest of its inputs.

use std::collections::BTreeMap;

use crate::calibrate::build::slower;
use crate::cluster::measured::{CollectiveFit, CollectiveFits, Measured, XlaOverheads, MEASURED_COLLECTIVES};
use crate::cluster::{Cluster, MatmulRate};

fn slower_fit(a: CollectiveFit, b: CollectiveFit) -> CollectiveFit {
    CollectiveFit {
        devices: a.devices,
        latency_s: a.latency_s.max(b.latency_s),
        bandwidth_bytes_per_s: a.bandwidth_bytes_per_s.min(b.bandwidth_bytes_per_s),
    }
}

/// Per collective and group size, the slowest fit of all inputs.
fn merge_fits<'a>(all: impl Iterator<Item = &'a CollectiveFits>) -> CollectiveFits {
    let mut merged = CollectiveFits::default();
    for fits in all {
        for (kind, _) in MEASURED_COLLECTIVES {
            let into = merged.of_mut(kind);
            for fit in fits.of(kind) {
                match into.iter_mut().find(|f| f.devices == fit.devices) {
                    Some(have) => *have = slower_fit(*have, *fit),
                    None => into.push(*fit),
                }
            }
            into.sort_by_key(|f| f.devices);
        }
    }
    merged
}

fn min_per_key<V: Copy>(maps: &[&BTreeMap<String, V>], less: impl Fn(&V, &V) -> bool) -> BTreeMap<String, V> {
    let mut merged: BTreeMap<String, V> = BTreeMap::new();
    for map in maps {
        for (key, value) in map.iter() {
            match merged.get(key) {
                Some(have) if !less(value, have) => {}
                _ => {
                    merged.insert(key.clone(), *value);
                }
            }
        }
    }
    merged
}

/// Merges per-host files and cross-host files (those with `measured.inter_host`) into a cluster of
/// as many hosts as the per-host files describe. `name` names the result.
pub fn merge(files: &[Cluster], name: &str) -> Result<Cluster, String> {
    let is_cross_host = |c: &Cluster| c.measured.as_ref().is_some_and(|m| !m.inter_host.is_empty());
    let (cross, hosts): (Vec<&Cluster>, Vec<&Cluster>) = files.iter().partition(|c| is_cross_host(c));
    let first = *hosts.first().ok_or("no per-host file to merge (only cross-host runs)")?;
    for c in &hosts {
        if c.devices_per_host != first.devices_per_host || c.device.name != first.device.name {
            return Err(format!(
                "`{}` has {} x {} but `{}` has {} x {}: a cluster is one kind of GPU, the same number per host",
                c.name, c.devices_per_host, c.device.name, first.name, first.devices_per_host, first.device.name
            ));
        }
    }
    let total_hosts: usize = hosts.iter().map(|c| c.hosts).sum();
    let mut merged = first.clone();
    merged.name = name.to_string();
    merged.hosts = total_hosts;
    merged.device.memory_bytes = hosts.iter().map(|c| c.device.memory_bytes).min().unwrap_or(0);
    let peaks: Vec<&BTreeMap<String, f64>> = hosts.iter().map(|c| &c.device.peak_flops).collect();
    merged.device.peak_flops = min_per_key(&peaks, |a, b| a < b);
    merged.device.peak_flops_fallback = hosts.iter().filter_map(|c| c.device.peak_flops_fallback).reduce(f64::min);
    merged.intra_host = hosts.iter().map(|c| c.intra_host).reduce(slower).unwrap_or(first.intra_host);
    merged.inter_host = cross.iter().chain(hosts.iter()).filter_map(|c| c.inter_host).reduce(slower);
    if total_hosts > 1 && cross.is_empty() {
        return Err(format!(
            "{total_hosts} hosts but no cross-host file: run `alpa-calibrate --inter-host ...` on every host at once and pass its file too"
        ));
    }

    let measured: Vec<&Measured> = hosts.iter().filter_map(|c| c.measured.as_ref()).collect();
    if let Some(base) = measured.first() {
        let matmuls: Vec<_> = measured.iter().map(|m| &m.matmul).collect();
        let link_of = |pick: fn(&Measured) -> Option<crate::cluster::LinkSpec>| {
            measured.iter().filter_map(|m| pick(m)).reduce(slower)
        };
        let mut peer: Vec<_> = Vec::new();
        for m in &measured {
            for p in &m.peer {
                match peer.iter_mut().find(|q: &&mut crate::cluster::PeerLink| (q.from, q.to) == (p.from, p.to)) {
                    Some(q) => {
                        q.latency_s = q.latency_s.max(p.latency_s);
                        q.bandwidth_bytes_per_s = q.bandwidth_bytes_per_s.min(p.bandwidth_bytes_per_s);
                    }
                    None => peer.push(*p),
                }
            }
        }
        merged.measured = Some(Measured {
            gpu_name: base.gpu_name.clone(),
            driver_version: base.driver_version.clone(),
            date: measured.iter().map(|m| m.date.clone()).max().unwrap_or_default(),
            command: String::new(),
            matmul: min_per_key(&matmuls, |a, b| a.flops < b.flops),
            matmul_shapes: slowest_shape_tables(&measured),
            hbm_bytes_per_s: measured.iter().filter_map(|m| m.hbm_bytes_per_s).reduce(f64::min),
            host_to_device: link_of(|m| m.host_to_device),
            device_to_host: link_of(|m| m.device_to_host),
            peer,
            intra_host: merge_fits(measured.iter().map(|m| &m.intra_host)),
            inter_host: merge_fits(cross.iter().filter_map(|c| c.measured.as_ref()).map(|m| &m.inter_host)),
            xla: slowest_xla_overheads(&measured),
        });
    }
    merged.validate().map_err(|e| e.to_string())?;
    Ok(merged)
}

/// The largest of each XLA overhead over the hosts that measured them.
fn slowest_xla_overheads(measured: &[&Measured]) -> Option<XlaOverheads> {
    measured.iter().filter_map(|m| m.xla.clone()).reduce(|a, b| XlaOverheads {
        program_dispatch_s: a.program_dispatch_s.max(b.program_dispatch_s),
        kernel_launch_s: a.kernel_launch_s.max(b.kernel_launch_s),
        runtime: if a.runtime == b.runtime { a.runtime } else { format!("{}; {}", a.runtime, b.runtime) },
    })
}

/// Per element type, the slowest rate of each GEMM shape, where every host measured the same
/// grid for the type (the binary's grid depends only on the GPU's memory); otherwise the type
/// has no table and its matmuls fall back to the plateau.
fn slowest_shape_tables(measured: &[&Measured]) -> BTreeMap<String, Vec<MatmulRate>> {
    let mut out = BTreeMap::new();
    let Some(first) = measured.first() else { return out };
    for (ty, points) in &first.matmul_shapes {
        let same_grid = |m: &&Measured| {
            m.matmul_shapes.get(ty).is_some_and(|other| {
                other.len() == points.len() && other.iter().zip(points).all(|(a, b)| (a.m, a.n, a.k) == (b.m, b.n, b.k))
            })
        };
        if !measured.iter().all(same_grid) {
            continue;
        }
        let slowest = points
            .iter()
            .enumerate()
            .map(|(i, p)| MatmulRate {
                flops: measured.iter().map(|m| m.matmul_shapes[ty][i].flops).fold(p.flops, f64::min),
                ..*p
            })
            .collect();
        out.insert(ty.clone(), slowest);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibrate::build::tests::{four_gpus, timings};
    use crate::calibrate::build::CollectiveSamples;
    use crate::cluster::Collective;

    fn cross_host_run() -> Cluster {
        let mut c = four_gpus();
        c.hosts = 2;
        c.gpus_per_host = 1;
        c.peer.clear();
        c.collectives = vec![CollectiveSamples {
            kind: Collective::AllReduce,
            devices: 2,
            inter_host: true,
            samples: timings(2, 30e-6, 20e9),
        }];
        c.to_cluster("cross").unwrap()
    }

    #[test]
    fn two_hosts_and_a_cross_host_run() {
        let a = four_gpus().to_cluster("a").unwrap();
        let mut slow = four_gpus();
        slow.matmul.insert("bf16".into(), vec![(4096, 600e12)]);
        slow.collectives[3].samples = timings(4, 80e-6, 100e9); // all-gather over 4
        let b = slow.to_cluster("b").unwrap();
        let merged = merge(&[a.clone(), cross_host_run(), b], "two-hosts").unwrap();
        assert_eq!((merged.name.as_str(), merged.hosts, merged.devices_per_host), ("two-hosts", 2, 4));
        assert_eq!(merged.peak_flops("bf16"), 600e12);
        let m = merged.measured.as_ref().unwrap();
        let ag4 = m.intra_host.all_gather.iter().find(|f| f.devices == 4).unwrap();
        assert!((ag4.latency_s - 80e-6).abs() < 1e-12 && (ag4.bandwidth_bytes_per_s - 100e9).abs() < 1.0);
        assert_eq!(m.inter_host.all_reduce.len(), 1);
        let inter = merged.inter_host.unwrap();
        assert!((inter.bandwidth_bytes_per_s - 20e9).abs() < 1.0, "{inter:?}");
        // Unchanged numbers pass through.
        assert_eq!(m.intra_host.all_reduce, a.measured.as_ref().unwrap().intra_host.all_reduce);
        Cluster::from_json_str(&merged.to_json_pretty(), "again").unwrap();
    }

    #[test]
    fn shape_tables_merge_to_the_slowest_rate_of_each_shape() {
        let a = four_gpus().to_cluster("a").unwrap();
        let mut slow = four_gpus();
        slow.matmul_shapes.get_mut("bf16").unwrap()[3].flops = 1e9;
        let merged = merge(&[a.clone(), cross_host_run(), slow.to_cluster("b").unwrap()], "m").unwrap();
        let shapes = &merged.measured.as_ref().unwrap().matmul_shapes["bf16"];
        assert_eq!(shapes[3].flops, 1e9, "the slower host's rate");
        assert_eq!(shapes[..3], a.measured.as_ref().unwrap().matmul_shapes["bf16"][..3]);
        // Hosts that measured other grids leave the type without a table.
        let mut other = four_gpus();
        other.matmul_shapes.get_mut("bf16").unwrap().iter_mut().for_each(|p| p.k *= 2);
        let merged = merge(&[a, cross_host_run(), other.to_cluster("c").unwrap()], "m").unwrap();
        assert!(merged.measured.as_ref().unwrap().matmul_shapes.is_empty());
    }

    #[test]
    fn xla_overheads_merge_to_the_largest_of_each() {
        let with = |program_dispatch_s: f64, kernel_launch_s: f64, runtime: &str| {
            let mut c = four_gpus().to_cluster("h").unwrap();
            c.measured.as_mut().unwrap().xla =
                Some(XlaOverheads { program_dispatch_s, kernel_launch_s, runtime: runtime.into() });
            c
        };
        let merged =
            merge(&[with(100e-6, 3e-6, "jax 1, gpu"), cross_host_run(), with(80e-6, 5e-6, "jax 1, gpu")], "m").unwrap();
        let xla = merged.measured.as_ref().unwrap().xla.clone().unwrap();
        assert_eq!((xla.program_dispatch_s, xla.kernel_launch_s, xla.runtime.as_str()), (100e-6, 5e-6, "jax 1, gpu"));
        // A host without the measurement leaves the others' numbers.
        let merged = merge(&[four_gpus().to_cluster("a").unwrap(), cross_host_run(), with(80e-6, 5e-6, "x")], "m");
        assert_eq!(merged.unwrap().kernel_launch_s(), 5e-6);
    }

    #[test]
    fn refuses_what_is_not_one_cluster() {
        let a = four_gpus().to_cluster("a").unwrap();
        let err = merge(&[a.clone(), a.clone()], "x").unwrap_err();
        assert!(err.contains("no cross-host file"), "{err}");
        let mut other = a.clone();
        other.devices_per_host = 8;
        assert!(merge(&[a.clone(), other, cross_host_run()], "x").unwrap_err().contains("one kind of GPU"));
        assert!(merge(&[cross_host_run()], "x").unwrap_err().contains("no per-host file"));
        // One host alone merges to itself, less the command that made it.
        let mut expected = a.clone();
        expected.measured.as_mut().unwrap().command.clear();
        assert_eq!(merge(&[a], "a").unwrap(), expected);
    }
}
