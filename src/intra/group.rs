//! Groups of nodes tied by forbidden pairs. When an edge allows, for every allowed strategy of
//! one end, at most one strategy of the other end, the other end is a function of the first:
//! the two are one decision. Contracting every such edge (again and again: a contraction kills
//! the strategies without a partner, which can make more edges functional) gives an exact,
//! smaller model whose nodes are groups. A move on a group re-chooses all of its members
//! consistently, which single-node and tree moves on the original cannot do once a group is
//! large or closes cycles (a tensor's layout tied to hundreds of users by alias-like edges):
//! there, least-memory choices made node by node collide with forbidden pairs.

use std::collections::{HashMap, VecDeque};

use super::model::{Model, ModelEdge, Term};

/// No strategy (the group strategy is forbidden).
const NONE: usize = usize::MAX;

/// A model of groups and the way back to the nodes of the model it was made from.
#[derive(Debug, Clone)]
pub struct Grouped {
    pub model: Model,
    /// Per original node: its group.
    group_of: Vec<usize>,
    /// Per original node, per strategy of its group: the node's strategy (`NONE` where that
    /// group strategy is forbidden).
    pick: Vec<Vec<usize>>,
}

impl Grouped {
    /// The original assignment of a group assignment (a forbidden group strategy maps every
    /// member to its first strategy, keeping the assignment forbidden).
    pub fn expand(&self, choice: &[usize]) -> Vec<usize> {
        self.group_of
            .iter()
            .zip(&self.pick)
            .map(|(&g, pick)| match pick[choice[g]] {
                NONE => 0,
                s => s,
            })
            .collect()
    }

    /// The group assignment of an original one, when every group's members agree on one group
    /// strategy.
    #[cfg(test)]
    pub fn contract(&self, original: &[usize]) -> Option<Vec<usize>> {
        let mut out: Vec<Option<usize>> = vec![None; self.model.num_nodes()];
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); self.model.num_nodes()];
        for (x, &g) in self.group_of.iter().enumerate() {
            members[g].push(x);
        }
        for (g, xs) in members.iter().enumerate() {
            out[g] = (0..self.model.costs[g].len()).find(|&i| xs.iter().all(|&x| self.pick[x][i] == original[x]));
        }
        out.into_iter().collect()
    }

    /// Number of groups.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.model.num_nodes()
    }
}

struct WorkEdge {
    u: usize,
    v: usize,
    /// Row-major `|S_u| x |S_v|`.
    m: Vec<f64>,
    alive: bool,
}

struct Work {
    costs: Vec<Vec<f64>>,
    terms: Vec<Vec<Term>>,
    members: Vec<Vec<usize>>,
    pick: Vec<Vec<usize>>,
    edges: Vec<WorkEdge>,
    adj: Vec<Vec<usize>>,
    queue: VecDeque<usize>,
    queued: Vec<bool>,
}

impl Work {
    /// Entry of edge `k` with `x` at strategy `i` and the other end at `j`.
    fn entry(&self, k: usize, x: usize, i: usize, j: usize) -> f64 {
        let e = &self.edges[k];
        if e.u == x {
            e.m[i * self.costs[e.v].len() + j]
        } else {
            e.m[j * self.costs[x].len() + i]
        }
    }

    fn other(&self, k: usize, x: usize) -> usize {
        let e = &self.edges[k];
        if e.u == x {
            e.v
        } else {
            e.u
        }
    }

    /// When edge `k` leaves every allowed strategy of `x` at most one allowed strategy of the
    /// other end: that strategy per strategy of `x` (`NONE`: no partner, or `x`'s strategy
    /// is forbidden).
    fn function_from(&self, k: usize, x: usize) -> Option<Vec<usize>> {
        let y = self.other(k, x);
        let mut f = vec![NONE; self.costs[x].len()];
        for (i, fi) in f.iter_mut().enumerate() {
            if !self.costs[x][i].is_finite() {
                continue;
            }
            for j in 0..self.costs[y].len() {
                if self.costs[y][j].is_finite() && self.entry(k, x, i, j).is_finite() {
                    if *fi != NONE {
                        return None;
                    }
                    *fi = j;
                }
            }
        }
        Some(f)
    }

