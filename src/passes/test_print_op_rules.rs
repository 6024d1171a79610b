//! `alpa-test-print-op-rules` (testing only; alpa-opt registers it, the plugin does not): one
//! remark per op of the entry function with its op-table rule and its strategies on a mesh, so
//! that lit-tests/op-table specifies the op table as text.

use super::diagnostics::Diagnostic;
use super::entry::find_entry;
use super::options::{AlpaTestPrintOpRulesOptions, PassOptionSet};
use super::read_graph::read_function;
use super::PassResult;
use crate::cluster::{parse_mesh_shape, DeviceMesh};
use crate::ir::op_table::is_heavy;
use crate::sharding::strategy::describe_op;
use mlir_sys::MlirOperation;

pub fn run(module: MlirOperation, options: &AlpaTestPrintOpRulesOptions) -> PassResult {
    let fail = |message: String| vec![Diagnostic::error(module, format!("{}: {message}", options.pass()))];
    let entry = find_entry(module, &options.entry).map_err(|d| vec![d])?;
    let shape = parse_mesh_shape(&options.mesh).map_err(|e| fail(e.to_string()))?;
    // Alpa's abstract test mesh: the names do not depend on the link costs.
    let mesh = DeviceMesh::alpa_test(shape).map_err(|e| fail(e.to_string()))?;
    let read = read_function(entry)?;
    let graph = &read.graph;
    let mut lines = Vec::new();
    let mut errors = Vec::new();
    for (index, (op, handle)) in graph.ops().iter().zip(&read.handles).enumerate() {
        match describe_op(op, &graph.operand_tensors(index), is_heavy(op), &mesh) {
            Ok(line) => lines.push(Diagnostic::remark(*handle, line)),
            Err(error) => errors.push(Diagnostic::error(*handle, error.to_string())),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    lines.iter().for_each(Diagnostic::emit);
    Ok(())
}
