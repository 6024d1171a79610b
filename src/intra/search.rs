//! Local search over a (reduced) model: an assignment with its memory profile, single-node
//! moves, and a greedy memory repair. The objective is lexicographic: first the number of
//! forbidden choices in use, then the cost.

use super::model::Model;
use super::segtree::LoadTree;

/// One edge end as seen from a node.
#[derive(Debug, Clone, Copy)]
pub struct Incidence {
    pub edge: usize,
    pub other: usize,
    /// This node is the edge's `u` (row index of the matrix).
    pub is_u: bool,
}

/// Score of one strategy of a node given its neighbours: (forbidden uses, finite cost sum).
pub type Score = (u32, f64);

/// `a` is strictly better than `b`.
pub fn better(a: Score, b: Score) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}

/// Assignment state of a model.
pub struct Search<'a> {
    pub m: &'a Model,
    pub adj: Vec<Vec<Incidence>>,
    pub terms_of: Vec<Vec<usize>>,
    pub choice: Vec<usize>,
    pub loads: LoadTree,
}

impl<'a> Search<'a> {
    pub fn new(m: &'a Model, choice: Vec<usize>) -> Search<'a> {
        let n = m.num_nodes();
        let mut adj = vec![Vec::new(); n];
        for (k, e) in m.edges.iter().enumerate() {
            adj[e.u].push(Incidence { edge: k, other: e.v, is_u: true });
            adj[e.v].push(Incidence { edge: k, other: e.u, is_u: false });
        }
        let mut terms_of = vec![Vec::new(); n];
        for (k, t) in m.terms.iter().enumerate() {
            terms_of[t.node].push(k);
        }
        let loads = LoadTree::new(&m.loads(&choice));
        Search { m, adj, terms_of, choice, loads }
    }

    /// Matrix entry of incidence `a` of node `v` when `v` picks `s` and the other end `t`.
    pub fn entry(&self, v: usize, a: &Incidence, s: usize, t: usize) -> f64 {
        let e = &self.m.edges[a.edge];
        if a.is_u {
            e.costs[s * self.m.costs[a.other].len() + t]
        } else {
            e.costs[t * self.m.costs[v].len() + s]
        }
    }

    /// Scores of all strategies of `v` with the neighbours as they are.
    pub fn scores(&self, v: usize) -> Vec<Score> {
        let mut out: Vec<Score> = self.m.costs[v].iter().map(|&c| add((0, 0.0), c)).collect();
        for a in &self.adj[v] {
            let t = self.choice[a.other];
            for (s, sc) in out.iter_mut().enumerate() {
                *sc = add(*sc, self.entry(v, a, s, t));
            }
        }
        out
    }

    /// Forbidden uses and finite cost of the whole assignment.
    pub fn total(&self) -> Score {
        let mut sc = (0, 0.0);
        for (v, &s) in self.choice.iter().enumerate() {
            sc = add(sc, self.m.costs[v][s]);
        }
        for e in &self.m.edges {
            sc = add(sc, e.costs[self.choice[e.u] * self.m.costs[e.v].len() + self.choice[e.v]]);
        }
        sc
    }

    pub fn peak(&self) -> f64 {
        if self.loads.is_empty() {
            0.0
        } else {
            self.loads.peak()
        }
    }

    pub fn memory_ok(&self) -> bool {
        self.peak() <= self.m.limit
    }

    /// Would switching `v` to `s` keep every checkpoint of `v`'s terms within the limit, or
    /// at least no higher than it already is where it is over? (Terms of one node may
    /// overlap, so the move is tried on the profile and undone.)
    pub fn fits(&mut self, v: usize, s: usize) -> bool {
        let cur = self.choice[v];
        if s == cur || self.terms_of[v].is_empty() {
            return true;
        }
        let grows = self.terms_of[v].iter().any(|&k| self.m.terms[k].usage[s] > self.m.terms[k].usage[cur]);
        if !grows {
            return true;
        }
        let before: Vec<f64> = self.terms_of[v].iter().map(|&k| self.range_max(k)).collect();
        self.set(v, s);
        let ok = self.terms_of[v].iter().zip(&before).all(|(&k, &b)| self.range_max(k) <= self.m.limit.max(b));
        self.set(v, cur);
        ok
    }

    fn range_max(&self, k: usize) -> f64 {
        let t = &self.m.terms[k];
        self.loads.max(t.lo, t.hi)
    }

    /// Takes over a whole assignment (only the nodes that differ are touched).
    pub fn assign(&mut self, choice: &[usize]) {
        for (v, &s) in choice.iter().enumerate() {
            self.set(v, s);
        }
    }

    /// Switches `v` to `s`, keeping the memory profile up to date.
    pub fn set(&mut self, v: usize, s: usize) {
        let cur = self.choice[v];
        if cur == s {
            return;
        }
        for &k in &self.terms_of[v] {
            let t = &self.m.terms[k];
            self.loads.add(t.lo, t.hi, t.usage[s] - t.usage[cur]);
        }
        self.choice[v] = s;
    }

    /// Repeated best single-node moves until none improves. With `hard_memory`, a move may
    /// not push any checkpoint over the limit. `penalty[v][s]` is added to the cost of a
    /// strategy when given. Returns the number of moves; stops early when `stop()` says so.
    pub fn descend(
        &mut self,
        hard_memory: bool,
        penalty: Option<&[Vec<f64>]>,
        stop: &mut dyn FnMut() -> bool,
    ) -> usize {
        let n = self.m.num_nodes();
        let mut queued = vec![true; n];
        let mut queue: std::collections::VecDeque<usize> = (0..n).collect();
        let mut moves = 0;
        let mut visits = 0usize;
        while let Some(v) = queue.pop_front() {
            queued[v] = false;
            visits += 1;
            if visits.is_multiple_of(256) && stop() {
                break;
            }
            let mut sc = self.scores(v);
            if let Some(p) = penalty {
                for (x, q) in sc.iter_mut().zip(&p[v]) {
                    x.1 += q;
                }
            }
            let cur = self.choice[v];
            let mut best = cur;
            for s in 0..sc.len() {
                if better(sc[s], sc[best]) && improves(sc[s], sc[cur]) && (!hard_memory || self.fits(v, s)) {
                    best = s;
                }
            }
            if best != cur {
                self.set(v, best);
                moves += 1;
                for a in &self.adj[v] {
                    if !queued[a.other] {
                        queued[a.other] = true;
                        queue.push_back(a.other);
                    }
                }
            }
        }
        moves
    }

    /// Greedy memory repair: while some checkpoint is over the limit, take the move of a node
    /// live there that frees memory at that checkpoint for the least extra cost per byte
    /// (never adding forbidden choices, never pushing another checkpoint over the limit).
    /// Returns whether the assignment now fits.
    pub fn repair_memory(&mut self, stop: &mut dyn FnMut() -> bool) -> bool {
        let mut steps = 0usize;
        while !self.memory_ok() {
            steps += 1;
            if steps.is_multiple_of(16) && stop() {
                return false;
            }
            let c = self.loads.argmax();
            let mut best: Option<(f64, usize, usize)> = None; // (ratio, node, strategy)
            let m = self.m;
            let mut live: Vec<usize> = m.terms.iter().filter(|t| t.lo <= c && c < t.hi).map(|t| t.node).collect();
            live.sort_unstable();
            live.dedup();
            for v in live {
                let cur = self.choice[v];
                let sc = self.scores(v);
                for s in 0..sc.len() {
                    if s == cur || sc[s].0 > sc[cur].0 {
                        continue;
                    }
                    // Memory freed at c; elsewhere no checkpoint may go over the limit.
                    let mut freed = 0.0;
                    for &kk in &self.terms_of[v] {
                        let tt = &m.terms[kk];
                        if tt.lo <= c && c < tt.hi {
                            freed += tt.usage[cur] - tt.usage[s];
                        }
                    }
                    if freed <= 0.0 || !self.fits(v, s) {
                        continue;
                    }
                    let ratio = if sc[s].0 < sc[cur].0 { f64::NEG_INFINITY } else { (sc[s].1 - sc[cur].1) / freed };
                    if best.is_none_or(|b| ratio < b.0) {
                        best = Some((ratio, v, s));
                    }
                }
            }
            match best {
                Some((_, v, s)) => self.set(v, s),
                None => return false,
            }
        }
        true
    }
}

/// Adds a cost to a score: forbidden entries count, finite ones sum.
pub fn add(sc: Score, c: f64) -> Score {
    if c.is_finite() {
        (sc.0, sc.1 + c)
    } else {
        (sc.0 + 1, sc.1)
    }
}

/// `a` improves on `b` by more than rounding noise.
fn improves(a: Score, b: Score) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1 - 1e-9 * b.1.abs().max(1.0))
}
