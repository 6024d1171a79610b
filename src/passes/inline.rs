//! `alpa-inline`: inlines every function the entry calls, then erases dead private functions.
//!
//! MLIR's own inliner crashes on unregistered StableHLO ops, so this works on plain C API
//! operations: clone the callee, rewire its block arguments to the call's operands, move its
//! body before the call and replace the call's results with what the callee returns.

use super::diagnostics::Diagnostic;
use super::entry::{find_entry, functions, Function, DEFAULT_ENTRY};
use super::mlir;
use super::options::PassOptions;
use super::PassResult;
use mlir_sys::*;
use std::collections::{BTreeSet, HashMap};

pub fn run(module: MlirOperation, options: &PassOptions) -> PassResult {
    let entry_name = options.string("entry").unwrap_or(DEFAULT_ENTRY);
    let entry = find_entry(module, entry_name).map_err(|d| vec![d])?;
    inline_into_entry(module, entry)?;
    Ok(())
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InlineStats {
    pub calls_inlined: usize,
    pub functions_erased: usize,
}

pub fn inline_into_entry(module: MlirOperation, entry: Function) -> Result<InlineStats, Vec<Diagnostic>> {
    let by_name: HashMap<String, Function> = functions(module).into_iter().map(|f| (f.name(), f)).collect();
    check_calls(entry, &by_name, &mut Vec::new(), &mut BTreeSet::new())?;
    let mut stats = InlineStats::default();
    loop {
        let calls: Vec<MlirOperation> =
            mlir::nested_ops(entry.op).into_iter().filter(|op| mlir::op_name(*op) == "func.call").collect();
        if calls.is_empty() {
            break;
        }
        for call in calls {
            let callee = by_name[&callee_name(call).expect("checked by check_calls")];
            unsafe { inline_call(call, callee) };
            stats.calls_inlined += 1;
        }
    }
    stats.functions_erased = erase_dead_private_functions(module);
    Ok(stats)
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

unsafe fn inline_call(call: MlirOperation, callee: Function) {
    unsafe {
        let copy = mlirOperationClone(callee.op);
        let body = mlir::body_block(copy).expect("callee has a body");
        for (argument, operand) in mlir::block_args(body).into_iter().zip(mlir::operands(call)) {
            mlirValueReplaceAllUsesOfWith(argument, operand);
        }
        let ops = mlir::block_ops(body);
        let (terminator, body_ops) = ops.split_last().expect("a function body ends in a terminator");
        for op in body_ops {
            mlirOperationMoveBefore(*op, call);
        }
        for (result, returned) in mlir::results(call).into_iter().zip(mlir::operands(*terminator)) {
            mlirValueReplaceAllUsesOfWith(result, returned);
        }
        mlirOperationDestroy(call);
        mlirOperationDestroy(copy);
    }
}

/// Erases private functions that nothing else references, until none is left to erase.
fn erase_dead_private_functions(module: MlirOperation) -> usize {
    let Some(body) = mlir::body_block(module) else { return 0 };
    let mut erased = 0;
    loop {
        let top_level = mlir::block_ops(body);
        let references: Vec<(MlirOperation, BTreeSet<String>)> =
            top_level.iter().map(|op| (*op, symbol_references(*op))).collect();
        let dead: Vec<MlirOperation> = functions(module)
            .into_iter()
            .filter(|f| f.is_private())
            .filter(|f| {
                let name = f.name();
                !references.iter().any(|(owner, refs)| owner.ptr != f.op.ptr && refs.contains(&name))
            })
            .map(|f| f.op)
            .collect();
        if dead.is_empty() {
            return erased;
        }
        for op in dead {
            unsafe { mlirOperationDestroy(op) };
            erased += 1;
        }
    }
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
