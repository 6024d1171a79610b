//! `custom_call @mhlo.<op>` becomes `chlo.<op>` for the elementwise ops CHLO has. StableHLO
//! serializes an MHLO op it lacks as such a call (torch_xla writes GELU's `erf` this way); as a
//! call, the planners know nothing of it (it would be replicated and could not be split into
//! microbatches), and XLA's partitioner crashes on it once it carries a sharding. The CHLO op is
//! what JAX writes for the same function, and XLA reads both as the same HLO.

use super::mlir;
use crate::ir::op_table::chlo_of_mhlo_custom_call;
use mlir_sys::*;

/// Rewrites the body of `function`; returns how many calls became CHLO ops.
pub fn rewrite_mhlo_custom_calls(function: MlirOperation) -> usize {
    let mut rewritten = 0;
    for call in mlir::nested_ops(function) {
        if mlir::op_name(call) != "stablehlo.custom_call" {
            continue;
        }
        let Some(chlo) = mlir::string_attr(call, "call_target_name").and_then(|t| chlo_of_mhlo_custom_call(&t)) else {
            continue;
        };
        if !plain_elementwise_call(call) {
            continue;
        }
        let operands = mlir::operands(call);
        let result = mlir::results(call)[0];
        // SAFETY: the new op reads the call's operands and replaces its one result, so the call
        // has no uses left when it is destroyed.
        unsafe {
            let replacement = mlir::create_op(call, &chlo, &operands, &[], &[mlirValueGetType(result)]);
            mlirValueReplaceAllUsesOfWith(result, replacement);
            mlirOperationDestroy(call);
        }
        rewritten += 1;
    }
    rewritten
}

/// One result with the type of every operand, no side effect, no called computations and no
/// MHLO attributes: what an elementwise op is.
fn plain_elementwise_call(call: MlirOperation) -> bool {
    let results = mlir::results(call);
    let [result] = results.as_slice() else { return false };
    let result_type = unsafe { mlirValueGetType(*result) };
    let operands = mlir::operands(call);
    let same_types =
        !operands.is_empty() && operands.iter().all(|v| unsafe { mlirTypeEqual(mlirValueGetType(*v), result_type) });
    let empty = |name: &str| {
        mlir::attribute(call, name).is_none_or(|a| {
            let text = mlir::print_attr(a);
            matches!(text.as_str(), "{}" | "[]" | "false" | "\"\"")
        })
    };
    same_types
        && mlir::regions(call).iter().all(|r| mlir::blocks(*r).is_empty())
        && ["has_side_effect", "called_computations", "mhlo.attributes", "backend_config"].into_iter().all(empty)
}
