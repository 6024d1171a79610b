//! Who sends each piece, and the hops that deliver it.
//!
//! Balanced (the planner's choice): a receiver that holds the piece itself copies it locally;
//! otherwise the sender is a replica on a receiver's host when one exists (the piece then need
//! not cross hosts to get there), and among the candidates the one whose host link (for pieces
//! that cross hosts) and then whose device has the fewest bytes assigned so far, lowest device
//! id on ties. Pieces are assigned largest first, which balances better than arrival order.
//! First replica (the naive plan the tests compare with): always the first replica in mesh
//! order.

use std::collections::BTreeSet;

use crate::cluster::Cluster;
use crate::resharding::cost::{host_of, Traffic};
use crate::resharding::plan::Piece;
use crate::resharding::slice::Slice;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SenderPolicy {
    #[default]
    Balanced,
    FirstReplica,
}

/// A slice that `receivers` need and that each of `holders` (in source mesh order) has.
pub(crate) struct Request {
    pub slice: Slice,
    pub bytes: u64,
    pub holders: Vec<usize>,
    pub receivers: Vec<usize>,
}

/// Turns requests into pieces (in request order; local copies of a request first) and the
/// traffic of their hops.
pub(crate) fn assign(requests: &[Request], cluster: &Cluster, policy: SenderPolicy) -> (Vec<Piece>, Traffic) {
    let mut traffic = Traffic::default();
    let mut order: Vec<usize> = (0..requests.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(requests[i].bytes));
    let mut per_request: Vec<Vec<Piece>> = vec![Vec::new(); requests.len()];
    for i in order {
        let request = &requests[i];
        let has_it = |d: &usize| match policy {
            SenderPolicy::Balanced => request.holders.contains(d),
            SenderPolicy::FirstReplica => request.holders.first() == Some(d),
        };
        let (local, remote): (Vec<usize>, Vec<usize>) = request.receivers.iter().partition(|d| has_it(d));
        let pieces = &mut per_request[i];
        for &d in &local {
            pieces.push(Piece { src: d, dsts: vec![d], slice: request.slice.clone() });
        }
        if remote.is_empty() {
            continue;
        }
        let Some(src) = choose_sender(&request.holders, &remote, &traffic, cluster, policy) else {
            continue;
        };
        for (from, to) in chain(src, &remote, cluster) {
            traffic.hop(cluster, from, to, request.bytes);
        }
        pieces.push(Piece { src, dsts: remote, slice: request.slice.clone() });
    }
    (per_request.into_iter().flatten().collect(), traffic)
}

fn choose_sender(
    holders: &[usize],
    receivers: &[usize],
    traffic: &Traffic,
    cluster: &Cluster,
    policy: SenderPolicy,
) -> Option<usize> {
    if policy == SenderPolicy::FirstReplica {
        return holders.first().copied();
    }
    let receiver_hosts: BTreeSet<usize> = receivers.iter().map(|&d| host_of(cluster, d)).collect();
    let near: Vec<usize> = holders.iter().copied().filter(|&d| receiver_hosts.contains(&host_of(cluster, d))).collect();
    let candidates = if near.is_empty() { holders.to_vec() } else { near };
    candidates.into_iter().min_by_key(|&d| {
        let host = host_of(cluster, d);
        let crosses = receiver_hosts.iter().any(|&h| h != host);
        let link_load = if crosses { traffic.sent_by_host(host) } else { 0 };
        (link_load, traffic.sent_by_device(d), d)
    })
}

/// The hops of a pipelined delivery from `src` to `receivers`: a chain that visits the
/// receivers on the sender's host first, then the other hosts in order (device ids ascending
/// inside a host), so each host is entered once and left once. One receiver: one hop.
pub(crate) fn chain(src: usize, receivers: &[usize], cluster: &Cluster) -> Vec<(usize, usize)> {
    let home = host_of(cluster, src);
    let mut order = receivers.to_vec();
    order.sort_by_key(|&d| {
        let h = host_of(cluster, d);
        (h != home, h, d)
    });
    std::iter::once(src).chain(order.iter().copied()).zip(order.iter().copied()).collect()
}
