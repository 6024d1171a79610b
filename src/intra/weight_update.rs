//! Weight-update sharding (paper §4.2: "replacing all-reduce with reduce-scatter and all-gather,
//! whenever applicable"; the ZeRO-like rewrite of Xu et al., arXiv 2004.13336), run after the
//! ILP when `prefer-reduce-scatter` is set.
//!
//! In a data-parallel plan a weight's gradient leaves its producer (the weight-gradient matmul,
//! or the reduce of a bias gradient) as a partial sum that the producer's strategy all-reduces
//! over some mesh axes `A`; the optimizer's elementwise math and its states are then replicated
//! along `A`, so every device repeats the whole update. The rewrite:
//! 1. scatters the gradient: its producer's all-reduce becomes a reduce-scatter onto a tensor
//!    dim `d` the gradient does not split yet and `|A|` divides (the largest such dim, ties to
//!    the first), see [`Strategy::with_reduce_scatter`];
//! 2. computes the update ops on that layout: each optimizer-update op (the train step's
//!    [`Phase::Update`]) that reads a value whose layout changed takes the follower strategy of
//!    that operand ([`follow`]) when its results only gain splits and it costs no more than
//!    keeping its planned strategy and resharding the operand back;
//! 3. shards the optimizer states: a donated argument that only update ops read takes the
//!    layout its new value (the result it is aliased to) ends up with, so both sides of the
//!    alias agree and each device stores `1/|A|` of the state;
//! 4. keeps every other function result as planned: the ops defining the new parameters (and
//!    anything else returned) keep their strategies, so the scattered update is all-gathered
//!    at their operands, a resharding like any other.
//!
//! So an all-reduce of `B` bytes becomes a reduce-scatter and an all-gather of `B` bytes each:
//! the same volume, one more latency, and the update's work and state memory divided by `|A|`.
//! Steps 2 and 3 feed each other (a state's new layout reaches the ops that read the state), so
//! they run to a fixed point; no value changes layout twice. A gradient whose readers all keep
//! their strategies would only pay the extra latency: its rewrite is dropped. The plan's
//! reshardings, costs and peak memory are recomputed from the final strategies; memory can only
//! go down (every layout only gains splits), so a memory budget the ILP met still holds.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §4.

use super::memory::peak_memory;
use super::plan::{IntraPlan, ScatteredGradient, WeightUpdateSharding};
use super::plan_cost::{chosen_reshardings, communication_cost, strategy_cost};
use crate::cluster::mesh::DeviceMesh;
use crate::ir::graph::{Graph, OpId, ValueRef};
use crate::ir::op_table::op_rule;
use crate::ir::train_step::{analyze, Phase};
use crate::ir::types::{TensorType, ValueType};
use crate::sharding::reshard::{refines, resharding};
use crate::sharding::spec::ShardingSpec;
use crate::sharding::strategy::{argument_strategy, follow, Strategy, StrategyOptions};

#[cfg(test)]
mod tests;

/// The part of the train step the rewrite may change.
struct Region {
    /// Per op: an optimizer-update op.
    update: Vec<bool>,
    /// Per op: its results must keep their planned layouts (it defines a function result that
    /// is not an optimizer state's new value).
    fixed: Vec<bool>,
    /// Optimizer states: (argument, the value returned for it).
    states: Vec<(usize, ValueRef)>,
}

