//! `alpa-lower-transfers`: lowers every `alpa.transfer_plan` to programs XLA runs. The op
//! becomes `func.call @transfer_<k>`, a private function that is the identity on the value
//! (what a transfer means on one device) and names, in `alpa.send_program` and
//! `alpa.gather_program`, the functions that carry it out across devices (src/passes/
//! transfer_text.rs): `@transfer_<k>_send` over the union of both device sets
//! (`collective_permute` rounds) and, under local all-gather, `@transfer_<k>_gather` over the
//! destination devices (`all_gather`). A runtime compiles each once.

use super::diagnostics::Diagnostic;
use super::mlir;
use super::transfer_ops::{read_plan, read_transfer, TRANSFER, TRANSFER_PLAN};
use super::transfer_text::{gather_program, send_program};
use super::PassResult;
use crate::resharding::lowering::lower;
use mlir_sys::*;

/// Attributes of `alpa.transfer_plan` that describe the move; they go onto the identity
/// function so a runtime finds them there.
const DESCRIPTION: &[&str] = &[
    "src_stage",
    "dst_stage",
    "src_devices",
    "dst_devices",
    "src_logical_mesh",
    "dst_logical_mesh",
    "src_sharding",
    "dst_sharding",
    "mode",
    "cost",
    "lower_bound",
    "bytes_across_hosts",
    "pieces",
    "gathers",
];

pub fn run(module: MlirOperation, pass: &str) -> PassResult {
    let ops: Vec<MlirOperation> = mlir::nested_ops(module).into_iter().collect();
    if let Some(unplanned) = ops.iter().find(|op| mlir::op_name(**op) == TRANSFER) {
        return Err(vec![Diagnostic::error(
            *unplanned,
            format!("{pass}: this transfer has no plan: run alpa-cross-mesh-resharding first"),
        )]);
    }
    let body = mlir::body_block(module)
        .ok_or_else(|| vec![Diagnostic::error(module, format!("{pass}: the module has no body"))])?;
    let context = mlir::context(module);
    let taken: Vec<String> = super::entry::functions(module).iter().map(|f| f.name()).collect();
    let mut channel = 1i64;
    let mut index = 0usize;
    for op in ops.into_iter().filter(|op| mlir::op_name(*op) == TRANSFER_PLAN) {
        let at_op = |message: String| vec![Diagnostic::error(op, format!("{pass}: {message}"))];
        let transfer = read_transfer(module, op).map_err(at_op)?;
        let plan = read_plan(op).map_err(at_op)?;
        let programs = lower(
            plan.mode,
            &plan.pieces,
            &plan.routes,
            &plan.gathers,
            &transfer.tensor.shape,
            &transfer.src,
            &transfer.dst,
        )
        .map_err(at_op)?;
        let name = loop {
            let candidate = format!("transfer_{index}");
            index += 1;
            if !taken.iter().any(|t| t == &candidate || t.starts_with(&format!("{candidate}_"))) {
                break candidate;
            }
        };
        let element = &transfer.tensor.element;
        let rank = transfer.tensor.rank();
        let send_name = format!("{name}_send");
        let mut texts = vec![send_program(&send_name, &programs.send, rank, element, channel)];
        channel += programs.send.rounds.len() as i64;
        let mut links = format!("alpa.send_program = @{send_name}");
        if let Some(gather) = &programs.gather {
            let gather_name = format!("{name}_gather");
            texts.push(gather_program(&gather_name, gather, rank, element, channel));
            channel += 1;
            links.push_str(&format!(", alpa.gather_program = @{gather_name}"));
        }
        let mut description = Vec::new();
        for key in DESCRIPTION {
            if let Some(value) = mlir::attribute(op, key) {
                description.push(format!("alpa.{key} = {}", mlir::print_attr(value)));
            }
        }
        let ty = transfer.tensor.to_string();
        texts.push(format!(
            "func.func private @{name}(%arg0: {ty}) -> {ty} attributes {{{links}, {}}} {{\n    \"func.return\"(%arg0) : ({ty}) -> ()\n}}",
            description.join(", ")
        ));
        // Insert after the last function so the module keeps stage functions first.
        for text in texts.iter().rev() {
            mlir::insert_parsed_op_at_start(body, context, text).map_err(at_op)?;
        }
        let call = unsafe {
            let operand = mlir::operands(op)[0];
            let result_type = mlirValueGetType(mlir::results(op)[0]);
            let callee = mlir::parse_attr(context, &format!("@{name}")).map_err(at_op)?;
            let call = mlir::new_op(
                mlirOperationGetLocation(op),
                "func.call",
                &[operand],
                &[result_type],
                &[("callee", callee)],
            );
            mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(op), op, call);
            mlirValueReplaceAllUsesOfWith(mlir::results(op)[0], mlir::results(call)[0]);
            mlirOperationDestroy(op);
            call
        };
        let _ = call;
    }
    Ok(())
}
