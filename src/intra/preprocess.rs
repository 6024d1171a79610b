//! Exact reductions of the internal model before solving; every step keeps at least one optimal
//! assignment and the log in `reconstruct` maps a reduced assignment back.
//!
//! - Dead strategies: forbidden cost, or a row of an incident edge that is forbidden throughout.
//! - Parallel edges between the same two nodes are summed.
//! - Dominated strategies: `a` goes when some `b` costs no more, uses no more memory in any
//!   term, and is no worse in every row of every incident edge.
//! - Single-strategy nodes are folded into their neighbours' costs.
//! - Leaves: a leaf without memory terms is folded into its neighbour's cost vector (its best
//!   strategy per neighbour strategy); a leaf with memory is merged into its neighbour as the
//!   product of the neighbour's strategies with the leaf's Pareto-optimal (cost, memory) answers,
//!   when that product stays small.
//! - Chains: a degree-2 node without memory terms becomes an edge between its neighbours whose
//!   matrix is the minimum over its strategies.
//! - Checkpoints at which even the largest usages fit are dropped, which frees terms.

use std::collections::VecDeque;

use super::error::IntraError;
use super::model::{Model, ModelEdge, Term};
use super::reconstruct::{replay, Record};

/// Limits of the reductions.
#[derive(Debug, Clone, PartialEq)]
pub struct PreprocessOptions {
    /// A leaf with memory is merged into its neighbour only when the merged node keeps at most
    /// `max(neighbour strategies, product_cap)` strategies.
    pub product_cap: usize,
    /// Do leaf/chain/single-strategy eliminations (dominance runs regardless).
    pub eliminate: bool,
}

impl Default for PreprocessOptions {
    fn default() -> Self {
        PreprocessOptions { product_cap: 16, eliminate: true }
    }
}

/// A reduced model and the way back to the original one.
#[derive(Debug, Clone)]
pub struct Reduced {
    pub model: Model,
    /// Reduced node -> original node.
    pub kept: Vec<usize>,
    /// Reduced node, strategy -> id (see `reconstruct`).
    pub ids: Vec<Vec<u32>>,
    pub records: Vec<Record>,
    pub original_counts: Vec<usize>,
}

/// Why preprocessing stopped.
#[derive(Debug, Clone, PartialEq)]
pub enum PreprocessFailure {
    /// A node has no allowed strategy left.
    NoAllowedAssignment,
    /// The memory that no choice can change already exceeds the limit.
    MemoryInfeasible,
}

impl Reduced {
    /// The original assignment for a reduced one.
    pub fn expand(&self, choice: &[usize]) -> Result<Vec<usize>, IntraError> {
        let mut assign = vec![None; self.original_counts.len()];
        for (r, &o) in self.kept.iter().enumerate() {
            assign[o] = Some(self.ids[r][choice[r]]);
        }
        replay(&self.records, assign, &self.original_counts)
    }

    /// The reduced assignment that keeps the surviving nodes on their strategies in
    /// `original`, when every one of them still has that strategy (and the reduced model
    /// accepts it); `None` otherwise.
    pub fn contract(&self, original: &[usize]) -> Option<Vec<usize>> {
        let mut out = Vec::with_capacity(self.kept.len());
        for (r, &o) in self.kept.iter().enumerate() {
            let id = original[o] as u32;
            out.push(self.ids[r].iter().position(|&x| x == id)?);
        }
        (self.model.cost(&out).is_finite() && self.model.peak(&out) <= self.model.limit).then_some(out)
    }
}

const NO_EDGE: usize = usize::MAX;

struct WTerm {
    lo: usize,
    hi: usize,
    usage: Vec<f64>,
}

struct WEdge {
    u: usize,
    v: usize,
    m: Vec<f64>,
    alive: bool,
}

struct Work {
    cost: Vec<Vec<f64>>,
    ids: Vec<Vec<u32>>,
    next_id: Vec<u32>,
    terms: Vec<Vec<WTerm>>,
    base: Vec<f64>,
    limit: f64,
    edges: Vec<WEdge>,
    adj: Vec<Vec<usize>>,
    alive: Vec<bool>,
    records: Vec<Record>,
    queue: VecDeque<usize>,
    queued: Vec<bool>,
    opts: PreprocessOptions,
    /// Scratch of `merge_parallel`: per node, an edge to it (`NO_EDGE` between uses).
    first_edge_to: Vec<usize>,
}

