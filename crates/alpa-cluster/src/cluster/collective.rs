//! Alpha-beta costs of collectives on a device mesh (DESIGN.md "Cost model").
//!
//! With n devices in the group, latency alpha and inverse bandwidth beta, and B the bytes of the
//! whole buffer the collective works on (the gathered result of an all-gather, the input of a
//! reduce-scatter, the reduced buffer of an all-reduce, one device's buffer of an all-to-all, the
//! message of a send/recv):
//!
//! | collective      | seconds                          |
//! | --------------- | -------------------------------- |
//! | all-gather      | alpha + beta * (n-1)/n * B       |
//! | all-reduce      | alpha + 2 * beta * (n-1)/n * B   |
//! | reduce-scatter  | alpha + beta * (n-1)/n * B       |
//! | all-to-all      | alpha + beta * (n-1)/n^2 * B     |
//! | point-to-point  | alpha + beta * B                 |
//!
//! A group of one device costs 0. A collective over both axes runs over the flattened mesh
//! (n = n0 * n1) and is priced with the slower link among the axes that have more than one
//! device (largest alpha, largest beta): a ring over the whole mesh is as slow as its slowest hop.
//!
//! A mesh built from a cluster file with measured collectives (`measured.rs`) prices a collective
//! with the fit of its axis's link instead (for both axes, the fit of the slower axis).
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §2.

use serde::{Deserialize, Serialize};

use crate::cluster::measured::CollectiveFits;
use crate::cluster::mesh::DeviceMesh;

/// Which mesh axes a collective runs over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MeshAxes {
    Axis0,
    Axis1,
    Both,
}

impl MeshAxes {
    /// The axis indices, major first.
    pub fn indices(self) -> &'static [usize] {
        match self {
            MeshAxes::Axis0 => &[0],
            MeshAxes::Axis1 => &[1],
            MeshAxes::Both => &[0, 1],
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Collective {
    AllGather,
    AllReduce,
    ReduceScatter,
    AllToAll,
    PointToPoint,
}

impl Collective {
    /// The name XLA's HLO uses for this collective.
    pub fn name(self) -> &'static str {
        match self {
            Collective::AllGather => "all-gather",
            Collective::AllReduce => "all-reduce",
            Collective::ReduceScatter => "reduce-scatter",
            Collective::AllToAll => "all-to-all",
            Collective::PointToPoint => "collective-permute",
        }
    }
}

/// The bytes a collective moves per byte of its buffer over a group of `n` (the module table).
pub fn volume_factor(kind: Collective, n: usize) -> f64 {
    let n = n as f64;
    match kind {
        Collective::AllGather | Collective::ReduceScatter => (n - 1.0) / n,
        Collective::AllReduce => 2.0 * (n - 1.0) / n,
        Collective::AllToAll => (n - 1.0) / (n * n),
        Collective::PointToPoint => 1.0,
    }
}

impl DeviceMesh {
    /// Number of devices in one group of a collective over `axes`.
    pub fn group_size(&self, axes: MeshAxes) -> usize {
        axes.indices().iter().map(|&a| self.shape[a]).product()
    }

    /// Effective (alpha, beta) of a collective over `axes`; the slower link when both.
    pub fn link_of(&self, axes: MeshAxes) -> (f64, f64) {
        let busy: Vec<usize> = axes.indices().iter().copied().filter(|&a| self.shape[a] > 1).collect();
        let axes_for_link = if busy.is_empty() { axes.indices().to_vec() } else { busy };
        let alpha = axes_for_link.iter().map(|&a| self.alpha[a]).fold(0.0, f64::max);
        let beta = axes_for_link.iter().map(|&a| self.beta[a]).fold(0.0, f64::max);
        (alpha, beta)
    }

    /// The measured fits of the link a collective over `axes` runs on: of the busy axis with the
    /// largest beta (the slower link) when both are busy; `None` when that axis has none.
    pub fn measured_fits_of(&self, axes: MeshAxes) -> Option<&CollectiveFits> {
        let slowest = axes.indices().iter().copied().filter(|&a| self.shape[a] > 1).reduce(|a, b| {
            if self.beta[b] > self.beta[a] {
                b
            } else {
                a
            }
        })?;
        self.measured[slowest].as_deref()
    }

    /// Seconds for `kind` over `axes` on a buffer of `bytes` (see the module table for what
    /// `bytes` means per collective).
    pub fn collective_cost(&self, kind: Collective, axes: MeshAxes, bytes: f64) -> f64 {
        let n = self.group_size(axes);
        if n <= 1 {
            return 0.0;
        }
        if let Some(seconds) = self.measured_fits_of(axes).and_then(|fits| fits.seconds(kind, n, bytes)) {
            return seconds;
        }
        let (alpha, beta) = self.link_of(axes);
        alpha + beta * volume_factor(kind, n) * bytes
    }

