//! The cost table: every (layer range, submesh shape) the stage DP may use, with the oracle's
//! options for it. Built once (sequentially or on worker threads) through a [`CachedCost`].

use super::cache::CachedCost;
use super::error::InterError;
use super::parallel::map_in_threads;
use super::progress::Progress;
use super::stage_cost::{StageCost, StageCostResult};
use super::submesh::{submesh_shapes, ClusterShape, SubmeshShape, SubmeshSpace};
use std::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Skip querying stages whose FLOPs per device are far from the balanced share
/// FLOP_total / devices: a range on a submesh of d devices is asked about only when
/// share / tolerance <= FLOP(range) / d <= share x tolerance. `tolerance >= 1`; this trades
/// exactness of the DP for fewer oracle calls (none by default).
#[derive(Clone, Debug, PartialEq)]
pub struct ImbalancePrune {
    pub layer_flops: Vec<f64>,
    pub tolerance: f64,
}

/// How the table is built.
#[derive(Clone, Debug)]
pub struct TableOptions {
    pub shapes: SubmeshSpace,
    /// Worker threads for [`CostTable::build_parallel`] (1 = on the caller's thread).
    pub threads: usize,
    pub imbalance: Option<ImbalancePrune>,
    pub progress: bool,
    /// The report's baselines will read the table: the pruned builder keeps the pairs they
    /// may use (off for a table only the DP reads).
    pub baselines: bool,
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions { shapes: SubmeshSpace::PowerOfTwo, threads: 1, imbalance: None, progress: false, baselines: true }
    }
}

/// Oracle answers for every layer range `start..end` (0 <= start < end <= L) and submesh shape.
#[derive(Clone, Debug)]
pub struct CostTable {
    layers: usize,
    cluster: ClusterShape,
    shapes: Vec<SubmeshShape>,
    entries: Vec<Vec<StageCostResult>>,
    /// For a pair skipped because no plan of it can fit (table_prune.rs): the least memory per
    /// device any of its plans needs at depth 1.
    memory_floors: Vec<Option<f64>>,
}

impl CostTable {
    pub fn num_layers(&self) -> usize {
        self.layers
    }

    pub fn cluster(&self) -> ClusterShape {
        self.cluster
    }

    pub fn shapes(&self) -> &[SubmeshShape] {
        &self.shapes
    }

    pub fn shape_index(&self, shape: SubmeshShape) -> Option<usize> {
        self.shapes.iter().position(|s| *s == shape)
    }

    fn index(&self, start: usize, end: usize, shape: usize) -> usize {
        (start * self.layers + (end - 1)) * self.shapes.len() + shape
    }

    /// The options of `layers` on shape number `shape` (empty when the stage cannot run there
    /// or was pruned).
    pub fn options(&self, layers: Range<usize>, shape: usize) -> &[StageCostResult] {
        if layers.start >= layers.end || layers.end > self.layers || shape >= self.shapes.len() {
            return &[];
        }
        &self.entries[self.index(layers.start, layers.end, shape)]
    }

    /// When `layers` on shape number `shape` was not planned because no plan of it can fit in
    /// device memory: the least memory per device any of its plans needs (at depth 1).
    pub fn memory_floor(&self, layers: Range<usize>, shape: usize) -> Option<f64> {
        if layers.start >= layers.end || layers.end > self.layers || shape >= self.shapes.len() {
            return None;
        }
        self.memory_floors[self.index(layers.start, layers.end, shape)]
    }

    pub(super) fn set_memory_floor(&mut self, k: usize, i: usize, s: usize, bytes: f64) {
        let idx = self.index(k, i, s);
        self.memory_floors[idx] = Some(bytes);
    }

    /// A table from a function (tests, adapters). Options are validated like oracle answers.
    pub fn from_fn(
        layers: usize,
        cluster: ClusterShape,
        shapes: Vec<SubmeshShape>,
        mut f: impl FnMut(Range<usize>, SubmeshShape) -> Vec<StageCostResult>,
    ) -> Result<Self, InterError> {
        let mut t = Self::empty(layers, cluster, shapes)?;
        for (k, i, s) in t.all_requests() {
            let opts = f(k..i, t.shapes[s]);
            t.set(k, i, s, opts)?;
        }
        Ok(t)
    }

