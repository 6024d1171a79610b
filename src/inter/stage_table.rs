//! The F table of the stage DP for one t_max, computed from scratch (`eval`) or updated for a
//! larger t_max (`advance`), and the plan read back from it.
//!
//! Layout: F(class, k, d) for class 0 (no stage: only F(0, L, 0) = 0), exact depth classes
//! 1..deep-1 and the deep class; `merged(k, d)` = min(F(deep - 1, k, d), F(deep, k, d)) is what
//! a deep-class stage continues with. A transition (stage k..i on `devs` devices, latency
//! `lat`) relaxes F(c, k, d) with lat + F(c - 1, i, d - devs) (or merged(i, d - devs) for the
//! deep class). Each row keeps the span of device counts outside which it is infinite.
//!
//! `advance(t)` relaxes only the transitions that are new (latency in (last t, t]) and those
//! reading a row that improved, visiting rows from the last layer down; it reaches exactly the
//! table `eval(t)` computes (the values are minima over the same sums).

use super::error::InterError;
use super::plan::{StageDpOptions, StagePlan};
use super::stage_moves::{build_moves, Move};
use super::submesh::SubmeshShape;
use super::table::CostTable;
use std::ops::Range;

const EMPTY: (usize, usize) = (usize::MAX, 0);

pub(crate) struct DpTable<'a> {
    table: &'a CostTable,
    opts: &'a StageDpOptions,
    pub(crate) layers: usize,
    pub(crate) devices: usize,
    pub(crate) deep: usize,
    /// Transitions of row k, by latency.
    moves: Vec<Vec<Move>>,
    /// Global transition id = offset[k] + index in moves[k].
    offset: Vec<usize>,
    /// Every transition (k, j) by latency.
    by_lat: Vec<(u32, u32)>,
    /// Per source row (F row key, then merged rows), the transitions reading it, by latency.
    readers: Vec<Vec<(u32, u32)>>,
    f: Vec<f64>,
    merged: Vec<f64>,
    span: Vec<(usize, usize)>,
    merged_span: Vec<(usize, usize)>,
    /// The t_max of the current contents, and how many of `by_lat` it admits.
    t_cur: f64,
    admitted: usize,
    /// Transitions to relax per row during `advance`, deduplicated by stamp.
    pending: Vec<Vec<u32>>,
    stamp: Vec<u32>,
    epoch: u32,
    /// Classes improved in the row being updated (flags and list).
    hit: Vec<bool>,
    hits: Vec<usize>,
}

impl<'a> DpTable<'a> {
    pub(crate) fn new(
        table: &'a CostTable,
        opts: &'a StageDpOptions,
        allow: &dyn Fn(Range<usize>, SubmeshShape) -> bool,
    ) -> Self {
        let layers = table.num_layers();
        let devices = table.cluster().devices();
        let built = build_moves(table, opts, allow);
        let deep = built.deep;
        let moves = built.rows;
        let lp1 = layers + 1;
        let mut offset = Vec::with_capacity(layers + 1);
        let mut by_lat = Vec::new();
        let mut readers = vec![Vec::new(); (deep + 2) * lp1];
        let mut total = 0;
        for (k, row) in moves.iter().enumerate() {
            offset.push(total);
            total += row.len();
            for (j, m) in row.iter().enumerate() {
                by_lat.push((k as u32, j as u32));
                let key = if m.class == deep { (deep + 1) * lp1 + m.i } else { (m.class - 1) * lp1 + m.i };
                readers[key].push((k as u32, j as u32));
            }
        }
        offset.push(total);
        let lat = |&(k, j): &(u32, u32)| moves[k as usize][j as usize].lat;
        by_lat.sort_by(|a, b| lat(a).total_cmp(&lat(b)));
        for r in &mut readers {
            r.sort_by(|a, b| lat(a).total_cmp(&lat(b)));
        }
        let width = devices + 1;
        DpTable {
            table,
            opts,
            layers,
            devices,
            deep,
            moves,
            offset,
            by_lat,
            readers,
            f: vec![f64::INFINITY; (deep + 1) * lp1 * width],
            merged: vec![f64::INFINITY; lp1 * width],
            span: vec![EMPTY; (deep + 1) * lp1],
            merged_span: vec![EMPTY; lp1],
            t_cur: f64::NEG_INFINITY,
            admitted: 0,
            pending: vec![Vec::new(); layers],
            stamp: vec![0; total],
            epoch: 0,
            hit: vec![false; deep + 1],
            hits: Vec::new(),
        }
    }

