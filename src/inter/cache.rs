//! Memoisation of the cost oracle, with structural reuse: layer ranges whose layer-signature
//! sequences are identical share one oracle call; optionally, ranges longer than a window are
//! composed from shorter ones instead of asking the oracle (compose.rs).

use super::compose::{add, compose};
use super::stage_cost::{StageCost, StageCostResult, StageFloor};
use super::submesh::SubmeshShape;
use serde::Serialize;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::Mutex;
use std::time::Instant;

/// Counters of the oracle traffic (and, when filled by the table builder, of its pruning and
/// wall time).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct QueryStats {
    /// Requests made to the cache.
    pub lookups: usize,
    /// Calls that reached the oracle.
    pub queries: usize,
    /// Requests answered from the cache.
    pub cache_hits: usize,
    /// Requests answered by composing shorter ranges (`compose-stages`), not by the oracle.
    pub composed: usize,
    /// Of the hits, those whose layer range differs from the range that was queried (reuse of
    /// a structurally identical range through the layer signatures).
    pub signature_hits: usize,
    /// (range, submesh) pairs the table builder did not ask about (imbalance pruning).
    pub pruned: usize,
    /// Pairs no plan can use (a stage needs devices the others need too; table_prune.rs).
    pub skipped_unusable: usize,
    /// Pairs whose memory floor exceeds the device memory at every depth.
    pub skipped_memory: usize,
    /// Pairs whose latency floor rules them out of the plan.
    pub skipped_latency: usize,
    /// Pairs no plan faster than the best found can use, at the floors of the pairs not yet
    /// planned (epsilon 0; plan_floor.rs).
    pub skipped_plan_floor: usize,
    /// Time spent inside the oracle, summed over threads.
    pub oracle_seconds: f64,
    /// Wall time of the table build.
    pub wall_seconds: f64,
}

/// The cache key of a layer range: the range itself, or the sequence of its layers' signatures.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RangeKey {
    Range(usize, usize),
    Signature(Vec<u64>),
}

type Key = (RangeKey, SubmeshShape);

/// A [`StageCost`] that remembers every answer of `inner`. With layer signatures (one `u64`
/// per layer, equal for layers the user declares structurally identical), ranges with equal
/// signature sequences share one call. Thread-safe when `C` is `Sync`.
pub struct CachedCost<C> {
    inner: C,
    signatures: Option<Vec<u64>>,
    /// Ranges longer than this many layers are composed from their windows.
    window: Option<usize>,
    best: Mutex<HashMap<Key, (Range<usize>, Option<StageCostResult>)>>,
    options: Mutex<HashMap<Key, (Range<usize>, Vec<StageCostResult>)>>,
    stats: Mutex<QueryStats>,
}

impl<C: StageCost> CachedCost<C> {
    pub fn new(inner: C) -> Self {
        CachedCost {
            inner,
            signatures: None,
            window: None,
            best: Mutex::new(HashMap::new()),
            options: Mutex::new(HashMap::new()),
            stats: Mutex::new(QueryStats::default()),
        }
    }

    /// Cache keyed by layer-signature sequences (`signatures[l]` for layer `l`).
    pub fn with_signatures(inner: C, signatures: Vec<u64>) -> Self {
        let mut c = Self::new(inner);
        c.signatures = Some(signatures);
        c
    }

    /// Composes the options of ranges longer than `layers` layers from `layers`-layer windows
    /// (compose.rs) instead of asking the oracle; 0 turns composition off.
    pub fn with_composition(mut self, layers: usize) -> Self {
        self.window = (layers > 0).then_some(layers);
        self
    }

    /// The composition window, if composition is on.
    pub fn composition_window(&self) -> Option<usize> {
        self.window
    }

    pub fn inner(&self) -> &C {
        &self.inner
    }

    /// The key of `layers` on `submesh`: its signature sequence when signatures cover the
    /// range, otherwise the range itself.
    pub fn key(&self, layers: &Range<usize>, submesh: SubmeshShape) -> (RangeKey, SubmeshShape) {
        let rk = match &self.signatures {
            Some(sig) if layers.end <= sig.len() => RangeKey::Signature(sig[layers.clone()].to_vec()),
            _ => RangeKey::Range(layers.start, layers.end),
        };
        (rk, submesh)
    }

