//! GSPMD sharding strings (the `mhlo.sharding` attribute text XLA reads): data, printing,
//! expansion of the tile assignment and placement. The mapping from and to
//! [`crate::sharding::ShardingSpec`] is in `gspmd_convert`.
//!
//! `{devices=[t0,...,tk]<devices> [last_tile_dim_replicate | last_tile_dims={...}]}` assigns the
//! device at index `(i0, ..., ik)` of the row-major `t0 x ... x tk` array to tile `(i0, ...)` of
//! the tensor; trailing subgroup dimensions (replicated, manual) are not tensor dimensions.
//! `<devices>` is an explicit list `0,2,1,3` or an iota `<=[r0,...,rm]` with an optional
//! `T(p0,...,pm)`: `0..N` reshaped to `[r0..rm]`, transposed by the permutation (result dim `i` is
//! source dim `p_i`), then flattened.

use std::collections::BTreeMap;
use std::fmt;

use crate::sharding::error::ShardingError;
use crate::sharding::placement::Placement;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GspmdSharding {
    Replicated,
    Manual,
    Maximal { device: u32 },
    Tiled(TileAssignment),
    Tuple(Vec<GspmdSharding>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceOrder {
    Explicit(Vec<u32>),
    /// `<=[reshape]T(transpose)`; an empty `transpose` is the identity.
    Iota {
        reshape: Vec<usize>,
        transpose: Vec<usize>,
    },
}

/// Kinds of the trailing subgroup dimensions of a tile assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubgroupKind {
    Replicated,
    Manual,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileAssignment {
    /// All dimensions of the device array, tensor dims first, then one per subgroup.
    dims: Vec<usize>,
    devices: DeviceOrder,
    subgroups: Vec<SubgroupKind>,
}

impl TileAssignment {
    /// Checks sizes, the iota's permutation and that no device appears twice.
    pub fn new(dims: Vec<usize>, devices: DeviceOrder, subgroups: Vec<SubgroupKind>) -> Result<Self, ShardingError> {
        let invalid = |m: String| Err(ShardingError::Invalid(m));
        if dims.is_empty() || subgroups.len() > dims.len() {
            return invalid(format!("tile assignment dims {dims:?} with {} subgroup dims", subgroups.len()));
        }
        let count = dims.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d)).filter(|&n| n <= u32::MAX as usize);
        let Some(count) = count.filter(|&n| n > 0) else {
            return invalid(format!("bad tile assignment dims {dims:?}"));
        };
        match &devices {
            DeviceOrder::Explicit(list) => {
                if list.len() != count {
                    return invalid(format!("devices={dims:?} needs {count} devices, the list has {}", list.len()));
                }
                let mut sorted = list.clone();
                sorted.sort_unstable();
                if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
                    return invalid(format!("device {} appears twice", w[0]));
                }
            }
            DeviceOrder::Iota { reshape, transpose } => {
                if reshape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d)) != Some(count) {
                    return invalid(format!(
                        "iota <=[{}] does not have the {count} devices of {dims:?}",
                        join(reshape)
                    ));
                }
                let mut sorted = transpose.clone();
                sorted.sort_unstable();
                let is_perm = sorted.iter().enumerate().all(|(i, &p)| p == i);
                if !transpose.is_empty() && (transpose.len() != reshape.len() || !is_perm) {
                    return invalid(format!("T({}) is not a permutation of {} dims", join(transpose), reshape.len()));
                }
            }
        }
        Ok(TileAssignment { dims, devices, subgroups })
    }

    /// For callers that build a valid assignment by construction.
    pub(crate) fn new_unchecked(dims: Vec<usize>, devices: DeviceOrder, subgroups: Vec<SubgroupKind>) -> Self {
        TileAssignment { dims, devices, subgroups }
    }

    pub fn dims(&self) -> &[usize] {
        &self.dims
    }

    pub fn devices(&self) -> &DeviceOrder {
        &self.devices
    }

    pub fn subgroups(&self) -> &[SubgroupKind] {
        &self.subgroups
    }

    /// Rank of the tensor this assignment shards.
    pub fn tensor_rank(&self) -> usize {
        self.dims.len() - self.subgroups.len()
    }

    /// The device array, row-major over `dims`.
    pub fn expand(&self) -> Vec<u32> {
        match &self.devices {
            DeviceOrder::Explicit(list) => list.clone(),
            DeviceOrder::Iota { reshape, transpose } => expand_iota(reshape, transpose),
        }
    }

    /// Which device holds which tile; subgroup dims must all be replicated.
    pub fn placement(&self) -> Result<Placement, ShardingError> {
        if self.subgroups.contains(&SubgroupKind::Manual) {
            return Err(ShardingError::Unsupported("manual subgroups have no tile placement".into()));
        }
        let rank = self.tensor_rank();
        let mut tiles = BTreeMap::new();
        for (flat, device) in self.expand().into_iter().enumerate() {
            let mut index = vec![0usize; self.dims.len()];
            let mut rest = flat;
            for (i, &d) in index.iter_mut().zip(&self.dims).rev() {
                *i = rest % d;
                rest /= d;
            }
            index.truncate(rank);
            tiles.insert(device, index);
        }
        Placement::new(self.dims[..rank].to_vec(), tiles)
    }
}