/// Reduces `m`.
pub fn preprocess(m: &Model, opts: &PreprocessOptions) -> Result<Reduced, PreprocessFailure> {
    let mut w = Work::new(m, opts.clone());
    loop {
        while let Some(x) = w.queue.pop_front() {
            w.queued[x] = false;
            w.visit(x)?;
        }
        if !w.drop_slack_checkpoints()? {
            break;
        }
    }
    Ok(w.finish(m))
}

impl Work {
    fn new(m: &Model, opts: PreprocessOptions) -> Work {
        let n = m.num_nodes();
        let mut terms: Vec<Vec<WTerm>> = (0..n).map(|_| Vec::new()).collect();
        for t in &m.terms {
            terms[t.node].push(WTerm { lo: t.lo, hi: t.hi, usage: t.usage.clone() });
        }
        let mut adj = vec![Vec::new(); n];
        let edges: Vec<WEdge> = m
            .edges
            .iter()
            .enumerate()
            .map(|(k, e)| {
                adj[e.u].push(k);
                adj[e.v].push(k);
                WEdge { u: e.u, v: e.v, m: e.costs.clone(), alive: true }
            })
            .collect();
        Work {
            ids: m.costs.iter().map(|c| (0..c.len() as u32).collect()).collect(),
            next_id: m.costs.iter().map(|c| c.len() as u32).collect(),
            cost: m.costs.clone(),
            terms,
            base: m.base.clone(),
            limit: m.limit,
            edges,
            adj,
            alive: vec![true; n],
            records: Vec::new(),
            queue: (0..n).collect(),
            queued: vec![true; n],
            opts,
            first_edge_to: vec![NO_EDGE; n],
        }
    }

    fn push(&mut self, x: usize) {
        if self.alive[x] && !self.queued[x] {
            self.queued[x] = true;
            self.queue.push_back(x);
        }
    }

    fn other(&self, e: usize, x: usize) -> usize {
        let ed = &self.edges[e];
        if ed.u == x {
            ed.v
        } else {
            ed.u
        }
    }

    /// Live incident edges of `x` (also drops dead ones from the adjacency list).
    fn live_edges(&mut self, x: usize) -> Vec<usize> {
        let edges = &self.edges;
        self.adj[x].retain(|&e| edges[e].alive);
        self.adj[x].clone()
    }

    /// Edge matrix with `x`'s strategies as rows: `k_x x k_other`.
    fn oriented(&self, e: usize, x: usize) -> Vec<f64> {
        let ed = &self.edges[e];
        if ed.u == x {
            return ed.m.clone();
        }
        let (nu, nv) = (self.cost[ed.u].len(), self.cost[ed.v].len());
        let mut t = vec![0.0; nu * nv];
        for i in 0..nu {
            for j in 0..nv {
                t[j * nu + i] = ed.m[i * nv + j];
            }
        }
        t
    }

    /// Stores an `x`-major matrix back in the edge's own orientation; `kx` is `x`'s strategy
    /// count the matrix was built for.
    fn store_oriented(&mut self, e: usize, x: usize, mat: Vec<f64>, kx: usize) {
        let o = self.other(e, x);
        let ko = self.cost[o].len();
        let ed = &mut self.edges[e];
        if ed.u == x {
            ed.m = mat;
        } else {
            let mut t = vec![0.0; kx * ko];
            for a in 0..kx {
                for b in 0..ko {
                    t[b * kx + a] = mat[a * ko + b];
                }
            }
            ed.m = t;
        }
    }

    /// Renumbers `x`'s strategies: new strategy `p` is old strategy `map[p]` (drops and copies).
    /// Costs, ids and terms are renumbered too; callers overwrite what differs.
    fn reindex(&mut self, x: usize, map: &[usize]) {
        let old_k = self.cost[x].len();
        // A hub absorbs its leaves one by one, usually keeping its strategies as they are:
        // copying its every edge each time would make preprocessing quadratic in its degree.
        if map.len() == old_k && map.iter().enumerate().all(|(p, &a)| p == a) {
            return;
        }
        for e in self.live_edges(x) {
            let o = self.other(e, x);
            let ko = self.cost[o].len();
            let ed = &mut self.edges[e];
            debug_assert_eq!(ed.m.len(), old_k * ko);
            let mut out = Vec::with_capacity(map.len() * ko);
            if ed.u == x {
                for &a in map {
                    out.extend_from_slice(&ed.m[a * ko..(a + 1) * ko]);
                }
            } else {
                for row in ed.m.chunks_exact(old_k) {
                    out.extend(map.iter().map(|&a| row[a]));
                }
            }
            ed.m = out;
        }
        self.cost[x] = map.iter().map(|&a| self.cost[x][a]).collect();
        self.ids[x] = map.iter().map(|&a| self.ids[x][a]).collect();
        for t in &mut self.terms[x] {
            t.usage = map.iter().map(|&a| t.usage[a]).collect();
        }
    }

