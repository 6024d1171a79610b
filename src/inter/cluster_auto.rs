//! `layers=auto`: the clustering DP for a range of L, and the choice among them (rule in
//! [`AutoLayers`]).

use super::cluster_graph::{CommGraph, OpNode};
use super::clustering::{cluster_fixed, AutoLayers, AutoTrial, Clustering};
use super::error::InterError;
use super::progress::Progress;

pub(crate) fn cluster_auto(
    ops: &[OpNode],
    graph: &CommGraph,
    auto: &AutoLayers,
    delta: f64,
    progress: bool,
) -> Result<Clustering, InterError> {
    let k = graph.num_ops();
    let hi = auto.max_layers.min(k);
    let lo = auto.min_layers.max(1);
    if lo > hi || !(auto.comm_slack >= 0.0) {
        return Err(InterError::InvalidInput(format!(
            "auto layers: range {}..={} (capped at {k} ops) is empty or slack {} < 0",
            auto.min_layers, auto.max_layers, auto.comm_slack
        )));
    }
    let log = Progress::new(progress, "clustering");
    let mut results: Vec<(usize, Result<Clustering, InterError>)> = Vec::new();
    for l in lo..=hi {
        let r = cluster_fixed(ops, graph, l, delta, progress);
        log.say(|| match &r {
            Ok(c) => format!("L = {l}: max layer communication {} bytes, FLOP variance {:.4e}", c.max_comm, c.flop_variance),
            Err(e) => format!("L = {l}: {e}"),
        });
        results.push((l, r));
    }
    let trials: Vec<AutoTrial> = results
        .iter()
        .map(|(l, r)| AutoTrial {
            layers: *l,
            max_comm: r.as_ref().ok().map(|c| c.max_comm),
            flop_variance: r.as_ref().ok().map(|c| c.flop_variance),
        })
        .collect();
    let feasible: Vec<(usize, u64)> = trials.iter().filter_map(|t| t.max_comm.map(|c| (t.layers, c))).collect();
    let reference_set: Vec<&(usize, u64)> = if feasible.iter().any(|(l, _)| *l >= 2) {
        feasible.iter().filter(|(l, _)| *l >= 2).collect()
    } else {
        feasible.iter().collect()
    };
    let Some(reference) = reference_set.iter().map(|(_, c)| *c).min() else {
        // Nothing feasible: report the smallest L's error (it needs the least delta).
        return Err(results.into_iter().next().map(|(_, r)| r.err()).flatten().unwrap_or_else(|| {
            InterError::InvalidInput("auto layers: no candidate".into())
        }));
    };
    let limit = reference as f64 * (1.0 + auto.comm_slack);
    let chosen = reference_set
        .iter()
        .filter(|(_, c)| *c as f64 <= limit)
        .map(|(l, _)| *l)
        .max()
        .unwrap_or(lo);
    let mut out = results
        .into_iter()
        .find(|(l, _)| *l == chosen)
        .and_then(|(_, r)| r.ok())
        .ok_or_else(|| InterError::InvalidInput("internal error: auto layers lost its choice".into()))?;
    out.auto = trials;
    log.say(|| format!("chose L = {chosen} (max layer communication {} bytes)", out.max_comm));
    Ok(out)
}
