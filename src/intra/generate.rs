//! Harder strategy problems made from given ones, for benchmarking the solver on more than the
//! instances it was developed on: memory limits tightened toward the least reachable peak,
//! perturbed costs, dropped nodes, and copies placed one after the other in time. Every
//! transformation is deterministic for its seed.

use crate::rng::SplitMix64;

use super::construct::least_memory;
use super::model::Model;
use super::problem::{is_forbidden, Alias, Edge, Node, StrategyProblem};

/// The least peak the solver's least-memory construction reaches on `p` (an assignment without
/// forbidden choices has this peak, so a limit at or above it is feasible whenever that
/// assignment is allowed), and the trivial lower bound (every node at its least usage).
/// Returns `(reached, lower_bound, reached assignment is allowed)`.
pub fn least_peak(p: &StrategyProblem) -> (f64, f64, bool) {
    let unlimited = StrategyProblem { usage_limit: Some(f64::MAX), ..p.clone() };
    let m = Model::from_problem(&unlimited);
    let choice = least_memory(&m, &mut || false);
    let allowed = m.cost(&choice).is_finite();
    (p.peak_memory(&choice), m.peak_lower_bound(), allowed)
}

/// `p` with its usage limit set to `factor` times the least peak the construction reaches.
pub fn tighten(p: &StrategyProblem, factor: f64) -> StrategyProblem {
    let (reached, _, _) = least_peak(p);
    StrategyProblem { usage_limit: Some(reached * factor), ..p.clone() }
}

/// Every allowed node and edge cost multiplied by a factor drawn uniformly from
/// `[1 - spread, 1 + spread]`; forbidden ones stay forbidden.
pub fn perturb_costs(p: &StrategyProblem, spread: f64, seed: u64) -> StrategyProblem {
    let mut rng = SplitMix64::new(seed);
    let mut jitter = |c: &mut f64| {
        if !is_forbidden(*c) {
            *c *= 1.0 + spread * (2.0 * rng.unit() - 1.0);
        }
    };
    let mut q = p.clone();
    for n in &mut q.nodes {
        n.costs.iter_mut().for_each(&mut jitter);
    }
    for e in &mut q.edges {
        e.costs.iter_mut().for_each(&mut jitter);
    }
    q
}

/// `p` without a random `fraction` of its nodes (their edges and aliases go with them).
pub fn drop_nodes(p: &StrategyProblem, fraction: f64, seed: u64) -> StrategyProblem {
    let mut rng = SplitMix64::new(seed);
    let mut index = vec![None; p.nodes.len()];
    let mut nodes = Vec::new();
    for (i, n) in p.nodes.iter().enumerate() {
        if !rng.chance(fraction) {
            index[i] = Some(nodes.len());
            nodes.push(n.clone());
        }
    }
    let edges =
        p.edges.iter().filter_map(|e| Some(Edge { u: index[e.u]?, v: index[e.v]?, costs: e.costs.clone() })).collect();
    let aliases = p
        .aliases
        .iter()
        .filter_map(|a| Some(Alias { a: index[a.a]?, b: index[a.b]?, allowed: a.allowed.clone() }))
        .collect();
    StrategyProblem { nodes, edges, aliases, usage_limit: p.usage_limit }
}

/// `copies` copies of `p`, each copy's live ranges after the previous copy's (so the peak does
/// not grow), chained by one zero-cost edge between consecutive copies.
pub fn concatenate(p: &StrategyProblem, copies: usize) -> StrategyProblem {
    let span = p.nodes.iter().filter_map(|n| n.interval).map(|(_, b)| b).max().unwrap_or(0);
    let n = p.nodes.len();
    let mut q = StrategyProblem { usage_limit: p.usage_limit, ..StrategyProblem::default() };
    for k in 0..copies {
        let offset = k * n;
        let shift = span * k as u64;
        q.nodes.extend(p.nodes.iter().map(|x| Node {
            costs: x.costs.clone(),
            usages: x.usages.clone(),
            interval: x.interval.map(|(a, b)| (a + shift, b + shift)),
        }));
        q.edges.extend(p.edges.iter().map(|e| Edge { u: e.u + offset, v: e.v + offset, costs: e.costs.clone() }));
        q.aliases.extend(p.aliases.iter().map(|a| Alias {
            a: a.a + offset,
            b: a.b + offset,
            allowed: a.allowed.clone(),
        }));
        if k > 0 && n > 0 {
            let (u, v) = (offset - 1, offset);
            q.edges.push(Edge { u, v, costs: vec![0.0; p.nodes[n - 1].len() * p.nodes[0].len()] });
        }
    }
    q
}

