//! Operator clustering (paper §5.2, Eq. 6): cut ops o_1..o_K (topological order) into L
//! contiguous layers so that the largest communication a layer receives from earlier ops,
//! max_j C(layer_j), is minimal, subject to FLOP(layer) <= (1 + delta) x FLOP_total / L;
//! among those, the per-layer FLOP variance is minimal.
//!
//! Two exact DPs over prefixes (G(p, r): best over the first p ops in r layers):
//! 1. G(p, r) = min_i max(G(i, r - 1), C(i, p - 1)) gives the optimal maximum g*;
//! 2. H(p, r) = min_i H(i, r - 1) + FLOP(i..p)^2 over layers with C <= g* minimises the sum of
//!    squares, which for fixed L and FLOP_total is the variance. (A single DP on the pair
//!    (max, sum of squares) would not be exact: a prefix with a larger maximum but a smaller
//!    sum of squares can win once a later layer dominates the maximum.)
//!
//! Cost: for each layer end k only starts i in the FLOP window (FLOP(i..=k) <= cap) are swept,
//! with C(i, k) updated incrementally (cluster_graph.rs), and only layer counts r that can still
//! complete both the prefix and the suffix under the cap are kept, so a pass is
//! O(K x window x (degree + r-range)) time and O(K x L) memory.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §5.

use super::cluster_graph::{layer_comm, CommGraph, OpNode};
use super::error::InterError;
use super::progress::Progress;
use serde::Serialize;
use std::ops::Range;

/// How many layers to form.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum LayerCount {
    Fixed(usize),
    Auto(AutoLayers),
}

/// `layers=auto`: try every L in min_layers..=max_layers and take the largest L whose
/// optimal maximum layer communication is within (1 + comm_slack) of the smallest one among
/// the tried L >= 2 (L = 1 receives nothing and is only taken when no larger L is feasible):
/// the finest granularity for the stage DP that does not cut through heavier traffic.
/// When no L of the range meets the FLOP cap (a few heavy ops of very different sizes), the
/// same rule over 2..min_layers; then two layers at the least delta that admits them: `auto`
/// picks the delta as well as the count, and says so ([`AutoFallback`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AutoLayers {
    pub min_layers: usize,
    pub max_layers: usize,
    pub comm_slack: f64,
}

/// How `layers=auto` left its range when no count in it met the FLOP cap.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum AutoFallback {
    /// Fewer layers than the range `tried`, at the given delta.
    FewerLayers { tried: std::ops::RangeInclusive<usize> },
    /// Two layers at the least delta admitting them (the clustering's `delta`), up `from`.
    RaisedDelta { from: f64 },
}

impl AutoLayers {
    /// The paper picks "a small L based on the number of devices and the number of heavy
    /// operators": here max_layers = min(heavy ops, devices) (at least 1), min_layers =
    /// max_layers / 2 (at least 1), slack 5%.
    pub fn for_graph(num_heavy_ops: usize, num_devices: usize) -> Self {
        let max_layers = num_heavy_ops.min(num_devices).max(1);
        AutoLayers { min_layers: (max_layers / 2).max(1), max_layers, comm_slack: 0.05 }
    }
}

/// Clustering options.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClusterOptions {
    pub layers: LayerCount,
    /// FLOP balance tolerance delta (paper: each layer within (1 + delta) x the average).
    pub delta: f64,
    pub progress: bool,
}

/// One L tried by `layers=auto`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AutoTrial {
    pub layers: usize,
    pub delta: f64,
    /// `None` when no clustering into this many layers meets the FLOP cap.
    pub max_comm: Option<u64>,
    pub flop_variance: Option<f64>,
}

/// The chosen clustering.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Clustering {
    /// L + 1 op indices: layer j is ops boundaries[j]..boundaries[j + 1].
    pub boundaries: Vec<usize>,
    /// max_j layer_comm[j] (the optimum of Eq. 6).
    pub max_comm: u64,
    /// Bytes each layer receives from ops of earlier layers.
    pub layer_comm: Vec<u64>,
    pub layer_flops: Vec<f64>,
    /// Population variance of layer_flops.
    pub flop_variance: f64,
    pub delta: f64,
    /// (1 + delta) x FLOP_total / L.
    pub flop_cap: f64,
    /// The L tried when the count was `Auto`.
    pub auto: Vec<AutoTrial>,
    /// Set when `Auto` found no feasible count in its range.
    pub auto_fallback: Option<AutoFallback>,
}

impl Clustering {
    pub fn num_layers(&self) -> usize {
        self.boundaries.len() - 1
    }

    /// Op ranges of the layers.
    pub fn layers(&self) -> Vec<Range<usize>> {
        self.boundaries.windows(2).map(|w| w[0]..w[1]).collect()
    }