/// `0..N` reshaped to `reshape`, transposed by `transpose` (empty = identity), flattened.
pub fn expand_iota(reshape: &[usize], transpose: &[usize]) -> Vec<u32> {
    let n: usize = reshape.iter().product();
    if transpose.is_empty() {
        return (0..n as u32).collect();
    }
    let out_dims: Vec<usize> = transpose.iter().map(|&p| reshape[p]).collect();
    // Row-major strides of the source array.
    let mut strides = vec![1usize; reshape.len()];
    for i in (0..reshape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * reshape[i + 1];
    }
    (0..n)
        .map(|flat| {
            let mut rest = flat;
            let mut source = 0;
            for (k, &d) in out_dims.iter().enumerate().rev() {
                source += (rest % d) * strides[transpose[k]];
                rest /= d;
            }
            source as u32
        })
        .collect()
}

pub(crate) fn join(v: &[usize]) -> String {
    v.iter().map(usize::to_string).collect::<Vec<_>>().join(",")
}

impl fmt::Display for GspmdSharding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GspmdSharding::Replicated => write!(f, "{{replicated}}"),
            GspmdSharding::Manual => write!(f, "{{manual}}"),
            GspmdSharding::Maximal { device } => write!(f, "{{maximal device={device}}}"),
            GspmdSharding::Tuple(items) => {
                let items: Vec<String> = items.iter().map(|s| s.to_string()).collect();
                write!(f, "{{{}}}", items.join(", "))
            }
            GspmdSharding::Tiled(t) => {
                write!(f, "{{devices=[{}]", join(&t.dims))?;
                match &t.devices {
                    DeviceOrder::Explicit(list) => {
                        let list: Vec<String> = list.iter().map(u32::to_string).collect();
                        write!(f, "{}", list.join(","))?;
                    }
                    DeviceOrder::Iota { reshape, transpose } => {
                        write!(f, "<=[{}]", join(reshape))?;
                        if !transpose.is_empty() {
                            write!(f, "T({})", join(transpose))?;
                        }
                    }
                }
                match t.subgroups.as_slice() {
                    [] => {}
                    [SubgroupKind::Replicated] => write!(f, " last_tile_dim_replicate")?,
                    kinds => {
                        let names: Vec<&str> = kinds
                            .iter()
                            .map(|k| match k {
                                SubgroupKind::Replicated => "replicated",
                                SubgroupKind::Manual => "manual",
                            })
                            .collect();
                        write!(f, " last_tile_dims={{{}}}", names.join(", "))?;
                    }
                }
                write!(f, "}}")
            }
        }
    }
}