impl Region {
    fn new(graph: &Graph, plan: &IntraPlan) -> Option<Region> {
        let step = analyze(graph).ok()?;
        let update: Vec<bool> = step.phase.iter().map(|p| *p == Phase::Update).collect();
        let mut read = vec![false; graph.args.len()];
        let mut read_outside_update = vec![false; graph.args.len()];
        for (index, op) in graph.ops().iter().enumerate() {
            for value in &op.operands {
                if let ValueRef::Arg(i) = *value {
                    read[i] = true;
                    read_outside_update[i] |= !update[index];
                }
            }
        }
        let states: Vec<(usize, ValueRef)> = (0..graph.args.len())
            .filter(|&i| read[i] && !read_outside_update[i] && plan.args.get(i).is_some_and(Option::is_some))
            .filter(|&i| graph.args[i].ty.tensor().is_some_and(|t| t.rank() > 0))
            .filter_map(|i| {
                let value = *graph.returned.get(graph.args[i].aliased_output()?)?;
                matches!(value, ValueRef::Op { op, .. } if update[op]).then_some((i, value))
            })
            .collect();
        let state_outputs: Vec<usize> = states.iter().filter_map(|&(i, _)| graph.args[i].aliased_output()).collect();
        let mut fixed = vec![false; graph.ops().len()];
        for (output, value) in graph.returned.iter().enumerate() {
            if let ValueRef::Op { op, .. } = *value {
                fixed[op] |= !state_outputs.contains(&output);
            }
        }
        Some(Region { update, fixed, states })
    }
}

/// A gradient to scatter: its producer and the producer's rewritten strategy.
#[derive(Clone)]
struct Seed {
    op: usize,
    dim: usize,
    strategy: Strategy,
}

/// Single-result ops whose strategy all-reduces a result that only update ops read and that
/// is not returned, with the dim to scatter it onto.
fn find_seeds(graph: &Graph, plan: &IntraPlan, region: &Region, mesh: &DeviceMesh) -> Vec<Seed> {
    let users = graph.body.users();
    let mut out = Vec::new();
    for (index, op) in graph.ops().iter().enumerate() {
        let ([result], [readers]) = (op.results.as_slice(), users[index].as_slice()) else { continue };
        let Some(ty) = result.tensor() else { continue };
        if readers.is_empty()
            || !readers.iter().all(|&(user, _)| region.update[user])
            || graph.returned.contains(&ValueRef::Op { op: index, result: 0 })
        {
            continue;
        }
        let mut dims: Vec<usize> = (0..ty.rank()).collect();
        dims.sort_by_key(|&d| std::cmp::Reverse(ty.shape[d]));
        let strategy = &plan.ops[index];
        if let Some((dim, scattered)) =
            dims.into_iter().find_map(|d| Some((d, strategy.with_reduce_scatter(ty, d, mesh)?)))
        {
            out.push(Seed { op: index, dim, strategy: scattered });
        }
    }
    out
}

/// New strategies for some ops and arguments on top of the plan.
struct Proposal<'a> {
    plan: &'a IntraPlan,
    ops: Vec<Option<Strategy>>,
    args: Vec<Option<Strategy>>,
}

impl<'a> Proposal<'a> {
    fn new(plan: &'a IntraPlan, seeds: &[Seed]) -> Self {
        let mut ops = vec![None; plan.ops.len()];
        for seed in seeds {
            ops[seed.op] = Some(seed.strategy.clone());
        }
        Proposal { plan, ops, args: vec![None; plan.args.len()] }
    }

    fn strategy_of(&self, value: ValueRef) -> Option<&Strategy> {
        match value {
            ValueRef::Arg(i) => self.args.get(i)?.as_ref().or(self.plan.args.get(i)?.as_ref()),
            ValueRef::Op { op, .. } => self.ops.get(op)?.as_ref().or(self.plan.ops.get(op)),
            ValueRef::Outer => None,
        }
    }

    /// The layout `value` has under the proposal.
    fn spec(&self, value: ValueRef) -> Option<&ShardingSpec> {
        let result = match value {
            ValueRef::Op { result, .. } => result,
            _ => 0,
        };
        self.strategy_of(value)?.result_specs.get(result)?.as_ref()
    }

    /// Whether the proposal gives `value` another layout than the plan.
    fn moved(&self, value: ValueRef) -> bool {
        match value {
            ValueRef::Arg(i) => self.args.get(i).is_some_and(Option::is_some),
            ValueRef::Op { op, .. } => self.ops.get(op).is_some_and(Option::is_some),
            ValueRef::Outer => false,
        }
    }
}

