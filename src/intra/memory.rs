//! The per-device memory model of the intra-op ILP (the usage constraint of Eq. 1 as
//! `strategy_problem.rs` builds it), so that a plan changed after the solve (a post-ILP rewrite) is
//! measured exactly as the solver measured it.
//!
//! Every ILP node (an argument, a leader op together with the trivial ops merged into it) holds
//! the result tiles of its members for the union of their live ranges; a value is live from
//! the op that defines it (arguments: from the start) to its last use (returned values: to the
//! end). The peak is the largest sum over the nodes live at one point.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §4.

use super::merge::Role;
use super::plan::{producer_of, IntraPlan, Producer};
use super::problem::{Node, StrategyProblem};
use crate::ir::graph::{Graph, OpId, ValueRef};
use std::collections::BTreeMap;

/// Position of each op in program order (arguments at 0) and the last position each value is
/// used at (returned values live to the end), for the arguments `has_node` accepts and every op.
pub(crate) fn live_intervals(graph: &Graph, has_node: impl Fn(usize) -> bool) -> BTreeMap<Producer, (u64, u64)> {
    let end = graph.ops().len() as u64 + 1;
    let mut intervals: BTreeMap<Producer, (u64, u64)> = BTreeMap::new();
    for i in (0..graph.args.len()).filter(|&i| has_node(i)) {
        intervals.insert(Producer::Arg(i), (0, 1));
    }
    for index in 0..graph.ops().len() {
        intervals.insert(Producer::Op(OpId::new(index)), (index as u64 + 1, index as u64 + 2));
    }
    let mut extend = |value: ValueRef, position: u64| {
        if let Some((producer, _)) = producer_of(value) {
            if let Some(interval) = intervals.get_mut(&producer) {
                interval.1 = interval.1.max(position + 1);
            }
        }
    };
    for (index, op) in graph.ops().iter().enumerate() {
        for value in &op.operands {
            extend(*value, index as u64 + 1);
        }
    }
    for value in &graph.returned {
        extend(*value, end);
    }
    intervals
}

/// The ILP's peak per-device memory of `plan`'s strategies: the groups follow from the plan's
/// roles (a follower shares the node of the producer of the operand it follows).
pub fn peak_memory(graph: &Graph, plan: &IntraPlan) -> f64 {
    let live = live_intervals(graph, |i| plan.args.get(i).is_some_and(Option::is_some));
    let mut nodes: Vec<Node> = Vec::new();
    let mut join = |group: Option<usize>, bytes: u64, interval: (u64, u64)| -> usize {
        match group {
            Some(g) => {
                let node = &mut nodes[g];
                if let Some(u) = node.usages.as_mut() {
                    u[0] += bytes as f64;
                }
                node.interval = node.interval.map(|(a, b)| (a.min(interval.0), b.max(interval.1)));
                g
            }
            None => {
                nodes.push(Node { costs: vec![0.0], usages: Some(vec![bytes as f64]), interval: Some(interval) });
                nodes.len() - 1
            }
        }
    };
    let mut arg_group: Vec<Option<usize>> = vec![None; graph.args.len()];
    for (i, strategy) in plan.args.iter().enumerate() {
        if let (Some(s), Some(&interval)) = (strategy, live.get(&Producer::Arg(i))) {
            arg_group[i] = Some(join(None, s.result_bytes_per_device, interval));
        }
    }
    let mut op_group: Vec<usize> = Vec::with_capacity(plan.ops.len());
    for (index, (op, strategy)) in graph.ops().iter().zip(&plan.ops).enumerate() {
        let leader = match plan.roles.get(index) {
            Some(Role::Follower { operand }) => op.operands.get(*operand).and_then(|v| match producer_of(*v)? {
                (Producer::Arg(i), _) => arg_group.get(i).copied().flatten(),
                (Producer::Op(o), _) => op_group.get(o.index()).copied(),
            }),
            _ => None,
        };
        let interval = live.get(&Producer::Op(OpId::new(index))).copied().unwrap_or((0, 0));
        op_group.push(join(leader, strategy.result_bytes_per_device, interval));
    }
    let choice = vec![0; nodes.len()];
    StrategyProblem { nodes, edges: Vec::new(), aliases: Vec::new(), usage_limit: None }.peak_memory(&choice)
}
