//! Shardy (`sdy`) meshes and tensor shardings: data, printing and placement. The mapping from and
//! to [`crate::sharding::ShardingSpec`] is in `sdy_convert`.
//!
//! Printed forms (Shardy's own syntax):
//! - mesh: `sdy.mesh @mesh = <["x"=2, "y"=4]>`, with `, device_ids=[...]` for a non-identity order;
//! - tensor: `#sdy.sharding<@mesh, [{"x"}, {}]>`; `{"x", "y"}` splits over x then y (x major);
//!   `{}` is closed and unsharded, `{?}` / `{"x", ?}` are open; `{"x"}p1` carries a priority;
//!   optional `replicated={"y"}` and `unreduced={...}` clauses;
//! - op results: `#sdy.sharding_per_value<[<@mesh, [...]>, ...]>`.
//!
//! We print closed dimensions and leave size-1 mesh axes out of dimension shardings.

use std::fmt;

use crate::sharding::error::ShardingError;
use crate::sharding::placement::Placement;

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

#[cfg(test)]
mod tests {
    use super::*;

    fn mesh_2x4() -> SdyMesh {
        let axis = |name: &str, size| SdyAxis { name: name.into(), size };
        SdyMesh { axes: vec![axis("x", 2), axis("y", 4)], device_ids: None }
    }

    fn sharding(dims: &[&[&str]]) -> SdySharding {
        let dims = dims
            .iter()
            .map(|axes| SdyDim { axes: axes.iter().map(|a| a.to_string()).collect(), ..SdyDim::default() })
            .collect();
        SdySharding { mesh: SdyMeshRef::Symbol("mesh".into()), dims, replicated: vec![], unreduced: vec![] }
    }

    #[test]
    fn prints() {
        assert_eq!(mesh_2x4().decl("mesh"), r#"sdy.mesh @mesh = <["x"=2, "y"=4]>"#);
        assert_eq!(mesh_2x4().attr(), r#"#sdy.mesh<["x"=2, "y"=4]>"#);
        assert_eq!(sharding(&[&["x"], &[]]).to_string(), r#"#sdy.sharding<@mesh, [{"x"}, {}]>"#);
        assert_eq!(sharding(&[&["y", "x"]]).to_string(), r#"#sdy.sharding<@mesh, [{"y", "x"}]>"#);
        let per_value = sharding_per_value(&[sharding(&[&["x"]]), sharding(&[])]);
        assert_eq!(per_value, r#"#sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, []>]>"#);
        let s = SdySharding {
            mesh: SdyMeshRef::Inline(SdyMesh { device_ids: Some(vec![1, 0]), ..mesh_2x4() }),
            dims: vec![
                SdyDim { axes: vec!["x".into()], open: true, priority: Some(1) },
                SdyDim { axes: vec![], open: true, priority: None },
            ],
            replicated: vec!["y".into()],
            unreduced: vec![],
        };
        assert_eq!(
            s.to_string(),
            r#"#sdy.sharding<mesh<["x"=2, "y"=4], device_ids=[1, 0]>, [{"x", ?}p1, {?}], replicated={"y"}>"#
        );
    }

    #[test]
    fn placement_by_hand() {
        // Device at position 6 is x=1, y=2.
        let p = sharding(&[&["y"], &["x"]]).placement(&mesh_2x4()).unwrap();
        assert_eq!(p.parts_per_dim, vec![4, 2]);
        assert_eq!(p.tiles[&6], vec![2, 1]);
        let p = sharding(&[&["y", "x"]]).placement(&mesh_2x4()).unwrap();
        assert_eq!(p.tiles[&6], vec![5]);
        let p = sharding(&[&["x", "y"]]).placement(&mesh_2x4()).unwrap();
        assert_eq!(p.tiles[&6], vec![6]);
        let mut permuted = mesh_2x4();
        permuted.device_ids = Some(vec![7, 6, 5, 4, 3, 2, 1, 0]);
        let p = sharding(&[&["x"]]).placement(&permuted).unwrap();
        assert_eq!(p.devices_of(&[0]), vec![4, 5, 6, 7]);
    }

    #[test]
    fn axis_errors() {
        let m = mesh_2x4();
        assert!(sharding(&[&["z"]]).placement(&m).is_err());
        assert!(sharding(&[&["x"], &["x"]]).placement(&m).is_err());
        let mut s = sharding(&[&["x"]]);
        s.replicated = vec!["x".into()];
        assert!(s.placement(&m).is_err());
        let mut s = sharding(&[&["x"]]);
        s.unreduced = vec!["y".into()];
        assert!(matches!(s.placement(&m), Err(ShardingError::Unsupported(_))));
    }
}
