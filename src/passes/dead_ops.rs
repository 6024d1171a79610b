//! Erases the ops of a function whose results nothing reads and that have no effects (JAX's
//! exports keep a few, such as a `convert` of an optimizer's step counter that the traced code
//! computed and dropped). Planning places every op in a stage and a phase; a dead op has
//! neither, and its operands would be needed where no stage computes them.

use super::mlir;
use crate::ir::effects::may_have_effects;
use mlir_sys::{mlirOperationDestroy, mlirValueGetFirstUse, MlirOperation};

/// Erases the dead ops of the body of `function` (latest first, so that what only they read
/// dies too) and returns how many.
pub fn erase_dead_ops(function: MlirOperation) -> usize {
    let Some(body) = mlir::body_block(function) else { return 0 };
    let mut erased = 0;
    for op in mlir::block_ops(body).into_iter().rev() {
        let results = mlir::results(op);
        // A terminator or an op without results is kept: it is there for what it does.
        if results.is_empty() {
            continue;
        }
        let unused = results.iter().all(|r| unsafe { mlirValueGetFirstUse(*r).ptr.is_null() });
        let pure = std::iter::once(op).chain(mlir::nested_ops(op)).all(|o| !may_have_effects(&mlir::op_name(o)));
        if unused && pure {
            // SAFETY: nothing uses its results, and it is not referenced from elsewhere.
            unsafe { mlirOperationDestroy(op) };
            erased += 1;
        }
    }
    erased
}