/// Whether every result of `new` has the layout of `old`'s or a refinement of it.
fn only_adds_splits(old: &Strategy, new: &Strategy, mesh: &DeviceMesh) -> bool {
    old.result_specs.len() == new.result_specs.len()
        && old.result_specs.iter().zip(&new.result_specs).all(|(a, b)| match (a, b) {
            (Some(a), Some(b)) => refines(a, b, mesh.shape),
            (None, None) => true,
            _ => false,
        })
}

struct Propagation<'g> {
    graph: &'g Graph,
    plan: &'g IntraPlan,
    region: &'g Region,
    fixed: &'g [bool],
    mesh: &'g DeviceMesh,
}

impl<'g> Propagation<'g> {
    /// What `strategy` costs at op `index` given the operand layouts of `proposal`: its own
    /// communication plus the reshardings of its operands.
    fn cost(&self, proposal: &Proposal, index: usize, strategy: &Strategy) -> f64 {
        let mut total = strategy_cost(strategy, self.mesh);
        for (position, value) in self.graph.ops()[index].operands.iter().enumerate() {
            let (Some(from), Some(Some(to)), Some(ty)) = (
                proposal.spec(*value),
                strategy.operand_specs.get(position),
                self.graph.value_type(*value).and_then(ValueType::tensor),
            ) else {
                continue;
            };
            total += resharding(ty, from, to, self.mesh).map_or(f64::INFINITY, |r| r.cost);
        }
        total
    }

    /// The strategy update op `index` takes under `proposal`, if it changes: the cheapest
    /// follower of an operand whose layout moved, when it only adds splits to the op's results
    /// and costs no more than the planned strategy (ties go to the first operand).
    fn follow_moved(&self, proposal: &Proposal, index: usize) -> Option<Strategy> {
        let op = &self.graph.ops()[index];
        let planned = &self.plan.ops[index];
        let operands = self.graph.operand_tensors(index);
        let results: Vec<Option<&TensorType>> = op.results.iter().map(ValueType::tensor).collect();
        let rule = op_rule(op, &operands).ok()?;
        let mut best: Option<(f64, Strategy)> = None;
        for (position, value) in op.operands.iter().enumerate() {
            if !proposal.moved(*value) {
                continue;
            }
            let Some(spec) = proposal.spec(*value) else { continue };
            let candidate = follow(&rule, &operands, &results, position, spec, self.mesh, &StrategyOptions::default());
            if candidate == *planned || !only_adds_splits(planned, &candidate, self.mesh) {
                continue;
            }
            let cost = self.cost(proposal, index, &candidate);
            if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                best = Some((cost, candidate));
            }
        }
        let (cost, strategy) = best?;
        (cost <= self.cost(proposal, index, planned)).then_some(strategy)
    }

    /// Steps 2 and 3 of the module docs, to a fixed point.
    fn run(&self, seeds: &[Seed]) -> Proposal<'g> {
        let mut proposal = Proposal::new(self.plan, seeds);
        loop {
            let mut changed = false;
            for index in 0..self.graph.ops().len() {
                if !self.region.update[index] || self.fixed[index] || proposal.ops[index].is_some() {
                    continue;
                }
                if let Some(strategy) = self.follow_moved(&proposal, index) {
                    proposal.ops[index] = Some(strategy);
                    changed = true;
                }
            }
            for &(arg, value) in &self.region.states {
                if proposal.args[arg].is_some() || !proposal.moved(value) {
                    continue;
                }
                let (Some(new), Some(Some(old)), Some(ty)) = (
                    proposal.spec(value),
                    self.plan.args[arg].as_ref().map(|s| s.result_specs.first().cloned().flatten()),
                    self.graph.args[arg].ty.tensor(),
                ) else {
                    continue;
                };
                if refines(&old, new, self.mesh.shape) {
                    proposal.args[arg] = Some(argument_strategy(ty, new.clone(), self.mesh));
                    changed = true;
                }
            }
            if !changed {
                return proposal;
            }
        }
    }
}

/// What keeps a proposal from being applied as it is.
enum Defect {
    /// An optimizer state's new value got a layout its argument cannot take: the op defining
    /// the value keeps its planned strategy.
    Alias { op: usize },
    /// No reader of this seed's gradient changed strategy: scattering it only adds latency.
    Useless { seed: usize },
}

