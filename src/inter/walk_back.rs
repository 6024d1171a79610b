//! A walk from a value back through what it is computed from, to the first op of a kind: the
//! loss's nonlinear term (`nonlinear_loss`), the op where the examples are lost track of
//! (`lost_examples`). Each op is visited once, whatever the graph's shape.

use super::output_combine::{BatchClass, BatchClasses};
use crate::ir::graph::{Graph, ValueRef};

/// What a walk does at an op.
pub enum Step {
    /// Goes on to these values.
    Follow(Vec<ValueRef>),
    /// The op is one sought.
    Found,
}

/// The first op, in program order, that `visit` finds among the ops `start` is computed from
/// through the values it follows, visiting only values whose class `through` accepts. `visit`
/// gets the op's index and its operands with their classes.
pub fn first_found_back_from(
    graph: &Graph,
    batch_dims: &[Option<usize>],
    classes: &BatchClasses,
    start: ValueRef,
    through: impl Fn(BatchClass) -> bool,
    mut visit: impl FnMut(usize, &[(ValueRef, BatchClass)]) -> Step,
) -> Option<usize> {
    let ops = graph.ops();
    let mut seen = vec![false; ops.len()];
    let mut stack = vec![start];
    let mut first: Option<usize> = None;
    while let Some(v) = stack.pop() {
        let ValueRef::Op { op: index, .. } = v else { continue };
        if std::mem::replace(&mut seen[index], true) || !through(classes.of(v, batch_dims)) {
            continue;
        }
        let read: Vec<(ValueRef, BatchClass)> =
            ops[index].operands.iter().map(|&v| (v, classes.of(v, batch_dims))).collect();
        match visit(index, &read) {
            Step::Follow(values) => stack.extend(values),
            Step::Found => first = Some(first.map_or(index, |f| f.min(index))),
        }
    }
    first
}
