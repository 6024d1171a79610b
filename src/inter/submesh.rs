//! Cluster and submesh shapes (paper §5.2 and Appendix A).

use serde::Serialize;

/// A cluster of `hosts` x `devices_per_host` devices (the paper's N x M). Device ids are
/// host-major: device `h * devices_per_host + j` is device `j` of host `h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ClusterShape {
    pub hosts: usize,
    pub devices_per_host: usize,
}

impl ClusterShape {
    pub fn new(hosts: usize, devices_per_host: usize) -> Self {
        ClusterShape { hosts, devices_per_host }
    }

    pub fn devices(&self) -> usize {
        self.hosts * self.devices_per_host
    }
}

/// A submesh of `hosts` hosts with `devices_per_host` devices on each (the paper's (n, m)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct SubmeshShape {
    pub hosts: usize,
    pub devices_per_host: usize,
}

impl SubmeshShape {
    pub fn new(hosts: usize, devices_per_host: usize) -> Self {
        SubmeshShape { hosts, devices_per_host }
    }

    pub fn devices(&self) -> usize {
        self.hosts * self.devices_per_host
    }
}

impl std::fmt::Display for SubmeshShape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.hosts, self.devices_per_host)
    }
}

/// Which submesh shapes the stage DP may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SubmeshSpace {
    /// The paper's reduced space: (1, 2^k) for 2^k dividing M, and (n, M) for 1 <= n <= N.
    /// Any multiset of these whose device counts sum to N x M can be placed (placement.rs).
    PowerOfTwo,
    /// Every (n, m) with n <= N and m <= M. The DP only checks device counts, so a chosen
    /// combination may not be placeable; placement then reports an error.
    All,
}

/// The submesh shapes of `space` on `cluster`, sorted by device count, then hosts.
pub fn submesh_shapes(cluster: ClusterShape, space: SubmeshSpace) -> Vec<SubmeshShape> {
    let (n, m) = (cluster.hosts, cluster.devices_per_host);
    let mut shapes = Vec::new();
    match space {
        SubmeshSpace::PowerOfTwo => {
            let mut w = 1;
            while w < m {
                if m % w == 0 {
                    shapes.push(SubmeshShape::new(1, w));
                }
                w *= 2;
            }
            for h in 1..=n {
                shapes.push(SubmeshShape::new(h, m));
            }
        }
        SubmeshSpace::All => {
            for h in 1..=n {
                for w in 1..=m {
                    shapes.push(SubmeshShape::new(h, w));
                }
            }
        }
    }
    shapes.retain(|s| s.devices() > 0);
    shapes.sort_by_key(|s| (s.devices(), s.hosts));
    shapes
}

/// The logical mesh shapes [a, b] with a x b = devices of `submesh` (the views the intra-op
/// pass may try), in increasing a.
pub fn logical_meshes(submesh: SubmeshShape) -> Vec<[usize; 2]> {
    let d = submesh.devices();
    (1..=d).filter(|a| d % a == 0).map(|a| [a, d / a]).collect()
}
