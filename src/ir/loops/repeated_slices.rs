//! Slices read twice: an unrolled scan reads row k of a stacked weight once in its forward copy
//! and again in its backward copy, as two equal static `slice`s of the same argument. Read as
//! one value, the backward ops of layer k meet the forward row of layer k (as with an unrolled
//! model's own weight of that layer), not the whole stack, which every layer reads.

use crate::ir::graph::{Block, ValueRef};
use std::collections::HashMap;

/// Pairs (later slice, first equal slice) of `block`: `stablehlo.slice` ops of the same operand
/// with the same start, limit and strides, each later one paired with the first in program
/// order (which it can be replaced by: the first comes before it in the same block).
pub fn repeated_slices(block: &Block) -> Vec<(usize, usize)> {
    let mut first: HashMap<(ValueRef, Vec<i64>, Vec<i64>, Vec<i64>), usize> = HashMap::new();
    let mut pairs = Vec::new();
    for (index, op) in block.ops.iter().enumerate() {
        if op.name != "stablehlo.slice" || op.operands.len() != 1 || matches!(op.operands[0], ValueRef::Outer) {
            continue;
        }
        let Some((start, limit, strides)) = op.slice_indices() else { continue };
        match first.entry((op.operands[0], start, limit, strides)) {
            std::collections::hash_map::Entry::Occupied(e) => pairs.push((index, *e.get())),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(index);
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::graph::{Attr, Attrs, OpNode};
    use crate::ir::types::{ElementType, TensorType, ValueType};

    fn slice(operand: ValueRef, start: i64) -> OpNode {
        let mut attrs = Attrs::new();
        attrs.insert("start_indices".into(), Attr::I64Array(vec![start, 0]));
        attrs.insert("limit_indices".into(), Attr::I64Array(vec![start + 1, 4]));
        attrs.insert("strides".into(), Attr::I64Array(vec![1, 1]));
        let row = ValueType::Tensor(TensorType::new(vec![1, 4], ElementType::f32()));
        OpNode {
            name: "stablehlo.slice".into(),
            location: String::new(),
            operands: vec![operand],
            results: vec![row],
            attrs,
            regions: vec![],
        }
    }

    #[test]
    fn equal_slices_of_one_value_are_one() {
        let stack = ValueType::Tensor(TensorType::new(vec![2, 4], ElementType::f32()));
        let block = Block {
            args: vec![stack.clone(), stack],
            ops: vec![
                slice(ValueRef::Arg(0), 0), // 0: row 0 (forward)
                slice(ValueRef::Arg(0), 1), // 1: row 1 (forward)
                slice(ValueRef::Arg(1), 1), // 2: row 1 of another stack
                slice(ValueRef::Arg(0), 1), // 3: row 1 again (backward)
                slice(ValueRef::Arg(0), 0), // 4: row 0 again (backward)
                slice(ValueRef::Outer, 0),  // 5: a capture is never merged
                slice(ValueRef::Outer, 0),
            ],
            terminator: None,
        };
        assert_eq!(repeated_slices(&block), vec![(3, 1), (4, 0)]);
    }
}