    /// The layer of every op.
    pub fn layer_of_ops(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for (j, w) in self.boundaries.windows(2).enumerate() {
            out.extend(std::iter::repeat_n(j, w[1] - w[0]));
        }
        out
    }
}

/// The FLOP test every part of the clustering uses (a relative 1e-12 absorbs the rounding of
/// (1 + delta) x total / L).
pub(crate) fn within_cap(flops: f64, cap: f64) -> bool {
    flops <= cap * (1.0 + 1e-12)
}

/// Clusters `ops` into layers.
pub fn cluster_operators(ops: &[OpNode], opts: &ClusterOptions) -> Result<Clustering, InterError> {
    let graph = CommGraph::new(ops)?;
    if ops.is_empty() {
        return Err(InterError::InvalidInput("no operators to cluster".into()));
    }
    if !(opts.delta >= 0.0) || !opts.delta.is_finite() {
        return Err(InterError::InvalidInput(format!("delta must be finite and >= 0, got {}", opts.delta)));
    }
    match &opts.layers {
        LayerCount::Fixed(l) => cluster_fixed(ops, &graph, *l, opts.delta, opts.progress),
        LayerCount::Auto(a) => super::cluster_auto::cluster_auto(ops, &graph, a, opts.delta, opts.progress),
    }
}

/// Figures of a given clustering (e.g. equal-operator boundaries), against `delta`'s cap.
pub fn describe_clustering(ops: &[OpNode], boundaries: &[usize], delta: f64) -> Result<Clustering, InterError> {
    let graph = CommGraph::new(ops)?;
    let k = ops.len();
    let valid = boundaries.len() >= 2
        && boundaries[0] == 0
        && boundaries[boundaries.len() - 1] == k
        && boundaries.windows(2).all(|w| w[0] < w[1]);
    if !valid {
        return Err(InterError::InvalidInput(format!(
            "boundaries {boundaries:?} do not cut {k} ops into non-empty layers"
        )));
    }
    Ok(finish(ops, &graph, boundaries.to_vec(), delta))
}

pub(crate) fn cluster_fixed(
    ops: &[OpNode],
    graph: &CommGraph,
    l: usize,
    delta: f64,
    progress: bool,
) -> Result<Clustering, InterError> {
    let k = graph.num_ops();
    if l == 0 || l > k {
        return Err(InterError::InvalidInput(format!("cannot cut {k} ops into {l} non-empty layers")));
    }
    let total = graph.prefix[k];
    let cap = (1.0 + delta) * total / l as f64;
    let bounds = Bounds::new(graph, l, cap);
    if bounds.min_prefix[k] > l {
        return Err(InterError::ClusteringInfeasible { layers: l, delta, needed_delta: needed_delta(graph, l) });
    }
    let progress = Progress::new(progress, "clustering");
    let w = l + 1;

    // Pass 1: G(p, r) = least maximum communication.
    let mut g = vec![u64::MAX; (k + 1) * w];
    g[0] = 0;
    for p in 1..=k {
        let Some((rlo, rhi)) = bounds.layers_at(p) else { continue };
        let (gp, gi) = g.split_at_mut(p * w);
        let row = &mut gi[..w];
        graph.sweep(p - 1, bounds.lo[p], |i, c| {
            let prev = &gp[i * w..i * w + w];
            for r in rlo..=rhi {
                let x = prev[r - 1];
                if x != u64::MAX {
                    let v = x.max(c);
                    if v < row[r] {
                        row[r] = v;
                    }
                }
            }
        });
        progress.tick(|| format!("L = {l}: pass 1, {p}/{k} ops"));
    }
    let g_star = g[k * w + l];
    drop(g);

    // Pass 2: H(p, r) = least sum of squared layer FLOPs over layers with C <= g*.
    let mut h = vec![f64::INFINITY; (k + 1) * w];
    let mut arg = vec![usize::MAX; (k + 1) * w];
    h[0] = 0.0;
    for p in 1..=k {
        let Some((rlo, rhi)) = bounds.layers_at(p) else { continue };
        let (hp, hi) = h.split_at_mut(p * w);
        let row = &mut hi[..w];
        let arow = &mut arg[p * w..p * w + w];
        graph.sweep(p - 1, bounds.lo[p], |i, c| {
            if c > g_star {
                return;
            }
            let f = graph.flops(i, p);
            let sq = f * f;
            let prev = &hp[i * w..i * w + w];
            for r in rlo..=rhi {
                let v = prev[r - 1] + sq;
                if v < row[r] {
                    row[r] = v;
                    arow[r] = i;
                }
            }
        });
        progress.tick(|| format!("L = {l}: pass 2, {p}/{k} ops"));
    }
    let mut boundaries = vec![k];
    let (mut p, mut r) = (k, l);
    while p > 0 {
        let i = arg[p * w + r];
        if i == usize::MAX || r == 0 {
            return Err(InterError::InvalidInput("internal error: clustering reconstruction failed".into()));
        }
        boundaries.push(i);
        p = i;
        r -= 1;
    }
    boundaries.reverse();
    let out = finish(ops, graph, boundaries, delta);
    debug_assert_eq!(out.max_comm, g_star);
    Ok(out)
}

