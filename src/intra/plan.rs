//! The intra-op plan of one function on one mesh: strategies for every value, trivial ops merged
//! into the operand they follow, the strategy problem (Eq. 1) built and solved, and the chosen
//! strategy of every argument and op read back.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §4.

use super::error::IntraError;
use super::memory::{live_intervals, producer_of};
use super::merge::{self, Role};
use super::problem::{Alias, Edge, Node, StrategyProblem};
use super::shared_moves::{price_value, GroupUse, MoveTree, TreeCache};
use super::solution::{SolveOptions, SolveStatus};
use super::weight_update::{shard_weight_update, WeightUpdateSharding};
use crate::cluster::collective::Collective;
use crate::cluster::mesh::DeviceMesh;
use crate::ir::graph::Graph;
use crate::ir::op_table::{op_rule, OpRule};
use crate::ir::types::{TensorType, ValueType};
use crate::sharding::reshard::CollectiveUse;
use crate::sharding::spec::ShardingSpec;
use crate::sharding::strategy::{argument_strategies, follow, op_strategies, Strategy, StrategyOptions};
use std::collections::BTreeMap;

#[derive(Clone, Debug)]
pub struct IntraOptions {
    pub mesh: DeviceMesh,
    pub strategy: StrategyOptions,
    pub allow_replicated_parameters: bool,
    /// Per-device bytes that live values may occupy at any point.
    pub memory_budget: Option<u64>,
    pub merge_trivial_ops: bool,
    pub solve: SolveOptions,
    /// After the solve, shard the weight update (paper §4.2): see [`super::weight_update`].
    pub prefer_reduce_scatter: bool,
    /// Price a move several consumer groups share once, exactly (extra nodes, see
    /// [`super::shared_moves`]); otherwise each group pays it in the objective.
    pub price_shared_moves: bool,
}

impl IntraOptions {
    /// The pass's defaults on `mesh`: replicated parameters allowed, no budget, trivial ops
    /// merged, the default solver, no weight-update sharding.
    pub fn on_mesh(mesh: DeviceMesh) -> IntraOptions {
        IntraOptions {
            mesh,
            strategy: StrategyOptions::default(),
            allow_replicated_parameters: true,
            memory_budget: None,
            merge_trivial_ops: true,
            solve: SolveOptions::default(),
            prefer_reduce_scatter: false,
            price_shared_moves: false,
        }
    }
}

/// Alpa's tie-break: every all-reduce costs a little more, so that among plans with equal
/// communication volume the one with fewer all-reduces wins. Alpa adds 0.01 in its abstract
/// units (alpha = 1); scaled by the mesh's latency it stays negligible in seconds too.
pub const ALL_REDUCE_TIE_BREAK: f64 = 0.01;

fn all_reduce_tie_break(mesh: &DeviceMesh) -> f64 {
    let alpha = mesh.alpha.iter().copied().filter(|a| *a > 0.0).fold(f64::INFINITY, f64::min);
    ALL_REDUCE_TIE_BREAK * if alpha.is_finite() { alpha } else { 1e-9 }
}

/// A strategy's cost in the ILP: its communication plus the all-reduce tie-break.
pub fn strategy_cost(strategy: &Strategy, mesh: &DeviceMesh) -> f64 {
    let all_reduces = strategy.collectives.iter().filter(|c| c.kind == Collective::AllReduce).count();
    strategy.communication_cost + all_reduce_tie_break(mesh) * all_reduces as f64
}

/// The largest reduced problem (edge-matrix entries) the pass hands to the MILP.
pub const PASS_ILP_MAX_ENTRIES: usize = 1_500_000;

/// Where a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Producer {
    Arg(usize),
    Op(usize),
}

