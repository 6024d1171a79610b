//! Cross-mesh resharding (Alpa §6): how a tensor laid out on one stage's device mesh moves to the
//! layout the next stage needs on its mesh. Plain data, no MLIR: [`plan`] returns the pieces
//! (which source device sends which slice to which destination devices), the local all-gathers
//! and the cost; [`execute_on_host`] applies a plan to host arrays.
//!
//! 1. Tile correspondence: device at mesh position p of a layout holds [`tile_of`], XLA's
//!    uneven tiling (dimension of n elements in P parts: part i is
//!    `[i*c, min((i+1)*c, n))` with `c = ceil(n/P)`, possibly empty). A destination tile needs
//!    its intersection with every source tile, each held by all replicas of that tile.
//! 2. Modes ([`Mode`]):
//!    - send-recv: every destination device receives its tile, piece by piece;
//!    - local-all-gather: a tile replicated over k destination devices is split into k chunks
//!      along the largest tile dimension that divides by k; device j receives chunk j, then an
//!      all-gather in the group rebuilds the tile (send/recv when no dimension divides);
//!    - broadcast: each distinct piece goes once, by a pipelined broadcast, to every device of
//!      the destination replica group (Zhuang et al., MLSys'23);
//!    - auto: the cheapest, ties in that order.
//! 3. Senders: a local copy when the receiver holds the piece, else a replica on a receiver's
//!    host, else the replica whose host link then whose device has the fewest bytes so far.
//! 4. Cost (`cost` module): per phase (pieces, then all-gathers) the busiest resource, where each
//!    host's inter-host link carries, in each direction, `alpha + beta * bytes` of the hops
//!    crossing it and each device's intra-host link `alpha + beta * bytes` of the hops it sends
//!    inside its host; a ring all-gather over k devices of a B-byte tile sends
//!    `(k-1)/k * B` per device. Lower bound: `max over destination hosts h of
//!    alpha_inter + beta_inter * (bytes of h's distinct tiles that no device of h holds)`.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §6.

mod correspondence;
pub mod cost;
pub mod error;
pub mod layout;
mod local_all_gather;
pub mod lowering;
pub mod mode;
pub mod plan;
pub mod senders;
pub mod simulate;
pub mod slice;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use cost::Traffic;
pub use error::ReshardingError;
pub use layout::{tile_of, Layout, TensorDesc};
pub use mode::{Mode, UnknownMode};
pub use plan::{plan, plan_with, Gather, Piece, PlanOptions, TransferPlan};
pub use senders::SenderPolicy;
pub use simulate::{execute_on_host, HostTile};
pub use slice::Slice;
