//! What a solve returns and the options that steer it.

use super::error::IntraError;
use super::lagrange::PriceRule;

/// How good the returned assignment is known to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolveStatus {
    /// Proven optimal (by the MILP, within a relative gap of 1e-9, or by exhaustive search).
    Optimal,
    /// Feasible but not proven optimal: the time limit ran out or a heuristic produced it.
    Feasible,
}

/// Size and effort of a solve.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SolveStats {
    /// Variables and constraints of the (last, largest) MILP built; 0 when none was built.
    pub variables: usize,
    pub constraints: usize,
    /// Nodes and edges before and after preprocessing.
    pub nodes_before: usize,
    pub edges_before: usize,
    pub nodes_after: usize,
    pub edges_after: usize,
    /// Wall-clock seconds of the whole solve.
    pub seconds: f64,
    /// Which method produced the answer ("ilp", "brute-force", "search", ...).
    pub method: String,
    /// Seconds from the start of the solve to the first feasible assignment in hand (`None`
    /// when the method does not track it).
    pub first_feasible_seconds: Option<f64>,
}

/// A feasible assignment.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// Strategy index per node.
    pub choice: Vec<usize>,
    /// Sum of chosen node costs and edge costs.
    pub objective: f64,
    /// Largest memory over time (0 without usages).
    pub peak_memory: f64,
    pub status: SolveStatus,
    pub stats: SolveStats,
}

/// Most threads a solve may be given.
pub const MAX_THREADS: u32 = 8;

/// Every core this process may use, at most [`MAX_THREADS`].
pub fn all_cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS as usize) as u32)
}

/// Options of a solve.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveOptions {
    /// Wall-clock limit in seconds for the whole solve (`None`: unlimited).
    pub time_limit: Option<f64>,
    /// Threads: on large problems, searches run side by side from different seeds (the
    /// cheapest plan wins); on small ones, HiGHS's threads. Default 1; [`all_cores`] for every
    /// core this process may use.
    pub threads: u32,
    /// Print progress lines on stderr.
    pub verbose: bool,
    /// Seed of the randomised search (results are deterministic for a given seed when no time
    /// limit cuts the search short).
    pub seed: u64,
    /// Without a time limit, the search's work limit: this many Lagrangian rounds, then as
    /// many neighbourhood steps (`None`: 200). The search is then deterministic for its seed.
    /// A time limit replaces it.
    pub max_search_steps: Option<usize>,
    /// The largest reduced problem (edge-matrix entries) that goes to the MILP rather than the
    /// search.
    pub ilp_max_entries: usize,
    /// How the search's Lagrangian prices move once a plan that fits is known.
    pub price_rule: PriceRule,
    /// Each of the search's Lagrangian rounds first solves its priced problem by message
    /// passing (TRW-S). On in `alpa-iopddl` and the IOPDDL benches, where it was measured (the
    /// public instances at their contest timeouts: cheaper on M and S, equal on A and G; the
    /// instances generated from S at 30 s: dearer); off by default, so the passes and the
    /// inter-op oracle search as before.
    pub message_passing: bool,
}

/// The default MILP size limit: what the IOPDDL search was tuned with.
pub const DEFAULT_ILP_MAX_ENTRIES: usize = 300_000;

impl SolveOptions {
    /// A time limit must be a finite number of seconds, zero or more.
    pub fn validate(&self) -> Result<(), IntraError> {
        match self.time_limit {
            Some(t) if !(t.is_finite() && t >= 0.0) => {
                Err(IntraError::InvalidOptions(format!("time limit must be a finite number of seconds >= 0, got {t}")))
            }
            _ if !(1..=MAX_THREADS).contains(&self.threads) => Err(IntraError::InvalidOptions(format!(
                "threads must be from 1 to {MAX_THREADS}, got {}",
                self.threads
            ))),
            _ => Ok(()),
        }
    }
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            time_limit: None,
            threads: 1,
            verbose: false,
            seed: 1,
            max_search_steps: None,
            ilp_max_entries: DEFAULT_ILP_MAX_ENTRIES,
            price_rule: PriceRule::default(),
            message_passing: false,
        }
    }
}
