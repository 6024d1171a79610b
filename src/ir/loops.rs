//! Counted `stablehlo.while` loops: JAX's `lax.scan` / `fori_loop` pattern, a counter compared
//! against a known bound in the condition and moved by a known step in the body.
//!
//! What the cost model multiplies a loop's body by, and what `alpa-unroll-loops` copies. A loop
//! whose trip count cannot be read this way is left to the caller (costed once, not unrolled).

pub mod fold;
pub mod repeated_slices;
pub mod stacks;
pub mod unroll;

use crate::ir::attr_text::ComparisonDirection;
use crate::ir::graph::{Block, OpNode, ValueRef};
use crate::ir::op_table::opaque_text;
use fold::{fold, scalar_int_element, wrap};

/// How deep `value_of` follows operands back (JAX's index arithmetic is a few ops deep).
const FOLD_DEPTH: usize = 32;

/// A while loop with a static trip count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountedLoop {
    /// The carried value (operand, block argument and result index) that counts.
    pub counter: usize,
    pub init: i64,
    pub step: i64,
    pub trips: u64,
}

impl CountedLoop {
    /// The counter's value in iteration `t` (0-based).
    pub fn counter_at(&self, t: u64) -> i128 {
        self.init as i128 + t as i128 * self.step as i128
    }
}

/// Why a while loop has no static trip count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoopError {
    /// Its regions are not single blocks over the carried values.
    Structure(String),
    /// Its condition or counter is not the counted pattern (why).
    Dynamic(String),
}

impl std::fmt::Display for LoopError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoopError::Structure(why) => write!(f, "the loop cannot be read: {why}"),
            LoopError::Dynamic(why) => write!(f, "the loop's trip count is not static: {why}"),
        }
    }
}

/// The value of `value` in `block` when it is a rank-0 integer that folds from constants and
/// from the block arguments `args` knows.
pub fn value_of(block: &Block, value: ValueRef, args: &dyn Fn(usize) -> Option<i64>) -> Option<i64> {
    value_at_depth(block, value, args, FOLD_DEPTH)
}

fn value_at_depth(block: &Block, value: ValueRef, args: &dyn Fn(usize) -> Option<i64>, depth: usize) -> Option<i64> {
    match value {
        ValueRef::Arg(i) => args(i),
        ValueRef::Outer => None,
        ValueRef::Op { op, result: 0 } if depth > 0 => {
            let node = block.ops.get(op)?;
            let operands = node
                .operands
                .iter()
                .map(|v| value_at_depth(block, *v, args, depth - 1))
                .collect::<Option<Vec<i64>>>()?;
            fold(node, &operands)
        }
        ValueRef::Op { .. } => None,
    }
}

/// The single block of region `i` of a loop, or why not.
fn only_block<'a>(op: &'a OpNode, i: usize, what: &str) -> Result<&'a Block, String> {
    let region = op.regions.get(i).ok_or_else(|| format!("the loop has no {what} region"))?;
    match region.blocks.as_slice() {
        [block] if block.args.len() == op.operands.len() => Ok(block),
        [_] => Err(format!("the {what} block does not take the {} carried values", op.operands.len())),
        blocks => Err(format!("the {what} region has {} blocks", blocks.len())),
    }
}

/// Carried values the body returns unchanged: their value in every iteration is their initial
/// one (a fori_loop's upper bound, a scan's length).
fn invariant_init(op: &OpNode, body: &Block, outer: &Block, i: usize) -> Option<i64> {
    let returned = body.terminator.as_ref()?.operands.get(i)?;
    if *returned != ValueRef::Arg(i) {
        return None;
    }
    value_of(outer, *op.operands.get(i)?, &|_| None)
}

/// Reads the trip count of while op `op`, whose operands are values of `outer`.
pub fn counted_loop(op: &OpNode, outer: &Block) -> Result<CountedLoop, LoopError> {
    if op.name != "stablehlo.while" {
        return Err(LoopError::Structure(format!("'{}' is not a stablehlo.while", op.name)));
    }
    let cond = only_block(op, 0, "condition").map_err(LoopError::Structure)?;
    let body = only_block(op, 1, "body").map_err(LoopError::Structure)?;
    trip_pattern(op, cond, body, outer).map_err(LoopError::Dynamic)
}

