//! `lax.cond` and `lax.switch` export as `stablehlo.case`, whose branches take no arguments:
//! they read the values they work on from outside the op. Such an op cannot move into a stage
//! function on its own, and the data flow through it is invisible to planning. Each capturing
//! case whose branches are effect-free becomes its branches' ops, moved in front of it, and one
//! `select` per result on the branch index (XLA's if-conversion: every branch runs, the index
//! picks the result; an index out of range picks the last branch, as `case` does).

use super::diagnostics::Diagnostic;
use super::mlir;
use crate::ir::effects::may_have_effects;
use mlir_sys::*;

/// Rewrites the capturing, effect-free `stablehlo.case` ops of `function` (inner ones first);
/// returns how many. A case that cannot be rewritten is an error at the case.
pub fn convert_capturing_cases(function: MlirOperation, pass: &str) -> Result<usize, Vec<Diagnostic>> {
    let mut converted = 0;
    for op in mlir::nested_ops(function).into_iter().rev() {
        if mlir::op_name(op) == "stablehlo.case" && captures(op) && convertible(op) {
            convert(op).map_err(|message| vec![Diagnostic::error(op, format!("{pass}: {message}"))])?;
            converted += 1;
        }
    }
    Ok(converted)
}

/// Whether an op inside `op`'s regions reads a value defined outside `op`.
fn captures(op: MlirOperation) -> bool {
    let inside = mlir::values_defined_inside(op);
    mlir::nested_ops(op).iter().any(|inner| mlir::operands(*inner).iter().any(|v| !inside.contains(&v.ptr)))
}

/// One block per branch, no effects inside, and results `select` can pick (tensors).
fn convertible(op: MlirOperation) -> bool {
    let single_blocks = mlir::regions(op).into_iter().all(|r| mlir::blocks(r).len() == 1);
    let pure = mlir::nested_ops(op)
        .into_iter()
        .all(|inner| mlir::op_name(inner) == "stablehlo.return" || !may_have_effects(&mlir::op_name(inner)));
    let tensors = mlir::results(op).into_iter().all(|r| unsafe { mlirTypeIsARankedTensor(mlirValueGetType(r)) });
    single_blocks && pure && tensors && !mlir::regions(op).is_empty()
}

fn convert(case: MlirOperation) -> Result<(), String> {
    let index = *mlir::operands(case).first().ok_or("a case without its branch index")?;
    let results = mlir::results(case);
    let branches: Vec<(MlirOperation, Vec<MlirOperation>)> = mlir::regions(case)
        .into_iter()
        .map(|region| {
            let mut ops = mlir::blocks(region).first().map(|b| mlir::block_ops(*b)).unwrap_or_default();
            let terminator = ops.pop().ok_or("a case branch without a terminator")?;
            if mlir::operands(terminator).len() != results.len() {
                return Err("a case branch returns a different number of values than the case");
            }
            Ok((terminator, ops))
        })
        .collect::<Result<_, _>>()?;
    // Checked in full before anything moves, so a refused case is left as it was.
    let context = mlir::context(case);
    let index_type = unsafe { mlirValueGetType(index) };
    let eq = mlir::parse_attr(context, "#stablehlo<comparison_direction EQ>")?;
    let i1 = mlir::parse_type(context, "tensor<i1>")?;
    let mut branch_results: Vec<Vec<MlirValue>> = Vec::new();
    for (terminator, body) in &branches {
        for op in body {
            // SAFETY: the branch's values move with their ops; what they read from outside is
            // defined before the case, so it is still defined before them.
            unsafe { mlirOperationMoveBefore(*op, case) };
        }
        branch_results.push(mlir::operands(*terminator));
    }
    let last = branch_results.len().checked_sub(1).ok_or("a case without branches")?;
    let mut picked: Vec<MlirValue> = branch_results[last].clone();
    for (k, values) in branch_results.iter().enumerate().take(last).rev() {
        let constant = mlir::whole_number_attr(context, k as i64, index_type)?;
        let k_value = mlir::create_op(case, "stablehlo.constant", &[], &[("value", constant)], &[index_type]);
        let is_k =
            mlir::create_op(case, "stablehlo.compare", &[index, k_value], &[("comparison_direction", eq)], &[i1]);
        picked = values
            .iter()
            .zip(&picked)
            .map(|(&on_k, &otherwise)| {
                mlir::create_op(
                    case,
                    "stablehlo.select",
                    &[is_k, on_k, otherwise],
                    &[],
                    &[unsafe { mlirValueGetType(on_k) }],
                )
            })
            .collect();
    }
    for (old, new) in results.iter().zip(&picked) {
        unsafe { mlirValueReplaceAllUsesOfWith(*old, *new) };
    }
    // SAFETY: nothing reads the case's results any more; its branches hold only terminators.
    unsafe { mlirOperationDestroy(case) };
    Ok(())
}
