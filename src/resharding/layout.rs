//! Where a tensor lives: a sharding spec on a logical mesh of global device ids, and the slice
//! each device holds (XLA's uneven tiling: ceil-sized parts, the last ones clipped or empty).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::cluster::Cluster;
use crate::resharding::error::ReshardingError;
use crate::resharding::slice::Slice;
use crate::sharding::ShardingSpec;

/// A tensor laid out by `spec` on the logical mesh `mesh`, whose row-major position `p` is
/// global device `devices[p]` (mesh coordinates `(p / mesh[1], p % mesh[1])`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    pub devices: Vec<usize>,
    pub mesh: [usize; 2],
    pub spec: ShardingSpec,
}

/// The transferred tensor: its global shape and the bytes of one element.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TensorDesc {
    pub shape: Vec<i64>,
    pub element_bytes: u64,
}

impl TensorDesc {
    pub(crate) fn check(&self) -> Result<(), ReshardingError> {
        if self.element_bytes == 0 {
            return Err(ReshardingError::ZeroElementSize);
        }
        check_shape(&self.shape)?;
        self.total_bytes().map(|_| ())
    }

    pub(crate) fn whole(&self) -> Slice {
        Slice { offset: vec![0; self.shape.len()], sizes: self.shape.clone() }
    }

    pub(crate) fn total_bytes(&self) -> Result<u64, ReshardingError> {
        self.bytes_of(&self.whole())
    }

    pub(crate) fn bytes_of(&self, slice: &Slice) -> Result<u64, ReshardingError> {
        slice.volume().and_then(|v| v.checked_mul(self.element_bytes)).ok_or_else(|| {
            ReshardingError::Overflow(format!(
                "a slice of sizes {:?} with {}-byte elements",
                slice.sizes, self.element_bytes
            ))
        })
    }
}

fn check_shape(shape: &[i64]) -> Result<(), ReshardingError> {
    match shape.iter().position(|&s| s < 0) {
        Some(dim) => Err(ReshardingError::NegativeDim { dim, size: shape[dim] }),
        None => Ok(()),
    }
}

impl Layout {
    pub fn num_positions(&self) -> usize {
        self.mesh[0].saturating_mul(self.mesh[1])
    }

    /// Checks the layout on its own and against the tensor and the cluster; `name` says which
    /// side it is in error messages.
    pub(crate) fn check(
        &self,
        name: &'static str,
        tensor: &TensorDesc,
        cluster: &Cluster,
    ) -> Result<(), ReshardingError> {
        self.check_mesh(name, tensor.shape.len())?;
        let mut seen = BTreeSet::new();
        for &device in &self.devices {
            if !seen.insert(device) {
                return Err(ReshardingError::DuplicateDevice { layout: name, device });
            }
            if device >= cluster.num_devices() {
                return Err(ReshardingError::DeviceOutsideCluster {
                    layout: name,
                    device,
                    cluster_devices: cluster.num_devices(),
                });
            }
        }
        Ok(())
    }

    fn check_mesh(&self, name: &'static str, rank: usize) -> Result<(), ReshardingError> {
        if self.spec.rank() != rank {
            return Err(ReshardingError::RankMismatch { layout: name, spec_rank: self.spec.rank(), tensor_rank: rank });
        }
        if self.mesh.contains(&0) {
            return Err(ReshardingError::EmptyMesh { layout: name, mesh: self.mesh });
        }
        let positions = self.mesh[0].checked_mul(self.mesh[1]);
        if positions != Some(self.devices.len()) {
            return Err(ReshardingError::DeviceCount { layout: name, devices: self.devices.len(), mesh: self.mesh });
        }
        Ok(())
    }

    /// The tile index (part per dimension) at a mesh position of a checked layout.
    pub(crate) fn tile_index(&self, position: usize) -> Vec<usize> {
        self.spec.tile_at(self.mesh, position)
    }

    /// The distinct tiles of a checked layout, each with the mesh positions holding it (its
    /// replicas), in mesh order.
    pub(crate) fn replica_groups(&self) -> BTreeMap<Vec<usize>, Vec<usize>> {
        let mut groups: BTreeMap<Vec<usize>, Vec<usize>> = BTreeMap::new();
        for position in 0..self.devices.len() {
            groups.entry(self.tile_index(position)).or_default().push(position);
        }
        groups
    }

    pub(crate) fn parts_per_dim(&self) -> Vec<usize> {
        self.spec.parts_per_dim(self.mesh)
    }
}

/// The ceil-sized chunk XLA gives each of `parts` parts of a dimension of `size` elements.
pub(crate) fn chunk_size(size: i64, parts: usize) -> i64 {
    let parts = parts.max(1) as i64;
    size / parts + i64::from(size % parts != 0)
}

/// Part `part` of a dimension of `size` split into `parts` ceil-sized chunks:
/// `[part * c, min((part + 1) * c, size))`, empty past the end.
pub(crate) fn part_range(size: i64, parts: usize, part: usize) -> (i64, i64) {
    let c = chunk_size(size, parts);
    let lo = (part as i64).saturating_mul(c).min(size);
    let hi = (part as i64 + 1).saturating_mul(c).min(size);
    (lo, hi)
}

/// The slice of a tensor of `shape` held by tile `index` of a layout with `parts` per dimension.
pub(crate) fn slice_of_tile(shape: &[i64], parts: &[usize], index: &[usize]) -> Slice {
    let (offset, sizes) = (0..shape.len())
        .map(|d| {
            let (lo, hi) = part_range(shape[d], parts[d], index[d]);
            (lo, hi - lo)
        })
        .unzip();
    Slice { offset, sizes }
}

/// The slice of a tensor of `shape` that the device at row-major mesh position `position` of
/// `layout` holds.
pub fn tile_of(layout: &Layout, position: usize, shape: &[i64]) -> Result<Slice, ReshardingError> {
    check_shape(shape)?;
    layout.check_mesh("given", shape.len())?;
    if position >= layout.devices.len() {
        return Err(ReshardingError::PositionOutOfRange { position, devices: layout.devices.len() });
    }
    Ok(slice_of_tile(shape, &layout.parts_per_dim(), &layout.tile_index(position)))
}