    /// Queries every (range, shape) through `oracle` on the caller's thread.
    pub fn build<C: StageCost>(
        oracle: &CachedCost<C>,
        layers: usize,
        cluster: ClusterShape,
        opts: &TableOptions,
    ) -> Result<Self, InterError> {
        let start = Instant::now();
        let mut t = Self::empty(layers, cluster, submesh_shapes(cluster, opts.shapes))?;
        let (requests, pruned) = t.requests(opts)?;
        let progress = Progress::new(opts.progress, "cost table");
        progress.say(|| format!("{} (range, submesh) pairs, {} pruned", requests.len(), pruned));
        for (n, &(k, i, s)) in requests.iter().enumerate() {
            let o = oracle.cost_options(k..i, t.shapes[s]);
            t.set(k, i, s, o)?;
            progress.tick(|| format!("{}/{} pairs; {:?}", n + 1, requests.len(), oracle.stats()));
        }
        oracle.record_build(pruned, start.elapsed().as_secs_f64());
        progress.say(|| format!("done: {:?}", oracle.stats()));
        Ok(t)
    }

    /// Like [`CostTable::build`], with `opts.threads` workers. Each distinct cache key is
    /// queried once (by one worker); the other pairs with that key are cache hits.
    pub fn build_parallel<C: StageCost + Sync>(
        oracle: &CachedCost<C>,
        layers: usize,
        cluster: ClusterShape,
        opts: &TableOptions,
    ) -> Result<Self, InterError> {
        if opts.threads <= 1 {
            return Self::build(oracle, layers, cluster, opts);
        }
        let start = Instant::now();
        let mut t = Self::empty(layers, cluster, submesh_shapes(cluster, opts.shapes))?;
        let (requests, pruned) = t.requests(opts)?;
        let progress = Progress::new(opts.progress, "cost table");
        let mut first_of_key: HashMap<_, usize> = HashMap::new();
        let mut representatives = Vec::new();
        for (n, &(k, i, s)) in requests.iter().enumerate() {
            let key = oracle.key(&(k..i), t.shapes[s]);
            if let std::collections::hash_map::Entry::Vacant(e) = first_of_key.entry(key) {
                e.insert(n);
                representatives.push(n);
            }
        }
        progress.say(|| {
            format!(
                "{} (range, submesh) pairs, {} distinct, {} pruned, {} threads",
                requests.len(),
                representatives.len(),
                pruned,
                opts.threads
            )
        });
        // With composition, the windows are planned first, all in parallel, so that the long
        // ranges composed from them afterwards find them cached instead of planning them
        // again on the side.
        let window = oracle.composition_window().unwrap_or(usize::MAX);
        let (short, long): (Vec<usize>, Vec<usize>) =
            representatives.iter().partition(|&&n| requests[n].1 - requests[n].0 <= window);
        let total = representatives.len();
        let done_before = AtomicUsize::new(0);
        let mut results = Vec::new();
        for batch in [short, long] {
            results.extend(query_parallel(
                oracle,
                &requests,
                &batch,
                &t.shapes,
                opts.threads,
                &progress,
                &done_before,
                total,
            ));
        }
        let mut done = vec![false; requests.len()];
        for (n, o) in results {
            let (k, i, s) = requests[n];
            t.set(k, i, s, o)?;
            done[n] = true;
        }
        for (n, &(k, i, s)) in requests.iter().enumerate() {
            if !done[n] {
                let o = oracle.cost_options(k..i, t.shapes[s]);
                t.set(k, i, s, o)?;
            }
        }
        oracle.record_build(pruned, start.elapsed().as_secs_f64());
        progress.say(|| format!("done: {:?}", oracle.stats()));
        Ok(t)
    }

