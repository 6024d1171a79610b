//! Specs to and from GSPMD form.

use crate::sharding::error::ShardingError;
use crate::sharding::gspmd::{DeviceOrder, GspmdSharding, SubgroupKind, TileAssignment};
use crate::sharding::mesh::NamedMesh;
use crate::sharding::spec::ShardingSpec;

impl ShardingSpec {
    /// The canonical GSPMD form on `mesh`: `{replicated}` when nothing is split, else an iota
    /// (transposed when mesh axes are used out of order) or, for a mesh with an explicit device
    /// order, the device list.
    pub fn to_gspmd(&self, mesh: &NamedMesh) -> GspmdSharding {
        let shape = mesh.shape();
        let spec = self.normalized(shape);
        if spec.is_replicated(shape) {
            return GspmdSharding::Replicated;
        }
        // Mesh axes in the order the device array walks them: per tensor dim its axes major
        // first, then the replicated axes.
        let mut order: Vec<usize> = spec.dims().iter().flat_map(|d| d.mesh_axes().iter().copied()).collect();
        let unused: Vec<usize> = (0..2).filter(|&a| shape[a] > 1 && !order.contains(&a)).collect();
        order.extend(unused);
        let mut dims = spec.parts_per_dim(shape);
        let replicas = spec.num_replicas(shape);
        let mut subgroups = Vec::new();
        if replicas > 1 {
            dims.push(replicas);
            subgroups.push(SubgroupKind::Replicated);
        }
        let devices = match mesh.explicit_device_ids() {
            None if order == [1, 0] => DeviceOrder::Iota { reshape: shape.to_vec(), transpose: vec![1, 0] },
            None => DeviceOrder::Iota { reshape: vec![mesh.num_devices()], transpose: vec![] },
            Some(_) => DeviceOrder::Explicit(walk_devices(mesh, &order)),
        };
        GspmdSharding::Tiled(TileAssignment::new_unchecked(dims, devices, subgroups))
    }

    /// The spec on `mesh` that places tiles exactly like `sharding` does for a tensor of `rank`
    /// dims (normalized: size-1 axes dropped); an error when none does.
    pub fn from_gspmd(sharding: &GspmdSharding, rank: usize, mesh: &NamedMesh) -> Result<ShardingSpec, ShardingError> {
        let target = sharding.placement(rank, &mesh.device_ids())?;
        let mesh_devices: Vec<u32> = {
            let mut ids = mesh.device_ids();
            ids.sort_unstable();
            ids
        };
        if target.tiles.keys().copied().collect::<Vec<_>>() != mesh_devices {
            return Err(ShardingError::NotExpressible(format!(
                "{sharding} uses {} devices that are not the {} devices of the {}x{} mesh",
                target.tiles.len(),
                mesh_devices.len(),
                mesh.shape()[0],
                mesh.shape()[1]
            )));
        }
        ShardingSpec::enumerate(rank, mesh.shape())
            .into_iter()
            .filter(|s| s.parts_per_dim(mesh.shape()) == target.parts_per_dim)
            .find(|s| s.placement(mesh) == target)
            .ok_or_else(|| {
                ShardingError::NotExpressible(format!("{sharding} on the {}x{} mesh", mesh.shape()[0], mesh.shape()[1]))
            })
    }
}

