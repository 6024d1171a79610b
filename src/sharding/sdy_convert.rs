//! Specs and named meshes to and from Shardy form.

use crate::sharding::error::ShardingError;
use crate::sharding::mesh::NamedMesh;
use crate::sharding::sdy::{SdyAxis, SdyDim, SdyMesh, SdyMeshRef, SdySharding};
use crate::sharding::spec::{DimSharding, ShardingSpec};

impl NamedMesh {
    pub fn to_sdy(&self) -> SdyMesh {
        let [n0, n1] = self.shape();
        let [a0, a1] = self.axis_names().clone();
        SdyMesh {
            axes: vec![SdyAxis { name: a0, size: n0 }, SdyAxis { name: a1, size: n1 }],
            device_ids: self.explicit_device_ids().map(<[u32]>::to_vec),
        }
    }

    /// `sdy.mesh @name = <[...]>`.
    pub fn sdy_decl(&self) -> String {
        self.to_sdy().decl(self.name())
    }

    /// A named mesh from an sdy mesh of one or two axes (one axis `a=n` becomes `n x 1` with a
    /// second axis of size 1 that no sharding can mention).
    pub fn from_sdy(name: &str, mesh: &SdyMesh) -> Result<NamedMesh, ShardingError> {
        mesh.validate()?;
        let (names, shape) = match mesh.axes.as_slice() {
            [a, b] => ([a.name.clone(), b.name.clone()], [a.size, b.size]),
            [a] => {
                let second = if a.name == "_unit" { "_unit1" } else { "_unit" };
                ([a.name.clone(), second.to_string()], [a.size, 1])
            }
            _ => {
                return Err(ShardingError::Unsupported(format!(
                    "meshes with {} axes (only 1 or 2 map to a 2-D mesh)",
                    mesh.axes.len()
                )))
            }
        };
        let named = NamedMesh::new(shape)?.with_name(name)?.with_axis_names(&names[0], &names[1])?;
        match &mesh.device_ids {
            Some(ids) => named.with_device_ids(ids.clone()),
            None => Ok(named),
        }
    }
}

impl ShardingSpec {
    /// `#sdy.sharding<@mesh, [...]>` for this spec on `mesh` (size-1 axes left out).
    pub fn to_sdy(&self, mesh: &NamedMesh) -> SdySharding {
        let shape = mesh.shape();
        let dims = self
            .normalized(shape)
            .dims()
            .iter()
            .map(|d| SdyDim {
                axes: d.mesh_axes().iter().map(|&a| mesh.axis_names()[a].clone()).collect(),
                ..SdyDim::default()
            })
            .collect();
        SdySharding { mesh: SdyMeshRef::Symbol(mesh.name().to_string()), dims, replicated: vec![], unreduced: vec![] }
    }

