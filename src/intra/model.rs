//! The solver-internal form of a strategy problem: forbidden choices are `f64::INFINITY`,
//! aliases are edges whose disallowed pairs are infinite, and memory is a list of terms over a
//! compressed list of checkpoints (the time points where the live set is maximal).
//! Preprocessing rewrites this form; the ILP and the search solve it.

use super::problem::{is_forbidden, StrategyProblem};

/// An edge: row-major `|S_u| x |S_v|` cost matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelEdge {
    pub u: usize,
    pub v: usize,
    pub costs: Vec<f64>,
}

/// Memory of one node over the checkpoints `lo..hi`, by the node's strategy.
#[derive(Debug, Clone, PartialEq)]
pub struct Term {
    pub node: usize,
    pub lo: usize,
    pub hi: usize,
    pub usage: Vec<f64>,
}

/// Solver-internal problem.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Model {
    /// Per node, per strategy cost; `INFINITY` when forbidden.
    pub costs: Vec<Vec<f64>>,
    pub edges: Vec<ModelEdge>,
    pub terms: Vec<Term>,
    /// Usage that does not depend on any choice, per checkpoint.
    pub base: Vec<f64>,
    /// Memory limit (`INFINITY` when none).
    pub limit: f64,
}

fn finite_or_inf(c: f64) -> f64 {
    if is_forbidden(c) {
        f64::INFINITY
    } else {
        c
    }
}

/// Times (sorted) of the checkpoints: interval starts after which some interval ends before
/// the next start; every other time point's live set is a subset of one of these.
fn checkpoint_times(intervals: &[(u64, u64)]) -> Vec<u64> {
    let mut starts: Vec<u64> = intervals.iter().map(|&(a, _)| a).collect();
    starts.sort_unstable();
    starts.dedup();
    let mut ends: Vec<u64> = intervals.iter().map(|&(_, b)| b).collect();
    ends.sort_unstable();
    let mut kept = Vec::new();
    for (i, &s) in starts.iter().enumerate() {
        let keep = match starts.get(i + 1) {
            None => true,
            Some(&next) => {
                // Is there an end b with s < b <= next?
                let k = ends.partition_point(|&b| b <= s);
                k < ends.len() && ends[k] <= next
            }
        };
        if keep {
            kept.push(s);
        }
    }
    kept
}

impl Model {
    pub fn num_nodes(&self) -> usize {
        self.costs.len()
    }
    pub fn num_checkpoints(&self) -> usize {
        self.base.len()
    }

    /// An upper bound on the nonzeros of the MILP's memory rows: every term's nonzero usages
    /// over its checkpoints.
    pub fn memory_entries(&self) -> usize {
        self.terms.iter().map(|t| (t.hi - t.lo) * t.usage.iter().filter(|&&u| u != 0.0).count()).sum()
    }

    /// An upper bound on the MILP's nonzeros: each edge entry's variable is in two
    /// linearisation rows and the objective, plus the memory rows.
    pub fn milp_entries(&self) -> usize {
        3 * self.edges.iter().map(|e| e.costs.len()).sum::<usize>() + self.memory_entries()
    }

