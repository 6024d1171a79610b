//! What a plan costs: each chosen strategy's communication (with Alpa's all-reduce tie-break)
//! and the reshardings between producers and consumers, priced along each value's move tree.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §4.

use super::plan::{producer_of, ChosenResharding, Producer, SharedMove};
use super::shared_moves::{MoveTree, TreeCache};
use crate::cluster::collective::Collective;
use crate::cluster::mesh::DeviceMesh;
use crate::ir::graph::{Graph, OpId};
use crate::ir::types::ValueType;
use crate::sharding::spec::ShardingSpec;
use crate::sharding::strategy::Strategy;
use std::collections::BTreeMap;

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
            Producer::Op(i) => ops.get(i.index())?,
        };
        strategy.result_specs.get(result)?.as_ref()
    };
    let mut trees = TreeCache::default();
    let mut reshardings = Vec::new();
    // Per value, per tree node with a collective: the operands whose chain runs it.
    let mut used: BTreeMap<(Producer, usize), (std::rc::Rc<MoveTree>, BTreeMap<usize, Vec<(OpId, usize)>>)> =
        BTreeMap::new();
    for (index, (op, strategy)) in graph.ops().iter().zip(ops).enumerate() {
        for (position, value) in op.operands.iter().enumerate() {
            let Some((producer, result)) = producer_of(*value) else { continue };
            let (Some(from), Some(Some(to)), Some(ty)) = (
                produced(producer, result),
                strategy.operand_specs.get(position),
                graph.value_type(*value).and_then(ValueType::tensor),
            ) else {
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
                nodes.entry(n).or_default().push((OpId::new(index), position));
            }
            reshardings.push(ChosenResharding {
                producer,
                op: OpId::new(index),
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
