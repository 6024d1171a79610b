//! Exhaustive enumeration of all assignments, for tests on small problems. Independent of the
//! internal model: it only uses `StrategyProblem::evaluate`.

use std::time::Instant;

use super::error::IntraError;
use super::problem::StrategyProblem;
use super::solution::{Solution, SolveStats, SolveStatus};

/// Refuse problems with more assignments than this.
pub const BRUTE_FORCE_LIMIT: f64 = 2e7;

/// The cheapest feasible assignment (the lexicographically smallest among equal costs), or
/// the reason there is none.
pub fn solve_brute_force(p: &StrategyProblem) -> Result<Solution, IntraError> {
    p.validate()?;
    let start = Instant::now();
    let count: f64 = p.nodes.iter().map(|n| n.len() as f64).product();
    if count > BRUTE_FORCE_LIMIT {
        return Err(IntraError::InvalidProblem(format!("{count} assignments are too many for brute force")));
    }
    let n = p.nodes.len();
    let mut choice = vec![0usize; n];
    let mut best: Option<(f64, Vec<usize>, f64)> = None;
    let mut min_peak: Option<f64> = None;
    'all: loop {
        let ev = p.evaluate(&choice)?;
        if ev.forbidden_uses == 0 {
            min_peak = Some(min_peak.map_or(ev.peak_memory, |m: f64| m.min(ev.peak_memory)));
            if ev.within_limit && best.as_ref().is_none_or(|b| ev.cost < b.0) {
                best = Some((ev.cost, choice.clone(), ev.peak_memory));
            }
        }
        if !next_assignment(&mut choice, |i| p.nodes[i].len()) {
            break 'all;
        }
    }
    let stats = SolveStats {
        nodes_before: n,
        edges_before: p.edges.len(),
        nodes_after: n,
        edges_after: p.edges.len(),
        seconds: start.elapsed().as_secs_f64(),
        method: "brute-force".into(),
        ..Default::default()
    };
    match (best, min_peak) {
        (Some((objective, choice, peak_memory)), _) => {
            Ok(Solution { choice, objective, peak_memory, status: SolveStatus::Optimal, stats })
        }
        (None, None) => Err(IntraError::NoAllowedAssignment),
        (None, Some(mp)) => Err(IntraError::MemoryInfeasible {
            limit: p.usage_limit.unwrap_or(f64::INFINITY),
            min_peak_memory: mp,
            min_peak_exact: true,
            min_peak_lower_bound: mp,
        }),
    }
}

/// Advances `choice` to the next assignment in lexicographic order (last node fastest), where
/// node `i` has `len(i)` strategies; false once every assignment has been visited.
pub(crate) fn next_assignment(choice: &mut [usize], len: impl Fn(usize) -> usize) -> bool {
    for i in (0..choice.len()).rev() {
        choice[i] += 1;
        if choice[i] < len(i) {
            return true;
        }
        choice[i] = 0;
    }
    false
}
