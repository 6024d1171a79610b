//! Logical 2-D device meshes with an alpha-beta link per axis (paper §4.1).
//!
//! A mesh is `shape[0] x shape[1]` devices, listed row-major in `device_ids`. Devices along axis 1
//! (the same row) differ only in their column; devices along axis 0 share a column. A 1-D mesh of
//! n devices is `n x 1`. `alpha[a]` is the latency (s) and `beta[a]` the inverse bandwidth (s/byte)
//! of a collective along axis `a`.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §1.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::cluster::error::ClusterError;
use crate::cluster::measured::CollectiveFits;
use crate::cluster::spec::{Cluster, LinkSpec};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeviceMesh {
    pub shape: [usize; 2],
    pub device_ids: Vec<u32>,
    pub alpha: [f64; 2],
    pub beta: [f64; 2],
    /// Measured collective fits of each axis's link, from a cluster file that has them.
    #[serde(skip)]
    pub measured: [Option<Arc<CollectiveFits>>; 2],
}

/// A block of a cluster: `hosts` consecutive hosts from `first_host`, and on each of them
/// `devices_per_host` consecutive devices from `first_device`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PhysicalSubmesh {
    pub first_host: usize,
    pub hosts: usize,
    pub first_device: usize,
    pub devices_per_host: usize,
}

impl PhysicalSubmesh {
    /// A `hosts x devices_per_host` block starting at host 0, device 0.
    pub fn new(hosts: usize, devices_per_host: usize) -> Self {
        PhysicalSubmesh { first_host: 0, hosts, first_device: 0, devices_per_host }
    }

    pub fn num_devices(&self) -> usize {
        self.hosts * self.devices_per_host
    }
}

/// Parses a mesh shape such as `2x4`, `2 X 4` or `8` (= `8x1`).
pub fn parse_mesh_shape(text: &str) -> Result<[usize; 2], ClusterError> {
    let bad = |why: &str| ClusterError::Mesh(format!("cannot parse mesh shape `{text}`: {why}"));
    let parts: Vec<&str> = text.split(['x', 'X']).map(str::trim).collect();
    if parts.len() > 2 {
        return Err(bad("at most two axes (like `2x4`)"));
    }
    let mut shape = [1usize; 2];
    for (slot, part) in shape.iter_mut().zip(&parts) {
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad("axis sizes must be positive integers"));
        }
        *slot = part.parse().map_err(|_| bad("axis size too large"))?;
        if *slot == 0 {
            return Err(bad("axis sizes must be at least 1"));
        }
    }
    shape[0].checked_mul(shape[1]).ok_or_else(|| bad("too many devices"))?;
    Ok(shape)
}

impl DeviceMesh {
    pub fn new(shape: [usize; 2], device_ids: Vec<u32>, alpha: [f64; 2], beta: [f64; 2]) -> Result<Self, ClusterError> {
        let mesh = DeviceMesh { shape, device_ids, alpha, beta, measured: [None, None] };
        mesh.validate()?;
        Ok(mesh)
    }

    /// A mesh in abstract units with devices `0..n` (for tests and for comparing plans).
    pub fn abstract_units(shape: [usize; 2], alpha: [f64; 2], beta: [f64; 2]) -> Result<Self, ClusterError> {
        let n = shape[0].checked_mul(shape[1]).ok_or_else(|| ClusterError::Mesh("too many devices".into()))?;
        DeviceMesh::new(shape, (0..n as u32).collect(), alpha, beta)
    }

    /// The abstract mesh of Alpa's own tests: alpha = (1, 1), beta = (1, 0.1).
    pub fn alpa_test(shape: [usize; 2]) -> Result<Self, ClusterError> {
        DeviceMesh::abstract_units(shape, [1.0, 1.0], [1.0, 0.1])
    }