fn trip_pattern(op: &OpNode, cond: &Block, body: &Block, outer: &Block) -> Result<CountedLoop, String> {
    let invariants = |i: usize| invariant_init(op, body, outer, i);

    if let Some(bad) = cond.ops.iter().find(|o| !o.regions.is_empty() || o.short_name() == "custom_call") {
        return Err(format!("the condition computes more than a comparison ('{}')", bad.name));
    }
    let predicate = cond.terminator.as_ref().and_then(|t| t.operands.first()).copied();
    let Some(ValueRef::Op { op: p, result: 0 }) = predicate else {
        return Err("the condition does not return a comparison".into());
    };
    let compare = cond.ops.get(p).ok_or("the condition returns a value it does not define")?;
    let (Some(&lhs), Some(&rhs), true) =
        (compare.operands.first(), compare.operands.get(1), compare.name == "stablehlo.compare")
    else {
        return Err(format!("the condition returns '{}', not a stablehlo.compare", compare.name));
    };
    let direction = compare
        .attr("comparison_direction")
        .and_then(opaque_text)
        .and_then(|t| ComparisonDirection::parse(t).ok())
        .ok_or("the comparison has no readable comparison_direction")?;

    let step_of = |c: usize| -> Option<i64> {
        let returned = body.terminator.as_ref()?.operands.get(c)?;
        let ValueRef::Op { op: a, result: 0 } = *returned else { return None };
        let add = body.ops.get(a)?;
        let known = |v: &ValueRef| value_of(body, *v, &invariants);
        match (add.name.as_str(), add.operands.as_slice()) {
            ("stablehlo.add", [ValueRef::Arg(x), s]) | ("stablehlo.add", [s, ValueRef::Arg(x)]) if *x == c => known(s),
            ("stablehlo.subtract", [ValueRef::Arg(x), s]) if *x == c => known(s)?.checked_neg(),
            _ => None,
        }
    };
    // The counter is the compared block argument the body steps by a constant; the other side
    // is the bound.
    let sides = [(lhs, rhs, direction), (rhs, lhs, mirrored(direction))];
    let Some((counter, bound, direction, step)) = sides.iter().find_map(|&(c, b, d)| match c {
        ValueRef::Arg(c) => Some((c, b, d, step_of(c)?)),
        _ => None,
    }) else {
        return Err("no compared value is a counter the body moves by a constant step".into());
    };
    if op.operands.get(counter).is_none() || scalar_int_element(&cond.args[counter]).is_none() {
        return Err("the counter is not a scalar integer".into());
    }
    let bound =
        value_of(cond, bound, &invariants).ok_or("the bound the counter is compared against is not a constant")?;
    let init =
        value_of(outer, op.operands[counter], &|_| None).ok_or("the counter's initial value is not a constant")?;
    let trips = trip_count(init as i128, bound as i128, step as i128, direction)
        .ok_or_else(|| format!("a counter from {init} by {step} never ends the loop ({direction:?} {bound})"))?;
    let counted = CountedLoop { counter, init, step, trips };
    // Every counter value must be one its type holds, or the loop wraps around.
    let element = scalar_int_element(&cond.args[counter]).expect("checked above");
    let last = counted.counter_at(trips.saturating_sub(1));
    if wrap(last, element) != Some(last as i64) || i64::try_from(last).is_err() {
        return Err(format!("the counter overflows its type before {trips} trips"));
    }
    Ok(counted)
}

fn mirrored(d: ComparisonDirection) -> ComparisonDirection {
    use ComparisonDirection::*;
    match d {
        Lt => Gt,
        Le => Ge,
        Gt => Lt,
        Ge => Le,
        other => other,
    }
}

/// Iterations of `for (i = init; i <direction> bound; i += step)`; `None` when it never ends.
fn trip_count(init: i128, bound: i128, step: i128, direction: ComparisonDirection) -> Option<u64> {
    use ComparisonDirection::*;
    let ceil_div = |a: i128, b: i128| (a + b - 1) / b;
    let trips = match direction {
        Lt if step > 0 => ceil_div((bound - init).max(0), step),
        Le if step > 0 => ceil_div((bound + 1 - init).max(0), step),
        Gt if step < 0 => ceil_div((init - bound).max(0), -step),
        Ge if step < 0 => ceil_div((init + 1 - bound).max(0), -step),
        Ne if step != 0 && (bound - init) % step == 0 && (bound - init) / step >= 0 => (bound - init) / step,
        Eq if step != 0 => (init == bound) as i128,
        _ => return None,
    };
    u64::try_from(trips).ok()
}

#[cfg(test)]
pub(crate) mod tests;
