//! Entry points: the plain MILP of Eq. 1, and the full pipeline (preprocessing and grouping,
//! a feasible construction, then the MILP when the reduced problem is small, otherwise search).

use std::time::{Duration, Instant};

use super::construct::{feasible_start, Start};
use super::error::IntraError;
use super::group::group;
use super::heuristic::{heuristic, HeuristicOptions};
use super::ilp::{run_milp, IlpFailure, IlpObjective, IlpOptions, MilpLimit};
use super::model::Model;
use super::preprocess::{preprocess, PreprocessFailure, PreprocessOptions};
use super::problem::StrategyProblem;
use super::solution::{Solution, SolveOptions, SolveStats, SolveStatus};

/// Solves `p` with the MILP of Eq. 1 on the whole problem, no preprocessing.
pub fn solve_ilp(p: &StrategyProblem, opts: &SolveOptions) -> Result<Solution, IntraError> {
    p.validate()?;
    opts.validate()?;
    let start = Instant::now();
    let model = Model::from_problem(p);
    let ilp = IlpOptions {
        objective: IlpObjective::Cost,
        limit: opts.time_limit.map(MilpLimit::Seconds),
        threads: opts.threads,
        initial: None,
    };
    match run_milp(&model, &ilp) {
        Ok(out) => {
            let ev = p.evaluate(&out.choice)?;
            let stats = SolveStats {
                variables: out.variables,
                constraints: out.constraints,
                nodes_before: p.nodes.len(),
                edges_before: p.edges.len(),
                nodes_after: p.nodes.len(),
                edges_after: p.edges.len(),
                seconds: start.elapsed().as_secs_f64(),
                method: "ilp".into(),
                first_feasible_seconds: None,
            };
            if !ev.feasible() {
                return Err(IntraError::Solver(format!(
                    "the MILP answer is not feasible ({} forbidden uses, peak {})",
                    ev.forbidden_uses, ev.peak_memory
                )));
            }
            let status = if out.optimal { SolveStatus::Optimal } else { SolveStatus::Feasible };
            Ok(Solution { choice: out.choice, objective: ev.cost, peak_memory: ev.peak_memory, status, stats })
        }
        Err(IlpFailure::Infeasible) => Err(diagnose_infeasible(&model, opts, remaining(opts, start))),
        Err(IlpFailure::NoSolution) => Err(IntraError::NoSolutionInTime { seconds: opts.time_limit.unwrap_or(0.0) }),
        Err(IlpFailure::Solver(s)) => Err(IntraError::Solver(s)),
    }
}

/// Seconds left of the time limit (`None`: unlimited).
pub(crate) fn remaining(opts: &SolveOptions, start: Instant) -> Option<f64> {
    opts.time_limit.map(|t| (t - start.elapsed().as_secs_f64()).max(0.0))
}

/// Explains why a model with no feasible assignment has none: no allowed assignment at all,
/// or the memory limit is below the smallest achievable peak.
pub(crate) fn diagnose_infeasible(model: &Model, opts: &SolveOptions, time_left: Option<f64>) -> IntraError {
    let lower = model.peak_lower_bound();
    // The peak-memory MILP; give it at least a few seconds even when the budget is spent.
    let limit = time_left.map(|t| t.max(5.0));
    let ilp = IlpOptions {
        objective: IlpObjective::PeakMemory,
        limit: limit.map(MilpLimit::Seconds),
        threads: opts.threads,
        initial: None,
    };
    match run_milp(model, &ilp) {
        Err(IlpFailure::Infeasible) => IntraError::NoAllowedAssignment,
        Ok(out) if out.value > model.limit => IntraError::MemoryInfeasible {
            limit: model.limit,
            min_peak_memory: out.value,
            min_peak_exact: out.optimal,
            min_peak_lower_bound: if out.optimal { out.value } else { lower },
        },
        Ok(out) => IntraError::Solver(format!(
            "the cost MILP reported infeasible, but a plan with peak {} within the limit {} exists",
            out.value, model.limit
        )),
        Err(IlpFailure::NoSolution) => IntraError::NoSolutionInTime { seconds: limit.unwrap_or(0.0) },
        Err(IlpFailure::Solver(s)) => IntraError::Solver(s),
    }
}

