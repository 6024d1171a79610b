//! The strategy-selection problem of the intra-op pass (paper §4, Eq. 1): every node picks one
//! strategy; the cost is the sum of the chosen node costs plus, for every edge, the matrix entry
//! of the chosen pair; optionally the memory of the nodes live at any time must stay under a limit.

use super::error::IntraError;

/// Costs at or above this value mark a forbidden choice (the IOPDDL convention).
pub const FORBIDDEN_COST: f64 = 1e18;

/// True when `cost` marks a choice that must never be taken.
pub fn is_forbidden(cost: f64) -> bool {
    cost >= FORBIDDEN_COST || cost.is_nan()
}

/// One operator (or IOPDDL node) with its strategies.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Cost of every strategy (communication + compute); `>= FORBIDDEN_COST` forbids it.
    pub costs: Vec<f64>,
    /// Memory per device of every strategy; `None` means the node uses no memory.
    pub usages: Option<Vec<f64>>,
    /// Half-open live range `[a, b)` of the node's memory; `None` means live at every time
    /// point (for example a parameter). An empty range (`b <= a`) never counts.
    pub interval: Option<(u64, u64)>,
}

impl Node {
    /// A node with costs only (no memory).
    pub fn with_costs(costs: Vec<f64>) -> Self {
        Node { costs, usages: None, interval: None }
    }
    /// Number of strategies.
    pub fn len(&self) -> usize {
        self.costs.len()
    }
    /// True when the node has no strategy at all (an invalid problem).
    pub fn is_empty(&self) -> bool {
        self.costs.is_empty()
    }
    /// Memory of strategy `s` (0 without usages).
    pub fn usage(&self, s: usize) -> f64 {
        self.usages.as_ref().map_or(0.0, |u| u[s])
    }
}

/// A data-flow edge with its resharding cost matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    pub u: usize,
    pub v: usize,
    /// Row-major `|S_u| x |S_v|`: entry `i * |S_v| + j` is the cost when `u` picks `i` and `v`
    /// picks `j`; `>= FORBIDDEN_COST` forbids the pair.
    pub costs: Vec<f64>,
}

/// Two nodes that must pick corresponding strategies (a donated parameter and its updated
/// output): only the listed `(strategy of a, strategy of b)` pairs are allowed.
#[derive(Debug, Clone, PartialEq)]
pub struct Alias {
    pub a: usize,
    pub b: usize,
    pub allowed: Vec<(usize, usize)>,
}

impl Alias {
    /// Strategy `i` of `a` goes with strategy `map[i]` of `b`; `None` means `i` has no partner.
    pub fn from_mapping(a: usize, b: usize, map: &[Option<usize>]) -> Self {
        let allowed = map.iter().enumerate().filter_map(|(i, m)| m.map(|j| (i, j))).collect();
        Alias { a, b, allowed }
    }
    /// Both nodes have `n` strategies listed in the same order: `i` goes with `i`.
    pub fn same_index(a: usize, b: usize, n: usize) -> Self {
        Alias { a, b, allowed: (0..n).map(|i| (i, i)).collect() }
    }
}

/// The whole strategy-selection problem.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StrategyProblem {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub aliases: Vec<Alias>,
    /// Memory limit per device at every time point; `None` means unlimited.
    pub usage_limit: Option<f64>,
}

/// Cost and feasibility of one assignment.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// Sum of chosen node costs and edge entries (forbidden entries included as given).
    pub cost: f64,
    /// Largest memory over all time points.
    pub peak_memory: f64,
    /// Number of forbidden node strategies, edge pairs and broken aliases used.
    pub forbidden_uses: usize,
    /// `peak_memory <= usage_limit` (true without a limit).
    pub within_limit: bool,
}

impl Evaluation {
    /// No forbidden choice and within the memory limit.
    pub fn feasible(&self) -> bool {
        self.forbidden_uses == 0 && self.within_limit
    }
}

