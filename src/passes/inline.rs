//! `alpa-inline`: inlines every function the entry calls, then erases dead private functions.
//!
//! MLIR's own inliner crashes on unregistered StableHLO ops, so this works on plain C API
//! operations: clone the callee, rewire its block arguments to the call's operands, move its
//! body before the call and replace the call's results with what the callee returns.

use super::diagnostics::Diagnostic;
use super::entry::{find_entry, functions, Function};
use super::mlir;
use super::options::AlpaInlineOptions;
use super::PassResult;
use mlir_sys::*;
use std::collections::{BTreeSet, HashMap, HashSet};

pub fn run(module: MlirOperation, options: &AlpaInlineOptions) -> PassResult {
    inline_entry(module, &options.entry)
}

/// Inlines into the function named `entry_name` (what alpa-auto-shard runs first).
pub fn inline_entry(module: MlirOperation, entry_name: &str) -> PassResult {
    let entry = find_entry(module, entry_name).map_err(|d| vec![d])?;
    inline_into_entry(module, entry)?;
    Ok(())
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InlineStats {
    pub calls_inlined: usize,
    pub functions_erased: usize,
}

/// The most ops the entry may hold once every call is inlined: a call graph whose expansion
/// is larger (e.g. 2^30 ops from 30 doublings) is an error before anything changes.
pub const MAX_INLINED_OPS: u64 = 20_000_000;

pub fn inline_into_entry(module: MlirOperation, entry: Function) -> Result<InlineStats, Vec<Diagnostic>> {
    let by_name: HashMap<String, Function> = functions(module).into_iter().map(|f| (f.name(), f)).collect();
    check_calls(entry, &by_name, &mut Vec::new(), &mut BTreeSet::new())?;
    let size = expanded_size(entry.op, &by_name, &mut HashMap::new());
    if size > MAX_INLINED_OPS {
        return Err(vec![Diagnostic::error(
            entry.op,
            format!("inlining every call would expand '@{}' to {size} ops, more than {MAX_INLINED_OPS}", entry.name()),
        )]);
    }
    let mut stats = InlineStats::default();
    // A worklist of calls: each inlined body is scanned once for the calls it brings, so the
    // work is linear in the expanded size (inlining level by level over the whole entry was
    // quadratic on chains of calls).
    let mut pending = calls_in(entry.op);
    pending.reverse();
    while let Some(call) = pending.pop() {
        let name = callee_name(call).expect("checked by check_calls");
        let moved = unsafe { inline_call(call, by_name[&name]) };
        for op in moved.into_iter().rev() {
            let mut brought = calls_in(op);
            if mlir::op_name(op) == "func.call" {
                brought.insert(0, op);
            }
            pending.extend(brought.into_iter().rev());
        }
        stats.calls_inlined += 1;
    }
    stats.functions_erased = erase_unreachable_private_functions(module, entry);
    Ok(stats)
}

fn calls_in(op: MlirOperation) -> Vec<MlirOperation> {
    mlir::nested_ops(op).into_iter().filter(|op| mlir::op_name(*op) == "func.call").collect()
}

/// Ops of `function` once every call in it is inlined (calls themselves not counted),
/// saturating; the call graph is acyclic (check_calls).
fn expanded_size(function: MlirOperation, by_name: &HashMap<String, Function>, memo: &mut HashMap<String, u64>) -> u64 {
    let mut size = 0u64;
    for op in mlir::nested_ops(function) {
        let callee = (mlir::op_name(op) == "func.call").then(|| callee_name(op)).flatten();
        let Some(name) = callee else {
            size = size.saturating_add(1);
            continue;
        };
        let callee_size = match memo.get(&name) {
            Some(n) => *n,
            None => {
                let n = expanded_size(by_name[&name].op, by_name, memo);
                memo.insert(name, n);
                n
            }
        };
        size = size.saturating_add(callee_size);
    }
    size
}

fn callee_name(call: MlirOperation) -> Option<String> {
    mlir::string_attr(call, "callee")
}

/// Rejects what cannot be inlined before anything changes: unknown or bodiless callees,
/// callees with several blocks, and recursion.
fn check_calls(
    function: Function,
    by_name: &HashMap<String, Function>,
    stack: &mut Vec<String>,
    checked: &mut BTreeSet<String>,
) -> Result<(), Vec<Diagnostic>> {
    if checked.contains(&function.name()) {
        return Ok(());
    }
    stack.push(function.name());
    for call in mlir::nested_ops(function.op).into_iter().filter(|op| mlir::op_name(*op) == "func.call") {
        let Some(name) = callee_name(call) else {
            return Err(vec![Diagnostic::error(call, "func.call without a callee symbol")]);
        };
        let Some(callee) = by_name.get(&name) else {
            return Err(vec![Diagnostic::error(call, format!("call to unknown function '@{name}'"))]);
        };
        if callee.is_declaration() {
            return Err(vec![Diagnostic::error(
                call,
                format!("cannot inline '@{name}': it is a declaration without a body"),
            )]);
        }
        let callee_blocks = mlir::regions(callee.op).first().map_or(0, |r| mlir::blocks(*r).len());
        if callee_blocks != 1 {
            return Err(vec![Diagnostic::error(
                call,
                format!("cannot inline '@{name}': its body has {callee_blocks} blocks, expected 1"),
            )]);
        }
        if stack.contains(&name) {
            return Err(vec![Diagnostic::error(
                call,
                format!("cannot inline recursive call to '@{name}' (call chain: @{} -> @{name})", stack.join(" -> @")),
            )]);
        }
        check_calls(*callee, by_name, stack, checked)?;
    }
    checked.extend(stack.pop());
    Ok(())
}

/// Inlines one call; returns the ops moved in its place.
unsafe fn inline_call(call: MlirOperation, callee: Function) -> Vec<MlirOperation> {
    unsafe {
        let copy = mlirOperationClone(callee.op);
        let body = mlir::body_block(copy).expect("callee has a body");
        for (argument, operand) in mlir::block_args(body).into_iter().zip(mlir::operands(call)) {
            mlirValueReplaceAllUsesOfWith(argument, operand);
        }
        let ops = mlir::block_ops(body);
        let (terminator, body_ops) = ops.split_last().expect("a function body ends in a terminator");
        let call_location = mlirOperationGetLocation(call);
        let known = !mlirLocationEqual(call_location, mlirLocationUnknownGet(mlirLocationGetContext(call_location)));
        for op in body_ops {
            if known {
                called_from(*op, call_location);
            }
            mlirOperationMoveBefore(*op, call);
        }
        for (result, returned) in mlir::results(call).into_iter().zip(mlir::operands(*terminator)) {
            mlirValueReplaceAllUsesOfWith(result, returned);
        }
        mlirOperationDestroy(call);
        mlirOperationDestroy(copy);
        body_ops.to_vec()
    }
}

/// Gives `op` and the ops nested in it the location of `call_location` calling them, as MLIR's
/// inliner does: a diagnostic at an op of a function JAX exports without a source position of
/// its own (jnp's jitted helpers) points at the call, and at the op within it.
unsafe fn called_from(op: MlirOperation, call_location: MlirLocation) {
    for current in std::iter::once(op).chain(mlir::nested_ops(op)) {
        unsafe {
            let own = mlirOperationGetLocation(current);
            mlirOperationSetLocation(current, mlirLocationCallSiteGet(own, call_location));
        }
    }
}

/// Erases the private functions that no public op references, directly or through other
/// private functions; the entry stays even when private (a private @main is still the program).
fn erase_unreachable_private_functions(module: MlirOperation, entry: Function) -> usize {
    let Some(body) = mlir::body_block(module) else { return 0 };
    let private: HashMap<String, MlirOperation> = functions(module)
        .into_iter()
        .filter(|f| f.is_private() && f.op.ptr != entry.op.ptr)
        .map(|f| (f.name(), f.op))
        .collect();
    let mut reached: BTreeSet<String> = BTreeSet::new();
    let private_ops: HashSet<*const std::ffi::c_void> = private.values().map(|op| op.ptr as *const _).collect();
    let mut pending: Vec<MlirOperation> =
        mlir::block_ops(body).into_iter().filter(|op| !private_ops.contains(&(op.ptr as *const _))).collect();
    while let Some(op) = pending.pop() {
        for name in symbol_references(op) {
            if let Some(callee) = private.get(&name) {
                if reached.insert(name) {
                    pending.push(*callee);
                }
            }
        }
    }
    let mut erased = 0;
    for (name, op) in &private {
        if !reached.contains(name) {
            unsafe { mlirOperationDestroy(*op) };
            erased += 1;
        }
    }
    erased
}

/// Root names of every symbol reference in the attributes of `op` and the ops nested in it.
fn symbol_references(op: MlirOperation) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for current in std::iter::once(op).chain(mlir::nested_ops(op)) {
        for (_, attr) in mlir::attributes(current) {
            collect_symbol_refs(attr, &mut names);
        }
    }
    names
}

fn collect_symbol_refs(attr: MlirAttribute, names: &mut BTreeSet<String>) {
    unsafe {
        if mlirAttributeIsASymbolRef(attr) {
            names.insert(mlir::to_string(mlirSymbolRefAttrGetRootReference(attr)));
        } else if mlirAttributeIsAArray(attr) {
            for i in 0..mlirArrayAttrGetNumElements(attr) {
                collect_symbol_refs(mlirArrayAttrGetElement(attr, i), names);
            }
        } else if mlirAttributeIsADictionary(attr) {
            for i in 0..mlirDictionaryAttrGetNumElements(attr) {
                collect_symbol_refs(mlirDictionaryAttrGetElement(attr, i).attribute, names);
            }
        }
    }
}