/// Device ids visited when walking the mesh axes in `order` (major first), row-major.
fn walk_devices(mesh: &NamedMesh, order: &[usize]) -> Vec<u32> {
    let shape = mesh.shape();
    let sizes: Vec<usize> = order.iter().map(|&a| shape[a]).collect();
    let n: usize = sizes.iter().product();
    (0..n)
        .map(|flat| {
            let mut coord = [0usize; 2];
            let mut rest = flat;
            for (k, &size) in sizes.iter().enumerate().rev() {
                coord[order[k]] = rest % size;
                rest /= size;
            }
            mesh.device_id(coord[0] * shape[1] + coord[1])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(s: &str) -> ShardingSpec {
        s.parse().unwrap()
    }

    #[test]
    fn canonical_strings() {
        let m = NamedMesh::new([2, 4]).unwrap();
        let g = |s: &str| spec(s).to_gspmd(&m).to_string();
        assert_eq!(g("RR"), "{replicated}");
        assert_eq!(g("S0R"), "{devices=[2,1,4]<=[8] last_tile_dim_replicate}");
        assert_eq!(g("S0S1"), "{devices=[2,4]<=[8]}");
        assert_eq!(g("S1S0"), "{devices=[4,2]<=[2,4]T(1,0)}");
        assert_eq!(g("RS1"), "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}");
        assert_eq!(g("S01"), "{devices=[8]<=[8]}");
        assert_eq!(g("S10"), "{devices=[8]<=[2,4]T(1,0)}");
        // Size-1 axes do not force a transpose.
        let m = NamedMesh::new([1, 4]).unwrap();
        assert_eq!(spec("RS1").to_gspmd(&m).to_string(), "{devices=[1,4]<=[4]}");
        assert_eq!(spec("S10").to_gspmd(&m).to_string(), "{devices=[4]<=[4]}");
    }

    #[test]
    fn explicit_list_for_permuted_meshes() {
        let m = NamedMesh::new([2, 2]).unwrap().with_device_ids(vec![0, 2, 1, 3]).unwrap();
        assert_eq!(spec("S0S1").to_gspmd(&m).to_string(), "{devices=[2,2]0,2,1,3}");
        assert_eq!(spec("RS0").to_gspmd(&m).to_string(), "{devices=[1,2,2]0,2,1,3 last_tile_dim_replicate}");
    }

    #[test]
    fn spec_placement_matches_tile_assignment() {
        for shape in [[2, 4], [4, 2], [2, 2], [1, 8], [8, 1]] {
            let m = NamedMesh::new(shape).unwrap();
            for s in ShardingSpec::enumerate(3, shape) {
                let g = s.to_gspmd(&m);
                assert_eq!(g.placement(3, &m.device_ids()).unwrap(), s.placement(&m), "{s} {g}");
                assert_eq!(ShardingSpec::from_gspmd(&g, 3, &m).unwrap(), s, "{g}");
            }
        }
    }

    #[test]
    fn from_gspmd_errors() {
        let m = NamedMesh::new([2, 2]).unwrap();
        let tiled = |dims: Vec<usize>, list: Vec<u32>| {
            GspmdSharding::Tiled(TileAssignment::new(dims, DeviceOrder::Explicit(list), vec![]).unwrap())
        };
        // Not a mesh-axis layout: a 4-way split in an order no R/S0/S1/S01/S10 produces.
        let odd = tiled(vec![4], vec![0, 3, 1, 2]);
        assert!(matches!(ShardingSpec::from_gspmd(&odd, 1, &m), Err(ShardingError::NotExpressible(_))));
        // Wrong devices for the mesh.
        let other = tiled(vec![2], vec![0, 1]);
        assert!(matches!(ShardingSpec::from_gspmd(&other, 1, &m), Err(ShardingError::NotExpressible(_))));
        // Rank mismatch, maximal and manual.
        assert!(ShardingSpec::from_gspmd(&tiled(vec![4], vec![0, 1, 2, 3]), 2, &m).is_err());
        assert!(ShardingSpec::from_gspmd(&GspmdSharding::Maximal { device: 0 }, 1, &m).is_err());
        assert!(ShardingSpec::from_gspmd(&GspmdSharding::Manual, 1, &m).is_err());
        assert_eq!(ShardingSpec::from_gspmd(&GspmdSharding::Replicated, 2, &m).unwrap(), spec("RR"));
    }

    /// What XLA's Shardy-to-HLO export produced for these meshes and shardings (jaxlib 0.10,
    /// parameter shardings of a compiled module), and what JAX's NamedSharding prints.
    #[test]
    fn matches_xla() {
        let permuted = NamedMesh::new([2, 2]).unwrap().with_device_ids(vec![0, 2, 1, 3]).unwrap();
        assert_eq!(spec("S0R").to_gspmd(&permuted).to_string(), "{devices=[2,1,2]0,2,1,3 last_tile_dim_replicate}");
        let m = NamedMesh::new([2, 4]).unwrap();
        assert_eq!(spec("S1R").to_gspmd(&m).to_string(), "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}");
        let shuffled = m.with_device_ids(vec![3, 1, 0, 2, 7, 5, 4, 6]).unwrap();
        assert_eq!(spec("S10R").to_gspmd(&shuffled).to_string(), "{devices=[8,1]3,7,1,5,0,4,2,6}");
        let m = NamedMesh::new([4, 2]).unwrap();
        assert_eq!(spec("S1S0").to_gspmd(&m).to_string(), "{devices=[2,4]<=[4,2]T(1,0)}");
        assert_eq!(spec("RS10").to_gspmd(&m).to_string(), "{devices=[1,8]<=[4,2]T(1,0)}");
    }
}
