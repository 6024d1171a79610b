//! What `alpa-unroll-loops` writes for one counted loop: per iteration, per body op, whether the
//! op is copied as is, folded to a constant (the counter and the integer arithmetic on it), or,
//! for a `dynamic_slice` whose start indices fold, replaced by the static `slice` it reads.

use super::fold::{fold, wrap};
use super::{counted_loop, value_of, CountedLoop, LoopError};
use crate::ir::graph::{Block, OpNode, ValueRef};
use std::collections::HashMap;
use std::fmt;

/// How one body op appears in one copy of the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Copy {
    /// The op itself, its operands remapped to this copy's values.
    Clone,
    /// A rank-0 integer constant of the op's result type.
    Constant(i64),
    /// `stablehlo.slice` of the op's first operand (a `dynamic_slice` with known starts,
    /// clamped the way `dynamic_slice` clamps them).
    Slice { start: Vec<i64>, limit: Vec<i64> },
}

/// A loop ready to be replaced by copies of its body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unrolled {
    pub counted: CountedLoop,
    /// The counter's value in each copy.
    pub counter_values: Vec<i64>,
    /// Per copy, per body op (in order, terminator excluded).
    pub copies: Vec<Vec<Copy>>,
    /// Ops the copies hold, nested bodies included.
    pub ops: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnrollError {
    /// No static trip count, or regions copying does not handle.
    Loop(LoopError),
    /// The copies would exceed the size guard.
    TooLarge { trips: u64, body_ops: u64, max_ops: u64 },
}

impl fmt::Display for UnrollError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnrollError::Loop(e) => e.fmt(f),
            UnrollError::TooLarge { trips, body_ops, max_ops } => write!(
                f,
                "unrolling would write {} ops ({trips} trips x {body_ops} body ops), over max-ops={max_ops}",
                trips.saturating_mul(*body_ops)
            ),
        }
    }
}

/// Ops of a block, nested bodies included.
pub fn ops_in(block: &Block) -> u64 {
    block.ops.iter().map(ops_of).fold(0u64, u64::saturating_add)
}

fn ops_of(op: &OpNode) -> u64 {
    let nested = op.regions.iter().flat_map(|r| &r.blocks).map(ops_in).fold(0u64, u64::saturating_add);
    nested.saturating_add(1)
}

/// The unrolling of the while op `outer.ops[index]`, unless its copies exceed `max_ops` ops.
pub fn unroll_plan(outer: &Block, index: usize, max_ops: u64) -> Result<Unrolled, UnrollError> {
    let op = &outer.ops[index];
    let counted = counted_loop(op, outer).map_err(UnrollError::Loop)?;
    let body = &op.regions[1].blocks[0];
    let body_ops = ops_in(body);
    let ops = counted.trips.saturating_mul(body_ops);
    if ops > max_ops {
        return Err(UnrollError::TooLarge { trips: counted.trips, body_ops, max_ops });
    }
    let element = super::fold::scalar_int_element(&body.args[counted.counter])
        .expect("a counted loop's counter is a scalar integer");
    let invariants: HashMap<usize, i64> = (0..op.operands.len())
        .filter(|&i| body.terminator.as_ref().and_then(|t| t.operands.get(i)) == Some(&ValueRef::Arg(i)))
        .filter_map(|i| Some((i, value_of(outer, op.operands[i], &|_| None)?)))
        .collect();

    let mut counter_values = Vec::new();
    let mut copies = Vec::new();
    for t in 0..counted.trips {
        let counter = wrap(counted.counter_at(t), element).expect("checked by counted_loop");
        counter_values.push(counter);
        let arg = |i: usize| if i == counted.counter { Some(counter) } else { invariants.get(&i).copied() };
        copies.push(copy_body(body, &arg));
    }
    Ok(Unrolled { counted, counter_values, copies, ops })
}

fn copy_body(body: &Block, arg: &dyn Fn(usize) -> Option<i64>) -> Vec<Copy> {
    let mut known: Vec<Option<i64>> = Vec::with_capacity(body.ops.len());
    let mut out = Vec::with_capacity(body.ops.len());
    for node in &body.ops {
        let value = |v: &ValueRef| match *v {
            ValueRef::Arg(i) => arg(i),
            ValueRef::Op { op, result: 0 } => known[op],
            _ => None,
        };
        let operands: Option<Vec<i64>> = node.operands.iter().map(value).collect();
        let folded = operands.as_deref().and_then(|values| fold(node, values));
        let copy = match folded {
            Some(_) if node.name == "stablehlo.constant" => Copy::Clone,
            Some(v) => Copy::Constant(v),
            None if node.name == "stablehlo.dynamic_slice" => static_slice(body, node, &value).unwrap_or(Copy::Clone),
            None => Copy::Clone,
        };
        known.push(folded);
        out.push(copy);
    }
    out
}

/// The `slice` a `dynamic_slice` reads when its start indices are known.
fn static_slice(body: &Block, node: &OpNode, value: &dyn Fn(&ValueRef) -> Option<i64>) -> Option<Copy> {
    let operand = body.value_type(*node.operands.first()?)?.tensor()?;
    let sizes = node.attr("slice_sizes")?.as_i64_array()?;
    let starts: Vec<i64> = node.operands[1..].iter().map(value).collect::<Option<_>>()?;
    if starts.len() != operand.rank() || sizes.len() != operand.rank() {
        return None;
    }
    let mut start = Vec::new();
    let mut limit = Vec::new();
    for d in 0..operand.rank() {
        let (dim, size) = (operand.shape[d], sizes[d]);
        if size < 0 || size > dim {
            return None;
        }
        let s = starts[d].clamp(0, dim - size);
        start.push(s);
        limit.push(s + size);
    }
    Some(Copy::Slice { start, limit })
}
