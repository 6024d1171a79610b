//! A feasible assignment before any cost search (feasibility first).
//!
//! 1. Memory first: on the model of groups (`group`: nodes tied by forbidden pairs choose as
//!    one) whose only costs are forbidden choices, single-node
//!    moves minimise (forbidden uses, priced memory); prices start at one per checkpoint and
//!    double at every checkpoint still over the limit (a penalty loop on over-limit time
//!    points), so the assignment heads for the least peak.
//! 2. When that still overflows: MILP neighbourhoods that minimise the peak around the fullest
//!    checkpoint, then the peak-memory MILP on the whole model, which either fits or proves
//!    that nothing does.
//! 3. Cost under the hard limit: single-node and tree moves that lower the cost without
//!    pushing any checkpoint over the limit.

use std::time::Instant;

use super::group::group;
use super::heuristic::{cheapest, polish_trees};
use super::ilp::{run_milp, IlpFailure, IlpObjective, IlpOptions, MilpLimit};
use super::lagrange::Prices;
use super::lns::{repair_peak, Budget, Rng};
use super::model::{Model, ModelEdge};
use super::search::Search;
use super::tree::{tree_move, TreeScratch};

/// Rounds of the memory penalty loop.
const PENALTY_ROUNDS: usize = 12;

/// At most this many rounds of tree moves in step 3, each over trees of at most `TREE_SIZE`.
const TREE_ROUNDS: usize = 20;
const TREE_SIZE: usize = 400;

/// Rounds of tree moves around forbidden pairs per round of the penalty loop.
const FORBIDDEN_TREE_ROUNDS: usize = 2;

/// What the construction reached.
#[derive(Debug, Clone, PartialEq)]
pub enum Start {
    /// An assignment without forbidden choices within the limit, and when the first such
    /// assignment was in hand (the rest of the construction lowers its cost).
    Fits(Vec<usize>, Instant),
    /// The peak-memory MILP proved that no allowed assignment fits: its least peak.
    MemoryInfeasible { least_peak: f64 },
    /// Even every group at its least usage overflows: no assignment fits. The least peak
    /// reached and that lower bound.
    BelowLowerBound { reached: f64, lower_bound: f64 },
    /// The MILP proved that every assignment uses a forbidden choice.
    NoAllowedAssignment,
    /// Nothing found before the deadline.
    NotFound,
}

/// The model with the same forbidden choices and memory but no cost.
fn memory_only(m: &Model) -> Model {
    let zero = |c: &f64| if c.is_finite() { 0.0 } else { f64::INFINITY };
    Model {
        costs: m.costs.iter().map(|c| c.iter().map(zero).collect()).collect(),
        edges: m
            .edges
            .iter()
            .map(|e| ModelEdge { u: e.u, v: e.v, costs: e.costs.iter().map(zero).collect() })
            .collect(),
        terms: m.terms.clone(),
        base: m.base.clone(),
        limit: m.limit,
    }
}

/// An allowed assignment of low peak memory: the penalty loop of step 1 (no MILP). The peak
/// it reaches is an upper bound on the least peak of `m`.
pub fn least_memory(m: &Model, stop: &mut dyn FnMut() -> bool) -> Vec<usize> {
    // Node by node, least-usage choices collide with forbidden pairs inside groups of nodes
    // tied by them; groups choose as one.
    let groups = group(m);
    let g = &groups.model;
    let mem = memory_only(g);
    let weights = Prices { lambda: vec![1.0; g.num_checkpoints()] }.penalties(&mem);
    let least: Vec<usize> = mem
        .costs
        .iter()
        .zip(&weights)
        .map(|(c, w)| (0..c.len()).filter(|&s| c[s].is_finite()).min_by(|&a, &b| w[a].total_cmp(&w[b])).unwrap_or(0))
        .collect();
    groups.expand(&penalty_loop(g, &mem, least, stop).2)
}