    pub(crate) fn num_moves(&self) -> usize {
        self.by_lat.len()
    }

    /// The distinct transition latencies, ascending (the t_max candidates).
    pub(crate) fn candidates(&self) -> Vec<f64> {
        let mut c: Vec<f64> = self.by_lat.iter().map(|&(k, j)| self.moves[k as usize][j as usize].lat).collect();
        c.dedup();
        c
    }

    fn row(&self, class: usize, k: usize) -> usize {
        class * (self.layers + 1) + k
    }

    fn admitted_until(&self, t: f64) -> usize {
        self.by_lat.partition_point(|&(k, j)| self.moves[k as usize][j as usize].lat <= t)
    }

    /// min_s F(s, 0, N x M; t) from scratch (infinite if no plan).
    pub(crate) fn eval(&mut self, t: f64) -> f64 {
        let w = self.devices + 1;
        self.f.fill(f64::INFINITY);
        self.merged.fill(f64::INFINITY);
        self.span.fill(EMPTY);
        self.merged_span.fill(EMPTY);
        let base = self.row(0, self.layers);
        self.f[base * w] = 0.0;
        self.span[base] = (0, 0);
        self.merge_row(self.layers);
        for k in (0..self.layers).rev() {
            for j in 0..self.moves[k].len() {
                let m = self.moves[k][j];
                if m.lat > t {
                    break;
                }
                self.apply(m, k);
            }
            self.merge_row(k);
        }
        self.t_cur = t;
        self.admitted = self.admitted_until(t);
        self.value()
    }

    /// The same as `eval(t)`, for t >= the current t_max, by updating the table.
    pub(crate) fn advance(&mut self, t: f64) -> f64 {
        debug_assert!(t >= self.t_cur);
        let lp1 = self.layers + 1;
        self.epoch += 1;
        let end = self.admitted_until(t);
        for n in self.admitted..end {
            let (k, j) = self.by_lat[n];
            self.push(k, j);
        }
        self.admitted = end;
        let mut hits = std::mem::take(&mut self.hits);
        for k in (0..self.layers).rev() {
            let mut list = std::mem::take(&mut self.pending[k]);
            for &j in &list {
                let m = self.moves[k][j as usize];
                if self.apply(m, k) && !self.hit[m.class] {
                    self.hit[m.class] = true;
                    hits.push(m.class);
                }
            }
            list.clear();
            self.pending[k] = list;
            let mut deep_rows = false;
            for &c in &hits {
                self.hit[c] = false;
                self.push_readers(c * lp1 + k, t);
                deep_rows |= c + 1 >= self.deep;
            }
            if deep_rows {
                self.merge_row(k);
                self.push_readers((self.deep + 1) * lp1 + k, t);
            }
            hits.clear();
        }
        self.hits = hits;
        self.t_cur = t;
        self.value()
    }

    fn push(&mut self, k: u32, j: u32) {
        let id = self.offset[k as usize] + j as usize;
        if self.stamp[id] != self.epoch {
            self.stamp[id] = self.epoch;
            self.pending[k as usize].push(j);
        }
    }

    /// Queues the admitted transitions reading source row `key`.
    fn push_readers(&mut self, key: usize, t: f64) {
        for n in 0..self.readers[key].len() {
            let (k, j) = self.readers[key][n];
            if self.moves[k as usize][j as usize].lat > t {
                break;
            }
            self.push(k, j);
        }
    }

    /// min over classes of F(class, 0, N x M).
    fn value(&self) -> f64 {
        let w = self.devices + 1;
        (1..=self.deep).map(|c| self.f[self.row(c, 0) * w + self.devices]).fold(f64::INFINITY, f64::min)
    }

    /// Relaxes row k with transition `m`; whether a cell improved.
    fn apply(&mut self, m: Move, k: usize) -> bool {
        let w = self.devices + 1;
        let lp1 = self.layers + 1;
        let cur_row = m.class * lp1 + k;
        let (prev_span, prev_row) = if m.class == self.deep {
            (self.merged_span[m.i], usize::MAX)
        } else {
            let r = (m.class - 1) * lp1 + m.i;
            (self.span[r], r)
        };
        if prev_span.0 > prev_span.1 || prev_span.0 + m.devs > self.devices {
            return false;
        }
        let lo = prev_span.0 + m.devs;
        let hi = (prev_span.1 + m.devs).min(self.devices);
        let improved = if prev_row == usize::MAX {
            let cur = &mut self.f[cur_row * w..cur_row * w + w];
            let prev = &self.merged[m.i * w..m.i * w + w];
            relax(&mut cur[lo..=hi], &prev[lo - m.devs..=hi - m.devs], m.lat)
        } else {
            let (cur, prev) = two_rows(&mut self.f, w, cur_row, prev_row);
            relax(&mut cur[lo..=hi], &prev[lo - m.devs..=hi - m.devs], m.lat)
        };
        let sp = &mut self.span[cur_row];
        *sp = (sp.0.min(lo), sp.1.max(hi));
        improved
    }