#[derive(Clone, Debug, PartialEq)]
pub enum PlanError {
    /// An op cannot be described (malformed attributes, inconsistent shapes).
    Op {
        op: usize,
        message: String,
    },
    /// No plan fits the memory budget: what the least-memory plan needs per device, and what
    /// the cheapest plan (ignoring the budget) needs.
    OutOfMemory {
        budget: u64,
        least_memory: f64,
        cheapest_plan_memory: Option<f64>,
    },
    Solver(String),
}

/// One move of a value's move tree the plan runs, once for every operand whose chain passes it.
#[derive(Clone, Debug)]
pub struct SharedMove {
    pub producer: Producer,
    pub result: usize,
    pub from: ShardingSpec,
    pub to: ShardingSpec,
    pub collective: CollectiveUse,
    pub cost: f64,
    /// (op, operand) of every operand that needs the move.
    pub consumers: Vec<(usize, usize)>,
}

/// A resharding the plan pays for: a value converted for one operand of one op.
#[derive(Clone, Debug)]
pub struct ChosenResharding {
    pub producer: Producer,
    pub op: usize,
    pub operand: usize,
    pub from: ShardingSpec,
    pub to: ShardingSpec,
    pub resharding: crate::sharding::reshard::Resharding,
}

#[derive(Clone, Debug)]
pub struct IntraPlan {
    /// The chosen strategy of every argument (`None` for non-tensor arguments).
    pub args: Vec<Option<Strategy>>,
    pub ops: Vec<Strategy>,
    pub roles: Vec<Role>,
    pub objective: f64,
    pub communication_cost: f64,
    pub resharding_cost: f64,
    pub peak_memory_bytes: f64,
    pub status: SolveStatus,
    pub solver_seconds: f64,
    pub variables: usize,
    pub constraints: usize,
    /// ILP nodes: arguments plus ops before merging, and groups after.
    pub nodes_before_merging: usize,
    pub nodes_after_merging: usize,
    /// Per operand, the chain it is resharded along (for the emitter).
    pub reshardings: Vec<ChosenResharding>,
    /// The moves those chains run, each once: what the objective prices and the report lists.
    pub moves: Vec<SharedMove>,
    /// Ops that had no even strategy and were computed replicated.
    pub replicated_fallbacks: Vec<usize>,
    /// What the weight-update sharding rewrite changed (empty unless it ran and applied).
    pub weight_update: WeightUpdateSharding,
}

/// Strategies of one producer, index-aligned with its group's ILP variable.
struct Candidates {
    group: usize,
    strategies: Vec<Strategy>,
}

impl Candidates {
    fn result_spec(&self, strategy: usize, result: usize) -> Option<&ShardingSpec> {
        self.strategies[strategy].result_specs.get(result)?.as_ref()
    }
}

struct Builder<'a> {
    graph: &'a Graph,
    options: &'a IntraOptions,
    rules: Vec<OpRule>,
    args: Vec<Option<Candidates>>,
    ops: Vec<Candidates>,
    group_sizes: Vec<usize>,
    roles: Vec<Role>,
    replicated_fallbacks: Vec<usize>,
}

fn tensor(ty: Option<&ValueType>) -> Option<&TensorType> {
    ty.and_then(ValueType::tensor)
}