fn defect(graph: &Graph, region: &Region, seeds: &[Seed], proposal: &Proposal, mesh: &DeviceMesh) -> Option<Defect> {
    for &(arg, value) in &region.states {
        // Only what the proposal changed: a mismatch the ILP's plan had is not this rewrite's.
        if !proposal.moved(value) && !proposal.moved(ValueRef::Arg(arg)) {
            continue;
        }
        let normal = |s: Option<&ShardingSpec>| s.map(|s| s.normalized(mesh.shape));
        if normal(proposal.spec(ValueRef::Arg(arg))) != normal(proposal.spec(value)) {
            if let ValueRef::Op { op, .. } = value {
                return Some(Defect::Alias { op });
            }
        }
    }
    let users = graph.body.users();
    seeds
        .iter()
        .position(|seed| !users[seed.op].iter().flatten().any(|&(user, _)| proposal.ops[user].is_some()))
        .map(|seed| Defect::Useless { seed })
}

/// Applies the rewrite of the module docs to `plan`; returns it unchanged where the graph is
/// not a train step or no gradient can be scattered usefully.
pub fn shard_weight_update(graph: &Graph, plan: IntraPlan, mesh: &DeviceMesh) -> IntraPlan {
    let Some(region) = Region::new(graph, &plan) else { return plan };
    let mut seeds = find_seeds(graph, &plan, &region, mesh);
    let mut fixed = region.fixed.clone();
    let (ops, args) = loop {
        if seeds.is_empty() {
            return plan;
        }
        let propagation = Propagation { graph, plan: &plan, region: &region, fixed: &fixed, mesh };
        let proposal = propagation.run(&seeds);
        match defect(graph, &region, &seeds, &proposal, mesh) {
            // Pinning an op that is pinned already cannot help (it cannot happen: a pinned
            // op keeps its layout, so its state argument keeps the matching one).
            Some(Defect::Alias { op }) if fixed[op] => return plan,
            Some(Defect::Alias { op }) => fixed[op] = true,
            Some(Defect::Useless { seed }) => {
                seeds.remove(seed);
            }
            None => break (proposal.ops, proposal.args),
        }
    };
    apply(graph, plan, &seeds, ops, args, mesh)
}

/// The plan with the new strategies, its reshardings, costs and memory recomputed.
fn apply(
    graph: &Graph,
    plan: IntraPlan,
    seeds: &[Seed],
    ops: Vec<Option<Strategy>>,
    args: Vec<Option<Strategy>>,
    mesh: &DeviceMesh,
) -> IntraPlan {
    let seeded: Vec<usize> = seeds.iter().map(|s| s.op).collect();
    let summary = WeightUpdateSharding {
        gradients: seeds
            .iter()
            .map(|s| ScatteredGradient {
                op: OpId::new(s.op),
                dim: s.dim,
                spec: s.strategy.result_specs[0].clone().expect("a seed scatters a tensor result"),
            })
            .collect(),
        update_ops: (0..ops.len()).filter(|i| ops[*i].is_some() && !seeded.contains(i)).map(OpId::new).collect(),
        optimizer_states: (0..args.len()).filter(|&i| args[i].is_some()).collect(),
    };
    let before = plan.communication_cost + plan.resharding_cost;
    let mut new = plan;
    for (slot, strategy) in new.ops.iter_mut().zip(ops) {
        if let Some(strategy) = strategy {
            *slot = strategy;
        }
    }
    for (slot, strategy) in new.args.iter_mut().zip(args) {
        if strategy.is_some() {
            *slot = strategy;
        }
    }
    let (reshardings, moves, resharding_cost) = chosen_reshardings(graph, &new.args, &new.ops, mesh);
    new.reshardings = reshardings;
    new.moves = moves;
    new.resharding_cost = resharding_cost;
    new.communication_cost = communication_cost(&new.args, &new.ops, mesh);
    new.objective = new.communication_cost + new.resharding_cost;
    new.ilp_objective += new.objective - before;
    new.peak_memory_bytes = peak_memory(graph, &new);
    new.weight_update = summary;
    new
}
