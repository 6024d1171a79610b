//! `alpa-unroll-loops`: replaces every counted `stablehlo.while` of the entry function by copies
//! of its body, so that both planners see the layers of a `lax.scan` / flax `nn.scan` as ops of
//! their own. What each copy holds (the counter folded to a constant, `dynamic_slice`s by it as
//! static `slice`s) is decided by `ir::loops::unroll`; this module only copies ops. A loop
//! without a static trip count (a rejection sampler such as `jax.random.gamma`'s, a loop until
//! convergence) stays a loop, with a warning: the planners take it as one op.

use super::diagnostics::Diagnostic;
use super::entry::{find_entry, Function};
use super::mlir;
use super::options::{AlpaUnrollLoopsOptions, PassOptionSet};
use super::read_graph::read_function;
use super::PassResult;
use crate::ir::graph::ValueRef;
use crate::ir::loops::repeated_slices::repeated_slices;
use crate::ir::loops::stacks::find_stacks;
use crate::ir::loops::unroll::{unroll_plan, Copy, UnrollError, Unrolled};
use crate::ir::loops::LoopError;
use mlir_sys::*;
use std::collections::HashMap;
use std::ffi::c_void;

pub fn run(module: MlirOperation, options: &AlpaUnrollLoopsOptions) -> PassResult {
    let fail = |message: String| vec![Diagnostic::error(module, message)];
    let entry = find_entry(module, &options.entry).map_err(|d| vec![d])?;
    let max_ops = u64::try_from(options.max_ops).ok().filter(|&n| n > 0).ok_or_else(|| {
        fail(format!("{}: max-ops must be a positive integer, got '{}'", options.pass(), options.max_ops))
    })?;
    unroll_entry(entry, max_ops, options.pass())
}

/// What alpa-intra-op-shard and alpa-inter-op-stage run first: the entry's loops unrolled (size
/// guard at alpa-unroll-loops' default) unless their option `unroll-loops` is false.
pub fn run_if_asked(module: MlirOperation, unroll: bool, entry: &str, pass: &str) -> PassResult {
    if !unroll {
        return Ok(());
    }
    let entry = find_entry(module, entry).map_err(|d| vec![d])?;
    let max_ops = AlpaUnrollLoopsOptions::default().max_ops as u64;
    unroll_entry(entry, max_ops, pass)
}

/// Unrolls the entry's loops, outermost first (a nested loop is unrolled once its copies are in
/// the function body); a loop without a static trip count stays (a warning at it, and the
/// loops inside it stay too); another loop that cannot be unrolled is an error at it.
pub fn unroll_entry(entry: Function, max_ops: u64, pass: &str) -> PassResult {
    let mut unrolled = 0usize;
    let mut copies = 0u64;
    let mut kept: Vec<MlirOperation> = Vec::new();
    loop {
        let read = read_function(entry)?;
        let next = read
            .graph
            .ops()
            .iter()
            .zip(&read.handles)
            .position(|(op, handle)| op.name == "stablehlo.while" && !kept.iter().any(|k| k.ptr == handle.ptr));
        let Some(index) = next else { break };
        let handle = read.handles[index];
        let plan = match unroll_plan(&read.graph.body, index, max_ops) {
            Ok(plan) => plan,
            Err(UnrollError::Loop(LoopError::Dynamic(why))) => {
                Diagnostic::warning(
                    handle,
                    format!("{pass}: the loop's trip count is not static ({why}): it stays a loop, planned as one op with its condition and body costed once"),
                )
                .emit();
                kept.push(handle);
                continue;
            }
            Err(e) => {
                let hint = match e {
                    UnrollError::TooLarge { .. } => " (raise it with alpa-unroll-loops{max-ops=N} before planning)",
                    UnrollError::Loop(_) => " (plan it as one op with unroll-loops=false)",
                };
                return Err(vec![Diagnostic::error(handle, format!("{pass}: {e}{hint}"))]);
            }
        };
        copy_body(handle, &plan).map_err(|e| vec![Diagnostic::error(handle, format!("{pass}: {e}"))])?;
        unrolled += 1;
        copies += plan.counted.trips;
    }
    let nested: Vec<Diagnostic> = mlir::nested_ops(entry.op)
        .into_iter()
        .filter(|op| mlir::op_name(*op) == "stablehlo.while" && !within_any(*op, &kept))
        .map(|op| {
            let parent = unsafe { mlirOperationGetParentOperation(op) };
            Diagnostic::error(
                op,
                format!(
                    "{pass}: a loop inside '{}' cannot be unrolled: only loops of the function body (and of the loops unrolled) are",
                    mlir::op_name(parent)
                ),
            )
        })
        .collect();
    if !nested.is_empty() {
        return Err(nested);
    }
    if unrolled > 0 {
        let stacks = split_stacks(entry)?;
        let merged = merge_repeated_slices(entry)?;
        Diagnostic::remark(
            entry.op,
            format!("{pass}: unrolled {unrolled} loops into {copies} copies of their bodies; {stacks} stacks written row by row are concatenations of their rows; {merged} repeated slices read the first equal one"),
        )
        .emit();
    }
    Ok(())
}

