//! Shardy (`sdy`) meshes and tensor shardings: data, printing, placement, and the mapping to and
//! from [`ShardingSpec`].
//!
//! Printed forms (Shardy's own syntax):
//! - mesh: `sdy.mesh @mesh = <["x"=2, "y"=4]>`, with `, device_ids=[...]` for a non-identity order;
//! - tensor: `#sdy.sharding<@mesh, [{"x"}, {}]>`; `{"x", "y"}` splits over x then y (x major);
//!   `{}` is closed and unsharded, `{?}` / `{"x", ?}` are open; `{"x"}p1` carries a priority;
//!   optional `replicated={"y"}` and `unreduced={...}` clauses;
//! - op results: `#sdy.sharding_per_value<[<@mesh, [...]>, ...]>`.
//! We print closed dimensions and leave size-1 mesh axes out of dimension shardings.

use std::fmt;

use crate::sharding::error::ShardingError;
use crate::sharding::mesh::NamedMesh;
use crate::sharding::placement::Placement;
use crate::sharding::spec::{DimSharding, ShardingSpec};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SdyAxis {
    pub name: String,
    pub size: usize,
}

/// A Shardy mesh of any number of named axes (the body of `sdy.mesh`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SdyMesh {
    pub axes: Vec<SdyAxis>,
    /// Device order, row-major over the axes; `None` is the identity.
    pub device_ids: Option<Vec<u32>>,
}

/// The mesh a sharding refers to: a symbol (`@mesh`) or an inline `mesh<...>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SdyMeshRef {
    Symbol(String),
    Inline(SdyMesh),
}

/// The sharding of one dimension: axes major first, open or closed, optional priority.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SdyDim {
    pub axes: Vec<String>,
    pub open: bool,
    pub priority: Option<u64>,
}

/// `#sdy.sharding<mesh, [dims], replicated={..}, unreduced={..}>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SdySharding {
    pub mesh: SdyMeshRef,
    pub dims: Vec<SdyDim>,
    pub replicated: Vec<String>,
    pub unreduced: Vec<String>,
}

fn write_axis_list(f: &mut fmt::Formatter<'_>, names: &[String]) -> fmt::Result {
    for (i, name) in names.iter().enumerate() {
        let sep = if i == 0 { "" } else { ", " };
        write!(f, "{sep}\"{name}\"")?;
    }
    Ok(())
}

impl SdyMesh {
    pub fn num_devices(&self) -> usize {
        self.axes.iter().map(|a| a.size).product()
    }

    pub fn device_id(&self, position: usize) -> u32 {
        match &self.device_ids {
            Some(ids) => ids[position],
            None => position as u32,
        }
    }

    pub fn axis_index(&self, name: &str) -> Option<usize> {
        self.axes.iter().position(|a| a.name == name)
    }

    /// The module-level op: `sdy.mesh @name = <[...]>`.
    pub fn decl(&self, name: &str) -> String {
        format!("sdy.mesh @{name} = {self}")
    }

    /// The attribute form: `#sdy.mesh<[...]>` (what a generic-form `sdy.mesh` op carries).
    pub fn attr(&self) -> String {
        format!("#sdy.mesh{self}")
    }

    /// Checks sizes, distinct names and that `device_ids` is a permutation of `0..n`.
    pub fn validate(&self) -> Result<(), ShardingError> {
        for (i, axis) in self.axes.iter().enumerate() {
            if axis.size == 0 {
                return Err(ShardingError::Mesh(format!("axis \"{}\" has size 0", axis.name)));
            }
            if self.axes[..i].iter().any(|a| a.name == axis.name) {
                return Err(ShardingError::Mesh(format!("duplicate axis name \"{}\"", axis.name)));
            }
        }
        let n = self.axes.iter().try_fold(1usize, |acc, a| acc.checked_mul(a.size));
        let Some(n) = n.filter(|&n| n <= u32::MAX as usize) else {
            return Err(ShardingError::Mesh("too many devices".into()));
        };
        if let Some(ids) = &self.device_ids {
            let mut sorted = ids.clone();
            sorted.sort_unstable();
            // A mesh without axes may name its single device (a maximal mesh).
            let maximal = self.axes.is_empty() && ids.len() == 1;
            if !maximal && (sorted.len() != n || sorted.iter().enumerate().any(|(i, &d)| d as usize != i)) {
                return Err(ShardingError::Mesh(format!("device_ids must be a permutation of 0..{n}")));
            }
        }
        Ok(())
    }
}

impl fmt::Display for SdyMesh {
    /// `<["x"=2, "y"=4]>` or `<["x"=2], device_ids=[1, 0]>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<[")?;
        for (i, axis) in self.axes.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}\"{}\"={}", axis.name, axis.size)?;
        }
        write!(f, "]")?;
        if let Some(ids) = &self.device_ids {
            let ids: Vec<String> = ids.iter().map(u32::to_string).collect();
            write!(f, ", device_ids=[{}]", ids.join(", "))?;
        }
        write!(f, ">")
    }
}

