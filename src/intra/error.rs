//! Errors of the intra-op solver core. Every failure is a value, never a panic.

use thiserror::Error;

/// Why a strategy problem could not be solved.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum IntraError {
    /// The problem description is inconsistent (bad index, wrong matrix size, ...).
    #[error("invalid strategy problem: {0}")]
    InvalidProblem(String),

    /// No assignment avoids every forbidden choice (costs >= 1e18) and alias constraint,
    /// whatever the memory budget.
    #[error("infeasible: every assignment uses a forbidden strategy, edge pair or broken alias")]
    NoAllowedAssignment,

    /// Assignments without forbidden choices exist, but none fits the memory budget.
    /// `min_peak_memory` is the smallest peak memory any allowed assignment reaches (proven
    /// minimal when `min_peak_exact`, otherwise the best value found and `min_peak_lower_bound`
    /// a bound below which no assignment can go).
    #[error(
        "infeasible memory budget: limit {limit} per device, but the least-memory plan needs {min_peak_memory}{}",
        if *min_peak_exact { String::new() } else { format!(" (not proven minimal; no plan needs less than {min_peak_lower_bound})") }
    )]
    MemoryInfeasible { limit: f64, min_peak_memory: f64, min_peak_exact: bool, min_peak_lower_bound: f64 },

    /// The solve options are unusable (e.g. a negative or non-finite time limit).
    #[error("invalid solve options: {0}")]
    InvalidOptions(String),

    /// The time limit ran out before any feasible assignment was found (the problem may
    /// still be feasible).
    #[error("no feasible assignment found within the time limit of {seconds:.1} s")]
    NoSolutionInTime { seconds: f64 },

    /// The MILP solver failed for a reason other than infeasibility.
    #[error("MILP solver failure: {0}")]
    Solver(String),

    /// Reading or writing an IOPDDL file failed.
    #[error("IOPDDL input/output: {0}")]
    Io(String),
}
