//! The named 2-D logical mesh that printed shardings refer to.
//!
//! Device numbers here are the ids XLA's SPMD partitioner sees (partition ids `0..n`), not a
//! cluster's physical ids. By default the device at row-major position `p` has id `p`; an explicit
//! `device_ids` (a permutation of `0..n`, Shardy's `device_ids=[...]`) reorders them.

use crate::cluster::DeviceMesh;
use crate::sharding::error::ShardingError;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedMesh {
    name: String,
    axis_names: [String; 2],
    shape: [usize; 2],
    device_ids: Option<Vec<u32>>,
}

impl NamedMesh {
    /// `@mesh` with axes `"x"` and `"y"` and devices in row-major order.
    pub fn new(shape: [usize; 2]) -> Result<Self, ShardingError> {
        let [n0, n1] = shape;
        if n0 == 0 || n1 == 0 || n0.checked_mul(n1).is_none_or(|n| n > u32::MAX as usize) {
            return Err(ShardingError::Mesh(format!("bad mesh shape {n0}x{n1}")));
        }
        Ok(NamedMesh { name: "mesh".into(), axis_names: ["x".into(), "y".into()], shape, device_ids: None })
    }

    /// The logical shape of a cost-model mesh (its physical device ids are not partition ids).
    pub fn for_device_mesh(mesh: &DeviceMesh) -> Result<Self, ShardingError> {
        NamedMesh::new(mesh.shape)
    }

    pub fn with_name(mut self, name: &str) -> Result<Self, ShardingError> {
        let ok = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || "_$.-".contains(c));
        if !ok {
            return Err(ShardingError::Mesh(format!("`{name}` is not a valid mesh symbol name")));
        }
        self.name = name.to_string();
        Ok(self)
    }

    pub fn with_axis_names(mut self, axis0: &str, axis1: &str) -> Result<Self, ShardingError> {
        for n in [axis0, axis1] {
            if n.is_empty() || n.contains(['"', '\\']) || n.chars().any(char::is_control) {
                return Err(ShardingError::Mesh(format!("`{n}` is not a valid axis name")));
            }
        }
        if axis0 == axis1 {
            return Err(ShardingError::Mesh(format!("both mesh axes are named `{axis0}`")));
        }
        self.axis_names = [axis0.to_string(), axis1.to_string()];
        Ok(self)
    }

    /// Sets the device order; it must be a permutation of `0..n`. The identity order is stored
    /// as `None`, as Shardy prints it.
    pub fn with_device_ids(mut self, ids: Vec<u32>) -> Result<Self, ShardingError> {
        let n = self.num_devices();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        if sorted.len() != n || sorted.iter().enumerate().any(|(i, &d)| d as usize != i) {
            return Err(ShardingError::Mesh(format!(
                "device ids of a {}x{} mesh must be a permutation of 0..{n}",
                self.shape[0], self.shape[1]
            )));
        }
        let is_iota = ids.iter().enumerate().all(|(i, &d)| d as usize == i);
        self.device_ids = if is_iota { None } else { Some(ids) };
        Ok(self)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn axis_names(&self) -> &[String; 2] {
        &self.axis_names
    }

    pub fn shape(&self) -> [usize; 2] {
        self.shape
    }

    /// The explicit device order, `None` when it is the identity.
    pub fn explicit_device_ids(&self) -> Option<&[u32]> {
        self.device_ids.as_deref()
    }

    pub fn num_devices(&self) -> usize {
        self.shape[0] * self.shape[1]
    }

    /// The id of the device at row-major position `position`.
    pub fn device_id(&self, position: usize) -> u32 {
        match &self.device_ids {
            Some(ids) => ids[position],
            None => position as u32,
        }
    }

    pub fn device_ids(&self) -> Vec<u32> {
        (0..self.num_devices()).map(|p| self.device_id(p)).collect()
    }

    /// The mesh axis called `name`.
    pub fn axis_index(&self, name: &str) -> Option<usize> {
        self.axis_names.iter().position(|n| n == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_builders() {
        let m = NamedMesh::new([2, 4]).unwrap();
        assert_eq!((m.name(), m.axis_names()[0].as_str(), m.axis_names()[1].as_str()), ("mesh", "x", "y"));
        assert_eq!(m.device_ids(), (0..8).collect::<Vec<_>>());
        let m = m.with_name("m2").unwrap().with_axis_names("data", "model").unwrap();
        assert_eq!(m.axis_index("model"), Some(1));
        let m = m.with_device_ids(vec![1, 0, 2, 3, 4, 5, 6, 7]).unwrap();
        assert_eq!(m.device_id(0), 1);
        let m = m.with_device_ids((0..8).collect()).unwrap();
        assert_eq!(m.explicit_device_ids(), None);
    }

    #[test]
    fn rejects_bad_input() {
        assert!(NamedMesh::new([0, 4]).is_err());
        let m = NamedMesh::new([2, 2]).unwrap();
        assert!(m.clone().with_name("9x").is_err());
        assert!(m.clone().with_name("a b").is_err());
        assert!(m.clone().with_axis_names("x", "x").is_err());
        assert!(m.clone().with_axis_names("", "y").is_err());
        assert!(m.clone().with_axis_names("a\"", "y").is_err());
        assert!(m.clone().with_device_ids(vec![0, 1, 2]).is_err());
        assert!(m.clone().with_device_ids(vec![0, 1, 2, 2]).is_err());
        assert!(m.with_device_ids(vec![0, 1, 2, 4]).is_err());
    }
}