    /// The spec an sdy sharding denotes on `mesh` (normalized: size-1 axes dropped). Open
    /// dimensions, unreduced axes and meshes other than `mesh` are errors.
    pub fn from_sdy(sharding: &SdySharding, mesh: &NamedMesh) -> Result<ShardingSpec, ShardingError> {
        match &sharding.mesh {
            SdyMeshRef::Symbol(name) if name == mesh.name() => {}
            SdyMeshRef::Symbol(name) => {
                return Err(ShardingError::Invalid(format!("sharding refers to @{name}, expected @{}", mesh.name())))
            }
            SdyMeshRef::Inline(inline) => {
                if NamedMesh::from_sdy(mesh.name(), inline)? != *mesh {
                    return Err(ShardingError::Invalid(format!("inline mesh {inline} is not {}", mesh.to_sdy())));
                }
            }
        }
        sharding.check_axes(&mesh.to_sdy())?;
        if !sharding.unreduced.is_empty() {
            return Err(ShardingError::Unsupported("unreduced axes".into()));
        }
        let shape = mesh.shape();
        let mut dims = Vec::with_capacity(sharding.dims.len());
        for (d, dim) in sharding.dims.iter().enumerate() {
            if dim.open {
                return Err(ShardingError::Unsupported(format!("dimension {d} is open (`?`)")));
            }
            let axes: Vec<usize> =
                dim.axes.iter().filter_map(|a| mesh.axis_index(a)).filter(|&a| shape[a] > 1).collect();
            let ds = DimSharding::from_mesh_axes(&axes)
                .ok_or_else(|| ShardingError::Invalid(format!("dimension {d} uses axes {axes:?}")))?;
            dims.push(ds);
        }
        ShardingSpec::new(dims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sharding::sdy::sharding_per_value;

    fn spec(s: &str) -> ShardingSpec {
        s.parse().unwrap()
    }

    #[test]
    fn prints_mesh_and_shardings() {
        let mesh = NamedMesh::new([2, 4]).unwrap();
        assert_eq!(mesh.sdy_decl(), r#"sdy.mesh @mesh = <["x"=2, "y"=4]>"#);
        assert_eq!(mesh.to_sdy().attr(), r#"#sdy.mesh<["x"=2, "y"=4]>"#);
        assert_eq!(spec("S0R").to_sdy(&mesh).to_string(), r#"#sdy.sharding<@mesh, [{"x"}, {}]>"#);
        assert_eq!(spec("RS01").to_sdy(&mesh).to_string(), r#"#sdy.sharding<@mesh, [{}, {"x", "y"}]>"#);
        assert_eq!(spec("S10").to_sdy(&mesh).to_string(), r#"#sdy.sharding<@mesh, [{"y", "x"}]>"#);
        assert_eq!(spec("[]").to_sdy(&mesh).to_string(), r#"#sdy.sharding<@mesh, []>"#);
        let per_value = sharding_per_value(&[spec("S0").to_sdy(&mesh), spec("S1").to_sdy(&mesh)]);
        assert_eq!(per_value, r#"#sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{"y"}]>]>"#);
    }

    #[test]
    fn size_one_axes_are_left_out() {
        let mesh = NamedMesh::new([4, 1]).unwrap();
        assert_eq!(mesh.sdy_decl(), r#"sdy.mesh @mesh = <["x"=4, "y"=1]>"#);
        let s01 = spec("S01R").to_sdy(&mesh).to_string();
        assert_eq!(s01, r#"#sdy.sharding<@mesh, [{"x"}, {}]>"#);
        assert_eq!(spec("RS1").to_sdy(&mesh).to_string(), r#"#sdy.sharding<@mesh, [{}, {}]>"#);
    }

    #[test]
    fn prints_device_order() {
        let mesh = NamedMesh::new([2, 1]).unwrap().with_device_ids(vec![1, 0]).unwrap();
        assert_eq!(mesh.sdy_decl(), r#"sdy.mesh @mesh = <["x"=2, "y"=1], device_ids=[1, 0]>"#);
    }

    #[test]
    fn placement_from_names() {
        let mesh = NamedMesh::new([2, 4]).unwrap();
        for s in ShardingSpec::enumerate(2, [2, 4]) {
            let sdy = s.to_sdy(&mesh);
            assert_eq!(sdy.placement(&mesh.to_sdy()).unwrap(), s.placement(&mesh), "{s}");
        }
    }

    #[test]
    fn spec_from_sdy() {
        let mesh = NamedMesh::new([2, 4]).unwrap();
        let mut s = spec("S0S1").to_sdy(&mesh);
        assert_eq!(ShardingSpec::from_sdy(&s, &mesh).unwrap(), spec("S0S1"));
        s.dims[0].open = true;
        assert!(matches!(ShardingSpec::from_sdy(&s, &mesh), Err(ShardingError::Unsupported(_))));
        s.dims[0].open = false;
        s.mesh = SdyMeshRef::Symbol("other".into());
        assert!(ShardingSpec::from_sdy(&s, &mesh).is_err());
        s.mesh = SdyMeshRef::Inline(mesh.to_sdy());
        assert_eq!(ShardingSpec::from_sdy(&s, &mesh).unwrap(), spec("S0S1"));
        s.dims[1].axes = vec!["x".into()];
        assert!(ShardingSpec::from_sdy(&s, &mesh).is_err());
        s.dims[1].axes = vec!["z".into()];
        assert!(ShardingSpec::from_sdy(&s, &mesh).is_err());
    }

    #[test]
    fn one_axis_meshes() {
        let sdy = SdyMesh { axes: vec![SdyAxis { name: "d".into(), size: 8 }], device_ids: None };
        let named = NamedMesh::from_sdy("m", &sdy).unwrap();
        assert_eq!(named.shape(), [8, 1]);
        assert!(NamedMesh::from_sdy("m", &SdyMesh { axes: vec![], device_ids: None }).is_err());
    }
}