/// The penalty loop from `init`: (forbidden uses, peak, assignment) of its best round.
fn penalty_loop(m: &Model, mem: &Model, init: Vec<usize>, stop: &mut dyn FnMut() -> bool) -> (u32, f64, Vec<usize>) {
    let mut prices = Prices { lambda: vec![1.0; m.num_checkpoints()] };
    let mut s = Search::new(mem, init);
    let mut best: Option<(u32, f64, Vec<usize>)> = None;
    let mut rng = Rng::new(1);
    let mut scratch = TreeScratch::new(m.num_nodes());
    for _ in 0..PENALTY_ROUNDS {
        let pen = prices.penalties(mem);
        s.descend(false, Some(&pen), stop);
        // Forbidden pairs that no single move removes: re-choose trees around them.
        for _ in 0..FORBIDDEN_TREE_ROUNDS {
            let stuck = forbidden_nodes(&s);
            if stuck.is_empty() || stop() {
                break;
            }
            for v in stuck {
                tree_move(&mut s, v, TREE_SIZE, Some(&pen), &mut rng, &mut scratch);
            }
            s.descend(false, Some(&pen), stop);
        }
        let viol = s.total().0;
        let peak = s.peak();
        if best.as_ref().is_none_or(|b| (viol, peak) < (b.0, b.1)) {
            best = Some((viol, peak, s.choice.clone()));
        }
        if stop() || s.loads.is_empty() || peak <= m.limit {
            break;
        }
        // Double the price wherever the load is within 1% of the peak or over the limit.
        let loads = s.loads.values();
        let hot = m.limit.min(0.99 * peak);
        for (l, x) in prices.lambda.iter_mut().zip(&loads) {
            if *x > hot {
                *l *= 2.0;
            }
        }
    }
    best.unwrap_or_else(|| (s.total().0, s.peak(), s.choice.clone()))
}

/// Nodes whose strategy or one of whose edges' entries is forbidden.
fn forbidden_nodes(s: &Search) -> Vec<usize> {
    (0..s.m.num_nodes())
        .filter(|&v| {
            let c = s.choice[v];
            !s.m.costs[v][c].is_finite() || s.adj[v].iter().any(|a| !s.entry(v, a, c, s.choice[a.other]).is_finite())
        })
        .collect()
}

/// Steps 1 to 3 within `deadline`.
/// `exact`: the whole model is small enough for the peak-memory MILP of step 2.
pub fn feasible_start(
    m: &Model,
    deadline: Option<Instant>,
    exact: bool,
    threads: u32,
    seed: u64,
    verbose: bool,
) -> Start {
    let started = Instant::now();
    let mut stop = move || deadline.is_some_and(|d| Instant::now() >= d);
    let log = |msg: String| {
        if verbose {
            eprintln!("[intra {:7.2}s] construct: {msg}", started.elapsed().as_secs_f64());
        }
    };
    let least = least_memory(m, &mut stop);
    let mut s = Search::new(m, least);
    log(format!("least-memory start: {} forbidden, peak {:.0} (limit {:.0})", s.total().0, s.peak(), m.limit));
    let lower_bound = m.peak_lower_bound();
    if lower_bound > m.limit {
        return Start::BelowLowerBound { reached: s.peak(), lower_bound };
    }
    // Neighbourhood MILPs only when the peak is close to the limit, within a fifth of the time.
    let soft = deadline.map(|d| started + d.saturating_duration_since(started) / 5);
    if !s.memory_ok() && s.total().0 == 0 && s.peak() < 1.05 * m.limit {
        let mut rng = Rng::new(seed);
        let fits = repair_peak(&mut s, soft, threads, &mut rng, Budget { nodes: 60, entries: 40_000 });
        log(format!("MILP peak neighbourhoods: fits {fits}, peak {:.0}", s.peak()));
    }
    if (s.total().0 > 0 || !s.memory_ok()) && !exact {
        return Start::NotFound;
    }
    if s.total().0 > 0 || !s.memory_ok() {
        // The exact feasibility question on the whole (reduced) model.
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()).as_secs_f64());
        let warm = (s.total().0 == 0).then(|| s.choice.clone());
        let ilp = IlpOptions {
            objective: IlpObjective::PeakMemory,
            limit: left.map(MilpLimit::Seconds),
            threads,
            initial: warm.as_deref(),
        };
        match run_milp(m, &ilp) {
            Ok(out) if out.value <= m.limit && m.cost(&out.choice).is_finite() => s.assign(&out.choice),
            Ok(out) if out.optimal => return Start::MemoryInfeasible { least_peak: out.value },
            Ok(_) | Err(IlpFailure::NoSolution) | Err(IlpFailure::Solver(_)) => return Start::NotFound,
            Err(IlpFailure::Infeasible) => return Start::NoAllowedAssignment,
        }
        log(format!("peak-memory MILP: peak {:.0}", s.peak()));
    }
    let first_fit = Instant::now();
    improve_under_limit(&mut s, seed, &mut stop);
    log(format!("cost moves under the limit: cost {:.0}, peak {:.0}", s.total().1, s.peak()));
    // The other way round: the cheapest plan, repaired greedily (least cost per byte freed),
    // within a fifth of the construction's time; kept when it ends cheaper.
    let mut soft_stop = move || soft.is_some_and(|d| Instant::now() >= d);
    let mut c = Search::new(m, m.costs.iter().map(|c| cheapest(c)).collect());
    c.descend(false, None, &mut soft_stop);
    if c.total().0 == 0 && (c.memory_ok() || c.repair_memory(&mut soft_stop)) {
        improve_under_limit(&mut c, seed, &mut soft_stop);
        log(format!("cheapest plan repaired: cost {:.0}, peak {:.0}", c.total().1, c.peak()));
        if c.total().1 < s.total().1 {
            s.assign(&c.choice);
        }
    }
    Start::Fits(s.choice, first_fit)
}