/// Solves `p`: exact preprocessing, then the MILP on the reduced problem when it is small
/// enough, otherwise the search; always returns a feasible assignment or an error.
pub fn solve(p: &StrategyProblem, opts: &SolveOptions) -> Result<Solution, IntraError> {
    p.validate()?;
    opts.validate()?;
    let start = Instant::now();
    let model = Model::from_problem(p);
    let modelled = start.elapsed().as_secs_f64();
    let reduced = match preprocess(&model, &PreprocessOptions::default()) {
        Ok(r) => r,
        Err(PreprocessFailure::NoAllowedAssignment) => return Err(IntraError::NoAllowedAssignment),
        Err(PreprocessFailure::MemoryInfeasible) => {
            return Err(diagnose_infeasible(&model, opts, remaining(opts, start)))
        }
    };
    // Nodes tied by forbidden pairs decide as one group (exact), so every move below can
    // re-choose a whole group.
    let preprocessed = start.elapsed().as_secs_f64();
    let grouped = group(&reduced.model);
    let rm = &grouped.model;
    if opts.verbose {
        let strategies: usize = rm.costs.iter().map(|c| c.len()).sum();
        let entries: usize = rm.edges.iter().map(|e| e.costs.len()).sum();
        eprintln!(
            "[intra] preprocess: {} nodes / {} edges -> {} nodes / {} edges -> {} groups / {} edges ({} strategies, {} edge entries, {} terms, {} checkpoints) in {:.2} s (model {:.2} s, reductions {:.2} s, groups {:.2} s)",
            p.nodes.len(),
            p.edges.len(),
            reduced.model.num_nodes(),
            reduced.model.edges.len(),
            rm.num_nodes(),
            rm.edges.len(),
            strategies,
            entries,
            rm.terms.len(),
            rm.num_checkpoints(),
            start.elapsed().as_secs_f64(),
            modelled,
            preprocessed - modelled,
            start.elapsed().as_secs_f64() - preprocessed,
        );
    }
    let entries: usize = rm.edges.iter().map(|e| e.costs.len()).sum();
    // Memory rows count too: a group of many nodes is one MILP variable per strategy but
    // appears in every row where one of its members is live.
    let memory_light = rm.memory_entries() <= ILP_MAX_MEMORY_ENTRIES;
    let small = entries <= opts.ilp_max_entries && rm.num_nodes() <= ILP_MAX_NODES && memory_light;
    // Feasibility first: a plan within the limit before any cost search, in at most a tenth
    // of the time (the exact peak-memory MILP, its last resort, may take half).
    let mut first_feasible_seconds = None;
    let constructed = if rm.num_nodes() == 0 {
        None
    } else {
        let deadline = opts.time_limit.and_then(|t| instant_after(start, 0.5 * t));
        let exact = entries <= FEASIBILITY_MILP_MAX_ENTRIES && rm.num_nodes() <= ILP_MAX_NODES && memory_light;
        match feasible_start(rm, deadline, exact, opts.threads, opts.seed, opts.verbose) {
            Start::Fits(choice, at) => {
                first_feasible_seconds = Some(at.duration_since(start).as_secs_f64());
                Some(choice)
            }
            Start::MemoryInfeasible { .. } => return Err(diagnose_infeasible(&model, opts, remaining(opts, start))),
            // Small models get the exact least peak.
            Start::BelowLowerBound { .. } if exact => {
                return Err(diagnose_infeasible(&model, opts, remaining(opts, start)))
            }
            Start::BelowLowerBound { reached, lower_bound } => {
                return Err(IntraError::MemoryInfeasible {
                    limit: rm.limit,
                    min_peak_memory: reached,
                    min_peak_exact: false,
                    min_peak_lower_bound: lower_bound,
                })
            }
            Start::NoAllowedAssignment => return Err(IntraError::NoAllowedAssignment),
            Start::NotFound => None,
        }
    };
    // The MILP when the reduced problem is small: alone when it proves optimality in its share
    // of the time, otherwise its incumbent seeds the search.
    let mut exact = None;
    let mut seed_choice = constructed;
    if rm.num_nodes() == 0 {
        // Preprocessing decided every node exactly; HiGHS rejects an empty model.
        first_feasible_seconds = Some(start.elapsed().as_secs_f64());
        exact = Some((Vec::new(), true, 0, 0, "preprocess"));
    } else if small {
        let ilp = IlpOptions {
            objective: IlpObjective::Cost,
            limit: remaining(opts, start).map(|t| MilpLimit::Seconds(MILP_SHARE * t)),
            threads: opts.threads,
            initial: seed_choice.as_deref(),
        };
        match run_milp(rm, &ilp) {
            Ok(out) if out.optimal || opts.time_limit.is_none() => {
                exact = Some((out.choice, out.optimal, out.variables, out.constraints, "preprocess+ilp"))
            }
            Ok(out) => {
                if opts.verbose {
                    eprintln!("[intra] MILP not proven optimal in its share of the time (cost {:.0}): the search goes on from it", out.value);
                }
                first_feasible_seconds = first_feasible_seconds.or(Some(start.elapsed().as_secs_f64()));
                seed_choice = Some(out.choice);
            }
            Err(IlpFailure::NoSolution) => {}
            Err(IlpFailure::Infeasible) => return Err(diagnose_infeasible(&model, opts, remaining(opts, start))),
            Err(IlpFailure::Solver(s)) => return Err(IntraError::Solver(s)),
        }
    }
    let (reduced_choice, optimal, variables, constraints, method) = if let Some(found) = exact {
        found
    } else {
        let ho = HeuristicOptions {
            // A margin for the last neighbourhood, the expansion and the final evaluation.
            deadline: opts.time_limit.and_then(|t| instant_after(start, (0.97 * t - 0.5).max(0.0))),
            threads: opts.threads,
            verbose: opts.verbose,
            seed: opts.seed,
            max_rounds: opts.max_search_steps.unwrap_or(200),
            start: seed_choice,
            price_rule: opts.price_rule,
            message_passing: opts.message_passing,
        };
        let out = heuristic(rm, &ho);
        if opts.verbose {
            eprintln!("[intra] search: {} Lagrangian rounds, {} MILP neighbourhoods", out.rounds, out.lns_steps);
        }
        if first_feasible_seconds.is_none() {
            first_feasible_seconds = out.first_feasible.map(|at| at.duration_since(start).as_secs_f64());
        }
        match out.choice {
            Some(c) => (c, false, 0, 0, if small { "preprocess+ilp+search" } else { "preprocess+search" }),
            None => return Err(IntraError::NoSolutionInTime { seconds: opts.time_limit.unwrap_or(0.0) }),
        }
    };
    let out = IlpLike { choice: reduced_choice, optimal, variables, constraints };
    let choice = reduced.expand(&grouped.expand(&out.choice))?;
    let ev = p.evaluate(&choice)?;
    if !ev.feasible() {
        return Err(IntraError::Solver(format!(
            "the assignment is not feasible ({} forbidden uses, peak {})",
            ev.forbidden_uses, ev.peak_memory
        )));
    }
    let stats = SolveStats {
        variables: out.variables,
        constraints: out.constraints,
        nodes_before: p.nodes.len(),
        edges_before: p.edges.len(),
        nodes_after: rm.num_nodes(),
        edges_after: rm.edges.len(),
        seconds: start.elapsed().as_secs_f64(),
        method: method.into(),
        first_feasible_seconds,
    };
    let status = if out.optimal { SolveStatus::Optimal } else { SolveStatus::Feasible };
    Ok(Solution { choice, objective: ev.cost, peak_memory: ev.peak_memory, status, stats })
}

/// Reduced problems up to this many edge-matrix entries may go to the exact peak-memory MILP
/// when the construction's own moves find no plan within the limit.
const FEASIBILITY_MILP_MAX_ENTRIES: usize = 300_000;

/// The share of the remaining time the MILP of a small reduced problem gets before the search
/// takes over from its incumbent.
const MILP_SHARE: f64 = 0.6;

/// Reduced problems up to this many edge-matrix entries and nodes go to the MILP directly.
const ILP_MAX_NODES: usize = 3_000;

/// ... and up to this many nonzeros (at most) in their memory rows.
const ILP_MAX_MEMORY_ENTRIES: usize = 3_000_000;

struct IlpLike {
    choice: Vec<usize>,
    optimal: bool,
    variables: usize,
    constraints: usize,
}

/// `start` plus `seconds`; `None` (no deadline) past what an `Instant` holds, e.g. a time
/// limit of 1e300 s.
fn instant_after(start: Instant, seconds: f64) -> Option<Instant> {
    start.checked_add(Duration::try_from_secs_f64(seconds).ok()?)
}