impl StrategyProblem {
    /// Checks indices, matrix sizes and numbers (no NaN, no negative usage).
    pub fn validate(&self) -> Result<(), IntraError> {
        let bad = |m: String| Err(IntraError::InvalidProblem(m));
        for (i, n) in self.nodes.iter().enumerate() {
            if n.costs.is_empty() {
                return bad(format!("node {i} has no strategy"));
            }
            if n.costs.iter().any(|c| c.is_nan()) {
                return bad(format!("node {i} has a NaN cost"));
            }
            if let Some(u) = &n.usages {
                if u.len() != n.costs.len() {
                    return bad(format!("node {i}: {} usages for {} strategies", u.len(), n.costs.len()));
                }
                if u.iter().any(|x| !x.is_finite() || *x < 0.0) {
                    return bad(format!("node {i} has a negative or non-finite usage"));
                }
            }
        }
        let n = self.nodes.len();
        for (k, e) in self.edges.iter().enumerate() {
            if e.u >= n || e.v >= n {
                return bad(format!("edge {k} ({}, {}) refers to a missing node", e.u, e.v));
            }
            if e.u == e.v {
                return bad(format!("edge {k} is a self loop on node {}", e.u));
            }
            let want = self.nodes[e.u].len() * self.nodes[e.v].len();
            if e.costs.len() != want {
                return bad(format!("edge {k}: {} costs, expected {want}", e.costs.len()));
            }
            if e.costs.iter().any(|c| c.is_nan()) {
                return bad(format!("edge {k} has a NaN cost"));
            }
        }
        for (k, a) in self.aliases.iter().enumerate() {
            if a.a >= n || a.b >= n || a.a == a.b {
                return bad(format!("alias {k} ({}, {}) is not a pair of distinct nodes", a.a, a.b));
            }
            let (na, nb) = (self.nodes[a.a].len(), self.nodes[a.b].len());
            if a.allowed.iter().any(|&(i, j)| i >= na || j >= nb) {
                return bad(format!("alias {k} lists a strategy that does not exist"));
            }
        }
        if let Some(l) = self.usage_limit {
            if l.is_nan() {
                return bad("usage limit is NaN".into());
            }
        }
        Ok(())
    }

    /// Cost, peak memory and feasibility of `choice` (one strategy index per node).
    pub fn evaluate(&self, choice: &[usize]) -> Result<Evaluation, IntraError> {
        if choice.len() != self.nodes.len() {
            return Err(IntraError::InvalidProblem(format!(
                "assignment has {} entries for {} nodes",
                choice.len(),
                self.nodes.len()
            )));
        }
        for (i, (&s, n)) in choice.iter().zip(&self.nodes).enumerate() {
            if s >= n.len() {
                return Err(IntraError::InvalidProblem(format!("node {i}: strategy {s} out of range")));
            }
        }
        let mut cost = 0.0;
        let mut forbidden_uses = 0;
        for (n, &s) in self.nodes.iter().zip(choice) {
            cost += n.costs[s];
            forbidden_uses += is_forbidden(n.costs[s]) as usize;
        }
        for e in &self.edges {
            let c = e.costs[choice[e.u] * self.nodes[e.v].len() + choice[e.v]];
            cost += c;
            forbidden_uses += is_forbidden(c) as usize;
        }
        for a in &self.aliases {
            if !a.allowed.contains(&(choice[a.a], choice[a.b])) {
                forbidden_uses += 1;
            }
        }
        let peak_memory = self.peak_memory(choice);
        let within_limit = self.usage_limit.is_none_or(|l| peak_memory <= l);
        Ok(Evaluation { cost, peak_memory, forbidden_uses, within_limit })
    }

    /// One pass over the strategies: per node the least memory among those not forbidden, ties
    /// to the lower cost (the choice most likely to fit the usage limit; edges are ignored).
    pub fn least_memory_choice(&self) -> Vec<usize> {
        self.nodes
            .iter()
            .map(|node| {
                let key = |s: usize| (is_forbidden(node.costs[s]), node.usage(s), node.costs[s]);
                (0..node.len())
                    .min_by(|&a, &b| key(a).partial_cmp(&key(b)).unwrap_or(std::cmp::Ordering::Equal))
                    .unwrap_or(0)
            })
            .collect()
    }

    /// Largest total usage over time of the nodes live at that time.
    pub fn peak_memory(&self, choice: &[usize]) -> f64 {
        let mut always = 0.0;
        let mut events: Vec<(u64, f64)> = Vec::new();
        for (n, &s) in self.nodes.iter().zip(choice) {
            let u = n.usage(s);
            if u == 0.0 {
                continue;
            }
            match n.interval {
                None => always += u,
                Some((a, b)) if b > a => {
                    events.push((a, u));
                    events.push((b, -u));
                }
                Some(_) => {}
            }
        }
        // Ends sort before starts at the same time (half-open intervals).
        events.sort_by(|x, y| x.0.cmp(&y.0).then(x.1.total_cmp(&y.1)));
        let (mut run, mut peak) = (0.0f64, 0.0f64);
        for (_, d) in events {
            run += d;
            peak = peak.max(run);
        }
        peak + always
    }
}
