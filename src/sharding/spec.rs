//! Sharding specs on a 2-D mesh (paper §4.1, Table 1): one of R, S0, S1, S01, S10 per dimension.
//!
//! A mesh of shape `[n0, n1]` has devices at positions `(i, j)`; `S0` splits a dimension into
//! `n0` parts and the device at `(i, j)` holds part `i`; `S1` gives part `j` of `n1`; `S01` splits
//! into `n0 * n1` parts with mesh axis 0 major (part `i * n1 + j`); `S10` is the same with axis 1
//! major (part `j * n0 + i`). The paper only names S01, but S10 is what a transposed device order
//! produces (GSPMD `T(1,0)` iotas, sdy `{"y", "x"}`), so keeping it makes parsing total over the
//! layouts a 2-D mesh can express. `R` replicates. Each mesh axis shards at most one dimension.
//!
//! Text form (`Display`/`FromStr`): the per-dimension names concatenated, as in the paper:
//! `S0R`, `RS01`, `S1S0`; a rank-0 spec is `[]`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::cluster::MeshAxes;
use crate::sharding::error::{IndivisibleDim, ShardingError};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum DimSharding {
    R,
    S0,
    S1,
    S01,
    S10,
}

impl DimSharding {
    pub const ALL: [DimSharding; 5] =
        [DimSharding::R, DimSharding::S0, DimSharding::S1, DimSharding::S01, DimSharding::S10];

    /// The mesh axes this dimension is split over, major first.
    pub fn mesh_axes(self) -> &'static [usize] {
        match self {
            DimSharding::R => &[],
            DimSharding::S0 => &[0],
            DimSharding::S1 => &[1],
            DimSharding::S01 => &[0, 1],
            DimSharding::S10 => &[1, 0],
        }
    }

    /// The inverse of [`DimSharding::mesh_axes`].
    pub fn from_mesh_axes(axes: &[usize]) -> Option<DimSharding> {
        Some(match axes {
            [] => DimSharding::R,
            [0] => DimSharding::S0,
            [1] => DimSharding::S1,
            [0, 1] => DimSharding::S01,
            [1, 0] => DimSharding::S10,
            _ => return None,
        })
    }

    /// The group of devices that hold the parts of this dimension, for collectives along it.
    pub fn comm_axes(self) -> Option<MeshAxes> {
        match self {
            DimSharding::R => None,
            DimSharding::S0 => Some(MeshAxes::Axis0),
            DimSharding::S1 => Some(MeshAxes::Axis1),
            DimSharding::S01 | DimSharding::S10 => Some(MeshAxes::Both),
        }
    }

    /// Number of parts the dimension is split into on a mesh of `shape`.
    pub fn num_parts(self, shape: [usize; 2]) -> usize {
        self.mesh_axes().iter().map(|&a| shape[a]).product()
    }

    /// The part held by the device at mesh coordinates `coord`.
    pub fn part_at(self, shape: [usize; 2], coord: [usize; 2]) -> usize {
        self.mesh_axes().iter().fold(0, |acc, &a| acc * shape[a] + coord[a])
    }

    /// The same split with mesh axes of size 1 dropped (S01 on a 1xN mesh is S1).
    pub fn normalized(self, shape: [usize; 2]) -> DimSharding {
        let axes: Vec<usize> = self.mesh_axes().iter().copied().filter(|&a| shape[a] > 1).collect();
        DimSharding::from_mesh_axes(&axes).unwrap_or(self)
    }

    pub fn name(self) -> &'static str {
        match self {
            DimSharding::R => "R",
            DimSharding::S0 => "S0",
            DimSharding::S1 => "S1",
            DimSharding::S01 => "S01",
            DimSharding::S10 => "S10",
        }
    }
}

/// How one tensor is laid out on a 2-D mesh: a [`DimSharding`] per dimension, each mesh axis
/// used at most once.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "Vec<DimSharding>", into = "Vec<DimSharding>")]
pub struct ShardingSpec {
    dims: Vec<DimSharding>,
}