    pub fn all_gather_cost(&self, axes: MeshAxes, bytes: f64) -> f64 {
        self.collective_cost(Collective::AllGather, axes, bytes)
    }

    pub fn all_reduce_cost(&self, axes: MeshAxes, bytes: f64) -> f64 {
        self.collective_cost(Collective::AllReduce, axes, bytes)
    }

    pub fn reduce_scatter_cost(&self, axes: MeshAxes, bytes: f64) -> f64 {
        self.collective_cost(Collective::ReduceScatter, axes, bytes)
    }

    pub fn all_to_all_cost(&self, axes: MeshAxes, bytes: f64) -> f64 {
        self.collective_cost(Collective::AllToAll, axes, bytes)
    }

    pub fn point_to_point_cost(&self, axes: MeshAxes, bytes: f64) -> f64 {
        self.collective_cost(Collective::PointToPoint, axes, bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
    }

    fn mesh() -> DeviceMesh {
        // Alpa's test units on a 2x4 mesh: axis 0 has n=2, axis 1 has n=4.
        DeviceMesh::alpa_test([2, 4]).unwrap()
    }

    #[test]
    fn formulas_by_hand() {
        let m = mesh();
        let b = 800.0;
        // Axis 0: alpha 1, beta 1, n 2.
        assert!(close(m.all_gather_cost(MeshAxes::Axis0, b), 1.0 + 0.5 * 800.0));
        assert!(close(m.all_reduce_cost(MeshAxes::Axis0, b), 1.0 + 2.0 * 0.5 * 800.0));
        assert!(close(m.reduce_scatter_cost(MeshAxes::Axis0, b), 401.0));
        assert!(close(m.all_to_all_cost(MeshAxes::Axis0, b), 1.0 + 800.0 / 4.0));
        assert!(close(m.point_to_point_cost(MeshAxes::Axis0, b), 801.0));
        // Axis 1: alpha 1, beta 0.1, n 4.
        assert!(close(m.all_gather_cost(MeshAxes::Axis1, b), 1.0 + 0.1 * 0.75 * 800.0));
        assert!(close(m.all_reduce_cost(MeshAxes::Axis1, b), 1.0 + 0.1 * 1.5 * 800.0));
        assert!(close(m.reduce_scatter_cost(MeshAxes::Axis1, b), 61.0));
        assert!(close(m.all_to_all_cost(MeshAxes::Axis1, b), 1.0 + 0.1 * 3.0 / 16.0 * 800.0));
        assert!(close(m.point_to_point_cost(MeshAxes::Axis1, b), 81.0));
    }

    #[test]
    fn both_axes_use_the_flattened_mesh_and_the_slower_link() {
        let m = mesh();
        assert_eq!(m.group_size(MeshAxes::Both), 8);
        assert_eq!(m.link_of(MeshAxes::Both), (1.0, 1.0));
        assert!(close(m.all_reduce_cost(MeshAxes::Both, 800.0), 1.0 + 2.0 * 7.0 / 8.0 * 800.0));
        assert!(close(m.all_to_all_cost(MeshAxes::Both, 640.0), 1.0 + 7.0 / 64.0 * 640.0));
        // A size-1 axis does not make the flattened collective slower.
        let m = DeviceMesh::abstract_units([1, 4], [9.0, 1.0], [9.0, 0.1]).unwrap();
        assert_eq!(m.link_of(MeshAxes::Both), (1.0, 0.1));
        assert!(close(m.all_gather_cost(MeshAxes::Both, 400.0), m.all_gather_cost(MeshAxes::Axis1, 400.0)));
    }

    #[test]
    fn axis_of_size_one_is_free() {
        let m = DeviceMesh::alpa_test([1, 4]).unwrap();
        for kind in [
            Collective::AllGather,
            Collective::AllReduce,
            Collective::ReduceScatter,
            Collective::AllToAll,
            Collective::PointToPoint,
        ] {
            assert_eq!(m.collective_cost(kind, MeshAxes::Axis0, 1e6), 0.0);
        }
        let single = DeviceMesh::alpa_test([1, 1]).unwrap();
        assert_eq!(single.all_reduce_cost(MeshAxes::Both, 1e6), 0.0);
    }

    #[test]
    fn all_reduce_is_reduce_scatter_then_all_gather_less_one_latency() {
        let m = mesh();
        for axes in [MeshAxes::Axis0, MeshAxes::Axis1, MeshAxes::Both] {
            for bytes in [0.0, 1.0, 1234.5, 1e9] {
                let ar = m.all_reduce_cost(axes, bytes);
                let rs_ag = m.reduce_scatter_cost(axes, bytes) + m.all_gather_cost(axes, bytes);
                let (alpha, _) = m.link_of(axes);
                assert!(close(ar, rs_ag - alpha), "{axes:?} {bytes}");
            }
        }
    }

    fn h100_with_measured_all_reduce() -> crate::cluster::Cluster {
        use crate::cluster::measured::{CollectiveFit, CollectiveFits, Measured};
        let mut c = crate::cluster::presets::preset("h100-x2").unwrap();
        let fit =
            |devices, latency_s, bandwidth_bytes_per_s| CollectiveFit { devices, latency_s, bandwidth_bytes_per_s };
        c.measured = Some(Measured {
            intra_host: CollectiveFits { all_reduce: vec![fit(8, 40e-6, 180e9)], ..Default::default() },
            inter_host: CollectiveFits { all_reduce: vec![fit(2, 60e-6, 20e9)], ..Default::default() },
            ..Default::default()
        });
        c
    }

    #[test]
    fn measured_fits_replace_the_alpha_beta_formula() {
        use crate::cluster::mesh::PhysicalSubmesh;
        let c = h100_with_measured_all_reduce();
        let m = DeviceMesh::from_submesh(&c, &PhysicalSubmesh::new(2, 8), [2, 8]).unwrap();
        // Exactly the fits: axis 1 stays in a host (8 devices), axis 0 crosses (2 devices).
        assert_eq!(m.all_reduce_cost(MeshAxes::Axis1, 1e9), 40e-6 + 1e9 / 180e9);
        assert_eq!(m.all_reduce_cost(MeshAxes::Axis0, 1e9), 60e-6 + 1e9 / 20e9);
        // Both axes: the slower (inter-host) link's fit, scaled from 2 to 16 devices.
        let both = m.all_reduce_cost(MeshAxes::Both, 1e9);
        assert!(close(both, 60e-6 + (15.0 / 8.0) / 1.0 * 1e9 / 20e9), "{both}");
        // Collectives without a fit keep the preset's alpha-beta numbers.
        let preset = DeviceMesh::from_submesh(
            &crate::cluster::presets::preset("h100-x2").unwrap(),
            &PhysicalSubmesh::new(2, 8),
            [2, 8],
        )
        .unwrap();
        for axes in [MeshAxes::Axis0, MeshAxes::Axis1, MeshAxes::Both] {
            assert_eq!(m.all_gather_cost(axes, 1e9), preset.all_gather_cost(axes, 1e9));
            assert_ne!(m.all_reduce_cost(axes, 1e9), preset.all_reduce_cost(axes, 1e9));
        }
    }

    #[test]
    fn without_measured_numbers_nothing_changes() {
        use crate::cluster::mesh::PhysicalSubmesh;
        let c = crate::cluster::presets::preset("h100-x2").unwrap();
        let m = DeviceMesh::from_submesh(&c, &PhysicalSubmesh::new(2, 8), [2, 8]).unwrap();
        assert_eq!(m.measured, [None, None]);
        assert_eq!(m.all_reduce_cost(MeshAxes::Axis1, 1e9), 3e-6 + 2.0 * 7.0 / 8.0 * 1e9 / 450e9);
        // An empty measured section is no measurement either.
        let mut empty = c.clone();
        empty.measured = Some(Default::default());
        let e = DeviceMesh::from_submesh(&empty, &PhysicalSubmesh::new(2, 8), [2, 8]).unwrap();
        assert_eq!(e, m);
    }

    #[test]
    fn real_cluster_numbers() {
        use crate::cluster::{mesh::PhysicalSubmesh, presets::preset};
        let c = preset("p3.16xlarge-x8").unwrap();
        let m = DeviceMesh::from_submesh(&c, &PhysicalSubmesh::new(2, 8), [2, 8]).unwrap();
        // 1 GB all-reduce across the two hosts: 30 us + 2 * (1/2) * 1e9 / 3.125e9 s.
        assert!(close(m.all_reduce_cost(MeshAxes::Axis0, 1e9), 30e-6 + 0.32));
        // Inside a host over 8 GPUs: 5 us + 2 * 7/8 * 1e9 / 150e9 s.
        assert!(close(m.all_reduce_cost(MeshAxes::Axis1, 1e9), 5e-6 + 1.75e9 / 150e9));
    }
}
