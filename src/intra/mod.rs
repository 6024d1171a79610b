//! The intra-op pass (paper §4.1, Eq. 1): choose one strategy per node minimising node plus edge
//! (resharding) costs under a per-device memory limit.
//!
//! Solver core (MLIR-free):
//! - [`StrategyProblem`]: nodes (strategy costs, optional usages and live interval), edges (cost
//!   matrices), aliases (pairs that must pick corresponding strategies), optional usage limit.
//!   Costs `>= FORBIDDEN_COST` (1e18) forbid a choice.
//! - [`solve_ilp`]: the MILP of Eq. 1 on the whole problem (HiGHS through good_lp).
//! - [`solve`]: exact preprocessing (`preprocess`: dead and dominated strategies, leaves, chains,
//!   single-strategy nodes, slack checkpoints), then the MILP when the reduced problem is small,
//!   otherwise the search (`heuristic`: Lagrangian prices on memory with single-node, tree-DP and
//!   MILP-neighbourhood moves, each round's best plan relinked with the priced one, then MILP
//!   large neighbourhood search under the hard limit).
//! - [`solve_brute_force`]: exhaustive search for tests.
//! - [`read_iopddl`] / [`format_iopddl_solution`]: the ASPLOS'25 IOPDDL contest format.
//!
//! Determinism: the MILP path returns the same choice for the same input when it finishes
//! within its time limit; the search is deterministic for a seed when it has no time limit
//! (bounded by `SolveOptions::max_search_steps`: its MILPs are then bounded by
//! branch-and-bound nodes, not seconds).

pub mod best_mesh;
mod brute;
pub mod config;
mod construct;
mod error;
pub mod generate;
mod group;
mod heuristic;
mod hotspots;
mod ilp;
mod iopddl;
mod lagrange;
mod lns;
pub mod memory;
pub mod merge;
mod model;
pub mod options;
mod penalty_repair;
pub mod plan;
pub mod plan_cost;
pub mod planner;
mod preprocess;
mod problem;
mod reconstruct;
mod relink;
pub mod report;
mod search;
mod segtree;
mod shared_moves;
pub mod solution;
mod solve;
pub mod strategy_problem;
#[cfg(test)]
mod tests;
mod tree;
mod trws;
pub mod weight_update;

pub use brute::{solve_brute_force, BRUTE_FORCE_LIMIT};
pub use error::IntraError;
pub use iopddl::{format_iopddl_solution, parse_iopddl, read_iopddl, IopddlInstance};
pub use lagrange::PriceRule;
pub use problem::{is_forbidden, Alias, Edge, Evaluation, Node, StrategyProblem, FORBIDDEN_COST};
pub use solution::{all_cores, Solution, SolveOptions, SolveStats, SolveStatus, MAX_THREADS};
pub use solve::{solve, solve_ilp};