/// Whether `op` is one of `loops` or nested in one.
fn within_any(op: MlirOperation, loops: &[MlirOperation]) -> bool {
    let mut at = op;
    while !at.ptr.is_null() {
        if loops.iter().any(|l| l.ptr == at.ptr) {
            return true;
        }
        at = unsafe { mlirOperationGetParentOperation(at) };
    }
    false
}

/// Rewrites the stacks `ir::loops::stacks` finds: each row read becomes the row written, each
/// chain of row writes still used becomes one `concatenate` of the rows. Returns the stacks.
fn split_stacks(entry: Function) -> Result<usize, Vec<Diagnostic>> {
    let read = read_function(entry)?;
    let (stacks, reads) = find_stacks(&read.graph.body);
    let Some(body) = mlir::body_block(entry.op) else { return Ok(0) };
    let args = mlir::block_args(body);
    let value = |v: ValueRef| match v {
        ValueRef::Arg(i) => args[i],
        ValueRef::Op { op, result } => mlir::results(read.handles[op])[result],
        ValueRef::Outer => unreachable!("a function body has no captures"),
    };
    let unused =
        |op: MlirOperation| mlir::results(op).into_iter().all(|r| unsafe { mlirValueGetFirstUse(r).ptr.is_null() });
    for r in &reads {
        let slice = mlir::results(read.handles[r.slice])[0];
        unsafe { mlirValueReplaceAllUsesOfWith(slice, value(stacks[r.stack].rows[r.row])) };
    }
    // The row reads go first: a stack that only they read needs no concatenation (one left
    // unused would still tie every layer's row together).
    for r in &reads {
        if unused(read.handles[r.slice]) {
            unsafe { mlirOperationDestroy(read.handles[r.slice]) };
        }
    }
    for stack in &stacks {
        let last = read.handles[*stack.writes.last().expect("a stack has writes")];
        if unused(last) {
            continue;
        }
        let writer = Writer { context: mlir::context(last), before: last };
        let rows: Vec<MlirValue> = stack.rows.iter().map(|v| value(*v)).collect();
        let stacked = mlir::results(last)[0];
        let dimension = mlir::parse_attr(writer.context, "0 : i64").map_err(|e| vec![Diagnostic::error(last, e)])?;
        let concat = writer.create(
            "stablehlo.concatenate",
            &rows,
            unsafe { mlirValueGetType(stacked) },
            &[("dimension", dimension)],
            last,
        );
        unsafe { mlirValueReplaceAllUsesOfWith(stacked, mlir::results(concat)[0]) };
    }
    for stack in &stacks {
        for &w in stack.writes.iter().rev() {
            if unused(read.handles[w]) {
                unsafe { mlirOperationDestroy(read.handles[w]) };
            }
        }
    }
    Ok(stacks.len())
}

/// Replaces each slice equal to an earlier one (`ir::loops::repeated_slices`) by that one.
/// Returns how many were replaced.
fn merge_repeated_slices(entry: Function) -> Result<usize, Vec<Diagnostic>> {
    let read = read_function(entry)?;
    let pairs = repeated_slices(&read.graph.body);
    for &(later, first) in &pairs {
        let (later, first) = (read.handles[later], read.handles[first]);
        unsafe {
            mlirValueReplaceAllUsesOfWith(mlir::results(later)[0], mlir::results(first)[0]);
            mlirOperationDestroy(later);
        }
    }
    Ok(pairs.len())
}

/// Values of the loop's body mapped to the values that replace them in the current copy.
type ValueMap = HashMap<*const c_void, MlirValue>;

fn key(v: MlirValue) -> *const c_void {
    v.ptr
}

fn mapped(map: &ValueMap, v: MlirValue) -> MlirValue {
    map.get(&key(v)).copied().unwrap_or(v)
}