    /// Builds the internal form; the problem must be valid.
    pub fn from_problem(p: &StrategyProblem) -> Model {
        let costs: Vec<Vec<f64>> =
            p.nodes.iter().map(|n| n.costs.iter().map(|&c| finite_or_inf(c)).collect()).collect();
        let mut edges: Vec<ModelEdge> = p
            .edges
            .iter()
            .map(|e| ModelEdge { u: e.u, v: e.v, costs: e.costs.iter().map(|&c| finite_or_inf(c)).collect() })
            .collect();
        for a in &p.aliases {
            let nb = p.nodes[a.b].len();
            let mut m = vec![f64::INFINITY; p.nodes[a.a].len() * nb];
            for &(i, j) in &a.allowed {
                m[i * nb + j] = 0.0;
            }
            edges.push(ModelEdge { u: a.a, v: a.b, costs: m });
        }
        let mut model = Model { costs, edges, terms: Vec::new(), base: Vec::new(), limit: f64::INFINITY };
        let Some(limit) = p.usage_limit else { return model };
        model.limit = limit;
        let uses = |n: &super::problem::Node| n.usages.as_ref().is_some_and(|u| u.iter().any(|&x| x != 0.0));
        let intervals: Vec<(u64, u64)> =
            p.nodes.iter().filter(|n| uses(n)).filter_map(|n| n.interval).filter(|&(a, b)| b > a).collect();
        let always = p.nodes.iter().any(|n| uses(n) && n.interval.is_none());
        let times = checkpoint_times(&intervals);
        let count = if times.is_empty() { usize::from(always) } else { times.len() };
        model.base = vec![0.0; count];
        for (v, n) in p.nodes.iter().enumerate() {
            if !uses(n) {
                continue;
            }
            let (lo, hi) = match n.interval {
                None => (0, count),
                Some((a, b)) if b > a => (times.partition_point(|&t| t < a), times.partition_point(|&t| t < b)),
                Some(_) => continue,
            };
            if lo < hi {
                model.add_term(Term { node: v, lo, hi, usage: n.usages.clone().unwrap_or_default() });
            }
        }
        model
    }

    /// Adds a memory term; a term whose usage is the same for every allowed strategy goes into
    /// `base` instead.
    pub fn add_term(&mut self, t: Term) {
        let allowed: Vec<f64> =
            t.usage.iter().zip(&self.costs[t.node]).filter(|(_, c)| c.is_finite()).map(|(u, _)| *u).collect();
        let first = allowed.first().copied().unwrap_or(0.0);
        if allowed.iter().all(|&u| u == first) {
            for b in &mut self.base[t.lo..t.hi] {
                *b += first;
            }
        } else {
            self.terms.push(t);
        }
    }

    /// Sum of chosen node costs and edge entries (`INFINITY` when a forbidden one is used).
    pub fn cost(&self, choice: &[usize]) -> f64 {
        let mut c: f64 = self.costs.iter().zip(choice).map(|(cs, &s)| cs[s]).sum();
        for e in &self.edges {
            c += e.costs[choice[e.u] * self.costs[e.v].len() + choice[e.v]];
        }
        c
    }

    /// Memory at every checkpoint.
    pub fn loads(&self, choice: &[usize]) -> Vec<f64> {
        let mut load = self.base.clone();
        for t in &self.terms {
            let u = t.usage[choice[t.node]];
            for l in &mut load[t.lo..t.hi] {
                *l += u;
            }
        }
        load
    }

    /// Largest memory over the checkpoints (0 without memory).
    pub fn peak(&self, choice: &[usize]) -> f64 {
        self.loads(choice).into_iter().fold(0.0, f64::max)
    }

    /// A lower bound on the peak memory of any assignment: every term at its smallest
    /// allowed usage.
    pub fn peak_lower_bound(&self) -> f64 {
        let mut load = self.base.clone();
        for t in &self.terms {
            let m = t
                .usage
                .iter()
                .zip(&self.costs[t.node])
                .filter(|(_, c)| c.is_finite())
                .map(|(u, _)| *u)
                .fold(f64::INFINITY, f64::min);
            let m = if m.is_finite() { m } else { 0.0 };
            for l in &mut load[t.lo..t.hi] {
                *l += m;
            }
        }
        load.into_iter().fold(0.0, f64::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_keep_only_maximal_live_sets() {
        // [0,10) [2,5) [3,8) [6,9): live sets at starts 0:{0} 2:{0,1} 3:{0,1,2} 6:{0,2,3}.
        let t = checkpoint_times(&[(0, 10), (2, 5), (3, 8), (6, 9)]);
        assert_eq!(t, vec![3, 6]);
    }

    #[test]
    fn checkpoints_handle_touching_intervals() {
        // [0,2) ends exactly when [2,4) starts: both starts are maximal.
        assert_eq!(checkpoint_times(&[(0, 2), (2, 4)]), vec![0, 2]);
    }
}
