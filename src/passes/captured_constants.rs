//! Region bodies that read constants from outside their op get their own copies. Exporters
//! that run CSE over the whole function (torch_xla's StableHLO, for one) leave a reducer such as
//! `and(a, b) ? true : false` reading the function's `true` and `false`; such an op reads values
//! its operands do not name, so it could not move into a stage function on its own. A constant
//! has no inputs, so a copy in the block that reads it computes the same value there.

use super::mlir;
use mlir_sys::*;
use std::collections::HashMap;

/// Gives every block nested in the body of `function` its own copy of each constant defined
/// outside its top-level op that it reads; returns how many copies were made.
pub fn copy_captured_constants(function: MlirOperation) -> usize {
    let Some(body) = mlir::body_block(function) else { return 0 };
    let mut copies = 0;
    for op in mlir::block_ops(body).into_iter().filter(|op| !mlir::regions(*op).is_empty()) {
        let inside = mlir::values_defined_inside(op);
        // (block, constant) -> the copy at the start of that block.
        let mut copied: HashMap<(*mut std::ffi::c_void, *const std::ffi::c_void), MlirValue> = HashMap::new();
        for inner in mlir::nested_ops(op) {
            for (index, operand) in mlir::operands(inner).into_iter().enumerate() {
                if inside.contains(&operand.ptr) {
                    continue;
                }
                let Some(constant) = defining_constant(operand) else { continue };
                // SAFETY: `inner` is nested in `op`, so it sits in a block.
                let block = unsafe { mlirOperationGetBlock(inner) };
                let copy = *copied.entry((block.ptr, operand.ptr)).or_insert_with(|| {
                    copies += 1;
                    // SAFETY: the clone is a new detached op; the block takes ownership of it. The
                    // clone has the constant's results, so the operand's result number is one.
                    unsafe {
                        let clone = mlirOperationClone(constant);
                        mlirBlockInsertOwnedOperation(block, 0, clone);
                        mlirOperationGetResult(clone, mlirOpResultGetResultNumber(operand))
                    }
                });
                // SAFETY: the copy has the operand's type and is defined at the start of the block
                // that holds `inner`.
                unsafe { mlirOperationSetOperand(inner, index as isize, copy) };
            }
        }
    }
    copies
}

/// The `stablehlo.constant` (or MHLO's) that defines `value`, if one does.
fn defining_constant(value: MlirValue) -> Option<MlirOperation> {
    // SAFETY: only a result has a defining op.
    unsafe {
        if !mlirValueIsAOpResult(value) {
            return None;
        }
        let owner = mlirOpResultGetOwner(value);
        let name = mlir::op_name(owner);
        (matches!(name.as_str(), "stablehlo.constant" | "mhlo.constant") && mlirOperationGetNumRegions(owner) == 0)
            .then_some(owner)
    }
}