impl GspmdSharding {
    /// Placement of a tensor of `rank` dims on the devices `all_devices` (which only
    /// `{replicated}` needs: it places tile 0 everywhere).
    pub fn placement(&self, rank: usize, all_devices: &[u32]) -> Result<Placement, ShardingError> {
        match self {
            GspmdSharding::Replicated => {
                let tiles = all_devices.iter().map(|&d| (d, vec![0; rank])).collect();
                Placement::new(vec![1; rank], tiles)
            }
            GspmdSharding::Tiled(t) if t.tensor_rank() == rank => t.placement(),
            GspmdSharding::Tiled(t) => {
                Err(ShardingError::RankMismatch { sharding_rank: t.tensor_rank(), tensor_rank: rank })
            }
            other => Err(ShardingError::Unsupported(format!("{other} has no tile placement"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iota_expansion() {
        assert_eq!(expand_iota(&[8], &[]), (0..8).collect::<Vec<_>>());
        assert_eq!(expand_iota(&[2, 4], &[1, 0]), vec![0, 4, 1, 5, 2, 6, 3, 7]);
        assert_eq!(expand_iota(&[2, 2, 2], &[2, 0, 1]), vec![0, 2, 4, 6, 1, 3, 5, 7]);
        assert_eq!(expand_iota(&[2, 3], &[0, 1]), (0..6).collect::<Vec<_>>());
    }

    #[test]
    fn tile_assignment_validation() {
        let iota = |r: Vec<usize>, t: Vec<usize>| DeviceOrder::Iota { reshape: r, transpose: t };
        assert!(TileAssignment::new(vec![2, 2], iota(vec![4], vec![]), vec![]).is_ok());
        assert!(TileAssignment::new(vec![2, 2], iota(vec![8], vec![]), vec![]).is_err());
        assert!(TileAssignment::new(vec![2, 2], iota(vec![2, 2], vec![0, 0]), vec![]).is_err());
        assert!(TileAssignment::new(vec![2, 2], iota(vec![2, 2], vec![1]), vec![]).is_err());
        assert!(TileAssignment::new(vec![2], DeviceOrder::Explicit(vec![1, 1]), vec![]).is_err());
        assert!(TileAssignment::new(vec![2], DeviceOrder::Explicit(vec![1]), vec![]).is_err());
        assert!(TileAssignment::new(vec![], DeviceOrder::Explicit(vec![]), vec![]).is_err());
        assert!(TileAssignment::new(vec![0], DeviceOrder::Explicit(vec![]), vec![]).is_err());
        let manual = TileAssignment::new(vec![2, 2], iota(vec![4], vec![]), vec![SubgroupKind::Manual]).unwrap();
        assert!(manual.placement().is_err());
    }
    #[test]
    fn placement_of_an_explicit_list_with_replication() {
        // 2 tiles along dim 0, each on 2 devices: tile 0 on 0 and 2, tile 1 on 1 and 3.
        let t =
            TileAssignment::new(vec![2, 1, 2], DeviceOrder::Explicit(vec![0, 2, 1, 3]), vec![SubgroupKind::Replicated])
                .unwrap();
        assert_eq!(t.tensor_rank(), 2);
        let p = t.placement().unwrap();
        assert_eq!(p.parts_per_dim, vec![2, 1]);
        assert_eq!(p.devices_of(&[0, 0]), vec![0, 2]);
        assert_eq!(p.devices_of(&[1, 0]), vec![1, 3]);
        let g = GspmdSharding::Tiled(t);
        assert!(g.placement(3, &[]).is_err());
        assert_eq!(GspmdSharding::Replicated.placement(1, &[5, 6]).unwrap().devices_of(&[0]), vec![5, 6]);
        assert!(GspmdSharding::Maximal { device: 0 }.placement(1, &[0]).is_err());
    }
}
