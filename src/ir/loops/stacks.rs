//! Stacks written row by row: after a scan is unrolled, its stacked outputs (`ys`: the
//! residuals a backward scan reads, the stacked gradients) are chains of `dynamic_update_slice`s
//! at constant rows. A chain that writes every row of its stack exactly once is the
//! concatenation of its rows, and a static `slice` of one row of it is that row: rewritten so,
//! layer k's values flow to their readers without passing through every other layer (which would
//! tie all layers into one pipeline stage).

use super::value_of;
use crate::ir::graph::{Block, ValueRef};
use crate::ir::types::TensorType;

/// A stack built by a chain of row writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stack {
    /// The chain's `dynamic_update_slice` ops, in order; the last one's result is the stack.
    pub writes: Vec<usize>,
    /// The row written at each index 0..n (an update of shape `[1, ...]`).
    pub rows: Vec<ValueRef>,
}

/// A static `slice` of one row of a stack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowRead {
    pub slice: usize,
    pub stack: usize,
    pub row: usize,
}

fn tensor(block: &Block, v: ValueRef) -> Option<&TensorType> {
    block.value_type(v)?.tensor()
}

/// The row a `dynamic_update_slice` writes: constant start `[k, 0, ...]`, update `[1, rest]`.
fn row_write(block: &Block, op: usize) -> Option<(usize, ValueRef)> {
    let node = &block.ops[op];
    if node.name != "stablehlo.dynamic_update_slice" || node.operands.len() < 3 {
        return None;
    }
    let stack = tensor(block, node.operands[0])?;
    let update = tensor(block, node.operands[1])?;
    if stack.rank() == 0
        || update.rank() != stack.rank()
        || update.shape[0] != 1
        || update.shape[1..] != stack.shape[1..]
    {
        return None;
    }
    let starts: Vec<i64> = node.operands[2..].iter().map(|v| value_of(block, *v, &|_| None)).collect::<Option<_>>()?;
    if starts.len() != stack.rank() || starts[1..].iter().any(|&s| s != 0) {
        return None;
    }
    // dynamic_update_slice clamps the start so that the update fits
    let row = starts[0].clamp(0, stack.shape[0] - 1);
    Some((row as usize, node.operands[1]))
}

/// The stacks of `block` and the row reads of them.
pub fn find_stacks(block: &Block) -> (Vec<Stack>, Vec<RowRead>) {
    let users = block.users();
    let only_user = |op: usize| match users[op].first().map(Vec::as_slice) {
        Some([(user, 0)]) => Some(*user),
        _ => None,
    };
    let mut in_chain = vec![false; block.ops.len()];
    let mut stacks = Vec::new();
    for start in 0..block.ops.len() {
        if in_chain[start] || row_write(block, start).is_none() {
            continue;
        }
        let mut writes = vec![start];
        while let Some(next) = only_user(*writes.last().unwrap()).filter(|&n| row_write(block, n).is_some()) {
            writes.push(next);
        }
        writes.iter().for_each(|&w| in_chain[w] = true);
        let n = tensor(block, ValueRef::Op { op: start, result: 0 }).map_or(0, |t| t.shape[0]) as usize;
        let mut rows = vec![None; n];
        let mut complete = writes.len() == n;
        for &w in &writes {
            let (row, value) = row_write(block, w).expect("checked");
            complete &= rows[row].replace(value).is_none();
        }
        if complete {
            stacks.push(Stack { writes, rows: rows.into_iter().map(Option::unwrap).collect() });
        }
    }
    let mut reads = Vec::new();
    for (slice, node) in block.ops.iter().enumerate() {
        let Some(&ValueRef::Op { op: source, result: 0 }) = node.operands.first() else { continue };
        let Some(stack) = stacks.iter().position(|s| s.writes.last() == Some(&source)) else { continue };
        if node.name != "stablehlo.slice" {
            continue;
        }
        let (Some(start), Some(limit)) = (
            node.attr("start_indices").and_then(|a| a.as_i64_array()),
            node.attr("limit_indices").and_then(|a| a.as_i64_array()),
        ) else {
            continue;
        };
        let strides_one = node.attr("strides").and_then(|a| a.as_i64_array()).is_none_or(|s| s.iter().all(|&x| x == 1));
        let Some(shape) = tensor(block, ValueRef::Op { op: source, result: 0 }).map(|t| &t.shape) else { continue };
        let whole_row = start.len() == shape.len()
            && start[0] + 1 == limit[0]
            && start[1..].iter().all(|&s| s == 0)
            && limit[1..] == shape[1..];
        if strides_one && whole_row && start[0] >= 0 {
            reads.push(RowRead { slice, stack, row: start[0] as usize });
        }
    }
    (stacks, reads)
}
