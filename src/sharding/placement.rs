//! Which device holds which tile: the meaning every sharding notation must agree on.

use std::collections::BTreeMap;

use crate::sharding::error::ShardingError;
use crate::sharding::mesh::NamedMesh;
use crate::sharding::spec::ShardingSpec;

/// A tensor split into `parts_per_dim` tiles per dimension, and the tile each device holds
/// (device id -> tile index per dimension).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub parts_per_dim: Vec<usize>,
    pub tiles: BTreeMap<u32, Vec<usize>>,
}

impl Placement {
    /// Builds a placement and checks that each device's tile index is in range and that every
    /// tile is held by the same number of devices.
    pub fn new(parts_per_dim: Vec<usize>, tiles: BTreeMap<u32, Vec<usize>>) -> Result<Self, ShardingError> {
        let placement = Placement { parts_per_dim, tiles };
        for (device, tile) in &placement.tiles {
            let in_range = tile.len() == placement.parts_per_dim.len()
                && tile.iter().zip(&placement.parts_per_dim).all(|(&t, &p)| t < p);
            if !in_range {
                return Err(ShardingError::Invalid(format!("device {device} holds tile {tile:?} out of range")));
            }
        }
        if placement.num_replicas().is_none() {
            return Err(ShardingError::Invalid("tiles are not held by equally many devices".into()));
        }
        Ok(placement)
    }

    pub fn num_tiles(&self) -> usize {
        self.parts_per_dim.iter().product()
    }

    /// Devices per tile, when every tile has the same number (and there is at least one).
    pub fn num_replicas(&self) -> Option<usize> {
        let tiles = self.num_tiles();
        if tiles == 0 || self.tiles.is_empty() || !self.tiles.len().is_multiple_of(tiles) {
            return None;
        }
        let mut counts: BTreeMap<&[usize], usize> = BTreeMap::new();
        for tile in self.tiles.values() {
            *counts.entry(tile).or_default() += 1;
        }
        let per_tile = self.tiles.len() / tiles;
        (counts.len() == tiles && counts.values().all(|&c| c == per_tile)).then_some(per_tile)
    }

    /// The devices holding `tile`, ascending.
    pub fn devices_of(&self, tile: &[usize]) -> Vec<u32> {
        self.tiles.iter().filter(|(_, t)| t.as_slice() == tile).map(|(&d, _)| d).collect()
    }
}

impl ShardingSpec {
    /// Placement on `mesh`, straight from the definition of R/S0/S1/S01/S10.
    pub fn placement(&self, mesh: &NamedMesh) -> Placement {
        let shape = mesh.shape();
        let tiles = (0..mesh.num_devices()).map(|p| (mesh.device_id(p), self.tile_at(shape, p))).collect();
        Placement { parts_per_dim: self.parts_per_dim(shape), tiles }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_placement_on_permuted_mesh() {
        let mesh = NamedMesh::new([2, 2]).unwrap().with_device_ids(vec![3, 2, 1, 0]).unwrap();
        let p: ShardingSpec = "S0R".parse().unwrap();
        let placement = p.placement(&mesh);
        assert_eq!(placement.devices_of(&[0, 0]), vec![2, 3]);
        assert_eq!(placement.devices_of(&[1, 0]), vec![0, 1]);
        assert_eq!(placement.num_replicas(), Some(2));
    }

    #[test]
    fn validation() {
        let tiles = |v: &[(u32, usize)]| v.iter().map(|&(d, t)| (d, vec![t])).collect();
        assert!(Placement::new(vec![2], tiles(&[(0, 0), (1, 1)])).is_ok());
        assert!(Placement::new(vec![2], tiles(&[(0, 0), (1, 2)])).is_err());
        assert!(Placement::new(vec![2], tiles(&[(0, 0), (1, 0), (2, 1)])).is_err());
        assert!(Placement::new(vec![2], tiles(&[(0, 0), (1, 0)])).is_err());
    }
}