impl fmt::Display for SdyDim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{")?;
        write_axis_list(f, &self.axes)?;
        if self.open {
            write!(f, "{}?", if self.axes.is_empty() { "" } else { ", " })?;
        }
        write!(f, "}}")?;
        if let Some(p) = self.priority {
            write!(f, "p{p}")?;
        }
        Ok(())
    }
}

impl SdySharding {
    /// The part inside `#sdy.sharding`: `<@mesh, [{"x"}, {}]>`, as used in per-value lists.
    pub fn body(&self) -> String {
        let mesh = match &self.mesh {
            SdyMeshRef::Symbol(name) => format!("@{name}"),
            SdyMeshRef::Inline(mesh) => format!("mesh{mesh}"),
        };
        let dims: Vec<String> = self.dims.iter().map(SdyDim::to_string).collect();
        let mut out = format!("<{mesh}, [{}]", dims.join(", "));
        for (key, axes) in [("replicated", &self.replicated), ("unreduced", &self.unreduced)] {
            if !axes.is_empty() {
                let names: Vec<String> = axes.iter().map(|a| format!("\"{a}\"")).collect();
                out += &format!(", {key}={{{}}}", names.join(", "));
            }
        }
        out + ">"
    }

    /// Where each device's tile lies, computed from axis names, sizes and the mesh's device
    /// order. `mesh` is what `self.mesh` refers to.
    pub fn placement(&self, mesh: &SdyMesh) -> Result<Placement, ShardingError> {
        mesh.validate()?;
        self.check_axes(mesh)?;
        if !self.unreduced.is_empty() {
            return Err(ShardingError::Unsupported("unreduced axes hold partial values, not tiles".into()));
        }
        let axis_of = |name: &String| mesh.axis_index(name).unwrap_or(0);
        let parts_per_dim: Vec<usize> =
            self.dims.iter().map(|d| d.axes.iter().map(|a| mesh.axes[axis_of(a)].size).product()).collect();
        let mut tiles = std::collections::BTreeMap::new();
        for position in 0..mesh.num_devices() {
            // Mesh coordinates of `position`, row-major over the axes.
            let mut coord = vec![0usize; mesh.axes.len()];
            let mut rest = position;
            for (c, axis) in coord.iter_mut().zip(&mesh.axes).rev() {
                *c = rest % axis.size;
                rest /= axis.size;
            }
            let tile = self
                .dims
                .iter()
                .map(|d| d.axes.iter().fold(0, |acc, a| acc * mesh.axes[axis_of(a)].size + coord[axis_of(a)]))
                .collect();
            tiles.insert(mesh.device_id(position), tile);
        }
        Placement::new(parts_per_dim, tiles)
    }

    /// Every axis named exists in `mesh` and is used once in dims, replicated and unreduced.
    pub fn check_axes(&self, mesh: &SdyMesh) -> Result<(), ShardingError> {
        let all = self.dims.iter().flat_map(|d| &d.axes).chain(&self.replicated).chain(&self.unreduced);
        let mut seen: Vec<&String> = Vec::new();
        for name in all {
            if mesh.axis_index(name).is_none() {
                return Err(ShardingError::Invalid(format!("unknown axis name \"{name}\"")));
            }
            if seen.contains(&name) {
                return Err(ShardingError::Invalid(format!("axis \"{name}\" is used more than once")));
            }
            seen.push(name);
        }
        Ok(())
    }
}

impl fmt::Display for SdySharding {
    /// `#sdy.sharding<@mesh, [{"x"}, {}]>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#sdy.sharding{}", self.body())
    }
}

/// `#sdy.sharding_per_value<[<@mesh, [...]>, ...]>` for the results of one op.
pub fn sharding_per_value(shardings: &[SdySharding]) -> String {
    let bodies: Vec<String> = shardings.iter().map(SdySharding::body).collect();
    format!("#sdy.sharding_per_value<[{}]>", bodies.join(", "))
}

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
            .map(|d| SdyDim { axes: d.mesh_axes().iter().map(|&a| mesh.axis_names()[a].clone()).collect(), ..SdyDim::default() })
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
            let axes: Vec<usize> = dim.axes.iter().filter_map(|a| mesh.axis_index(a)).filter(|&a| shape[a] > 1).collect();
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
    fn prints_device_ids_open_dims_priorities_and_clauses() {
        let mesh = NamedMesh::new([2, 1]).unwrap().with_device_ids(vec![1, 0]).unwrap();
        assert_eq!(mesh.sdy_decl(), r#"sdy.mesh @mesh = <["x"=2, "y"=1], device_ids=[1, 0]>"#);
        let s = SdySharding {
            mesh: SdyMeshRef::Inline(NamedMesh::new([2, 2]).unwrap().to_sdy()),
            dims: vec![
                SdyDim { axes: vec!["x".into()], open: true, priority: Some(1) },
                SdyDim { axes: vec![], open: true, priority: None },
            ],
            replicated: vec!["y".into()],
            unreduced: vec![],
        };
        assert_eq!(
            s.to_string(),
            r#"#sdy.sharding<mesh<["x"=2, "y"=2]>, [{"x", ?}p1, {?}], replicated={"y"}>"#
        );
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