    /// Moves terms whose usage is the same for every strategy into `base`.
    fn normalize_terms(&mut self, x: usize) -> Result<(), PreprocessFailure> {
        let terms = std::mem::take(&mut self.terms[x]);
        self.terms[x] = self.fold_constant_terms(terms)?;
        Ok(())
    }

    /// Adds the terms whose usage is the same for every strategy to `base`; returns the others.
    fn fold_constant_terms(&mut self, terms: Vec<WTerm>) -> Result<Vec<WTerm>, PreprocessFailure> {
        let mut varying = Vec::with_capacity(terms.len());
        for t in terms {
            let first = t.usage.first().copied().unwrap_or(0.0);
            if t.usage.iter().all(|&u| u == first) {
                for b in &mut self.base[t.lo..t.hi] {
                    *b += first;
                    if *b > self.limit {
                        return Err(PreprocessFailure::MemoryInfeasible);
                    }
                }
            } else {
                varying.push(t);
            }
        }
        Ok(varying)
    }

    fn neighbours(&mut self, x: usize) -> Vec<usize> {
        self.live_edges(x).into_iter().map(|e| self.other(e, x)).collect()
    }

    fn visit(&mut self, x: usize) -> Result<(), PreprocessFailure> {
        if !self.alive[x] {
            return Ok(());
        }
        self.merge_parallel(x);
        let mut changed = self.remove_dead(x)?;
        changed |= self.remove_dominated(x)?;
        if changed {
            for o in self.neighbours(x) {
                self.push(o);
            }
        }
        if self.opts.eliminate {
            self.eliminate(x)?;
        }
        Ok(())
    }

    /// Entry of edge `e` with `x` at strategy `a` and the other end at `j` (`kx`: `x`'s
    /// strategy count, `ko`: the other end's).
    fn entry(&self, e: usize, x: usize, a: usize, j: usize, kx: usize, ko: usize) -> f64 {
        let ed = &self.edges[e];
        if ed.u == x {
            ed.m[a * ko + j]
        } else {
            ed.m[j * kx + a]
        }
    }

    /// Sums edges that join `x` to the same neighbour.
    fn merge_parallel(&mut self, x: usize) {
        let edges = self.live_edges(x);
        let kx = self.cost[x].len();
        // First edge to each neighbour, in a scratch slot per node (reset below): a hub's
        // neighbours are looked up in constant time.
        let mut parallel = Vec::new();
        for &e in &edges {
            let o = self.other(e, x);
            match self.first_edge_to[o] {
                NO_EDGE => self.first_edge_to[o] = e,
                keep => parallel.push((keep, e)),
            }
        }
        for &e in &edges {
            let o = self.other(e, x);
            self.first_edge_to[o] = NO_EDGE;
        }
        for (keep, e) in parallel {
            let add = self.oriented(e, x);
            let mut sum = self.oriented(keep, x);
            for (s, a) in sum.iter_mut().zip(add) {
                *s += a;
            }
            self.store_oriented(keep, x, sum, kx);
            self.edges[e].alive = false;
        }
    }

    /// Removes forbidden strategies and strategies with a forbidden row.
    fn remove_dead(&mut self, x: usize) -> Result<bool, PreprocessFailure> {
        let k = self.cost[x].len();
        let mut keep: Vec<bool> = self.cost[x].iter().map(|c| c.is_finite()).collect();
        for e in self.live_edges(x) {
            let ko = self.cost[self.other(e, x)].len();
            for (a, kept) in keep.iter_mut().enumerate() {
                if *kept && (0..ko).all(|j| !self.entry(e, x, a, j, k, ko).is_finite()) {
                    *kept = false;
                }
            }
        }
        self.apply_keep(x, &keep)
    }