    pub(super) fn empty(layers: usize, cluster: ClusterShape, shapes: Vec<SubmeshShape>) -> Result<Self, InterError> {
        if layers == 0 {
            return Err(InterError::InvalidInput("no layers".into()));
        }
        if cluster.devices() == 0 {
            return Err(InterError::InvalidInput("the cluster has no devices".into()));
        }
        if shapes.is_empty() {
            return Err(InterError::InvalidInput("no submesh shapes".into()));
        }
        let n = layers * layers * shapes.len();
        Ok(CostTable { layers, cluster, shapes, entries: vec![Vec::new(); n], memory_floors: vec![None; n] })
    }

    fn all_requests(&self) -> Vec<(usize, usize, usize)> {
        let mut r = Vec::new();
        for k in 0..self.layers {
            for i in k + 1..=self.layers {
                for s in 0..self.shapes.len() {
                    r.push((k, i, s));
                }
            }
        }
        r
    }

    /// The requests after imbalance pruning, and how many were pruned.
    pub(super) fn requests(&self, opts: &TableOptions) -> Result<(Vec<(usize, usize, usize)>, usize), InterError> {
        let all = self.all_requests();
        let Some(p) = &opts.imbalance else { return Ok((all, 0)) };
        if p.layer_flops.len() != self.layers {
            return Err(InterError::InvalidInput(format!(
                "imbalance pruning has FLOPs for {} layers, the table has {}",
                p.layer_flops.len(),
                self.layers
            )));
        }
        if !(p.tolerance >= 1.0) || p.layer_flops.iter().any(|f| !f.is_finite() || *f < 0.0) {
            return Err(InterError::InvalidInput("imbalance tolerance must be >= 1 and FLOPs finite, >= 0".into()));
        }
        let mut prefix = vec![0.0];
        for f in &p.layer_flops {
            prefix.push(prefix.last().copied().unwrap_or(0.0) + f);
        }
        let share = prefix[self.layers] / self.cluster.devices() as f64;
        let kept: Vec<_> = all
            .iter()
            .copied()
            .filter(|&(k, i, s)| {
                let per_device = (prefix[i] - prefix[k]) / self.shapes[s].devices() as f64;
                per_device <= share * p.tolerance && per_device * p.tolerance >= share
            })
            .collect();
        let pruned = all.len() - kept.len();
        Ok((kept, pruned))
    }

    pub(super) fn set(&mut self, k: usize, i: usize, s: usize, opts: Vec<StageCostResult>) -> Result<(), InterError> {
        let shape = self.shapes[s];
        for o in &opts {
            if !o.is_valid() {
                return Err(InterError::InvalidInput(format!(
                    "the oracle returned {o:?} for layers {k}..{i} on {shape}: latency and memory must be finite and >= 0"
                )));
            }
            if o.logical_mesh[0] * o.logical_mesh[1] != shape.devices() {
                return Err(InterError::InvalidInput(format!(
                    "the oracle returned logical mesh {:?} for submesh {shape} ({} devices)",
                    o.logical_mesh,
                    shape.devices()
                )));
            }
        }
        let idx = self.index(k, i, s);
        self.entries[idx] = opts;
        Ok(())
    }
}

/// Answers `requests[n]` for every `n` of `batch` on `threads` workers, as (n, options) in
/// batch order; `done` counts finished queries (of `total`) across calls for the progress line.
#[allow(clippy::too_many_arguments)]
pub(super) fn query_parallel<C: StageCost + Sync>(
    oracle: &CachedCost<C>,
    requests: &[(usize, usize, usize)],
    batch: &[usize],
    shapes: &[SubmeshShape],
    threads: usize,
    progress: &Progress,
    done: &AtomicUsize,
    total: usize,
) -> Vec<(usize, Vec<StageCostResult>)> {
    // Workers a short batch leaves idle go to its queries (a round may hold one query).
    let per_query = (threads / batch.len().max(1)).max(1);
    map_in_threads(batch, threads, |n| {
        let (k, i, s) = requests[n];
        let o = oracle.cost_options_on(k..i, shapes[s], per_query);
        let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
        progress.tick(|| format!("{finished}/{total} distinct queries"));
        (n, o)
    })
}