    pub fn stats(&self) -> QueryStats {
        self.stats.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Adds the table builder's pruning count and wall time to the statistics.
    pub(crate) fn record_build(&self, pruned: usize, wall_seconds: f64) {
        if let Ok(mut s) = self.stats.lock() {
            s.pruned += pruned;
            s.wall_seconds += wall_seconds;
        }
    }

    /// Adds the table builder's exact skips (table_prune.rs) to the statistics.
    pub(crate) fn record_skipped(&self, skipped: super::table_prune::Skipped) {
        if let Ok(mut s) = self.stats.lock() {
            s.skipped_unusable += skipped.unusable;
            s.skipped_memory += skipped.memory;
            s.skipped_latency += skipped.latency;
            s.skipped_plan_floor += skipped.plan_floor;
            // Pairs sharing a query are cache hits on a structurally identical range.
            s.lookups += skipped.shared;
            s.cache_hits += skipped.shared;
            s.signature_hits += skipped.shared;
        }
    }

    /// The cached answer for (`layers`, `submesh`), or `query`'s (an oracle call, or a
    /// composition when `composed`), remembered.
    fn lookup<T: Clone>(
        &self,
        map: &Mutex<HashMap<Key, (Range<usize>, T)>>,
        layers: Range<usize>,
        submesh: SubmeshShape,
        composed: bool,
        query: impl FnOnce(Range<usize>) -> T,
    ) -> T {
        let key = self.key(&layers, submesh);
        if let Some((first, v)) = map.lock().ok().and_then(|m| m.get(&key).cloned()) {
            if let Ok(mut s) = self.stats.lock() {
                s.lookups += 1;
                s.cache_hits += 1;
                if first != layers {
                    s.signature_hits += 1;
                }
            }
            return v;
        }
        let start = Instant::now();
        let v = query(layers.clone());
        let secs = start.elapsed().as_secs_f64();
        if let Ok(mut s) = self.stats.lock() {
            s.lookups += 1;
            if composed {
                s.composed += 1;
            } else {
                s.queries += 1;
                s.oracle_seconds += secs;
            }
        }
        if let Ok(mut m) = map.lock() {
            m.entry(key).or_insert((layers, v.clone()));
        }
        v
    }
}

impl<C: StageCost> CachedCost<C> {
    /// The options of a range longer than the window, from its windows (recursively: the
    /// second part is itself composed while it is longer than the window).
    fn composed_options(&self, layers: Range<usize>, submesh: SubmeshShape, n: usize) -> Vec<StageCostResult> {
        self.lookup(&self.options, layers, submesh, true, |r| {
            let (k, i) = (r.start, r.end);
            if n == 1 {
                add(&self.cost_options(k..k + 1, submesh), &self.cost_options(k + 1..i, submesh))
            } else {
                compose(
                    &self.cost_options(k..k + n, submesh),
                    &self.cost_options(k + n - 1..i, submesh),
                    &self.cost_options(k + n - 1..k + n, submesh),
                )
            }
        })
    }
}

impl<C: StageCost> StageCost for CachedCost<C> {
    fn cost(&self, layers: Range<usize>, submesh: SubmeshShape) -> Option<StageCostResult> {
        match self.window {
            Some(n) if layers.len() > n => {
                self.cost_options(layers, submesh).into_iter().min_by(|a, b| a.latency.total_cmp(&b.latency))
            }
            _ => self.lookup(&self.best, layers, submesh, false, |r| self.inner.cost(r, submesh)),
        }
    }

    fn floor(&self, layers: Range<usize>, submesh: SubmeshShape) -> Option<StageFloor> {
        // Composed options are not the oracle's: no floor bounds them.
        match self.window {
            Some(n) if layers.len() > n => None,
            _ => self.inner.floor(layers, submesh),
        }
    }

    fn cost_options(&self, layers: Range<usize>, submesh: SubmeshShape) -> Vec<StageCostResult> {
        self.cost_options_on(layers, submesh, 1)
    }

    fn cost_options_on(&self, layers: Range<usize>, submesh: SubmeshShape, threads: usize) -> Vec<StageCostResult> {
        match self.window {
            Some(n) if layers.len() > n => self.composed_options(layers, submesh, n),
            _ => {
                self.lookup(&self.options, layers, submesh, false, |r| self.inner.cost_options_on(r, submesh, threads))
            }
        }
    }
}