    fn push(&mut self, k: usize) {
        if !self.queued[k] {
            self.queued[k] = true;
            self.queue.push_back(k);
        }
    }

    /// Merges `y` into `x` through edge `k`, on which `y`'s strategy is `f` of `x`'s.
    fn merge(&mut self, k: usize, x: usize, y: usize, f: &[usize]) {
        let kx = self.costs[x].len();
        let mut died = false;
        for (i, &fi) in f.iter().enumerate().take(kx) {
            let c = match fi {
                NONE => f64::INFINITY,
                j => self.costs[x][i] + self.costs[y][j] + self.entry(k, x, i, j),
            };
            died |= self.costs[x][i].is_finite() && !c.is_finite();
            self.costs[x][i] = c;
        }
        self.edges[k].alive = false;
        let through = |v: &[f64]| -> Vec<f64> { f.iter().map(|&j| if j == NONE { 0.0 } else { v[j] }).collect() };
        for t in std::mem::take(&mut self.terms[y]) {
            let usage = through(&t.usage);
            self.terms[x].push(Term { node: x, usage, ..t });
        }
        for z in std::mem::take(&mut self.members[y]) {
            let p = &self.pick[z];
            self.pick[z] = f.iter().map(|&j| if j == NONE { NONE } else { p[j] }).collect();
            self.members[x].push(z);
        }
        for e in std::mem::take(&mut self.adj[y]) {
            if !self.edges[e].alive {
                continue;
            }
            let z = self.other(e, y);
            let kz = self.costs[z].len();
            // The matrix with `y`'s rows replaced by `x`'s (through `f`), `x` as `u`.
            let mut m = vec![f64::INFINITY; kx * kz];
            for (i, &j) in f.iter().enumerate() {
                if j != NONE {
                    for t in 0..kz {
                        m[i * kz + t] = self.entry(e, y, j, t);
                    }
                }
            }
            if z == x {
                // An edge inside the group: its entry on the diagonal of `f` is a cost of `x`.
                for (i, &j) in f.iter().enumerate() {
                    if j != NONE {
                        let c = self.costs[x][i] + m[i * kz + i];
                        died |= self.costs[x][i].is_finite() && !c.is_finite();
                        self.costs[x][i] = c;
                    }
                }
                self.edges[e].alive = false;
                continue;
            }
            self.edges[e] = WorkEdge { u: x, v: z, m, alive: true };
            self.adj[x].push(e);
            self.push(e);
        }
        if died {
            for e in self.adj[x].clone() {
                if self.edges[e].alive {
                    self.push(e);
                }
            }
        }
    }
}

/// Contracts every edge on which one end is a function of the other.
pub fn group(m: &Model) -> Grouped {
    let n = m.num_nodes();
    let mut terms: Vec<Vec<Term>> = vec![Vec::new(); n];
    for t in &m.terms {
        terms[t.node].push(t.clone());
    }
    let mut adj = vec![Vec::new(); n];
    for (k, e) in m.edges.iter().enumerate() {
        adj[e.u].push(k);
        adj[e.v].push(k);
    }
    let mut w = Work {
        costs: m.costs.clone(),
        terms,
        members: (0..n).map(|x| vec![x]).collect(),
        pick: m.costs.iter().map(|c| (0..c.len()).collect()).collect(),
        edges: m.edges.iter().map(|e| WorkEdge { u: e.u, v: e.v, m: e.costs.clone(), alive: true }).collect(),
        adj,
        queue: (0..m.edges.len()).collect(),
        queued: vec![true; m.edges.len()],
    };
    while let Some(k) = w.queue.pop_front() {
        w.queued[k] = false;
        if !w.edges[k].alive {
            continue;
        }
        let (u, v) = (w.edges[k].u, w.edges[k].v);
        let size = |x: usize| w.adj[x].len() + w.members[x].len();
        // Keep the larger group: fewer edges and members are rewritten.
        let (x, y) = if size(u) >= size(v) { (u, v) } else { (v, u) };
        if let Some(f) = w.function_from(k, x) {
            w.merge(k, x, y, &f);
        } else if let Some(f) = w.function_from(k, y) {
            w.merge(k, y, x, &f);
        }
    }
    if w.members.iter().all(|members| members.len() == 1) {
        // Nothing tied: the model itself, so the search sees the edges in their order.
        return Grouped { model: m.clone(), group_of: (0..n).collect(), pick: w.pick };
    }
    finish(m, w)
}