    /// Views a physical block of `cluster` as a logical `logical_shape` mesh (a row-major
    /// reshape of the block's devices, hosts major). A logical axis gets the inter-host link
    /// when any of its device groups spans two hosts, else the intra-host link.
    pub fn from_submesh(
        cluster: &Cluster,
        submesh: &PhysicalSubmesh,
        logical_shape: [usize; 2],
    ) -> Result<Self, ClusterError> {
        let s = submesh;
        if s.hosts == 0 || s.devices_per_host == 0 {
            return Err(ClusterError::Mesh(format!("empty submesh {}x{}", s.hosts, s.devices_per_host)));
        }
        if s.first_host + s.hosts > cluster.hosts || s.first_device + s.devices_per_host > cluster.devices_per_host {
            return Err(ClusterError::Mesh(format!(
                "submesh of hosts {}..{} x devices {}..{} does not fit cluster `{}` of {} hosts x {} devices",
                s.first_host,
                s.first_host + s.hosts,
                s.first_device,
                s.first_device + s.devices_per_host,
                cluster.name,
                cluster.hosts,
                cluster.devices_per_host
            )));
        }
        if logical_shape[0].checked_mul(logical_shape[1]) != Some(s.num_devices()) {
            return Err(ClusterError::Mesh(format!(
                "logical mesh {}x{} does not have the {} devices of a {}x{} submesh",
                logical_shape[0],
                logical_shape[1],
                s.num_devices(),
                s.hosts,
                s.devices_per_host
            )));
        }
        let device_ids: Vec<u32> = (0..s.hosts)
            .flat_map(|h| (0..s.devices_per_host).map(move |d| (h, d)))
            .map(|(h, d)| cluster.device_id(s.first_host + h, s.first_device + d))
            .collect();
        let mut mesh =
            DeviceMesh { shape: logical_shape, device_ids, alpha: [0.0; 2], beta: [0.0; 2], measured: [None, None] };
        for axis in 0..2 {
            let crosses_hosts = mesh
                .axis_groups(axis)
                .iter()
                .any(|group| group.iter().any(|&d| cluster.host_of(d) != cluster.host_of(group[0])));
            let link: LinkSpec = if crosses_hosts { cluster.inter_host_link() } else { cluster.intra_host };
            mesh.alpha[axis] = link.alpha();
            mesh.beta[axis] = link.beta();
            mesh.measured[axis] = cluster
                .measured
                .as_ref()
                .map(|m| if crosses_hosts { &m.inter_host } else { &m.intra_host })
                .filter(|fits| !fits.is_empty())
                .map(|fits| Arc::new(fits.clone()));
        }
        mesh.validate()?;
        Ok(mesh)
    }

    /// The whole cluster as a `hosts x devices_per_host` mesh.
    pub fn from_cluster(cluster: &Cluster) -> Result<Self, ClusterError> {
        let all = PhysicalSubmesh::new(cluster.hosts, cluster.devices_per_host);
        DeviceMesh::from_submesh(cluster, &all, [cluster.hosts, cluster.devices_per_host])
    }