/// One generated instance: a name and the problem.
#[derive(Debug, Clone)]
pub struct Variant {
    pub name: String,
    pub problem: StrategyProblem,
}

/// The standard set made from one instance: limits at +2%, +5% and +10% of the least peak;
/// costs perturbed by up to 20%, 10% of the nodes dropped, and two copies in sequence, each at
/// +5%.
pub fn variants(name: &str, p: &StrategyProblem, seed: u64) -> Vec<Variant> {
    let mut out = Vec::new();
    for pct in [2, 5, 10] {
        out.push(Variant { name: format!("{name}+{pct}%"), problem: tighten(p, 1.0 + pct as f64 / 100.0) });
    }
    let perturbed = perturb_costs(p, 0.2, seed);
    out.push(Variant { name: format!("{name}-perturbed+5%"), problem: tighten(&perturbed, 1.05) });
    let dropped = drop_nodes(p, 0.1, seed);
    out.push(Variant { name: format!("{name}-dropped+5%"), problem: tighten(&dropped, 1.05) });
    let twice = concatenate(p, 2);
    out.push(Variant { name: format!("{name}-x2+5%"), problem: tighten(&twice, 1.05) });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> StrategyProblem {
        let node = |costs: Vec<f64>, usages: Vec<f64>, interval| Node {
            costs,
            usages: Some(usages),
            interval: Some(interval),
        };
        StrategyProblem {
            nodes: vec![
                node(vec![1.0, 5.0], vec![10.0, 4.0], (0, 3)),
                node(vec![2.0, 1.0], vec![3.0, 6.0], (1, 4)),
                node(vec![0.0, 9.0], vec![8.0, 1.0], (2, 5)),
            ],
            edges: vec![
                Edge { u: 0, v: 1, costs: vec![0.0, 3.0, 3.0, 0.0] },
                Edge { u: 1, v: 2, costs: vec![0.0, 1.0, 1.0, 0.0] },
            ],
            aliases: vec![],
            usage_limit: None,
        }
    }

    #[test]
    fn least_peak_is_reached_and_bounded() {
        let p = small();
        let (reached, lower, allowed) = least_peak(&p);
        assert!(allowed);
        // Least usages 4, 3, 1 all live at time 2.
        assert_eq!(lower, 8.0);
        assert_eq!(reached, 8.0);
        let t = tighten(&p, 1.05);
        assert_eq!(t.usage_limit, Some(8.4));
    }

    #[test]
    fn transformations_keep_problems_valid() {
        let p = small();
        for q in [perturb_costs(&p, 0.2, 3), drop_nodes(&p, 0.5, 3), concatenate(&p, 3)] {
            q.validate().unwrap();
        }
        let c = concatenate(&p, 3);
        assert_eq!(c.nodes.len(), 9);
        assert_eq!(c.edges.len(), 2 * 3 + 2);
        // Copies follow each other in time: the least peak does not grow.
        assert_eq!(least_peak(&c).0, least_peak(&p).0);
        let d = perturb_costs(&p, 0.2, 3);
        assert_ne!(d.nodes[0].costs, p.nodes[0].costs);
        assert!(d.nodes[0].costs.iter().zip(&p.nodes[0].costs).all(|(a, b)| (a - b).abs() <= 0.2 * b));
    }
}
