//! Exhaustive clustering for small graphs (the reference the DP is tested against).

use super::cluster_graph::{layer_comm, CommGraph, OpNode};
use super::clustering::{variance, within_cap};

/// Largest op count the brute force accepts.
pub const CLUSTER_BRUTE_MAX_OPS: usize = 14;

/// The lexicographic optimum (max layer communication, FLOP variance) over every cut of `ops`
/// into `layers` non-empty contiguous layers meeting the FLOP cap; `None` if none does (or
/// the input is too large or invalid).
pub fn brute_force_clustering(ops: &[OpNode], layers: usize, delta: f64) -> Option<(u64, f64)> {
    let k = ops.len();
    if k == 0 || k > CLUSTER_BRUTE_MAX_OPS || layers == 0 || layers > k {
        return None;
    }
    let graph = CommGraph::new(ops).ok()?;
    let cap = (1.0 + delta) * graph.prefix[k] / layers as f64;
    let mut best: Option<(u64, f64)> = None;
    // Bit b of mask set: a layer starts at op b + 1.
    for mask in 0u32..(1u32 << (k - 1)) {
        if mask.count_ones() as usize != layers - 1 {
            continue;
        }
        let mut bounds = vec![0];
        bounds.extend((0..k - 1).filter(|b| mask & (1 << b) != 0).map(|b| b + 1));
        bounds.push(k);
        if !bounds.windows(2).all(|w| within_cap(graph.flops(w[0], w[1]), cap)) {
            continue;
        }
        let comm = bounds.windows(2).map(|w| layer_comm(ops, w[0], w[1] - 1)).max().unwrap_or(0);
        let flops: Vec<f64> = bounds.windows(2).map(|w| graph.flops(w[0], w[1])).collect();
        let var = variance(&flops);
        let better = match best {
            None => true,
            Some((c, v)) => comm < c || (comm == c && var < v),
        };
        if better {
            best = Some((comm, var));
        }
    }
    best
}