/// Single-node and tree moves (undone when they overflow) that lower the cost under the limit.
fn improve_under_limit(s: &mut Search, seed: u64, stop: &mut dyn FnMut() -> bool) {
    let m = s.m;
    s.descend(true, None, stop);
    // Single-node moves cannot leave a region whose edges all want the same sharding: tree
    // moves re-choose whole regions, while they pay off.
    let mut rng = Rng::new(seed);
    let mut scratch = TreeScratch::new(m.num_nodes());
    let trees = (m.num_nodes() / 50).clamp(20, 400);
    for _ in 0..TREE_ROUNDS {
        let before = s.total().1;
        polish_trees(s, trees, TREE_SIZE, &mut rng, &mut scratch);
        s.descend(true, None, stop);
        if stop() || s.total().1 >= before * (1.0 - 1e-6) {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::intra::problem::{Alias, Edge, Node, StrategyProblem};
    use crate::intra::{solve_brute_force, IntraError, SolveOptions};

    /// Random problems whose forbidden pairs are correspondences (aliases that pair strategies
    /// one to one, some unpaired), often several on one node, with the limit at the least
    /// peak of any allowed assignment (brute force) plus 0, 2 or 5%.
    fn problem() -> impl Strategy<Value = StrategyProblem> {
        (
            prop::collection::vec(2usize..=3, 2..=7),
            prop::collection::vec(0u32..1000, 300),
            prop::collection::vec((0usize..7, 0usize..7), 0..6),
            prop::collection::vec((0usize..7, 0usize..7), 1..6),
            0usize..3,
        )
            .prop_map(|(sizes, values, edges, aliases, slack)| {
                let mut it = values.into_iter().cycle();
                let mut next = move || it.next().unwrap();
                let n = sizes.len();
                let nodes: Vec<Node> = sizes
                    .iter()
                    .map(|&k| {
                        let a = (next() % 8) as u64;
                        Node {
                            costs: (0..k).map(|_| (next() % 20) as f64).collect(),
                            usages: Some((0..k).map(|_| (next() % 10) as f64).collect()),
                            interval: Some((a, a + 1 + (next() % 4) as u64)),
                        }
                    })
                    .collect();
                let edges = edges
                    .into_iter()
                    .map(|(a, b)| (a % n, b % n))
                    .filter(|(u, v)| u != v)
                    .map(|(u, v)| Edge {
                        u,
                        v,
                        costs: (0..sizes[u] * sizes[v]).map(|_| (next() % 20) as f64).collect(),
                    })
                    .collect();
                let aliases = aliases
                    .into_iter()
                    .map(|(a, b)| (a % n, b % n))
                    .filter(|(a, b)| a != b)
                    .map(|(a, b)| {
                        // Strategy i of a goes with (i + shift) mod |b| of b, unless dropped.
                        let shift = next() as usize;
                        let allowed = (0..sizes[a].min(sizes[b]))
                            .filter(|_| next() % 4 != 0)
                            .map(|i| (i, (i + shift) % sizes[b]))
                            .collect();
                        Alias { a, b, allowed }
                    })
                    .collect();
                let mut p = StrategyProblem { nodes, edges, aliases, usage_limit: None };
                if let Err(IntraError::MemoryInfeasible { min_peak_memory, .. }) =
                    solve_brute_force(&StrategyProblem { usage_limit: Some(-1.0), ..p.clone() })
                {
                    p.usage_limit = Some(min_peak_memory * [1.0, 1.02, 1.05][slack]);
                }
                p
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300), ..ProptestConfig::default() })]

        /// The least-memory construction never ends on a forbidden pair when an allowed
        /// assignment exists (node by node, least-usage choices of aliased nodes collide), and
        /// the solver returns a plan within the limit exactly when brute force finds one.
        #[test]
        fn feasible_whenever_brute_force_finds_a_plan(p in problem()) {
            let want = solve_brute_force(&p);
            let least = least_memory(&Model::from_problem(&p), &mut || false);
            let allowed = p.evaluate(&least).unwrap().forbidden_uses == 0;
            prop_assert!(allowed || matches!(want, Err(IntraError::NoAllowedAssignment)), "least-memory plan {least:?} is forbidden, brute force {want:?}");
            for opts in [SolveOptions::default(), SolveOptions { ilp_max_entries: 0, max_search_steps: Some(1), ..SolveOptions::default() }] {
                crate::intra::tests::agrees_with_brute_force(&p, &opts, &want)?;
            }
        }
    }
}
