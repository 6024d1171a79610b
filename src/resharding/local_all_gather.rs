//! Local all-gather (Alpa §6, Fig. 6): where the destination replicates a tile over k devices,
//! each byte crosses once: device j of a replica group receives the j-th of k chunks of the
//! tile along one dimension, and an all-gather inside the group rebuilds the tile.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §6.

use crate::cluster::Cluster;
use crate::resharding::cost::Traffic;
use crate::resharding::layout::{chunk_size, TensorDesc};
use crate::resharding::plan::Gather;

/// The dimension to split destination tiles along: the largest (ceil-sized, as XLA pads) tile
/// dimension that divides by `k`, the lowest such dimension on ties. Every destination tile has
/// the same padded shape, so one dimension serves every group. `None` when no dimension does
/// (or the tile is empty).
pub(crate) fn split_dim(shape: &[i64], dst_parts: &[usize], k: usize) -> Option<usize> {
    let k = k as i64;
    (0..shape.len())
        .map(|d| (d, chunk_size(shape[d], dst_parts[d])))
        .filter(|&(_, c)| c > 0 && c % k == 0)
        .max_by_key(|&(d, c)| (c, std::cmp::Reverse(d)))
        .map(|(d, _)| d)
}

/// The hops of the groups' ring all-gathers (device ids ascending, wrapping around): each device
/// passes its successor every part but the successor's own.
pub(crate) fn gather_traffic(gathers: &[Gather], tensor: &TensorDesc, cluster: &Cluster) -> Traffic {
    let mut traffic = Traffic::default();
    let bytes = |s| tensor.bytes_of(s).unwrap_or(0);
    for gather in gathers {
        let mut ring: Vec<(usize, u64)> =
            gather.devices.iter().zip(&gather.parts).map(|(&d, part)| (d, bytes(part))).collect();
        if ring.len() < 2 {
            continue;
        }
        ring.sort();
        let tile_bytes = bytes(&gather.tile);
        for i in 0..ring.len() {
            let (from, (to, to_part)) = (ring[i].0, ring[(i + 1) % ring.len()]);
            traffic.hop(cluster, from, to, tile_bytes.saturating_sub(to_part));
        }
    }
    traffic
}
