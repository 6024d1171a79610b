//! Turning raw timings into a cluster file: fits, plateaus, and the spec fields they imply.

use std::collections::BTreeMap;

use crate::calibrate::fit::{fit_latency_bandwidth, plateau, Sample};
use crate::cluster::collective::{volume_factor, Collective};
use crate::cluster::matmul_table::{check_table, MatmulRate};
use crate::cluster::measured::{CollectiveFit, CollectiveFits, MatmulPlateau, Measured, PeerLink};
use crate::cluster::{Cluster, DeviceSpec, LinkSpec};

/// A matmul rate within this fraction of the best counts as on the plateau.
pub const PLATEAU_TOLERANCE: f64 = 0.1;

/// The timings of one collective on one group.
#[derive(Clone, Debug, PartialEq)]
pub struct CollectiveSamples {
    pub kind: Collective,
    pub devices: usize,
    /// Whether the group spans hosts (one process per host) rather than GPUs of one host.
    pub inter_host: bool,
    /// `bytes` as in the module table of `cluster::collective`.
    pub samples: Vec<Sample>,
}

/// Everything one run measured, before fitting.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Calibration {
    pub gpu_name: String,
    pub driver_version: String,
    pub date: String,
    pub command: String,
    /// Processes (hosts) in the run and GPUs each one drives.
    pub hosts: usize,
    pub gpus_per_host: usize,
    pub memory_bytes: u64,
    /// Per element type: (matrix size n, FLOP/s) points.
    pub matmul: BTreeMap<String, Vec<(u64, f64)>>,
    /// Per element type: the rates of a grid of GEMM shapes, kept as measured. A table that is
    /// not a full grid (a shape failed) is left out of the file.
    pub matmul_shapes: BTreeMap<String, Vec<MatmulRate>>,
    /// Device-to-device copies; `bytes` counts the bytes read plus the bytes written.
    pub hbm: Vec<Sample>,
    pub host_to_device: Vec<Sample>,
    pub device_to_host: Vec<Sample>,
    pub peer: Vec<((usize, usize), Vec<Sample>)>,
    pub collectives: Vec<CollectiveSamples>,
}

/// The element types of the matmul table that are not MLIR element types of the cost model.
const NOT_ELEMENT_TYPES: [&str; 1] = ["tf32"];

/// The alpha-beta link a collective fit implies: its latency, and the bandwidth that gives its
/// time with the module table's volume.
pub fn link_of_fit(kind: Collective, fit: &CollectiveFit) -> LinkSpec {
    LinkSpec {
        bandwidth_bytes_per_s: fit.bandwidth_bytes_per_s * volume_factor(kind, fit.devices),
        latency_s: fit.latency_s,
    }
}

/// The link of the largest measured all-reduce group, else of the largest of any collective.
fn link_of_fits(fits: &CollectiveFits) -> Option<LinkSpec> {
    [Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter, Collective::PointToPoint]
        .into_iter()
        .find_map(|kind| {
            let largest = fits.of(kind).iter().max_by_key(|f| f.devices)?;
            Some(link_of_fit(kind, largest))
        })
}

/// The slower of two links: larger latency, smaller bandwidth.
pub fn slower(a: LinkSpec, b: LinkSpec) -> LinkSpec {
    LinkSpec {
        bandwidth_bytes_per_s: a.bandwidth_bytes_per_s.min(b.bandwidth_bytes_per_s),
        latency_s: a.latency_s.max(b.latency_s),
    }
}