/// FLOP windows and feasible layer counts under the cap.
struct Bounds {
    l: usize,
    k: usize,
    /// lo[p]: the earliest start of a layer ending at op p - 1 (== p when op p - 1 alone
    /// exceeds the cap).
    lo: Vec<usize>,
    /// Least layers covering ops 0..p / ops p..K (usize::MAX / 2 when impossible).
    min_prefix: Vec<usize>,
    min_suffix: Vec<usize>,
}

impl Bounds {
    fn new(graph: &CommGraph, l: usize, cap: f64) -> Self {
        let k = graph.num_ops();
        let inf = usize::MAX / 2;
        let mut lo = vec![0; k + 1];
        let mut min_prefix = vec![0; k + 1];
        let mut i = 0;
        for p in 1..=k {
            while i < p && !within_cap(graph.flops(i, p), cap) {
                i += 1;
            }
            lo[p] = i;
            min_prefix[p] = if i == p { inf } else { (1 + min_prefix[i]).min(inf) };
        }
        let mut min_suffix = vec![0; k + 1];
        let mut j = k;
        for p in (0..k).rev() {
            while j > p && !within_cap(graph.flops(p, j), cap) {
                j -= 1;
            }
            min_suffix[p] = if j == p { inf } else { (1 + min_suffix[j]).min(inf) };
        }
        Bounds { l, k, lo, min_prefix, min_suffix }
    }

    /// The layer counts r with which ops 0..p can be cut so that the rest still fits in L - r.
    fn layers_at(&self, p: usize) -> Option<(usize, usize)> {
        let rlo = self.min_prefix[p].max((self.l + p).saturating_sub(self.k)).max(1);
        let rhi = p.min(self.l.saturating_sub(self.min_suffix[p]));
        (rlo <= rhi).then_some((rlo, rhi))
    }
}

/// The smallest delta for which L layers can meet the cap: the least possible maximum layer
/// FLOPs (bisection on the cap with the greedy count), relative to the average.
pub(crate) fn needed_delta(graph: &CommGraph, l: usize) -> f64 {
    let k = graph.num_ops();
    let total = graph.prefix[k];
    if total <= 0.0 || l == 0 || l > k {
        return 0.0;
    }
    let greedy_parts = |cap: f64| -> usize {
        let (mut parts, mut start) = (0, 0);
        for p in 1..=k {
            if !within_cap(graph.flops(start, p), cap) {
                parts += 1;
                start = p - 1;
            }
        }
        parts + 1
    };
    let max_op = (0..k).map(|i| graph.flops(i, i + 1)).fold(0.0, f64::max);
    let (mut lo, mut hi) = ((total / l as f64).max(max_op), total);
    if greedy_parts(lo) <= l {
        hi = lo;
    }
    for _ in 0..200 {
        if hi - lo <= hi * 1e-12 {
            break;
        }
        let mid = 0.5 * (lo + hi);
        if greedy_parts(mid) <= l {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    (hi * l as f64 / total - 1.0).max(0.0)
}

/// The figures of a clustering.
fn finish(ops: &[OpNode], graph: &CommGraph, boundaries: Vec<usize>, delta: f64) -> Clustering {
    let l = boundaries.len() - 1;
    let total = graph.prefix[graph.num_ops()];
    let layer_flops: Vec<f64> = boundaries.windows(2).map(|w| graph.flops(w[0], w[1])).collect();
    let layer_comm: Vec<u64> = boundaries.windows(2).map(|w| layer_comm(ops, w[0], w[1] - 1)).collect();
    Clustering {
        max_comm: layer_comm.iter().copied().max().unwrap_or(0),
        flop_variance: variance(&layer_flops),
        layer_comm,
        layer_flops,
        delta,
        flop_cap: (1.0 + delta) * total / l as f64,
        boundaries,
        auto: Vec::new(),
        auto_fallback: None,
    }
}

/// Population variance.
pub(crate) fn variance(x: &[f64]) -> f64 {
    if x.is_empty() {
        return 0.0;
    }
    let mean = x.iter().sum::<f64>() / x.len() as f64;
    x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / x.len() as f64
}

/// "Equal operator" (paper §8.3): L layers of (nearly) the same number of ops.
pub fn equal_operator_boundaries(num_ops: usize, layers: usize) -> Vec<usize> {
    (0..=layers).map(|j| j * num_ops / layers.max(1)).collect()
}