impl TryFrom<Vec<DimSharding>> for ShardingSpec {
    type Error = ShardingError;
    fn try_from(dims: Vec<DimSharding>) -> Result<Self, ShardingError> {
        ShardingSpec::new(dims)
    }
}

impl From<ShardingSpec> for Vec<DimSharding> {
    fn from(spec: ShardingSpec) -> Self {
        spec.dims
    }
}

impl ShardingSpec {
    pub fn new(dims: Vec<DimSharding>) -> Result<Self, ShardingError> {
        let spec = ShardingSpec { dims };
        for axis in 0..2 {
            let users: Vec<usize> = (0..spec.rank()).filter(|&d| spec.dims[d].mesh_axes().contains(&axis)).collect();
            if users.len() > 1 {
                return Err(ShardingError::Invalid(format!(
                    "mesh axis {axis} shards dimensions {users:?} of {spec}; an axis can shard one dimension"
                )));
            }
        }
        Ok(spec)
    }

    pub fn replicated(rank: usize) -> Self {
        ShardingSpec { dims: vec![DimSharding::R; rank] }
    }

    pub fn dims(&self) -> &[DimSharding] {
        &self.dims
    }

    pub fn rank(&self) -> usize {
        self.dims.len()
    }

    pub fn is_replicated(&self, shape: [usize; 2]) -> bool {
        self.parts_per_dim(shape).iter().all(|&p| p == 1)
    }

    /// The dimension mesh axis `axis` shards, if any.
    pub fn dim_of_axis(&self, axis: usize) -> Option<usize> {
        self.dims.iter().position(|d| d.mesh_axes().contains(&axis))
    }

    pub fn parts_per_dim(&self, shape: [usize; 2]) -> Vec<usize> {
        self.dims.iter().map(|d| d.num_parts(shape)).collect()
    }

    /// Number of distinct tiles.
    pub fn num_tiles(&self, shape: [usize; 2]) -> usize {
        self.parts_per_dim(shape).iter().product()
    }

    /// How many devices hold each tile: the product of the mesh axes no dimension uses.
    pub fn num_replicas(&self, shape: [usize; 2]) -> usize {
        (0..2).filter(|&a| self.dim_of_axis(a).is_none()).map(|a| shape[a]).product()
    }

    /// The spec with mesh axes of size 1 dropped; specs that place tiles identically on a mesh
    /// of `shape` have the same normal form.
    pub fn normalized(&self, shape: [usize; 2]) -> ShardingSpec {
        ShardingSpec { dims: self.dims.iter().map(|d| d.normalized(shape)).collect() }
    }

    /// Checks rank and that every dimension divides evenly; lists every offending dimension.
    pub fn check_shape(&self, tensor_shape: &[i64], mesh_shape: [usize; 2]) -> Result<(), ShardingError> {
        self.tile_shape(tensor_shape, mesh_shape).map(|_| ())
    }

    /// The shape of one tile.
    pub fn tile_shape(&self, tensor_shape: &[i64], mesh_shape: [usize; 2]) -> Result<Vec<i64>, ShardingError> {
        if tensor_shape.len() != self.rank() {
            return Err(ShardingError::RankMismatch { sharding_rank: self.rank(), tensor_rank: tensor_shape.len() });
        }
        if let Some(dim) = tensor_shape.iter().position(|&s| s < 0) {
            return Err(ShardingError::Invalid(format!("dimension {dim} has negative size {}", tensor_shape[dim])));
        }
        let parts = self.parts_per_dim(mesh_shape);
        let bad: Vec<IndivisibleDim> = (0..self.rank())
            .filter(|&d| tensor_shape[d] % parts[d] as i64 != 0)
            .map(|d| IndivisibleDim { dim: d, size: tensor_shape[d], shards: parts[d] })
            .collect();
        if !bad.is_empty() {
            return Err(ShardingError::NotDivisible { dims: bad });
        }
        Ok(tensor_shape.iter().zip(&parts).map(|(&s, &p)| s / p as i64).collect())
    }