/// Replaces the while op `loop_op` by the copies `plan` describes.
fn copy_body(loop_op: MlirOperation, plan: &Unrolled) -> Result<(), String> {
    let regions = mlir::regions(loop_op);
    let body = regions.get(1).and_then(|r| mlir::blocks(*r).first().copied()).ok_or("the loop has no body")?;
    let mut body_ops = mlir::block_ops(body);
    let terminator = body_ops.pop().ok_or("the loop body is empty")?;
    let args = mlir::block_args(body);
    let mut carried = mlir::operands(loop_op);
    let mut created = Vec::new();
    let writer = Writer { context: mlir::context(loop_op), before: loop_op };

    for (copy, &counter) in plan.copies.iter().zip(&plan.counter_values) {
        if copy.len() != body_ops.len() {
            return Err(format!("the body has {} ops, the plan {}", body_ops.len(), copy.len()));
        }
        let mut map = ValueMap::new();
        for (arg, value) in args.iter().zip(&carried) {
            map.insert(key(*arg), *value);
        }
        let counter_arg = args[plan.counted.counter];
        let counter_op = writer.constant(counter, unsafe { mlirValueGetType(counter_arg) }, loop_op)?;
        created.push(counter_op);
        map.insert(key(counter_arg), mlir::results(counter_op)[0]);

        for (op, how) in body_ops.iter().zip(copy) {
            let new_op = match how {
                Copy::Clone => writer.clone_op(*op, &map),
                Copy::Constant(v) => writer.constant(*v, unsafe { mlirValueGetType(mlir::results(*op)[0]) }, *op)?,
                Copy::Slice { start, limit } => {
                    writer.slice(*op, mapped(&map, mlir::operands(*op)[0]), start, limit)?
                }
            };
            for (old, new) in mlir::results(*op).into_iter().zip(mlir::results(new_op)) {
                map.insert(key(old), new);
            }
            created.push(new_op);
        }
        carried = mlir::operands(terminator).into_iter().map(|v| mapped(&map, v)).collect();
    }
    for (result, value) in mlir::results(loop_op).into_iter().zip(&carried) {
        unsafe { mlirValueReplaceAllUsesOfWith(result, *value) };
    }
    unsafe { mlirOperationDestroy(loop_op) };
    erase_dead(created);
    Ok(())
}

/// Removes the copies' constants and slices nothing uses (the folded counter arithmetic, the
/// index constants of slices made static).
fn erase_dead(created: Vec<MlirOperation>) {
    for op in created.into_iter().rev() {
        let removable = matches!(mlir::op_name(op).as_str(), "stablehlo.constant" | "stablehlo.slice");
        let unused = mlir::results(op).into_iter().all(|r| unsafe { mlirValueGetFirstUse(r).ptr.is_null() });
        if removable && unused {
            unsafe { mlirOperationDestroy(op) };
        }
    }
}

/// Creates ops before the loop.
struct Writer {
    context: MlirContext,
    before: MlirOperation,
}

impl Writer {
    fn insert(&self, op: MlirOperation) -> MlirOperation {
        unsafe { mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(self.before), self.before, op) };
        op
    }

    /// A copy of `op` (with its regions) reading this copy's values.
    fn clone_op(&self, op: MlirOperation, map: &ValueMap) -> MlirOperation {
        let copy = self.insert(unsafe { mlirOperationClone(op) });
        // Captures inside nested regions still name the original body's values.
        for user in std::iter::once(copy).chain(mlir::nested_ops(copy)) {
            for (pos, operand) in mlir::operands(user).into_iter().enumerate() {
                if let Some(new) = map.get(&key(operand)) {
                    unsafe { mlirOperationSetOperand(user, pos as isize, *new) };
                }
            }
        }
        copy
    }

    fn create(
        &self,
        name: &str,
        operands: &[MlirValue],
        result: MlirType,
        attrs: &[(&str, MlirAttribute)],
        at: MlirOperation,
    ) -> MlirOperation {
        self.insert(mlir::new_op(unsafe { mlirOperationGetLocation(at) }, name, operands, &[result], attrs))
    }

    /// `stablehlo.constant dense<value> : ty` at the location of `at`.
    fn constant(&self, value: i64, ty: MlirType, at: MlirOperation) -> Result<MlirOperation, String> {
        let attr = mlir::whole_number_attr(self.context, value, ty)?;
        Ok(self.create("stablehlo.constant", &[], ty, &[("value", attr)], at))
    }

    /// `stablehlo.slice` of `operand` in place of the `dynamic_slice` `at`.
    fn slice(
        &self,
        at: MlirOperation,
        operand: MlirValue,
        start: &[i64],
        limit: &[i64],
    ) -> Result<MlirOperation, String> {
        let array = |v: &[i64]| {
            let items: Vec<String> = v.iter().map(i64::to_string).collect();
            if items.is_empty() {
                "array<i64>".to_string()
            } else {
                format!("array<i64: {}>", items.join(", "))
            }
        };
        let attrs = [
            ("start_indices", mlir::parse_attr(self.context, &array(start))?),
            ("limit_indices", mlir::parse_attr(self.context, &array(limit))?),
            ("strides", mlir::parse_attr(self.context, &array(&vec![1; start.len()]))?),
        ];
        let ty = unsafe { mlirValueGetType(mlir::results(at)[0]) };
        Ok(self.create("stablehlo.slice", &[operand], ty, &attrs, at))
    }
}
