//! Cluster description, logical device meshes and the alpha-beta collective cost model.
//!
//! Plain data, no MLIR: a [`Cluster`] comes from a preset name or a JSON file
//! ([`Cluster::load`]); a [`DeviceMesh`] is a logical 2-D view of some of its devices (or an
//! abstract one) with a latency and an inverse bandwidth per axis; `collective` prices
//! all-gather, all-reduce, reduce-scatter, all-to-all and send/recv on it.

pub mod collective;
pub mod error;
pub mod matmul_table;
pub mod measured;
pub mod mesh;
pub mod presets;
pub mod spec;

pub use collective::{Collective, MeshAxes};
pub use error::ClusterError;
pub use matmul_table::{GemmShape, MatmulRate};
pub use measured::{CollectiveFit, CollectiveFits, MatmulPlateau, Measured, PeerLink, XlaOverheads};
pub use mesh::{parse_mesh_shape, DeviceMesh, PhysicalSubmesh};
pub use presets::{preset, preset_names};
pub use spec::{Cluster, DeviceSpec, LinkSpec};