impl<'a> Builder<'a> {
    fn new(graph: &'a Graph, options: &'a IntraOptions) -> Result<Self, PlanError> {
        let rules = graph
            .ops()
            .iter()
            .enumerate()
            .map(|(i, op)| {
                op_rule(op, &graph.operand_tensors(i)).map_err(|e| PlanError::Op { op: i, message: e.to_string() })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut builder = Builder {
            graph,
            options,
            rules,
            args: Vec::new(),
            ops: Vec::new(),
            group_sizes: Vec::new(),
            roles: Vec::new(),
            replicated_fallbacks: Vec::new(),
        };
        for arg in &graph.args {
            let candidates = arg.ty.tensor().map(|ty| {
                let strategies = argument_strategies(ty, &options.mesh, options.allow_replicated_parameters);
                builder.new_group(strategies)
            });
            builder.args.push(candidates);
        }
        Ok(builder)
    }

    fn new_group(&mut self, strategies: Vec<Strategy>) -> Candidates {
        self.group_sizes.push(strategies.len());
        Candidates { group: self.group_sizes.len() - 1, strategies }
    }

    fn candidates(&self, producer: Producer) -> Option<&Candidates> {
        match producer {
            Producer::Arg(i) => self.args[i].as_ref(),
            Producer::Op(i) => self.ops.get(i),
        }
    }

    fn operand_has_spec(&self, op: usize, position: usize) -> bool {
        let value = self.graph.ops()[op].operands[position];
        tensor(self.graph.value_type(value)).is_some()
            && match producer_of(value) {
                Some((Producer::Arg(i), _)) => self.graph.args[i].ty.tensor().is_some(),
                Some((Producer::Op(_), _)) => true,
                None => false,
            }
    }

    fn assign_strategies(&mut self) {
        let roles = if self.options.merge_trivial_ops {
            merge::roles(&self.graph.body, |op, position| self.operand_has_spec(op, position))
        } else {
            vec![Role::Leader; self.graph.ops().len()]
        };
        for (index, op) in self.graph.ops().iter().enumerate() {
            let operands = self.graph.operand_tensors(index);
            let results: Vec<Option<&TensorType>> = op.results.iter().map(ValueType::tensor).collect();
            let rule = &self.rules[index];
            let mesh = &self.options.mesh;
            let strategy_options = &self.options.strategy;

            let followed = match roles[index] {
                Role::Follower { operand } => producer_of(op.operands[operand]).and_then(|(producer, result)| {
                    let leader = self.candidates(producer)?;
                    let strategies: Option<Vec<Strategy>> = (0..leader.strategies.len())
                        .map(|s| {
                            let spec = leader.result_spec(s, result)?;
                            Some(follow(rule, &operands, &results, operand, spec, mesh, strategy_options))
                        })
                        .collect();
                    Some(Candidates { group: leader.group, strategies: strategies? })
                }),
                Role::Leader => None,
            };
            let candidates = match followed {
                Some(candidates) => {
                    self.roles.push(roles[index]);
                    candidates
                }
                None => {
                    self.roles.push(Role::Leader);
                    let mut strategies = op_strategies(
                        rule,
                        &operands,
                        &results,
                        crate::ir::op_table::is_heavy(op),
                        mesh,
                        strategy_options,
                    );
                    if strategies.is_empty() {
                        // Nothing divides evenly: compute it replicated rather than fail.
                        let relaxed = StrategyOptions { allow_replicated: true, ..strategy_options.clone() };
                        strategies = op_strategies(rule, &operands, &results, false, mesh, &relaxed);
                        self.replicated_fallbacks.push(index);
                    }
                    self.new_group(strategies)
                }
            };
            self.ops.push(candidates);
        }
    }

    fn build_problem(&self) -> StrategyProblem {
        let groups = self.group_sizes.len();
        let mut costs: Vec<Vec<f64>> = self.group_sizes.iter().map(|&n| vec![0.0; n]).collect();
        let mut usages: Vec<Vec<f64>> = costs.clone();
        let mut intervals: Vec<Option<(u64, u64)>> = vec![None; groups];
        let live = live_intervals(self.graph, |i| self.args[i].is_some());

        let members = self
            .args
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.as_ref().map(|c| (Producer::Arg(i), c)))
            .chain(self.ops.iter().enumerate().map(|(i, c)| (Producer::Op(i), c)));
        for (producer, candidates) in members {
            let g = candidates.group;
            for (s, strategy) in candidates.strategies.iter().enumerate() {
                costs[g][s] += strategy_cost(strategy, &self.options.mesh);
                usages[g][s] += strategy.result_bytes_per_device as f64;
            }
            let (start, end) = live[&producer];
            intervals[g] = Some(intervals[g].map_or((start, end), |(a, b)| (a.min(start), b.max(end))));
        }

        let mut edge_costs: BTreeMap<(usize, usize), Vec<f64>> = BTreeMap::new();
        let mesh = &self.options.mesh;
        let mut trees = TreeCache::default();
        // Per value: its type and, per consumer group, per strategy, the layouts its operands need.
        type Uses<'t> = (&'t TensorType, BTreeMap<usize, Vec<Vec<ShardingSpec>>>);
        let mut values: BTreeMap<(Producer, usize), Uses> = BTreeMap::new();
        for (index, op) in self.graph.ops().iter().enumerate() {
            let consumer = &self.ops[index];
            for (position, value) in op.operands.iter().enumerate() {
                let Some((producer, result)) = producer_of(*value) else { continue };
                if self.candidates(producer).is_none() {
                    continue;
                }
                let Some(ty) = tensor(self.graph.value_type(*value)) else { continue };
                let (_, groups) = values.entry((producer, result)).or_insert_with(|| (ty, BTreeMap::new()));
                let targets =
                    groups.entry(consumer.group).or_insert_with(|| vec![Vec::new(); consumer.strategies.len()]);
                for (j, strategy) in consumer.strategies.iter().enumerate() {
                    if let Some(Some(to)) = strategy.operand_specs.get(position) {
                        targets[j].push(to.normalized(mesh.shape));
                    }
                }
            }
        }
        for ((producer, result), (ty, groups)) in values {
            let source = self.candidates(producer).expect("values with candidates only");
            let produced: Vec<Option<ShardingSpec>> = (0..source.strategies.len())
                .map(|i| source.result_spec(i, result).map(|s| s.normalized(mesh.shape)))
                .collect();
            let value_trees = produced.iter().flatten().map(|p| (p.clone(), trees.get(ty, p, mesh))).collect();
            let uses: Vec<GroupUse> = groups.into_iter().map(|(group, targets)| GroupUse { group, targets }).collect();
            price_value(
                &mut costs,
                &mut edge_costs,
                source.group,
                &produced,
                &uses,
                &value_trees,
                self.options.price_shared_moves,
            );
        }

        // Groups, then the nodes of shared moves (no memory).
        let nodes = costs
            .iter()
            .enumerate()
            .map(|(g, c)| match g < groups {
                true => Node { costs: c.clone(), usages: Some(usages[g].clone()), interval: intervals[g] },
                false => Node::with_costs(c.clone()),
            })
            .collect();
        let edges = edge_costs.into_iter().map(|((u, v), costs)| Edge { u, v, costs }).collect();
        StrategyProblem {
            nodes,
            edges,
            aliases: self.aliases(),
            usage_limit: self.options.memory_budget.map(|b| b as f64),
        }
    }