    fn apply_keep(&mut self, x: usize, keep: &[bool]) -> Result<bool, PreprocessFailure> {
        if keep.iter().all(|&k| k) {
            return Ok(false);
        }
        let map: Vec<usize> = (0..keep.len()).filter(|&a| keep[a]).collect();
        if map.is_empty() {
            return Err(PreprocessFailure::NoAllowedAssignment);
        }
        self.reindex(x, &map);
        self.normalize_terms(x)?;
        Ok(true)
    }

    /// Removes strategies dominated by another strategy of the same node.
    fn remove_dominated(&mut self, x: usize) -> Result<bool, PreprocessFailure> {
        let k = self.cost[x].len();
        if k < 2 {
            return Ok(false);
        }
        let edges: Vec<(usize, usize)> =
            self.live_edges(x).into_iter().map(|e| (e, self.cost[self.other(e, x)].len())).collect();
        let cost = &self.cost[x];
        let terms = &self.terms[x];
        // b dominates a: no worse anywhere; exact ties go to the lower index.
        let dominates = |b: usize, a: usize| -> bool {
            if cost[b] > cost[a] {
                return false;
            }
            let mut strict = cost[b] < cost[a];
            for t in terms {
                if t.usage[b] > t.usage[a] {
                    return false;
                }
                strict |= t.usage[b] < t.usage[a];
            }
            for &(e, ko) in &edges {
                for j in 0..ko {
                    let (cb, ca) = (self.entry(e, x, b, j, k, ko), self.entry(e, x, a, j, k, ko));
                    if cb > ca {
                        return false;
                    }
                    strict |= cb < ca;
                }
            }
            strict || b < a
        };
        let mut keep = vec![true; k];
        for a in 0..k {
            for b in 0..k {
                if b != a && keep[b] && dominates(b, a) {
                    keep[a] = false;
                    break;
                }
            }
        }
        self.apply_keep(x, &keep)
    }

    fn kill(&mut self, x: usize) {
        self.alive[x] = false;
        for e in self.live_edges(x) {
            self.edges[e].alive = false;
        }
    }

    fn eliminate(&mut self, x: usize) -> Result<(), PreprocessFailure> {
        let edges = self.live_edges(x);
        let k = self.cost[x].len();
        if k == 1 {
            // Fold every edge into the neighbour's costs.
            for &e in &edges {
                let o = self.other(e, x);
                let mat = self.oriented(e, x);
                for (c, add) in self.cost[o].iter_mut().zip(&mat) {
                    *c += add;
                }
                self.edges[e].alive = false;
                self.push(o);
            }
            self.normalize_terms(x)?;
            self.records.push(Record::Fixed { v: x, id: self.ids[x][0] });
            self.kill(x);
            return Ok(());
        }
        match edges.len() {
            0 if self.terms[x].is_empty() => {
                let best = argmin(&self.cost[x]);
                self.records.push(Record::Fixed { v: x, id: self.ids[x][best] });
                self.kill(x);
            }
            1 => self.eliminate_leaf(x, edges[0])?,
            2 if self.terms[x].is_empty() => self.eliminate_chain(x, edges[0], edges[1]),
            _ => {}
        }
        Ok(())
    }

