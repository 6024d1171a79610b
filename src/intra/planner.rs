//! The intra-op planner: builds the strategy problem of a function on a mesh, solves it, reads
//! the chosen strategies back into an [`IntraPlan`] and, when asked, shards the weight update.

use super::error::IntraError;
use super::options::IntraOptions;
use super::plan::{IntraPlan, PlanError, WeightUpdateSharding};
use super::plan_cost::{chosen_reshardings, communication_cost};
use super::problem::StrategyProblem;
use super::solution::SolveOptions;
use super::strategy_problem::{Builder, Candidates};
use super::weight_update::shard_weight_update;
use crate::ir::graph::Graph;
use crate::sharding::strategy::Strategy;

#[cfg(test)]
mod tests;

/// The largest reduced problem (edge-matrix entries) the pass hands to the MILP.
pub const PASS_ILP_MAX_ENTRIES: usize = 1_500_000;

/// Chooses a strategy for every argument and op of `graph` on `options.mesh`.
pub fn plan_intra_op(graph: &Graph, options: &IntraOptions) -> Result<IntraPlan, PlanError> {
    let mut builder = Builder::new(graph, options)?;
    builder.assign_strategies();
    let problem = builder.build_problem();
    // A larger MILP than the solver's default often proves optimality where the search cannot
    // (GPT-1.3B on 2x4: 0.5M edge entries, optimal in ~16 s); when it finds nothing in time,
    // the search takes over with its own time limit.
    let exact_first = SolveOptions {
        ilp_max_entries: PASS_ILP_MAX_ENTRIES.max(options.solve.ilp_max_entries),
        ..options.solve.clone()
    };
    let solved = match super::solve::solve(&problem, &exact_first) {
        Err(IntraError::NoSolutionInTime { .. }) if exact_first.ilp_max_entries > options.solve.ilp_max_entries => {
            super::solve::solve(&problem, &options.solve)
        }
        other => other,
    };
    let solution = match solved {
        Ok(solution) => solution,
        Err(IntraError::MemoryInfeasible { min_peak_memory, .. }) => {
            let unconstrained = StrategyProblem { usage_limit: None, ..problem.clone() };
            let cheapest = super::solve::solve(&unconstrained, &options.solve).ok();
            return Err(PlanError::OutOfMemory {
                budget: options.memory_budget.unwrap_or(0),
                least_memory: min_peak_memory,
                cheapest_plan_memory: cheapest.map(|s| s.peak_memory),
            });
        }
        Err(error) => return Err(PlanError::Solver(error.to_string())),
    };
    let choice = &solution.choice;
    let pick = |c: &Candidates| c.strategies[choice[c.group]].clone();
    let args: Vec<Option<Strategy>> = builder.args.iter().map(|c| c.as_ref().map(pick)).collect();
    let ops: Vec<Strategy> = builder.ops.iter().map(pick).collect();
    let (reshardings, moves, resharding_cost) = chosen_reshardings(graph, &args, &ops, &options.mesh);
    let communication_cost = communication_cost(&args, &ops, &options.mesh);
    let tensor_args = builder.args.iter().filter(|a| a.is_some()).count();
    let plan = IntraPlan {
        args,
        ops,
        roles: builder.roles.clone(),
        objective: communication_cost + resharding_cost,
        ilp_objective: solution.objective,
        communication_cost,
        resharding_cost,
        peak_memory_bytes: solution.peak_memory,
        status: solution.status,
        solver_seconds: solution.stats.seconds,
        variables: solution.stats.variables,
        constraints: solution.stats.constraints,
        nodes_before_merging: tensor_args + graph.ops().len(),
        nodes_after_merging: builder.group_sizes.len(),
        reshardings,
        moves,
        replicated_fallbacks: builder.replicated_fallbacks.clone(),
        weight_update: WeightUpdateSharding::default(),
    };
    if options.prefer_reduce_scatter {
        return Ok(shard_weight_update(graph, plan, &options.mesh));
    }
    Ok(plan)
}