/// The model of the groups left in `w`: parallel edges summed, all-zero edges dropped.
fn finish(m: &Model, w: Work) -> Grouped {
    let n = m.num_nodes();
    let mut index = vec![NONE; n];
    let roots: Vec<usize> = (0..n).filter(|&x| !w.members[x].is_empty()).collect();
    for (g, &x) in roots.iter().enumerate() {
        index[x] = g;
    }
    let mut group_of = vec![0; n];
    for (g, &x) in roots.iter().enumerate() {
        for &z in &w.members[x] {
            group_of[z] = g;
        }
    }
    let costs: Vec<Vec<f64>> = roots.iter().map(|&x| w.costs[x].clone()).collect();
    let mut edges: Vec<ModelEdge> = Vec::new();
    let mut at: HashMap<(usize, usize), usize> = HashMap::new();
    for e in w.edges.iter().filter(|e| e.alive) {
        let (gu, gv) = (index[e.u], index[e.v]);
        let (a, b, transpose) = if gu < gv { (gu, gv, false) } else { (gv, gu, true) };
        let kb = costs[b].len();
        let ka = costs[a].len();
        let oriented: Vec<f64> =
            if transpose { (0..ka * kb).map(|i| e.m[(i % kb) * ka + i / kb]).collect() } else { e.m.clone() };
        match at.get(&(a, b)) {
            Some(&k) => edges[k].costs.iter_mut().zip(&oriented).for_each(|(x, y)| *x += y),
            None => {
                at.insert((a, b), edges.len());
                edges.push(ModelEdge { u: a, v: b, costs: oriented });
            }
        }
    }
    edges.retain(|e| e.costs.iter().any(|&c| c != 0.0));
    let mut model = Model { costs, edges, terms: Vec::new(), base: m.base.clone(), limit: m.limit };
    for &x in &roots {
        for t in &w.terms[x] {
            model.add_term(Term { node: index[x], ..t.clone() });
        }
    }
    Grouped { model, group_of, pick: w.pick }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::intra::brute::next_assignment;

    const X: f64 = f64::INFINITY;

    fn identity(k: usize) -> Vec<f64> {
        (0..k * k).map(|i| if i / k == i % k { 0.0 } else { X }).collect()
    }

    #[test]
    fn a_hub_and_its_aliases_are_one_group() {
        // Node 0 tied to 1, 2, 3 by correspondences; 1 and 2 also tied to each other by a
        // correspondence that swaps strategies 1 and 2, so only strategy 0 stays consistent.
        let swap = vec![0.0, X, X, X, X, 0.0, X, 0.0, X];
        let m = Model {
            costs: vec![vec![1.0, 2.0, 3.0], vec![0.0, 0.0, 0.0], vec![5.0, 0.0, 0.0], vec![0.0, 1.0, 0.0]],
            edges: vec![
                ModelEdge { u: 0, v: 1, costs: identity(3) },
                ModelEdge { u: 2, v: 0, costs: identity(3) },
                ModelEdge { u: 0, v: 3, costs: identity(3) },
                ModelEdge { u: 1, v: 2, costs: swap },
            ],
            terms: vec![],
            base: vec![],
            limit: X,
        };
        let g = group(&m);
        assert_eq!(g.len(), 1);
        assert!(g.model.edges.is_empty());
        assert_eq!(g.model.costs[0], vec![6.0, X, X]);
        assert_eq!(g.expand(&[0]), vec![0, 0, 0, 0]);
        assert_eq!(g.contract(&[0, 0, 0, 0]), Some(vec![0]));
        assert_eq!(g.contract(&[0, 1, 0, 0]), None);
    }

    #[test]
    fn a_function_merges_its_image_into_its_source_only() {
        // 1 = f(0) with f = [0, 0, 1]; 0 is not a function of 1. Node 2 hangs on 1 by an
        // ordinary edge, which now hangs on the group with 1's rows picked by f.
        let m = Model {
            costs: vec![vec![0.0, 1.0, 2.0], vec![10.0, 20.0], vec![0.0, 0.0]],
            edges: vec![
                ModelEdge { u: 0, v: 1, costs: vec![0.0, X, 3.0, X, X, 0.0] },
                ModelEdge { u: 1, v: 2, costs: vec![1.0, 2.0, 3.0, 4.0] },
            ],
            terms: vec![Term { node: 1, lo: 0, hi: 1, usage: vec![7.0, 9.0] }],
            base: vec![0.0],
            limit: X,
        };
        let g = group(&m);
        assert_eq!(g.len(), 2);
        assert_eq!(g.model.costs[0], vec![10.0, 14.0, 22.0]);
        assert_eq!(g.model.edges.len(), 1);
        assert_eq!(g.model.edges[0].costs, vec![1.0, 2.0, 1.0, 2.0, 3.0, 4.0]);
        assert_eq!(g.model.terms[0].usage, vec![7.0, 7.0, 9.0]);
        assert_eq!(g.expand(&[2, 1]), vec![2, 1, 1]);
    }

    /// A random model: forbidden entries common enough that many edges are functions.
    fn model() -> impl Strategy<Value = Model> {
        (
            prop::collection::vec(1usize..=3, 1..=6),
            prop::collection::vec(0u32..100, 300),
            prop::collection::vec((0usize..6, 0usize..6), 0..9),
        )
            .prop_map(|(sizes, values, pairs)| {
                let mut it = values.into_iter().cycle();
                let mut next = move || it.next().unwrap();
                let n = sizes.len();
                let entry = |x: u32| if x < 45 { X } else { (x % 7) as f64 };
                let costs: Vec<Vec<f64>> = sizes
                    .iter()
                    .map(|&k| (0..k).map(|_| if next() < 8 { X } else { (next() % 5) as f64 }).collect())
                    .collect();
                let mut edges = Vec::new();
                for (a, b) in pairs {
                    let (u, v) = (a % n, b % n);
                    if u != v {
                        edges.push(ModelEdge {
                            u,
                            v,
                            costs: (0..sizes[u] * sizes[v]).map(|_| entry(next())).collect(),
                        });
                    }
                }
                let mut m = Model { costs, edges, terms: Vec::new(), base: vec![0.0; 4], limit: X };
                for (v, &size) in sizes.iter().enumerate().take(n) {
                    let lo = (next() % 4) as usize;
                    let hi = lo + 1 + (next() % (4 - lo as u32)) as usize;
                    m.terms.push(Term { node: v, lo, hi, usage: (0..size).map(|_| (next() % 9) as f64).collect() });
                }
                m
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300), ..ProptestConfig::default() })]

        /// Grouping is exact: every allowed assignment is the expansion of exactly the group
        /// assignment it contracts to, with the same cost and the same memory at every
        /// checkpoint; every allowed group assignment expands to an allowed assignment.
        #[test]
        fn grouping_is_exact(m in model()) {
            let g = group(&m);
            prop_assert!(g.len() <= m.num_nodes());
            let mut a = vec![0usize; m.num_nodes()];
            loop {
                let cost = m.cost(&a);
                if cost.is_finite() {
                    let c = g.contract(&a);
                    prop_assert!(c.is_some(), "allowed {a:?} has no group assignment");
                    let c = c.unwrap();
                    prop_assert_eq!(g.expand(&c), a.clone());
                    prop_assert_eq!(g.model.cost(&c), cost);
                    prop_assert_eq!(g.model.loads(&c), m.loads(&a));
                }
                if !next_assignment(&mut a, |i| m.costs[i].len()) {
                    break;
                }
            }
            let mut c = vec![0usize; g.len()];
            loop {
                let cost = g.model.cost(&c);
                if cost.is_finite() {
                    let a = g.expand(&c);
                    prop_assert_eq!(m.cost(&a), cost);
                    prop_assert_eq!(m.loads(&a), g.model.loads(&c));
                }
                if !next_assignment(&mut c, |i| g.model.costs[i].len()) {
                    break;
                }
            }
        }
    }
}