    /// Bytes of one device's tile of a tensor of `total_bytes` (assumes divisibility).
    pub fn tile_bytes(&self, total_bytes: u64, mesh_shape: [usize; 2]) -> u64 {
        total_bytes / self.num_tiles(mesh_shape) as u64
    }

    /// The tile index per dimension held by the device at row-major mesh position `position`.
    pub fn tile_at(&self, mesh_shape: [usize; 2], position: usize) -> Vec<usize> {
        let coord = [position / mesh_shape[1], position % mesh_shape[1]];
        self.dims.iter().map(|d| d.part_at(mesh_shape, coord)).collect()
    }

    /// Every distinct (normalized) spec of `rank` dimensions on a mesh of `shape`.
    pub fn enumerate(rank: usize, shape: [usize; 2]) -> Vec<ShardingSpec> {
        let choices = |axis: usize| -> Vec<Option<usize>> {
            if shape[axis] > 1 {
                std::iter::once(None).chain((0..rank).map(Some)).collect()
            } else {
                vec![None]
            }
        };
        let mut out = Vec::new();
        for a0 in choices(0) {
            for a1 in choices(1) {
                let mut dims = vec![DimSharding::R; rank];
                if let Some(d) = a0 {
                    dims[d] = DimSharding::S0;
                }
                if let Some(d) = a1 {
                    dims[d] = DimSharding::S1;
                }
                if let (Some(d0), Some(d1)) = (a0, a1) {
                    if d0 == d1 {
                        dims[d0] = DimSharding::S01;
                        out.push(ShardingSpec { dims: dims.clone() });
                        dims[d0] = DimSharding::S10;
                    }
                }
                out.push(ShardingSpec { dims });
            }
        }
        out
    }
}

impl fmt::Display for ShardingSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.dims.is_empty() {
            return write!(f, "[]");
        }
        for d in &self.dims {
            write!(f, "{}", d.name())?;
        }
        Ok(())
    }
}

impl FromStr for ShardingSpec {
    type Err = ShardingError;

