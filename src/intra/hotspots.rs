//! Where the cost of an assignment sits: each node's excess over its cheapest possible node
//! and edge entries. On resharding graphs a few edges carry most of the cost, so
//! neighbourhoods seeded there pay off far more often than ones seeded at random.

use super::lns::Rng;
use super::search::Search;

/// Picks seeds with probability proportional to their excess, damped where neighbourhoods
/// already failed to lower it.
pub struct Hotspots {
    /// Cheapest entry of every edge matrix (forbidden entries excluded).
    edge_min: Vec<f64>,
    /// Cheapest allowed strategy cost of every node.
    node_min: Vec<f64>,
    /// Neighbourhoods from this node since it last gained.
    misses: Vec<u32>,
}

impl Hotspots {
    pub fn new(s: &Search) -> Hotspots {
        let least = |xs: &[f64]| xs.iter().copied().filter(|x| x.is_finite()).fold(f64::INFINITY, f64::min);
        Hotspots {
            edge_min: s.m.edges.iter().map(|e| least(&e.costs)).collect(),
            node_min: s.m.costs.iter().map(|c| least(c)).collect(),
            misses: vec![0; s.m.num_nodes()],
        }
    }

    /// Cost of every node above its least: its own excess plus half the excess of each of its
    /// edges (each edge counted once over both ends).
    pub fn excess(&self, s: &Search) -> Vec<f64> {
        let m = s.m;
        let mut w: Vec<f64> =
            s.choice.iter().enumerate().map(|(v, &c)| finite_gap(m.costs[v][c], self.node_min[v])).collect();
        for (k, e) in m.edges.iter().enumerate() {
            let gap = finite_gap(e.costs[s.choice[e.u] * m.costs[e.v].len() + s.choice[e.v]], self.edge_min[k]);
            w[e.u] += 0.5 * gap;
            w[e.v] += 0.5 * gap;
        }
        w
    }

    /// A node drawn with probability proportional to its excess over (1 + misses); `None`
    /// when no node has any excess.
    pub fn pick(&self, s: &Search, rng: &mut Rng) -> Option<usize> {
        let weights: Vec<f64> = self.excess(s).iter().zip(&self.misses).map(|(x, &f)| x / (1.0 + f as f64)).collect();
        let total: f64 = weights.iter().sum();
        if total <= 0.0 || !total.is_finite() {
            return None;
        }
        let mut r = rng.unit() * total;
        for (v, &x) in weights.iter().enumerate() {
            if r < x {
                return Some(v);
            }
            r -= x;
        }
        weights.iter().rposition(|&x| x > 0.0)
    }

    /// Records whether the neighbourhood seeded at `v` lowered the cost.
    pub fn record(&mut self, v: usize, gained: bool) {
        self.misses[v] = if gained { 0 } else { self.misses[v].saturating_add(1) };
    }
}

/// `x - least`, zero for forbidden or unbounded entries.
fn finite_gap(x: f64, least: f64) -> f64 {
    let gap = x - least;
    if gap.is_finite() && gap > 0.0 {
        gap
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intra::model::{Model, ModelEdge};

    /// Three nodes in a path; only the edge 1-2 costs anything in the assignment below.
    fn path() -> Model {
        Model {
            costs: vec![vec![0.0, 1.0], vec![0.0, 0.0], vec![0.0, 0.0]],
            edges: vec![
                ModelEdge { u: 0, v: 1, costs: vec![0.0, 5.0, 5.0, 0.0] },
                ModelEdge { u: 1, v: 2, costs: vec![0.0, 100.0, 100.0, 0.0] },
            ],
            terms: Vec::new(),
            base: Vec::new(),
            limit: f64::INFINITY,
        }
    }

    #[test]
    fn excess_splits_each_edge_over_its_ends() {
        let m = path();
        let s = Search::new(&m, vec![0, 0, 1]);
        let h = Hotspots::new(&s);
        assert_eq!(h.excess(&s), vec![0.0, 50.0, 50.0]);
    }

    #[test]
    fn picks_follow_the_excess_and_shy_away_from_misses() {
        let m = path();
        let s = Search::new(&m, vec![0, 0, 1]);
        let mut h = Hotspots::new(&s);
        let mut rng = Rng::new(7);
        for _ in 0..50 {
            assert_ne!(h.pick(&s, &mut rng), Some(0));
        }
        for _ in 0..1000 {
            h.record(1, false);
        }
        let twos = (0..200).filter(|_| h.pick(&s, &mut rng) == Some(2)).count();
        assert!(twos > 190, "{twos}");
        let calm = Search::new(&m, vec![0, 0, 0]);
        assert_eq!(h.pick(&calm, &mut rng), None);
    }
}
