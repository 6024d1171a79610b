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
    /// Whole-host shapes (n, M) for 1 <= n <= N, and one-host shapes (1, m) for every m
    /// dividing M. The DP only counts devices, so it runs once per [`placeable_families`]
    /// member: widths from one divisibility chain always tile the hosts. Shapes such as (2, 3)
    /// on hosts of 4 are left out: next to them only some combinations fit (a (2, 2) and a
    /// (1, 4) do not on two hosts of 4), which a device-count DP cannot see.
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
            shapes.extend((1..m).filter(|w| m % w == 0).map(|w| SubmeshShape::new(1, w)));
            shapes.extend((1..=n).map(|h| SubmeshShape::new(h, m)));
        }
    }
    shapes.retain(|s| s.devices() > 0);
    shapes.sort_by_key(|s| (s.devices(), s.hosts));
    shapes
}

/// Subsets of `shapes` (keeping their order) any multiset of which with the cluster's device
/// count can be placed: whole-host shapes plus one-host shapes whose widths form one chain of
/// divisors of M (first fit in decreasing size keeps every host's free count a multiple of the
/// next width, as in Appendix A). One subset per maximal chain of divisors of M, in increasing
/// lexicographic order of the chain; shapes that fit in none (more than one host but not whole
/// hosts, or widths not dividing M) are in none.
pub fn placeable_families(cluster: ClusterShape, shapes: &[SubmeshShape]) -> Vec<Vec<SubmeshShape>> {
    let m = cluster.devices_per_host;
    divisor_chains(m)
        .into_iter()
        .map(|chain| {
            shapes
                .iter()
                .copied()
                .filter(|s| s.devices_per_host == m || (s.hosts == 1 && chain.contains(&s.devices_per_host)))
                .collect()
        })
        .collect()
}

/// Every maximal chain 1 = d0 | d1 | ... | M of divisors of `m` (each step a prime factor).
fn divisor_chains(m: usize) -> Vec<Vec<usize>> {
    if m <= 1 {
        return vec![vec![1]];
    }
    let mut chains = Vec::new();
    for p in (2..=m).filter(|&p| m.is_multiple_of(p) && (2..p).all(|q| p % q != 0)) {
        for chain in divisor_chains(m / p) {
            chains.push(chain.into_iter().chain([m]).collect::<Vec<_>>());
        }
    }
    chains.sort();
    chains.dedup();
    chains
}

/// The logical mesh shapes [a, b] with a x b = devices of `submesh` (the views the intra-op
/// pass may try), in increasing a.
pub fn logical_meshes(submesh: SubmeshShape) -> Vec<[usize; 2]> {
    let d = submesh.devices();
    (1..=d).filter(|a| d.is_multiple_of(*a)).map(|a| [a, d / a]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divisor_chains_step_by_primes() {
        assert_eq!(divisor_chains(1), vec![vec![1]]);
        assert_eq!(divisor_chains(8), vec![vec![1, 2, 4, 8]]);
        assert_eq!(divisor_chains(6), vec![vec![1, 2, 6], vec![1, 3, 6]]);
        assert_eq!(divisor_chains(12), vec![vec![1, 2, 4, 12], vec![1, 2, 6, 12], vec![1, 3, 6, 12]]);
        assert_eq!(divisor_chains(30).len(), 6);
    }

    #[test]
    fn all_shapes_are_whole_hosts_or_divisors_of_one_host() {
        let shapes = submesh_shapes(ClusterShape::new(2, 4), SubmeshSpace::All);
        let text: Vec<String> = shapes.iter().map(|s| s.to_string()).collect();
        assert_eq!(text, ["1x1", "1x2", "1x4", "2x4"]);
        let families =
            placeable_families(ClusterShape::new(2, 6), &submesh_shapes(ClusterShape::new(2, 6), SubmeshSpace::All));
        let text: Vec<Vec<String>> = families.iter().map(|f| f.iter().map(|s| s.to_string()).collect()).collect();
        assert_eq!(text, [vec!["1x1", "1x2", "1x6", "2x6"], vec!["1x1", "1x3", "1x6", "2x6"]]);
    }
}
