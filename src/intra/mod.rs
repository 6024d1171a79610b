//! The MLIR-free solver core of the intra-op pass (paper §4.1, Eq. 1): choose one strategy per
//! node minimising node plus edge (resharding) costs under a per-device memory limit.
//!
//! - [`StrategyProblem`]: the problem; [`solve_ilp`]: the MILP of Eq. 1 with HiGHS;
//!   [`solve_brute_force`]: exhaustive search for tests.
//! - [`read_iopddl`] / [`format_iopddl_solution`]: the ASPLOS'25 IOPDDL contest format.

mod brute;
pub mod config;
pub mod merge;
pub mod plan;
pub mod report;
mod error;
mod heuristic;
mod ilp;
mod iopddl;
mod lagrange;
mod lns;
mod model;
mod preprocess;
mod reconstruct;
mod search;
mod segtree;
mod tree;
mod problem;
pub mod solution;
mod solve;

pub use brute::{solve_brute_force, BRUTE_FORCE_LIMIT};
pub use error::IntraError;
pub use iopddl::{format_iopddl_solution, parse_iopddl, read_iopddl, IopddlInstance};
pub use problem::{is_forbidden, Alias, Edge, Evaluation, Node, StrategyProblem, FORBIDDEN_COST};
pub use solution::{Solution, SolveOptions, SolveStats, SolveStatus};
pub use solve::{solve, solve_ilp};