    /// A donated parameter and the output it is aliased to keep the same sharding.
    fn aliases(&self) -> Vec<Alias> {
        let mut aliases = Vec::new();
        for (i, arg) in self.graph.args.iter().enumerate() {
            let (Some(output), Some(param)) = (arg.aliased_output(), self.args[i].as_ref()) else { continue };
            let Some(&returned) = self.graph.returned.get(output) else { continue };
            let Some((producer, result)) = producer_of(returned) else { continue };
            let Some(updated) = self.candidates(producer) else { continue };
            if updated.group == param.group {
                continue;
            }
            let allowed: Vec<(usize, usize)> = (0..param.strategies.len())
                .flat_map(|a| (0..updated.strategies.len()).map(move |b| (a, b)))
                .filter(|&(a, b)| {
                    param.result_spec(a, 0).is_some() && param.result_spec(a, 0) == updated.result_spec(b, result)
                })
                .collect();
            if !allowed.is_empty() {
                aliases.push(Alias { a: param.group, b: updated.group, allowed });
            }
        }
        aliases
    }
}

/// The strategy problem (Eq. 1) of `graph` on `options.mesh`, after merging: what the solver
/// sees. Exposed so that the ILP can be checked against brute force on real strategy sets.
pub fn strategy_problem(graph: &Graph, options: &IntraOptions) -> Result<StrategyProblem, PlanError> {
    let mut builder = Builder::new(graph, options)?;
    builder.assign_strategies();
    Ok(builder.build_problem())
}

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
        objective: solution.objective,
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

