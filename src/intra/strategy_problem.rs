//! The strategy problem (Eq. 1) of one function on one mesh: candidate strategies for every
//! argument and op, trivial ops merged into the operand they follow, node costs and memory,
//! resharding edges and the aliases of donated parameters.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §4.

use super::memory::live_intervals;
use super::merge::{self, Role};
use super::options::IntraOptions;
use super::plan::{producer_of, PlanError, Producer};
use super::plan_cost::strategy_cost;
use super::problem::{Alias, Edge, Node, StrategyProblem};
use super::shared_moves::{price_value, GroupUse, TreeCache};
use crate::ir::graph::{Graph, OpId};
use crate::ir::op_table::{op_rule, OpRule};
use crate::ir::types::{TensorType, ValueType};
use crate::sharding::spec::ShardingSpec;
use crate::sharding::strategy::{argument_strategies, follow, op_strategies, Strategy, StrategyOptions};
use std::collections::BTreeMap;

/// Strategies of one producer, index-aligned with its group's ILP variable.
pub(super) struct Candidates {
    pub(super) group: usize,
    pub(super) strategies: Vec<Strategy>,
}

impl Candidates {
    fn result_spec(&self, strategy: usize, result: usize) -> Option<&ShardingSpec> {
        self.strategies[strategy].result_specs.get(result)?.as_ref()
    }
}

/// The candidates of every argument and op, grouped into ILP nodes.
pub(super) struct Builder<'a> {
    graph: &'a Graph,
    options: &'a IntraOptions,
    rules: Vec<OpRule>,
    pub(super) args: Vec<Option<Candidates>>,
    pub(super) ops: Vec<Candidates>,
    pub(super) group_sizes: Vec<usize>,
    pub(super) roles: Vec<Role>,
    pub(super) replicated_fallbacks: Vec<OpId>,
}

fn tensor(ty: Option<&ValueType>) -> Option<&TensorType> {
    ty.and_then(ValueType::tensor)
}

impl<'a> Builder<'a> {
    pub(super) fn new(graph: &'a Graph, options: &'a IntraOptions) -> Result<Self, PlanError> {
        let rules = graph
            .ops()
            .iter()
            .enumerate()
            .map(|(i, op)| {
                op_rule(op, &graph.operand_tensors(i))
                    .map_err(|e| PlanError::Op { op: OpId::new(i), message: e.to_string() })
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
            Producer::Op(i) => self.ops.get(i.index()),
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

    pub(super) fn assign_strategies(&mut self) {
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
                        self.replicated_fallbacks.push(OpId::new(index));
                    }
                    self.new_group(strategies)
                }
            };
            self.ops.push(candidates);
        }
    }

    pub(super) fn build_problem(&self) -> StrategyProblem {
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
            .chain(self.ops.iter().enumerate().map(|(i, c)| (Producer::Op(OpId::new(i)), c)));
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