    /// Parses the paper's notation (`S0R`, `RS01`, `S1S0`), whitespace and commas allowed
    /// between dimensions; `[]` is rank 0.
    fn from_str(text: &str) -> Result<Self, ShardingError> {
        let err = |offset: usize, message: &str| ShardingError::Parse {
            input: text.to_string(),
            offset,
            message: message.to_string(),
        };
        if text.trim() == "[]" {
            return Ok(ShardingSpec::replicated(0));
        }
        let bytes = text.as_bytes();
        let mut dims = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b' ' | b'\t' | b',' => i += 1,
                b'R' => {
                    dims.push(DimSharding::R);
                    i += 1;
                }
                b'S' => {
                    let d = match (bytes.get(i + 1), bytes.get(i + 2)) {
                        (Some(b'0'), Some(b'1')) => DimSharding::S01,
                        (Some(b'1'), Some(b'0')) => DimSharding::S10,
                        (Some(b'0'), _) => DimSharding::S0,
                        (Some(b'1'), _) => DimSharding::S1,
                        _ => return Err(err(i, "`S` must be followed by 0, 1, 01 or 10")),
                    };
                    i += d.name().len();
                    dims.push(d);
                }
                _ => return Err(err(i, "expected R, S0, S1, S01 or S10")),
            }
        }
        if dims.is_empty() {
            return Err(err(0, "empty spec (write `[]` for rank 0)"));
        }
        ShardingSpec::new(dims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use DimSharding::*;

    fn spec(s: &str) -> ShardingSpec {
        s.parse().unwrap()
    }

    #[test]
    fn text_round_trip() {
        for s in ["S0R", "RS01", "S1S0", "S10R", "R", "RRS1", "[]"] {
            assert_eq!(spec(s).to_string(), s);
        }
        assert_eq!(spec("S0, R").dims(), &[S0, R]);
        for bad in ["", "S", "S2", "X", "S0S0", "S01S1", "S10 S0"] {
            assert!(bad.parse::<ShardingSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn axis_used_once() {
        assert!(ShardingSpec::new(vec![S0, S1]).is_ok());
        assert!(ShardingSpec::new(vec![S0, S0]).is_err());
        assert!(ShardingSpec::new(vec![S01, S1]).is_err());
        assert!(ShardingSpec::new(vec![S10, R, S0]).is_err());
    }

    #[test]
    fn tiles_and_replicas_on_2x4() {
        let m = [2, 4];
        assert_eq!(spec("S0R").tile_shape(&[8, 6], m).unwrap(), vec![4, 6]);
        assert_eq!(spec("S0R").num_replicas(m), 4);
        assert_eq!(spec("RS01").tile_shape(&[3, 16], m).unwrap(), vec![3, 2]);
        assert_eq!(spec("RS01").num_replicas(m), 1);
        assert_eq!(spec("S1S0").num_tiles(m), 8);
        assert_eq!(spec("RR").num_replicas(m), 8);
        assert_eq!(spec("S0R").tile_bytes(64, m), 32);
    }

    #[test]
    fn divisibility_errors_list_every_dim() {
        let err = spec("S0S1").check_shape(&[3, 6], [2, 4]).unwrap_err();
        let ShardingError::NotDivisible { dims } = &err else { panic!("{err}") };
        assert_eq!(dims.len(), 2);
        assert_eq!((dims[0].dim, dims[0].size, dims[0].shards), (0, 3, 2));
        assert_eq!((dims[1].dim, dims[1].size, dims[1].shards), (1, 6, 4));
        assert!(err.to_string().contains("dim 1 (size 6) into 4 shards"), "{err}");
        assert!(matches!(spec("S0").check_shape(&[2, 2], [2, 1]), Err(ShardingError::RankMismatch { .. })));
        assert!(spec("R").check_shape(&[-1], [2, 1]).is_err());
    }

    #[test]
    fn placement_of_each_kind() {
        let m = [2, 4];
        // Position 6 is (1, 2).
        assert_eq!(spec("S0S1").tile_at(m, 6), vec![1, 2]);
        assert_eq!(spec("S01R").tile_at(m, 6), vec![6, 0]);
        assert_eq!(spec("S10R").tile_at(m, 6), vec![5, 0]);
        assert_eq!(spec("RS1").tile_at(m, 6), vec![0, 2]);
        // The paper's example: S0R on 2x2 puts row block 0 on devices 0, 1.
        let s = spec("S0R");
        assert_eq!((0..4).map(|p| s.tile_at([2, 2], p)[0]).collect::<Vec<_>>(), vec![0, 0, 1, 1]);
    }

    #[test]
    fn normalization_drops_size_one_axes() {
        assert_eq!(spec("S01R").normalized([1, 4]), spec("S1R"));
        assert_eq!(spec("S10R").normalized([4, 1]), spec("S0R"));
        assert_eq!(spec("S1R").normalized([4, 1]), spec("RR"));
        assert_eq!(spec("S10").normalized([2, 2]), spec("S10"));
    }

    #[test]
    fn enumeration_counts() {
        // r^2 + 3r + 1 specs when both axes are larger than 1.
        for r in 0..5 {
            let all = ShardingSpec::enumerate(r, [2, 4]);
            assert_eq!(all.len(), r * r + 3 * r + 1);
            let mut sorted = all.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), all.len());
        }
        assert_eq!(ShardingSpec::enumerate(2, [1, 4]).len(), 3);
        assert_eq!(ShardingSpec::enumerate(2, [1, 1]), vec![spec("RR")]);
    }

    #[test]
    fn serde_checks_validity() {
        let json = serde_json::to_string(&spec("S0S1")).unwrap();
        assert_eq!(json, r#"["S0","S1"]"#);
        assert_eq!(serde_json::from_str::<ShardingSpec>(&json).unwrap(), spec("S0S1"));
        assert!(serde_json::from_str::<ShardingSpec>(r#"["S0","S0"]"#).is_err());
    }

    #[test]
    fn comm_axes() {
        assert_eq!(S01.comm_axes(), Some(MeshAxes::Both));
        assert_eq!(S1.comm_axes(), Some(MeshAxes::Axis1));
        assert_eq!(R.comm_axes(), None);
    }
}
