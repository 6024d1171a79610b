//! Values computed from nothing but constants (a broadcast zero, an iota-built causal mask):
//! the same wherever they are computed. A scan's loop-invariant values are of this kind, and
//! once the scan is unrolled every copy of its body reads the one value computed before the
//! loop; so the stage slicing recomputes such a value in each function that reads it instead of
//! handing it over, and the train-step analysis does not place a layer's ops by it.

use super::graph::{Block, Graph, OpNode, ValueRef};

/// Ops whose results differ between calls or devices although they read no value, or that have
/// effects: never constant.
pub(crate) const NOT_CONSTANT: &[&str] = &[
    "stablehlo.rng",
    "stablehlo.rng_bit_generator",
    "stablehlo.custom_call",
    "stablehlo.partition_id",
    "stablehlo.replica_id",
    "stablehlo.infeed",
    "stablehlo.outfeed",
    "stablehlo.send",
    "stablehlo.recv",
    "stablehlo.create_token",
    "stablehlo.after_all",
    "stablehlo.all_reduce",
    "stablehlo.all_gather",
    "stablehlo.all_to_all",
    "stablehlo.reduce_scatter",
    "stablehlo.collective_permute",
    "stablehlo.collective_broadcast",
    "stablehlo.optimization_barrier",
];

/// Per op of the entry body: whether its results are computed from constants only (no
/// argument, no captured value, no op of [`NOT_CONSTANT`] on the way, nested regions included).
pub fn constant_ops(graph: &Graph) -> Vec<bool> {
    let mut constant = Vec::with_capacity(graph.ops().len());
    for op in graph.ops() {
        let operands_constant = op.operands.iter().all(|v| match *v {
            ValueRef::Op { op, .. } => constant.get(op).copied().unwrap_or(false),
            ValueRef::Arg(_) | ValueRef::Outer => false,
        });
        constant.push(operands_constant && pure_without_captures(op));
    }
    constant
}

fn pure_without_captures(op: &OpNode) -> bool {
    !NOT_CONSTANT.contains(&op.name.as_str())
        && op.regions.iter().flat_map(|r| &r.blocks).all(block_is_pure_without_captures)
}

fn block_is_pure_without_captures(block: &Block) -> bool {
    let no_capture = |op: &OpNode| op.operands.iter().all(|v| !matches!(v, ValueRef::Outer));
    block.ops.iter().all(|op| no_capture(op) && pure_without_captures(op))
        && block.terminator.as_ref().is_none_or(no_capture)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::graph::{Attrs, Param};
    use crate::ir::types::{ElementType, TensorType, ValueType};

    fn t() -> ValueType {
        ValueType::Tensor(TensorType::new(vec![4], ElementType::f32()))
    }

    fn op(name: &str, operands: Vec<ValueRef>) -> OpNode {
        OpNode {
            name: name.into(),
            location: String::new(),
            operands,
            results: vec![t()],
            attrs: Attrs::new(),
            regions: vec![],
        }
    }

    fn v(op: usize) -> ValueRef {
        ValueRef::Op { op, result: 0 }
    }

    #[test]
    fn only_values_of_constants_are_constant() {
        let ops = vec![
            op("stablehlo.constant", vec![]),                       // 0 constant
            op("stablehlo.iota", vec![]),                           // 1 constant
            op("stablehlo.add", vec![v(0), v(1)]),                  // 2 constant
            op("stablehlo.multiply", vec![v(2), ValueRef::Arg(0)]), // 3 reads an argument
            op("stablehlo.negate", vec![v(3)]),                     // 4 reads a non-constant
            op("stablehlo.rng", vec![v(0), v(1), v(2)]),            // 5 random
            op("stablehlo.abs", vec![v(5)]),                        // 6 reads a random value
            op("stablehlo.partition_id", vec![]),                   // 7 differs per device
            op("stablehlo.abs", vec![ValueRef::Outer]),             // 8 a capture
        ];
        let graph = Graph {
            func_name: "main".into(),
            args: vec![Param { ty: t(), attrs: Attrs::new() }],
            results: vec![],
            body: Block { args: vec![t()], ops, terminator: None },
            returned: vec![],
        };
        assert_eq!(constant_ops(&graph), [true, true, true, false, false, false, false, false, false]);
    }
}