/// The plan's communication: every argument's and op's strategy cost (with the tie-break).
pub(crate) fn communication_cost(args: &[Option<Strategy>], ops: &[Strategy], mesh: &DeviceMesh) -> f64 {
    args.iter().flatten().chain(ops).map(|s| strategy_cost(s, mesh)).sum()
}

/// Every resharding the chosen strategies need, per op operand (in op, then operand order)
/// whose producer's layout differs from what the op's strategy computes from and that costs
/// something, each along its value's move tree (what the emitter pins); the moves they run,
/// each once per value with the operands that share it; and the moves' total cost.
pub(crate) fn chosen_reshardings(
    graph: &Graph,
    args: &[Option<Strategy>],
    ops: &[Strategy],
    mesh: &DeviceMesh,
) -> (Vec<ChosenResharding>, Vec<SharedMove>, f64) {
    let produced = |producer: Producer, result: usize| -> Option<&ShardingSpec> {
        let strategy = match producer {
            Producer::Arg(i) => args.get(i)?.as_ref()?,
            Producer::Op(i) => ops.get(i)?,
        };
        strategy.result_specs.get(result)?.as_ref()
    };
    let mut trees = TreeCache::default();
    let mut reshardings = Vec::new();
    // Per value, per tree node with a collective: the operands whose chain runs it.
    let mut used: BTreeMap<(Producer, usize), (std::rc::Rc<MoveTree>, BTreeMap<usize, Vec<(usize, usize)>>)> =
        BTreeMap::new();
    for (index, (op, strategy)) in graph.ops().iter().zip(ops).enumerate() {
        for (position, value) in op.operands.iter().enumerate() {
            let Some((producer, result)) = producer_of(*value) else { continue };
            let (Some(from), Some(Some(to)), Some(ty)) =
                (produced(producer, result), strategy.operand_specs.get(position), tensor(graph.value_type(*value)))
            else {
                continue;
            };
            let tree = trees.get(ty, from, mesh);
            let target = to.normalized(mesh.shape);
            let Some(node) = tree.node(&target) else { continue };
            let mut resharding = tree.resharding(node);
            if resharding.cost <= 0.0 {
                continue;
            }
            if *to != target {
                // Pin the tree's own layout first, so that other chains through it share it.
                resharding.steps.push(target);
            }
            let (_, nodes) = used.entry((producer, result)).or_insert_with(|| (tree.clone(), BTreeMap::new()));
            for n in tree.chain(node).into_iter().filter(|&n| tree.nodes[n].collective.is_some()) {
                nodes.entry(n).or_default().push((index, position));
            }
            reshardings.push(ChosenResharding {
                producer,
                op: index,
                operand: position,
                from: from.clone(),
                to: to.clone(),
                resharding,
            });
        }
    }
    let mut moves = Vec::new();
    for ((producer, result), (tree, nodes)) in used {
        for (n, consumers) in nodes {
            let node = &tree.nodes[n];
            let from = node.parent.map_or(&tree.root, |p| &tree.nodes[p].layout).clone();
            let collective = node.collective.expect("nodes with a collective only");
            moves.push(SharedMove {
                producer,
                result,
                from,
                to: node.layout.clone(),
                collective,
                cost: node.cost,
                consumers,
            });
        }
    }
    let total = moves.iter().fold(0.0, |sum, m| sum + m.cost);
    (reshardings, moves, total)
}
