//! The search for large reduced models: a start without memory, greedy memory repair, local
//! descent, then large neighbourhood search with the MILP until the deadline.

use std::time::Instant;

use super::lns::{grow, improve, Budget, Rng};
use super::model::Model;
use super::search::Search;

/// Settings of the search.
#[derive(Debug, Clone)]
pub struct HeuristicOptions {
    pub deadline: Option<Instant>,
    pub threads: u32,
    pub verbose: bool,
    pub seed: u64,
    /// Stop the neighbourhood search after this many MILP solves (`None`: only the deadline).
    pub max_lns_steps: Option<usize>,
}

/// Outcome of the search: the best feasible assignment found, if any.
#[derive(Debug, Clone)]
pub struct HeuristicOutcome {
    pub choice: Option<Vec<usize>>,
    pub lns_steps: usize,
}

fn elapsed_ok(deadline: Option<Instant>) -> bool {
    deadline.is_none_or(|d| Instant::now() < d)
}

/// Searches `m` for a cheap feasible assignment.
pub fn heuristic(m: &Model, o: &HeuristicOptions) -> HeuristicOutcome {
    let start = Instant::now();
    let log = |msg: String| {
        if o.verbose {
            eprintln!("[intra {:7.2}s] {msg}", start.elapsed().as_secs_f64());
        }
    };
    let n = m.num_nodes();
    // Start: cheapest allowed strategy of every node.
    let init: Vec<usize> = m
        .costs
        .iter()
        .map(|c| {
            let mut b = 0;
            for (i, &x) in c.iter().enumerate() {
                if x < c[b] || !c[b].is_finite() && x.is_finite() {
                    b = i;
                }
            }
            b
        })
        .collect();
    let mut s = Search::new(m, init);
    let mut stop = || !elapsed_ok(o.deadline);
    let moves = s.descend(false, None, &mut stop);
    let (viol, cost) = s.total();
    log(format!("descent without memory: {moves} moves, {viol} forbidden, cost {cost:.0}, peak {:.0} (limit {:.0})", s.peak(), m.limit));
    if !s.memory_ok() {
        let ok = s.repair_memory(&mut stop);
        let (viol, cost) = s.total();
        log(format!("memory repair: fits {ok}, {viol} forbidden, cost {cost:.0}, peak {:.0}", s.peak()));
    }
    let moves = s.descend(true, None, &mut stop);
    let (viol, cost) = s.total();
    log(format!("descent within memory: {moves} moves, {viol} forbidden, cost {cost:.0}, peak {:.0}", s.peak()));
    let feasible = |s: &Search| s.total().0 == 0 && s.memory_ok();
    let mut best = if feasible(&s) { Some(s.choice.clone()) } else { None };

    // Large neighbourhood search.
    let mut rng = Rng::new(o.seed);
    let mut state = vec![0u8; n];
    let mut local = vec![usize::MAX; n];
    let mut budget = Budget { nodes: 40, entries: 20_000 };
    let mut steps = 0usize;
    let mut last_log = Instant::now();
    if n > 0 && best.is_some() {
        while elapsed_ok(o.deadline) && o.max_lns_steps.is_none_or(|k| steps < k) {
            let seed = rng.below(n);
            let nodes = grow(&s, &[seed], budget, &mut rng, &mut state);
            let left = o.deadline.map_or(5.0, |d| d.saturating_duration_since(Instant::now()).as_secs_f64());
            let step = improve(&mut s, &nodes, &mut local, left.min(5.0), o.threads);
            steps += 1;
            // Grow the neighbourhood while the MILP proves optimality quickly.
            if step.optimal && step.seconds < 0.5 {
                budget.nodes = (budget.nodes * 11 / 10 + 1).min(5000);
                budget.entries = (budget.entries * 11 / 10).min(2_000_000);
            } else if !step.optimal || step.seconds > 2.0 {
                budget.nodes = (budget.nodes * 8 / 10).max(10);
                budget.entries = (budget.entries * 8 / 10).max(2_000);
            }
            if step.gain > 0.0 && feasible(&s) {
                best = Some(s.choice.clone());
            }
            if o.verbose && last_log.elapsed().as_secs_f64() > 5.0 {
                last_log = Instant::now();
                let (_, cost) = s.total();
                log(format!("lns step {steps}: cost {cost:.0}, peak {:.0}, neighbourhood {} nodes / {} entries", s.peak(), budget.nodes, budget.entries));
            }
        }
    }
    HeuristicOutcome { choice: best, lns_steps: steps }
}
