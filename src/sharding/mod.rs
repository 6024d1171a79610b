//! The sharding vocabulary: specs per tensor dimension on a 2-D mesh (R, S0, S1, S01, S10) and
//! their two printed forms, Shardy (`#sdy.sharding<@mesh, [{"x"}, {}]>`) and GSPMD
//! (`{devices=[2,1,4]<=[8] last_tile_dim_replicate}`), with parsers for both.
//!
//! Every form has one meaning, a [`Placement`] (which device holds which tile); the spec, the sdy
//! form and the GSPMD form each compute it independently, and the property tests check that they
//! agree.

pub mod error;
pub mod gspmd;
pub mod gspmd_convert;
pub mod gspmd_parse;
pub mod mesh;
pub mod placement;
pub mod reshard;
pub mod sdy;
pub mod sdy_convert;
pub mod sdy_parse;
pub mod spec;
pub mod strategy;
mod text;

#[cfg(test)]
mod proptests;

pub use error::{IndivisibleDim, ShardingError};
pub use gspmd::{expand_iota, DeviceOrder, GspmdSharding, SubgroupKind, TileAssignment};
pub use gspmd_parse::parse_gspmd;
pub use mesh::NamedMesh;
pub use placement::Placement;
pub use sdy::{sharding_per_value, SdyAxis, SdyDim, SdyMesh, SdyMeshRef, SdySharding};
pub use sdy_parse::{parse_sdy_mesh, parse_sdy_mesh_decl, parse_sdy_sharding, parse_sdy_sharding_per_value};
pub use spec::{DimSharding, ShardingSpec};
