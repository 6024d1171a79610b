//! The cluster model that prices a transfer plan, and the lower bound no plan can beat.
//!
//! Follows Alpa §6 (cross-mesh resharding as concurrent point-to-point transfers, then the
//! local all-gather of Fig. 6 inside the destination mesh) with the network of Zhuang et al.,
//! MLSys'23 (cross-mesh resharding as many-to-many multicast where each host's network link is
//! the shared resource and a pipelined broadcast costs `alpha + beta * bytes` per link it
//! crosses). Every byte moves in *hops* between two devices:
//! - a hop between hosts goes through the sender host's outgoing link and the receiver host's
//!   incoming link (`inter_host`, full duplex);
//! - a hop inside a host goes through the sending device's link (`intra_host`).
//!
//! All hops of a phase run concurrently, so a phase takes
//! `max over resources r of (alpha_r + beta_r * bytes_r)` (resources with no bytes take 0).
//! A plan has two phases: its pieces, then its local all-gathers (ring all-gathers: in a group
//! of k devices holding a tile of B bytes each device passes B minus its successor's part to its
//! successor, `(k-1)/k * B` for even parts, which is DESIGN.md's all-gather cost
//! `alpha + beta * (k-1)/k * B` on the link the group spans). The ring runs in device id order,
//! so it enters and leaves every host once, and gathers of different groups that share a host
//! share its link. `cost = phase(pieces) + phase(gathers)`.
//!
//! Lower bound: a destination host must receive, through its incoming link, every byte of the
//! distinct tiles its devices need that no device on the host holds in the source layout:
//! `lower_bound = max over hosts h (alpha_inter + beta_inter * missing(h))`. Every mode moves
//! those bytes into `h` in one of its two phases, so `cost >= lower_bound`.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §6.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::cluster::{Cluster, LinkSpec};

/// Bytes per network resource of one phase.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Traffic {
    /// Bytes each host sends to other hosts.
    pub host_out: BTreeMap<usize, u64>,
    /// Bytes each host receives from other hosts.
    pub host_in: BTreeMap<usize, u64>,
    /// Bytes each device sends to devices of its own host.
    pub device_intra: BTreeMap<usize, u64>,
    /// Bytes each device sends over any link (its load for sender balancing).
    pub device_sent: BTreeMap<usize, u64>,
}

fn add(map: &mut BTreeMap<usize, u64>, key: usize, bytes: u64) {
    let slot = map.entry(key).or_insert(0);
    *slot = slot.saturating_add(bytes);
}

fn get(map: &BTreeMap<usize, u64>, key: usize) -> u64 {
    map.get(&key).copied().unwrap_or(0)
}

/// `alpha + beta * bytes` when anything moves.
fn link_seconds(link: &LinkSpec, bytes: u64) -> f64 {
    if bytes == 0 {
        0.0
    } else {
        link.transfer_seconds(bytes as f64)
    }
}

impl Traffic {
    /// Records `bytes` going from device `from` to device `to` (nothing when they are the same
    /// device: a local copy).
    pub(crate) fn hop(&mut self, cluster: &Cluster, from: usize, to: usize, bytes: u64) {
        if from == to || bytes == 0 {
            return;
        }
        add(&mut self.device_sent, from, bytes);
        let (hf, ht) = (host_of(cluster, from), host_of(cluster, to));
        if hf == ht {
            add(&mut self.device_intra, from, bytes);
        } else {
            add(&mut self.host_out, hf, bytes);
            add(&mut self.host_in, ht, bytes);
        }
    }

    pub fn sent_by_device(&self, device: usize) -> u64 {
        get(&self.device_sent, device)
    }

    pub fn sent_by_host(&self, host: usize) -> u64 {
        get(&self.host_out, host)
    }

    pub fn bytes_across_hosts(&self) -> u64 {
        self.host_out.values().fold(0u64, |a, &b| a.saturating_add(b))
    }

    /// The phase's seconds: the busiest resource (see the module doc).
    pub fn seconds(&self, cluster: &Cluster) -> f64 {
        let inter = cluster.inter_host_link();
        let hosts = self.host_out.values().chain(self.host_in.values()).map(|&b| link_seconds(&inter, b));
        let devices = self.device_intra.values().map(|&b| link_seconds(&cluster.intra_host, b));
        hosts.chain(devices).fold(0.0, f64::max)
    }
}

pub(crate) fn host_of(cluster: &Cluster, device: usize) -> usize {
    device / cluster.devices_per_host.max(1)
}

/// The lower bound from the bytes each destination host is missing (module doc); shaved by a
/// few ulps so that `cost >= lower_bound` survives floating-point rounding of the sums.
pub(crate) fn lower_bound(cluster: &Cluster, missing_per_host: &BTreeMap<usize, u64>) -> f64 {
    let inter = cluster.inter_host_link();
    let bound = missing_per_host.values().map(|&b| link_seconds(&inter, b)).fold(0.0, f64::max);
    bound * (1.0 - 8.0 * f64::EPSILON)
}
