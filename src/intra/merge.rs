//! Merging computationally trivial ops into an operand (paper §4.2).
//!
//! A trivial op (elementwise, transpose, reshape, reduce, broadcast, ...) does not get its own
//! ILP variable: it follows one operand and takes its sharding from it. It follows the operand
//! of greatest depth: the longest path from the function arguments, where layout-only ops
//! (broadcast, reshape, transpose, convert) add nothing, so that `add(broadcast(bias), dot)`
//! follows the matmul and not the parameter. Ties go to the operand with the larger source
//! (a broadcast counts as what it broadcasts: following a broadcast scalar would force the op
//! to be replicated), then to the first.

use crate::ir::graph::{Block, OpNode, ValueRef};
use crate::ir::op_table::{canonical_name, elementwise_info, is_layout_only};

/// What an op is in the ILP: its own variable, or a follower of operand `operand`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Leader,
    Follower { operand: usize },
}

/// Ops cheap enough that where they run does not matter, only what sharding they pass on.
pub fn is_trivial(op: &OpNode) -> bool {
    let name = canonical_name(&op.name);
    if elementwise_info(&name).is_some() {
        return true;
    }
    matches!(
        name.as_str(),
        "broadcast_in_dim"
            | "broadcast"
            | "reshape"
            | "transpose"
            | "reduce"
            | "reverse"
            | "slice"
            | "pad"
            | "concatenate"
            | "reduce_window"
            | "optimization_barrier"
    )
}

/// Longest distance of each op from the block's arguments, counting every op but layout-only
/// ones (arguments are at depth 0).
pub fn depths(block: &Block) -> Vec<usize> {
    let mut depth = vec![0usize; block.ops.len()];
    for (index, op) in block.ops.iter().enumerate() {
        let deepest = op
            .operands
            .iter()
            .map(|v| match v {
                ValueRef::Op { op, .. } => depth[*op],
                ValueRef::Arg(_) | ValueRef::Outer => 0,
            })
            .max()
            .unwrap_or(0);
        depth[index] = deepest + usize::from(!is_layout_only(op));
    }
    depth
}

/// The role of every op: trivial ops follow their deepest operand among those `can_follow`
/// accepts (tensor operands whose producer has a sharding); everything else leads.
pub fn roles(block: &Block, can_follow: impl Fn(usize, usize) -> bool) -> Vec<Role> {
    let source_bytes = |index: usize, position: usize| {
        let mut value = block.ops[index].operands[position];
        if let ValueRef::Op { op, .. } = value {
            let producer = &block.ops[op];
            if matches!(canonical_name(&producer.name).as_str(), "broadcast_in_dim" | "broadcast") {
                value = producer.operands.first().copied().unwrap_or(value);
            }
        }
        block.value_type(value).map_or(0, |t| t.byte_size())
    };
    let depth = depths(block);
    block
        .ops
        .iter()
        .enumerate()
        .map(|(index, op)| {
            if !is_trivial(op) {
                return Role::Leader;
            }
            let operand_depth = |v: &ValueRef| match v {
                ValueRef::Op { op, .. } => depth[*op],
                _ => 0,
            };
            let mut best: Option<(usize, (usize, u64))> = None;
            for (position, value) in op.operands.iter().enumerate() {
                if !can_follow(index, position) {
                    continue;
                }
                let key = (operand_depth(value), source_bytes(index, position));
                if best.is_none_or(|(_, best_key)| key > best_key) {
                    best = Some((position, key));
                }
            }
            best.map_or(Role::Leader, |(operand, _)| Role::Follower { operand })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::graph::{Attrs, OpNode};

    fn op(name: &str, operands: Vec<ValueRef>) -> OpNode {
        OpNode {
            name: name.into(),
            location: String::new(),
            operands,
            results: vec![],
            attrs: Attrs::new(),
            regions: vec![],
        }
    }

    fn result(op: usize) -> ValueRef {
        ValueRef::Op { op, result: 0 }
    }

    #[test]
    fn trivial_ops_follow_their_deepest_operand() {
        // %0 = dot(a0, a1); %1 = broadcast(a2); %2 = add(%1, %0); %3 = exp(%2); %4 = dot(%3, a1)
        let block = Block {
            args: vec![],
            ops: vec![
                op("stablehlo.dot_general", vec![ValueRef::Arg(0), ValueRef::Arg(1)]),
                op("stablehlo.broadcast_in_dim", vec![ValueRef::Arg(2)]),
                op("stablehlo.add", vec![result(1), result(0)]),
                op("stablehlo.exponential", vec![result(2)]),
                op("stablehlo.dot_general", vec![result(3), ValueRef::Arg(1)]),
            ],
            terminator: None,
        };
        assert_eq!(depths(&block), vec![1, 0, 2, 3, 4]);
        let roles = roles(&block, |_, _| true);
        assert_eq!(
            roles,
            vec![
                Role::Leader,
                Role::Follower { operand: 0 },
                // the bias broadcast adds no depth: the add follows the matmul
                Role::Follower { operand: 1 },
                Role::Follower { operand: 0 },
                Role::Leader,
            ]
        );
    }

    #[test]
    fn ties_avoid_following_a_broadcast_scalar() {
        use crate::ir::types::{ElementType, TensorType, ValueType};
        let matrix = ValueType::Tensor(TensorType::new(vec![256, 256], ElementType::f32()));
        let scalar = ValueType::Tensor(TensorType::new(vec![], ElementType::f32()));
        // Adam's moment update: multiply(broadcast(beta1), m) must follow m, not the scalar.
        let mut broadcast = op("stablehlo.broadcast_in_dim", vec![ValueRef::Arg(1)]);
        broadcast.results = vec![matrix.clone()];
        let block = Block {
            args: vec![matrix, scalar],
            ops: vec![broadcast, op("stablehlo.multiply", vec![result(0), ValueRef::Arg(0)])],
            terminator: None,
        };
        assert_eq!(roles(&block, |_, _| true)[1], Role::Follower { operand: 1 });
    }

    #[test]
    fn a_trivial_op_with_nothing_to_follow_leads() {
        let block = Block {
            args: vec![],
            ops: vec![op("stablehlo.negate", vec![ValueRef::Arg(0)]), op("stablehlo.constant", vec![])],
            terminator: None,
        };
        assert_eq!(roles(&block, |_, _| false), vec![Role::Leader, Role::Leader]);
        assert!(!is_trivial(&block.ops[1]));
        assert!(crate::ir::op_table::is_heavy(&op("stablehlo.convolution", vec![])));
    }
}