impl Calibration {
    /// Fits everything and writes the cluster description; what could not be fitted is left
    /// out. Errors when the result would not be a usable cluster (no matmul, no link at all).
    pub fn to_cluster(&self, name: &str) -> Result<Cluster, String> {
        let mut measured = Measured {
            gpu_name: self.gpu_name.clone(),
            driver_version: self.driver_version.clone(),
            date: self.date.clone(),
            command: self.command.clone(),
            ..Default::default()
        };
        for (ty, points) in &self.matmul {
            if let Some(p) = plateau(points, PLATEAU_TOLERANCE) {
                measured.matmul.insert(ty.clone(), MatmulPlateau { flops: p.rate, reached_at_size: p.reached_at });
            }
        }
        for (ty, points) in &self.matmul_shapes {
            let mut problems = Vec::new();
            check_table("", points, &mut problems);
            if problems.is_empty() && !points.is_empty() {
                measured.matmul_shapes.insert(ty.clone(), points.clone());
            }
        }
        let hbm = fit_latency_bandwidth(&self.hbm);
        measured.hbm_bytes_per_s = hbm.map(|l| l.bandwidth_bytes_per_s);
        measured.host_to_device = fit_latency_bandwidth(&self.host_to_device);
        measured.device_to_host = fit_latency_bandwidth(&self.device_to_host);
        for ((from, to), samples) in &self.peer {
            if let Some(link) = fit_latency_bandwidth(samples) {
                measured.peer.push(PeerLink {
                    from: *from,
                    to: *to,
                    latency_s: link.latency_s,
                    bandwidth_bytes_per_s: link.bandwidth_bytes_per_s,
                });
            }
        }
        for c in &self.collectives {
            let Some(link) = fit_latency_bandwidth(&c.samples) else {
                continue;
            };
            let fits = if c.inter_host { &mut measured.inter_host } else { &mut measured.intra_host };
            let fits = fits.of_mut(c.kind);
            fits.retain(|f| f.devices != c.devices);
            fits.push(CollectiveFit {
                devices: c.devices,
                latency_s: link.latency_s,
                bandwidth_bytes_per_s: link.bandwidth_bytes_per_s,
            });
            fits.sort_by_key(|f| f.devices);
        }

        let peak_flops: BTreeMap<String, f64> = measured
            .matmul
            .iter()
            .filter(|(ty, _)| !NOT_ELEMENT_TYPES.contains(&ty.as_str()))
            .map(|(ty, p)| (ty.clone(), p.flops))
            .collect();
        if peak_flops.is_empty() {
            return Err("no matmul throughput was measured (is cuBLAS installed?)".to_string());
        }
        // With one GPU there is no link between GPUs; the device's own copy link stands in and is
        // never used, since a group of one device costs nothing.
        let peer_link = measured
            .peer
            .iter()
            .map(|p| LinkSpec { bandwidth_bytes_per_s: p.bandwidth_bytes_per_s, latency_s: p.latency_s })
            .reduce(slower);
        let intra_host = link_of_fits(&measured.intra_host)
            .or(peer_link)
            .or(hbm)
            .ok_or("no link between or within GPUs was measured")?;
        let inter_host = link_of_fits(&measured.inter_host);
        let cluster = Cluster {
            name: name.to_string(),
            hosts: self.hosts.max(1),
            devices_per_host: self.gpus_per_host.max(1),
            device: DeviceSpec {
                name: self.gpu_name.clone(),
                memory_bytes: self.memory_bytes,
                peak_flops_fallback: peak_flops.get("f32").copied(),
                hbm_bytes_per_s: None,
                peak_flops,
            },
            intra_host,
            inter_host,
            measured: Some(measured),
        };
        cluster.validate().map_err(|e| e.to_string())?;
        Ok(cluster)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::calibrate::sizes::message_sizes;
    use crate::cluster::mesh::{DeviceMesh, PhysicalSubmesh};
    use crate::cluster::MeshAxes;

    /// Exact timings of `latency + bytes / bandwidth` at the sizes the binary measures.
    pub(crate) fn timings(devices: usize, latency: f64, bandwidth: f64) -> Vec<Sample> {
        message_sizes(devices, 1 << 28)
            .into_iter()
            .map(|b| Sample { bytes: b as f64, seconds: latency + b as f64 / bandwidth })
            .collect()
    }

    /// A synthetic 4-GPU host: bf16 plateau of 700 TFLOP/s from n = 4096 on.
    pub(crate) fn four_gpus() -> Calibration {
        let mut c = Calibration {
            gpu_name: "Test GPU".into(),
            driver_version: "12.4".into(),
            date: "2026-01-01".into(),
            command: "alpa-calibrate".into(),
            hosts: 1,
            gpus_per_host: 4,
            memory_bytes: 80 << 30,
            hbm: timings(1, 2e-6, 3e12),
            host_to_device: timings(1, 10e-6, 50e9),
            device_to_host: timings(1, 10e-6, 40e9),
            peer: vec![((0, 1), timings(1, 5e-6, 300e9)), ((1, 0), timings(1, 5e-6, 250e9))],
            ..Default::default()
        };
        c.matmul.insert("bf16".into(), vec![(1024, 200e12), (2048, 500e12), (4096, 690e12), (8192, 700e12)]);
        c.matmul.insert("f32".into(), vec![(1024, 40e12), (2048, 50e12)]);
        c.matmul.insert("tf32".into(), vec![(1024, 300e12), (2048, 400e12)]);
        c.matmul_shapes.insert("bf16".into(), shape_grid(|m, n, k| 1e9 * (m + n + k) as f64));
        for (kind, bw) in [(Collective::AllReduce, 200e9), (Collective::AllGather, 300e9)] {
            for devices in [2, 4] {
                c.collectives.push(CollectiveSamples {
                    kind,
                    devices,
                    inter_host: false,
                    samples: timings(devices, 10e-6 * devices as f64, bw),
                });
            }
        }
        c
    }

    /// Rates over the grid 256, 4096 in each dimension.
    pub(crate) fn shape_grid(rate: impl Fn(u64, u64, u64) -> f64) -> Vec<MatmulRate> {
        let dims = [256, 4096];
        dims.iter()
            .flat_map(|&m| dims.iter().flat_map(move |&n| dims.map(|k| (m, n, k))))
            .map(|(m, n, k)| MatmulRate { m, n, k, flops: rate(m, n, k) })
            .collect()
    }

    fn rel(a: f64, b: f64) -> f64 {
        (a - b).abs() / b.abs()
    }

    #[test]
    fn fits_land_in_the_cluster_file() {
        let cluster = four_gpus().to_cluster("test-x1").unwrap();
        let m = cluster.measured.as_ref().unwrap();
        assert_eq!(m.matmul["bf16"], MatmulPlateau { flops: 700e12, reached_at_size: 4096 });
        assert_eq!(cluster.peak_flops("bf16"), 700e12);
        assert_eq!(m.matmul_shapes["bf16"].len(), 8);
        let thin = crate::cluster::GemmShape { batch: 1, m: 4096, n: 4096, k: 256 };
        assert!(rel(cluster.matmul_flops("bf16", thin), 1e9 * (4096 + 4096 + 256) as f64) < 1e-12);
        assert_eq!(cluster.peak_flops("f32"), 50e12);
        assert!(!cluster.device.peak_flops.contains_key("tf32"));
        assert!(rel(m.hbm_bytes_per_s.unwrap(), 3e12) < 1e-9);
        assert_eq!(m.peer.len(), 2);
        let ar = &m.intra_host.all_reduce;
        assert_eq!(ar.iter().map(|f| f.devices).collect::<Vec<_>>(), vec![2, 4]);
        assert!(rel(ar[1].latency_s, 40e-6) < 1e-9 && rel(ar[1].bandwidth_bytes_per_s, 200e9) < 1e-9);
        // The spec link is the largest all-reduce read as a link: 200e9 * 2 * 3/4.
        assert!(rel(cluster.intra_host.bandwidth_bytes_per_s, 300e9) < 1e-9);
        assert_eq!(cluster.inter_host, None);
        // `cluster=` reads the file back (floats to the last digit or so).
        let again = Cluster::from_json_str(&cluster.to_json_pretty(), "again").unwrap();
        assert_eq!(again.measured.as_ref().unwrap().matmul, m.matmul);
        assert!(rel(again.intra_host.bandwidth_bytes_per_s, 300e9) < 1e-9);
    }

    #[test]
    fn a_mesh_of_the_file_prices_the_measured_collective_as_timed() {
        let cluster = four_gpus().to_cluster("t").unwrap();
        let mesh = DeviceMesh::from_submesh(&cluster, &PhysicalSubmesh::new(1, 4), [1, 4]).unwrap();
        for bytes in [4096.0, 1e6, 2.5e8] {
            let modeled = mesh.all_reduce_cost(MeshAxes::Axis1, bytes);
            assert!(rel(modeled, 40e-6 + bytes / 200e9) < 1e-9, "{bytes}: {modeled}");
        }
        let two = DeviceMesh::from_submesh(&cluster, &PhysicalSubmesh::new(1, 4), [2, 2]).unwrap();
        assert!(rel(two.all_gather_cost(MeshAxes::Axis0, 1e6), 20e-6 + 1e6 / 300e9) < 1e-9);
    }

    #[test]
    fn single_gpu_uses_its_copy_link_and_no_matmul_is_an_error() {
        let mut one = four_gpus();
        one.gpus_per_host = 1;
        one.peer.clear();
        one.collectives.clear();
        let cluster = one.to_cluster("one").unwrap();
        assert!(rel(cluster.intra_host.bandwidth_bytes_per_s, 3e12) < 1e-9);
        one.matmul_shapes.get_mut("bf16").unwrap().pop();
        let cluster = one.to_cluster("one").unwrap();
        assert!(cluster.measured.unwrap().matmul_shapes.is_empty(), "a grid with a hole is left out");
        one.matmul.clear();
        assert!(one.to_cluster("one").unwrap_err().contains("cuBLAS"));
    }
}