    fn eliminate_leaf(&mut self, v: usize, e: usize) -> Result<(), PreprocessFailure> {
        let u = self.other(e, v);
        let (ku, kv) = (self.cost[u].len(), self.cost[v].len());
        let mat = self.oriented(e, u); // ku x kv
        if self.terms[v].is_empty() {
            let mut pick = Vec::with_capacity(ku);
            for j in 0..ku {
                let row: Vec<f64> = (0..kv).map(|k| self.cost[v][k] + mat[j * kv + k]).collect();
                let best = argmin(&row);
                self.cost[u][j] += row[best];
                pick.push(self.ids[v][best]);
            }
            self.records.push(Record::Leaf { v, parent: u, parent_ids: self.ids[u].clone(), pick });
            self.kill(v);
            self.push(u);
            return Ok(());
        }
        // Pareto fronts of (cost, usages) of v per strategy of u.
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for j in 0..ku {
            let total: Vec<f64> = (0..kv).map(|k| self.cost[v][k] + mat[j * kv + k]).collect();
            for k in 0..kv {
                if !total[k].is_finite() {
                    continue;
                }
                let dominated = (0..kv).any(|b| {
                    b != k && total[b] <= total[k] && {
                        let mut strict = total[b] < total[k];
                        let mut no_worse = true;
                        for t in &self.terms[v] {
                            if t.usage[b] > t.usage[k] {
                                no_worse = false;
                                break;
                            }
                            strict |= t.usage[b] < t.usage[k];
                        }
                        no_worse && (strict || b < k)
                    }
                });
                if !dominated {
                    pairs.push((j, k));
                }
            }
        }
        if pairs.len() > ku.max(self.opts.product_cap) {
            return Ok(());
        }
        // u's strategies become the pairs.
        self.edges[e].alive = false;
        let map: Vec<usize> = pairs.iter().map(|&(j, _)| j).collect();
        // Usually one answer per strategy of u: u keeps its strategies, so its other terms and
        // its neighbours' view of it stay as they were (a hub absorbs thousands of leaves).
        let same_strategies = map.len() == ku && map.iter().enumerate().all(|(p, &j)| p == j);
        let old_cost_u = self.cost[u].clone();
        let old_ids_u = self.ids[u].clone();
        self.reindex(u, &map);
        let first_new = self.next_id[u];
        self.next_id[u] += pairs.len() as u32;
        let mut record_pairs = Vec::with_capacity(pairs.len());
        for (p, &(j, k)) in pairs.iter().enumerate() {
            self.cost[u][p] = old_cost_u[j] + self.cost[v][k] + mat[j * kv + k];
            self.ids[u][p] = first_new + p as u32;
            record_pairs.push((old_ids_u[j], self.ids[v][k]));
        }
        let moved: Vec<WTerm> = std::mem::take(&mut self.terms[v])
            .into_iter()
            .map(|t| WTerm { lo: t.lo, hi: t.hi, usage: pairs.iter().map(|&(_, k)| t.usage[k]).collect() })
            .collect();
        self.records.push(Record::Product { u, v, first_new, pairs: record_pairs });
        self.alive[v] = false;
        // Pairs may differ only by the absorbed node's memory; normalisation keeps it exact.
        let moved = self.fold_constant_terms(moved)?;
        self.terms[u].extend(moved);
        self.push(u);
        if !same_strategies {
            self.normalize_terms(u)?;
            for o in self.neighbours(u) {
                self.push(o);
            }
        }
        Ok(())
    }

    fn eliminate_chain(&mut self, x: usize, e1: usize, e2: usize) {
        let (a, b) = (self.other(e1, x), self.other(e2, x));
        if a == b {
            return; // merged as parallel edges on the next visit
        }
        let (ka, kb, kx) = (self.cost[a].len(), self.cost[b].len(), self.cost[x].len());
        let ma = self.oriented(e1, x); // kx x ka
        let mb = self.oriented(e2, x); // kx x kb
        let mut m = vec![0.0; ka * kb];
        let mut pick = vec![0u32; ka * kb];
        for i in 0..ka {
            for j in 0..kb {
                let mut best = (f64::INFINITY, 0usize);
                for k in 0..kx {
                    let c = self.cost[x][k] + ma[k * ka + i] + mb[k * kb + j];
                    if c < best.0 {
                        best = (c, k);
                    }
                }
                m[i * kb + j] = best.0;
                pick[i * kb + j] = self.ids[x][best.1];
            }
        }
        self.records.push(Record::Chain { v: x, a, b, a_ids: self.ids[a].clone(), b_ids: self.ids[b].clone(), pick });
        self.kill(x);
        let e = self.edges.len();
        self.edges.push(WEdge { u: a, v: b, m, alive: true });
        self.adj[a].push(e);
        self.adj[b].push(e);
        self.push(a);
        self.push(b);
    }