    fn merge_row(&mut self, k: usize) {
        let w = self.devices + 1;
        let (ra, rb) = (self.row(self.deep - 1, k), self.row(self.deep, k));
        let (sa, sb) = (self.span[ra], self.span[rb]);
        let (a, b) = (ra * w, rb * w);
        for d in 0..w {
            self.merged[k * w + d] = self.f[a + d].min(self.f[b + d]);
        }
        self.merged_span[k] = (sa.0.min(sb.0), sa.1.max(sb.1));
    }

    /// The plan of the DP at `t` (after `eval(t)` succeeded once).
    pub(crate) fn reconstruct(&mut self, t: f64) -> Result<StagePlan, InterError> {
        let total = self.eval(t);
        let w = self.devices + 1;
        let internal = || InterError::InvalidInput("internal error: stage DP reconstruction failed".into());
        if !total.is_finite() {
            return Err(internal());
        }
        let mut class =
            (1..=self.deep).find(|&c| self.f[self.row(c, 0) * w + self.devices] == total).ok_or_else(internal)?;
        let (mut k, mut d) = (0, self.devices);
        let mut choices = Vec::new();
        while k < self.layers {
            let target = self.f[self.row(class, k) * w + d];
            let m = *self.moves[k]
                .iter()
                .take_while(|m| m.lat <= t)
                .find(|m| {
                    m.class == class && m.devs <= d && {
                        let prev = if class == self.deep {
                            self.merged[m.i * w + d - m.devs]
                        } else {
                            self.f[self.row(class - 1, m.i) * w + d - m.devs]
                        };
                        m.lat + prev == target
                    }
                })
                .ok_or_else(internal)?;
            let shape = self.table.shapes()[m.shape];
            choices.push((k..m.i, shape, self.table.options(k..m.i, m.shape)[m.option]));
            k = m.i;
            d -= m.devs;
            class = if class == self.deep {
                if self.f[self.row(self.deep, k) * w + d] == self.merged[k * w + d] {
                    self.deep
                } else {
                    self.deep - 1
                }
            } else {
                class - 1
            };
        }
        if d != 0 || class != 0 {
            return Err(internal());
        }
        Ok(StagePlan::from_choices(choices, self.opts))
    }
}

/// cur[j] = min(cur[j], lat + prev[j]) (slices aligned by the caller); whether any improved.
fn relax(cur: &mut [f64], prev: &[f64], lat: f64) -> bool {
    let mut improved = false;
    for (c, p) in cur.iter_mut().zip(prev) {
        let v = lat + p;
        if v < *c {
            *c = v;
            improved = true;
        }
    }
    improved
}

/// Disjoint rows `cur` (mutable) and `prev` of a row-major buffer of width `w`.
fn two_rows(buf: &mut [f64], w: usize, cur: usize, prev: usize) -> (&mut [f64], &[f64]) {
    if cur < prev {
        let (a, b) = buf.split_at_mut(prev * w);
        (&mut a[cur * w..cur * w + w], &b[..w])
    } else {
        let (a, b) = buf.split_at_mut(cur * w);
        (&mut b[..w], &a[prev * w..prev * w + w])
    }
}

/// Test hook: walks every candidate t_max upwards with `advance` and checks each value and
/// table against a fresh `eval`. Returns the number of candidates checked.
#[cfg(test)]
pub(crate) fn check_incremental(table: &CostTable, opts: &StageDpOptions) -> usize {
    let all = |_: Range<usize>, _: SubmeshShape| true;
    let mut inc = DpTable::new(table, opts, &all);
    let mut fresh = DpTable::new(table, opts, &all);
    let cands = inc.candidates();
    if cands.is_empty() {
        return 0;
    }
    inc.eval(cands[0]);
    for &t in &cands {
        let a = inc.advance(t);
        let b = fresh.eval(t);
        assert!(a == b || (a.is_infinite() && b.is_infinite()), "t {t}: advance {a} vs eval {b}");
        for (x, y) in inc.f.iter().zip(&fresh.f) {
            assert!(x == y, "table differs at t {t}: {x} vs {y}");
        }
    }
    cands.len()
}