    pub fn validate(&self) -> Result<(), ClusterError> {
        let [n0, n1] = self.shape;
        if n0 == 0 || n1 == 0 {
            return Err(ClusterError::Mesh(format!("mesh axes must be at least 1, got {n0}x{n1}")));
        }
        if n0.checked_mul(n1) != Some(self.device_ids.len()) {
            return Err(ClusterError::Mesh(format!(
                "a {n0}x{n1} mesh needs {} device ids, got {}",
                n0.saturating_mul(n1),
                self.device_ids.len()
            )));
        }
        let mut sorted = self.device_ids.clone();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return Err(ClusterError::Mesh("device ids must be distinct".into()));
        }
        for axis in 0..2 {
            let (a, b) = (self.alpha[axis], self.beta[axis]);
            if !(a.is_finite() && a >= 0.0 && b.is_finite() && b >= 0.0) {
                return Err(ClusterError::Mesh(format!(
                    "alpha and beta must be non-negative numbers, axis {axis} has alpha {a}, beta {b}"
                )));
            }
        }
        Ok(())
    }

    pub fn num_devices(&self) -> usize {
        self.device_ids.len()
    }

    /// The device at logical position (`row`, `col`).
    pub fn device_at(&self, row: usize, col: usize) -> Option<u32> {
        if row < self.shape[0] && col < self.shape[1] {
            self.device_ids.get(row * self.shape[1] + col).copied()
        } else {
            None
        }
    }

    /// The groups of devices that communicate in a collective along `axis` (0 or 1): for axis 1
    /// the rows, for axis 0 the columns. Any other axis number gives no groups.
    pub fn axis_groups(&self, axis: usize) -> Vec<Vec<u32>> {
        let [n0, n1] = self.shape;
        let at = |r: usize, c: usize| self.device_ids[r * n1 + c];
        match axis {
            0 => (0..n1).map(|c| (0..n0).map(|r| at(r, c)).collect()).collect(),
            1 => (0..n0).map(|r| (0..n1).map(|c| at(r, c)).collect()).collect(),
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::presets::preset;

    #[test]
    fn parses_shapes() {
        assert_eq!(parse_mesh_shape("2x4").unwrap(), [2, 4]);
        assert_eq!(parse_mesh_shape(" 2 X 4 ").unwrap(), [2, 4]);
        assert_eq!(parse_mesh_shape("8").unwrap(), [8, 1]);
        for bad in ["", "x", "2x", "0x4", "2x4x2", "-2x4", "2.5x2", "axb", "99999999999999999999x2"] {
            assert!(parse_mesh_shape(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn alpa_test_mesh() {
        let m = DeviceMesh::alpa_test([2, 4]).unwrap();
        assert_eq!(m.device_ids, (0..8).collect::<Vec<_>>());
        assert_eq!((m.alpha, m.beta), ([1.0, 1.0], [1.0, 0.1]));
        assert_eq!(m.axis_groups(1), vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]]);
        assert_eq!(m.axis_groups(0)[1], vec![1, 5]);
        assert_eq!(m.device_at(1, 2), Some(6));
        assert_eq!(m.device_at(2, 0), None);
    }

    #[test]
    fn rejects_bad_meshes() {
        assert!(DeviceMesh::new([2, 2], vec![0, 1, 2], [1.0; 2], [1.0; 2]).is_err());
        assert!(DeviceMesh::new([2, 2], vec![0, 1, 2, 2], [1.0; 2], [1.0; 2]).is_err());
        assert!(DeviceMesh::new([0, 2], vec![], [1.0; 2], [1.0; 2]).is_err());
        assert!(DeviceMesh::new([1, 1], vec![0], [-1.0, 1.0], [1.0; 2]).is_err());
        assert!(DeviceMesh::new([1, 1], vec![0], [1.0, 1.0], [f64::NAN, 1.0]).is_err());
    }

    #[test]
    fn whole_cluster_axis_links() {
        let c = preset("p3.16xlarge-x8").unwrap();
        let m = DeviceMesh::from_cluster(&c).unwrap();
        assert_eq!(m.shape, [8, 8]);
        assert_eq!(m.alpha, [30e-6, 5e-6]);
        assert_eq!(m.beta, [1.0 / 3.125e9, 1.0 / 150e9]);
    }

    #[test]
    fn reshaped_submesh_picks_the_slower_link_per_axis() {
        let c = preset("h100-x8").unwrap();
        let (inter, intra) = (1.0 / 50e9, 1.0 / 450e9);
        // 2 hosts x 8 devices seen as 4x4: rows of 4 stay in a host, columns cross hosts.
        let sub = PhysicalSubmesh { first_host: 2, hosts: 2, first_device: 0, devices_per_host: 8 };
        let m = DeviceMesh::from_submesh(&c, &sub, [4, 4]).unwrap();
        assert_eq!(m.device_ids[0], 16);
        assert_eq!(m.axis_groups(0)[0], vec![16, 20, 24, 28]);
        assert_eq!(m.beta, [inter, intra]);
        // The same block as 1x16: the single long axis crosses hosts.
        let m = DeviceMesh::from_submesh(&c, &sub, [1, 16]).unwrap();
        assert_eq!(m.beta, [intra, inter]);
        // As 16x1 it is axis 0 that crosses.
        let m = DeviceMesh::from_submesh(&c, &sub, [16, 1]).unwrap();
        assert_eq!(m.beta, [inter, intra]);
        // 2x8 as is: hosts along axis 0.
        let m = DeviceMesh::from_submesh(&c, &sub, [2, 8]).unwrap();
        assert_eq!(m.beta, [inter, intra]);
        // 8x2: rows of 2 stay inside a host; columns cross.
        let m = DeviceMesh::from_submesh(&c, &sub, [8, 2]).unwrap();
        assert_eq!(m.beta, [inter, intra]);
    }

    #[test]
    fn misaligned_reshape_counts_as_crossing() {
        let mut c = preset("h100-x2").unwrap();
        c.devices_per_host = 3;
        // Devices 0,1,2 | 3,4,5 as 3x2: the row {2, 3} spans both hosts.
        let m = DeviceMesh::from_submesh(&c, &PhysicalSubmesh::new(2, 3), [3, 2]).unwrap();
        assert_eq!(m.beta[1], 1.0 / 50e9);
        assert_eq!(m.beta[0], 1.0 / 50e9);
    }

    #[test]
    fn single_host_submesh_is_intra_host() {
        let c = preset("p3.16xlarge-x8").unwrap();
        let sub = PhysicalSubmesh { first_host: 5, hosts: 1, first_device: 4, devices_per_host: 4 };
        let m = DeviceMesh::from_submesh(&c, &sub, [2, 2]).unwrap();
        assert_eq!(m.device_ids, vec![44, 45, 46, 47]);
        assert_eq!(m.beta, [1.0 / 150e9; 2]);
    }

    #[test]
    fn submesh_errors() {
        let c = preset("h100-x2").unwrap();
        let too_big = PhysicalSubmesh { first_host: 1, hosts: 2, first_device: 0, devices_per_host: 8 };
        assert!(DeviceMesh::from_submesh(&c, &too_big, [2, 8]).is_err());
        let sub = PhysicalSubmesh::new(1, 8);
        assert!(DeviceMesh::from_submesh(&c, &sub, [3, 3]).is_err());
        assert!(DeviceMesh::from_submesh(&c, &PhysicalSubmesh::new(0, 8), [0, 8]).is_err());
    }
}