    /// Drops checkpoints where even the largest usage of every live term fits; returns whether
    /// any term lost its last checkpoint (and so the worklist has new work).
    fn drop_slack_checkpoints(&mut self) -> Result<bool, PreprocessFailure> {
        let t = self.base.len();
        if t == 0 || !self.limit.is_finite() {
            return Ok(false);
        }
        let mut diff = vec![0.0; t + 1];
        for (x, terms) in self.terms.iter().enumerate() {
            if !self.alive[x] {
                continue;
            }
            for term in terms {
                let mx = term.usage.iter().copied().fold(0.0, f64::max);
                diff[term.lo] += mx;
                diff[term.hi] -= mx;
            }
        }
        if self.base.iter().any(|&b| b > self.limit) {
            return Err(PreprocessFailure::MemoryInfeasible);
        }
        let mut run = 0.0;
        let mut keep = vec![false; t];
        for c in 0..t {
            run += diff[c];
            keep[c] = self.base[c] + run > self.limit;
        }
        if keep.iter().all(|&k| k) {
            return Ok(false);
        }
        let mut before = vec![0usize; t + 1];
        for c in 0..t {
            before[c + 1] = before[c] + keep[c] as usize;
        }
        self.base = (0..t).filter(|&c| keep[c]).map(|c| self.base[c]).collect();
        let mut any_freed = false;
        for x in 0..self.terms.len() {
            if !self.alive[x] || self.terms[x].is_empty() {
                continue;
            }
            let mut freed = false;
            self.terms[x].retain_mut(|term| {
                term.lo = before[term.lo];
                term.hi = before[term.hi];
                let live = term.lo < term.hi;
                freed |= !live;
                live
            });
            if freed {
                any_freed = true;
                self.push(x);
            }
        }
        Ok(any_freed)
    }

    fn finish(self, m: &Model) -> Reduced {
        let n = self.alive.len();
        let mut index = vec![usize::MAX; n];
        let mut kept = Vec::new();
        for (x, &alive) in self.alive.iter().enumerate() {
            if alive {
                index[x] = kept.len();
                kept.push(x);
            }
        }
        let mut model = Model {
            costs: kept.iter().map(|&x| self.cost[x].clone()).collect(),
            edges: Vec::new(),
            terms: Vec::new(),
            base: self.base.clone(),
            limit: self.limit,
        };
        for ed in &self.edges {
            if ed.alive && self.alive[ed.u] && self.alive[ed.v] {
                model.edges.push(ModelEdge { u: index[ed.u], v: index[ed.v], costs: ed.m.clone() });
            }
        }
        for &x in &kept {
            for t in &self.terms[x] {
                model.terms.push(Term { node: index[x], lo: t.lo, hi: t.hi, usage: t.usage.clone() });
            }
        }
        Reduced {
            model,
            ids: kept.iter().map(|&x| self.ids[x].clone()).collect(),
            kept,
            records: self.records,
            original_counts: m.costs.iter().map(|c| c.len()).collect(),
        }
    }
}

/// Index of the smallest value; ties to the lowest index.
fn argmin(v: &[f64]) -> usize {
    let mut best = 0;
    for (i, &x) in v.iter().enumerate() {
        if x < v[best] {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    const X: f64 = f64::INFINITY;

    #[test]
    fn a_hub_keeps_its_strategies_while_it_absorbs_leaves_with_memory() {
        // Hub 0 tied one to one to four leaves, each leaf using 2 or 3 at the one checkpoint:
        // every leaf becomes part of the hub without new hub strategies, and its memory goes
        // with it, so the limit still rules out the cheaper hub strategy (peak 12 > 10).
        let tie = vec![0.0, X, X, 0.0];
        let m = Model {
            costs: vec![vec![5.0, 0.0], vec![1.0, 1.0], vec![1.0, 1.0], vec![1.0, 1.0], vec![1.0, 1.0]],
            edges: (1..5).map(|v| ModelEdge { u: 0, v, costs: tie.clone() }).collect(),
            terms: (1..5).map(|v| Term { node: v, lo: 0, hi: 1, usage: vec![2.0, 3.0] }).collect(),
            base: vec![0.0],
            limit: 10.0,
        };
        let r = preprocess(&m, &PreprocessOptions::default()).unwrap();
        assert_eq!(r.model.num_nodes(), 1);
        assert!(r.model.edges.is_empty());
        assert_eq!(r.model.costs[0], vec![9.0, 4.0]);
        assert_eq!(r.model.terms.len(), 4);
        assert_eq!(r.model.peak(&[0]), 8.0);
        assert_eq!(r.model.peak(&[1]), 12.0);
        assert_eq!(r.expand(&[0]).unwrap(), vec![0; 5]);
        assert_eq!(r.expand(&[1]).unwrap(), vec![1; 5]);
    }
}
