//! `layers=auto`: the clustering DP for a range of L, and the choice among them (rule in
//! [`AutoLayers`]). Auto never fails on a graph with ops: when no L of the range meets the
//! FLOP cap it tries fewer layers, then two layers at the least delta that admits them; the
//! clustering says which in `auto_fallback`.

use super::cluster_graph::{CommGraph, OpNode};
use super::clustering::{cluster_fixed, needed_delta, AutoFallback, AutoLayers, AutoTrial, Clustering};
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
    if auto.max_layers == 0 || auto.min_layers > auto.max_layers || !(auto.comm_slack >= 0.0) {
        return Err(InterError::InvalidInput(format!(
            "auto layers: range {}..={} is empty or slack {} < 0",
            auto.min_layers, auto.max_layers, auto.comm_slack
        )));
    }
    // A graph with fewer ops than min_layers still gets every count it can hold.
    let hi = auto.max_layers.min(k);
    let lo = auto.min_layers.clamp(1, hi);
    let log = Progress::new(progress, "clustering");
    let mut trials = Vec::new();
    if let Some(c) = choose(ops, graph, lo..=hi, delta, auto.comm_slack, &log, &mut trials)? {
        return Ok(c);
    }
    if lo > 2 {
        if let Some(mut c) = choose(ops, graph, 2..=lo - 1, delta, auto.comm_slack, &log, &mut trials)? {
            c.auto_fallback = Some(AutoFallback::FewerLayers { tried: lo..=hi });
            return Ok(c);
        }
    }
    if k == 1 {
        // Not reached (one op is one layer, feasible under any delta); kept total.
        return Err(InterError::InvalidInput("internal error: one op does not meet its own FLOP cap".into()));
    }
    // Two layers meet the cap at the delta needed_delta reports (tested against brute force);
    // the factor absorbs its bisection's rounding.
    let raised = needed_delta(graph, 2) * (1.0 + 1e-9) + 1e-12;
    let mut c = choose(ops, graph, 2..=2, raised, auto.comm_slack, &log, &mut trials)?
        .ok_or_else(|| InterError::InvalidInput(format!("internal error: two layers do not meet delta {raised}")))?;
    c.auto_fallback = Some(AutoFallback::RaisedDelta { from: delta });
    Ok(c)
}

/// The clustering `layers=auto` takes among `range` at `delta`, or `None` when no count of the
/// range is feasible. Every count tried is appended to `trials` (and the result carries them).
fn choose(
    ops: &[OpNode],
    graph: &CommGraph,
    range: std::ops::RangeInclusive<usize>,
    delta: f64,
    comm_slack: f64,
    log: &Progress,
    trials: &mut Vec<AutoTrial>,
) -> Result<Option<Clustering>, InterError> {
    let mut feasible: Vec<Clustering> = Vec::new();
    for l in range {
        match cluster_fixed(ops, graph, l, delta, log.enabled()) {
            Ok(c) => {
                log.say(|| {
                    format!(
                        "L = {l}, delta {delta}: max layer communication {} bytes, FLOP variance {:.4e}",
                        c.max_comm, c.flop_variance
                    )
                });
                trials.push(AutoTrial {
                    layers: l,
                    delta,
                    max_comm: Some(c.max_comm),
                    flop_variance: Some(c.flop_variance),
                });
                feasible.push(c);
            }
            Err(e @ InterError::ClusteringInfeasible { .. }) => {
                log.say(|| format!("L = {l}: {e}"));
                trials.push(AutoTrial { layers: l, delta, max_comm: None, flop_variance: None });
            }
            Err(e) => return Err(e),
        }
    }
    // L = 1 receives nothing: it is the reference only when no larger L is feasible.
    let multi = feasible.iter().any(|c| c.num_layers() >= 2);
    let reference_set = || feasible.iter().filter(move |c| !multi || c.num_layers() >= 2);
    let Some(reference) = reference_set().map(|c| c.max_comm).min() else { return Ok(None) };
    let limit = reference as f64 * (1.0 + comm_slack);
    let chosen = reference_set().filter(|c| c.max_comm as f64 <= limit).map(|c| c.num_layers()).max();
    let mut out = feasible.into_iter().find(|c| Some(c.num_layers()) == chosen).expect("the chosen count is feasible");
    out.auto = trials.clone();
    log.say(|| {
        format!("chose L = {} at delta {delta} (max layer communication {} bytes)", out.num_layers(), out.max_comm)
    });
    Ok(Some(out))
}
