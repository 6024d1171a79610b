//! Every strategy of an op (one generic routine over its factors), of a function argument, and
//! the all-replicated fallback.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §4.

use std::collections::HashSet;

use crate::cluster::DeviceMesh;
use crate::ir::op_table::{FactorKind, OpRule};
use crate::ir::types::TensorType;
use crate::sharding::reshard::tile_bytes;
use crate::sharding::spec::ShardingSpec;

use super::assign::{strategy_name, OpView};
use super::{Strategy, StrategyOptions};

/// The strategies of an op whose rule is `rule` (from `op_rule` on these operand types; results
/// from the op), in a deterministic order: assignments of mesh axis 0 (none, then each factor in
/// id order) major, of mesh axis 1 minor, `S01` before `S10`. Assignments that give the same
/// specs are listed once.
///
/// `heavy` marks compute-heavy ops (dot_general, convolution) for
/// [`StrategyOptions::heavy_op_uses_all_devices`]. An op the table does not know (or whose rule
/// does not fit the given types) gets exactly one strategy: everything replicated.
pub fn op_strategies(
    rule: &OpRule,
    operands: &[Option<&TensorType>],
    results: &[Option<&TensorType>],
    heavy: bool,
    mesh: &DeviceMesh,
    options: &StrategyOptions,
) -> Vec<Strategy> {
    let view = OpView { rule, operands, results, mesh };
    if !rule.known || !view.consistent() {
        return vec![replicated_strategy(rule, operands, results)];
    }
    let mut seen = HashSet::new();
    let mut strategies: Vec<Strategy> = assignments(rule, mesh)
        .into_iter()
        .filter_map(|fa| view.strategy(fa))
        .filter(|s| seen.insert((s.operand_specs.clone(), s.result_specs.clone(), s.collectives.clone())))
        .collect();
    if strategies.is_empty() {
        // Cannot happen for a consistent rule (the empty assignment is valid); stay total anyway.
        return vec![replicated_strategy(rule, operands, results)];
    }
    if let Some(axis) = options.force_batch_dim_to_mesh_dim {
        strategies = force_batch_axis(rule, strategies, axis, mesh.shape);
    }
    if heavy && options.heavy_op_uses_all_devices {
        strategies = keep_most_parallel(strategies, options.allow_replicated, mesh.shape);
    }
    strategies
}

/// Every candidate assignment: each mesh axis of size > 1 to no factor or to one factor that
/// may be sharded (not need-replication) and whose size the axis divides.
fn assignments(rule: &OpRule, mesh: &DeviceMesh) -> Vec<Vec<Vec<usize>>> {
    let choices = |axis: usize| -> Vec<Option<usize>> {
        let n = mesh.shape[axis];
        let mut out = vec![None];
        if n > 1 {
            out.extend(
                (0..rule.factors.len())
                    .filter(|&f| {
                        let factor = rule.factors[f];
                        !factor.kind.needs_whole_dimension() && factor.size % n as i64 == 0
                    })
                    .map(Some),
            );
        }
        out
    };
    let empty = vec![Vec::new(); rule.factors.len()];
    let mut out = Vec::new();
    for c0 in choices(0) {
        for c1 in choices(1) {
            let mut fa = empty.clone();
            match (c0, c1) {
                (Some(f), Some(g)) if f == g => {
                    fa[f] = vec![0, 1];
                    out.push(fa.clone());
                    fa[f] = vec![1, 0];
                }
                _ => {
                    if let Some(f) = c0 {
                        fa[f].push(0);
                    }
                    if let Some(g) = c1 {
                        fa[g].push(1);
                    }
                }
            }
            out.push(fa);
        }
    }
    out
}

/// The factor that leads dim 0 of both operand 0 and result 0 (a batch-like dim), if any.
fn batch_factor(rule: &OpRule) -> Option<usize> {
    let lhs = *rule.operand_dims.first()?.first()?.first()?;
    let out = *rule.result_dims.first()?.first()?.first()?;
    (lhs == out && rule.factors.get(lhs)?.kind == FactorKind::PassThrough).then_some(lhs)
}

fn force_batch_axis(rule: &OpRule, strategies: Vec<Strategy>, axis: usize, mesh_shape: [usize; 2]) -> Vec<Strategy> {
    let Some(f) = batch_factor(rule) else {
        return strategies;
    };
    if axis > 1 || mesh_shape[axis] <= 1 {
        return strategies;
    }
    let kept: Vec<Strategy> = strategies.iter().filter(|s| s.factor_axes[f] == [axis]).cloned().collect();
    if kept.is_empty() {
        strategies
    } else {
        kept
    }
}

/// Heavy ops: the strategies that use the most devices (all of them when the shapes allow),
/// plus the replicated one when `allow_replicated`.
fn keep_most_parallel(strategies: Vec<Strategy>, allow_replicated: bool, mesh_shape: [usize; 2]) -> Vec<Strategy> {
    let most = strategies.iter().map(|s| s.parallelism(mesh_shape)).max().unwrap_or(1);
    strategies
        .into_iter()
        .filter(|s| {
            let p = s.parallelism(mesh_shape);
            p == most || (allow_replicated && p == 1)
        })
        .collect()
}

/// Everything replicated, no communication: the one strategy of an op the table does not know.
pub fn replicated_strategy(
    rule: &OpRule,
    operands: &[Option<&TensorType>],
    results: &[Option<&TensorType>],
) -> Strategy {
    let replicated = |types: &[Option<&TensorType>]| -> Vec<Option<ShardingSpec>> {
        types.iter().map(|t| t.map(|t| ShardingSpec::replicated(t.rank()))).collect()
    };
    let operand_specs = replicated(operands);
    let result_specs = replicated(results);
    let result_bytes_per_device = results.iter().flatten().map(|t| t.byte_size()).fold(0u64, u64::saturating_add);
    Strategy {
        name: strategy_name(&operand_specs, &result_specs, &[]),
        factor_axes: vec![Vec::new(); rule.factors.len()],
        operand_specs,
        result_specs,
        collectives: Vec::new(),
        communication_cost: 0.0,
        result_bytes_per_device,
    }
}

/// The layouts a function argument of type `ty` may take: every spec whose splits divide its
/// dims, at no cost (`factor_axes` has one entry per dim). Replication is offered only when
/// `allow_replicated` or when nothing else divides.
pub fn argument_strategies(ty: &TensorType, mesh: &DeviceMesh, allow_replicated: bool) -> Vec<Strategy> {
    let divisible: Vec<ShardingSpec> = ShardingSpec::enumerate(ty.rank(), mesh.shape)
        .into_iter()
        .filter(|s| s.check_shape(&ty.shape, mesh.shape).is_ok())
        .collect();
    let sharded = divisible.iter().filter(|s| !s.is_replicated(mesh.shape)).count();
    divisible
        .into_iter()
        .filter(|s| allow_replicated || sharded == 0 || !s.is_replicated(mesh.shape))
        .map(|spec| argument_strategy(ty, spec, mesh))
        .collect()
}

/// A function argument of type `ty` laid out as `spec` (free: it arrives that way).
pub fn argument_strategy(ty: &TensorType, spec: ShardingSpec, mesh: &DeviceMesh) -> Strategy {
    Strategy {
        name: spec.to_string(),
        factor_axes: spec.dims().iter().map(|d| d.mesh_axes().to_vec()).collect(),
        result_bytes_per_device: tile_bytes(&ty.shape, ty.element.bits(), &spec, mesh.shape),
        operand_specs: Vec::new(),
        result_specs: vec![Some(spec)],
        collectives: Vec::new(),
        communication_cost: 0.0,
    }
}
