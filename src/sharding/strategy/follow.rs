//! Follower strategies: the strategy of a computationally trivial op merged into the operand it
//! follows (paper §4.2), given the layout that operand arrives in.

use crate::cluster::DeviceMesh;
use crate::ir::op_table::OpRule;
use crate::ir::types::TensorType;
use crate::sharding::reshard::resharding;
use crate::sharding::spec::ShardingSpec;

use super::assign::OpView;
use super::enumerate::replicated_strategy;
use super::{Strategy, StrategyOptions};

/// The strategy of the op whose operand `followed_operand` arrives as `leader_spec`.
///
/// Each dim's mesh axes (major first) are mapped back onto the dim's factors, major first: an
/// axis goes to the current factor while it divides what is left of it, and moves on to the
/// next factor only once the current one is split completely. An axis that cannot be placed
/// (a need-replication factor, a split that does not divide, a reshape merge that would not be
/// contiguous in the result) is dropped together with the more minor axes of its dim: that
/// part is replicated, the strategy's operand spec then differs from `leader_spec`, and the
/// caller charges the resharding. When the mapping as a whole is not valid, the largest valid
/// subsets of it are tried and the one with the least resharding from `leader_spec` plus
/// communication wins (ties: the first, axis 0 kept before axis 1).
///
/// The result specs and collectives follow as for any strategy (a reduce over a sharded dim
/// all-reduces its result). An op the table does not know, an operand that is not a ranked
/// tensor, or a spec of the wrong rank gives the all-replicated strategy. `options` are not
/// consulted: a follower takes its layout from its leader.
pub fn follow(
    rule: &OpRule,
    operands: &[Option<&TensorType>],
    results: &[Option<&TensorType>],
    followed_operand: usize,
    leader_spec: &ShardingSpec,
    mesh: &DeviceMesh,
    options: &StrategyOptions,
) -> Strategy {
    let _ = options;
    let view = OpView { rule, operands, results, mesh };
    let fallback = || replicated_strategy(rule, operands, results);
    let Some(Some(ty)) = operands.get(followed_operand) else {
        return fallback();
    };
    if !rule.known || !view.consistent() || leader_spec.rank() != ty.rank() {
        return fallback();
    }
    let leader = leader_spec.normalized(mesh.shape);
    let pairs = map_axes(rule, &rule.operand_dims[followed_operand], &leader, mesh.shape);

    // The whole mapping, else its largest valid subsets (by size, then cost).
    for keep in (0..=pairs.len()).rev() {
        let mut best: Option<(f64, Strategy)> = None;
        for subset in subsets(pairs.len(), keep) {
            let mut factor_axes = vec![Vec::new(); rule.factors.len()];
            for &i in &subset {
                let (f, a) = pairs[i];
                factor_axes[f].push(a);
            }
            let Some(s) = view.strategy(factor_axes) else {
                continue;
            };
            let reshard = match &s.operand_specs[followed_operand] {
                Some(spec) => resharding(ty, leader_spec, spec, mesh).map_or(f64::INFINITY, |r| r.cost),
                None => f64::INFINITY,
            };
            let total = reshard + s.communication_cost;
            if best.as_ref().is_none_or(|(c, _)| total < *c) {
                best = Some((total, s));
            }
        }
        if let Some((_, s)) = best {
            return s;
        }
    }
    fallback()
}

/// `(factor, mesh axis)` pairs placing `spec`'s axes on the factors of each dim (see
/// [`follow`]), major first within a dim.
fn map_axes(rule: &OpRule, dims: &[Vec<usize>], spec: &ShardingSpec, mesh_shape: [usize; 2]) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for (factors, dim) in dims.iter().zip(spec.dims()) {
        let size = |j: usize| factors.get(j).and_then(|&f| rule.factors.get(f)).map(|f| f.size);
        let mut j = 0;
        let mut left = size(0).unwrap_or(1);
        for &axis in dim.mesh_axes() {
            let n = mesh_shape[axis] as i64;
            let Some(&f) = factors.get(j) else { break };
            if rule.factors[f].kind.needs_whole_dimension() || n < 1 || left % n != 0 {
                break;
            }
            pairs.push((f, axis));
            left /= n;
            if left == 1 {
                j += 1;
                left = size(j).unwrap_or(1);
            }
        }
    }
    pairs
}

/// The `k`-element subsets of `0..n`, in lexicographic order.
fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current = Vec::new();
    fn rec(start: usize, n: usize, k: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if current.len() == k {
            out.push(current.clone());
            return;
        }
        for i in start..n {
            current.push(i);
            rec(i + 1, n, k, current, out);
            current.pop();
        }
    }
    rec(0, n, k, &mut current, &mut out);
    out
}
