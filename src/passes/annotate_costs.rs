//! `alpa-annotate-costs`: the whole reader end to end. Every op of the entry function gets
//! `alpa.flops`, `alpa.bytes_read` and `alpa.bytes_written` (its own operands and results) and
//! `alpa.fused_bytes` (what its kernel moves once elementwise chains are fused: 0 for an op
//! fused into its consumers; `ir/fused_traffic.rs`); the function gets a summary remark.

use super::diagnostics::Diagnostic;
use super::entry::find_entry;
use super::mlir;
use super::options::AlpaAnnotateCostsOptions;
use super::read_graph::read_function;
use super::PassResult;
use crate::cluster::spec::Cluster;
use crate::ir::compute_type::compute_type;
use crate::ir::cost::op_cost_in_block;
use crate::ir::fused_traffic::{fused_kernels, FusedKernels};
use crate::ir::loops::counted_loop;
use crate::ir::op_time::op_seconds;
use crate::ir::summary::{human_bytes, human_seconds, CostSummary};
use crate::ir::types::ValueType;
use mlir_sys::{mlirIntegerAttrGet, mlirIntegerTypeUnsignedGet, mlirOperationGetContext, MlirOperation};

pub fn run(module: MlirOperation, options: &AlpaAnnotateCostsOptions) -> PassResult {
    let fail = |message: String| vec![Diagnostic::error(module, message)];
    let entry = find_entry(module, &options.entry).map_err(|d| vec![d])?;
    let with_summary = options.summary;
    let cluster = match Some(options.cluster.as_str()).filter(|c| !c.is_empty()) {
        Some(name) => Some(Cluster::load(name).map_err(|e| fail(format!("alpa-annotate-costs: {e}")))?),
        None => None,
    };
    let read = read_function(entry)?;
    let graph = &read.graph;

    let mut summary = CostSummary::default();
    let FusedKernels { traffic, launches } = fused_kernels(&graph.body, &graph.returned);
    let mut errors = Vec::new();
    let mut remarks = Vec::new();
    for (index, (op, handle)) in graph.ops().iter().zip(&read.handles).enumerate() {
        if op.name == "stablehlo.while" {
            if let Err(why) = counted_loop(op, &graph.body) {
                remarks.push(Diagnostic::remark(*handle, format!("{why}: its condition and body are costed once")));
            }
        }
        match op_cost_in_block(&graph.body, index) {
            Ok(cost) => {
                set_count(*handle, "alpa.flops", cost.flops);
                set_count(*handle, "alpa.bytes_read", cost.bytes_read);
                set_count(*handle, "alpa.bytes_written", cost.bytes_written);
                set_count(*handle, "alpa.fused_bytes", traffic[index]);
                if !cost.known {
                    remarks.push(Diagnostic::remark(
                        *handle,
                        format!("'{}' is not in the op table: costed conservatively (one FLOP per result element, all bytes)", op.name),
                    ));
                }
                // Tensors, tuples of them and tokens have sizes; other types are costed as 0 bytes.
                let operands = op.operands.iter().map(|v| ("operand", "alpa.bytes_read", graph.value_type(*v)));
                let results = op.results.iter().map(|t| ("result", "alpa.bytes_written", Some(t)));
                for (what, attr, ty) in operands.chain(results) {
                    if let Some(ty @ ValueType::Other(_)) = ty {
                        remarks.push(Diagnostic::remark(
                            *handle,
                            format!("{what} of type {ty} is costed as 0 bytes in {attr}"),
                        ));
                    }
                }
                let operands = graph.operand_tensors(index);
                let element = Some(compute_type(op, &operands));
                // Once a total has passed u64 the ops after it would only repeat the error.
                if let (true, Err(message)) = (errors.is_empty(), summary.add(&op.name, element, &cost)) {
                    errors.push(Diagnostic::error(*handle, message));
                }
            }
            Err(error) => errors.push(Diagnostic::error(*handle, error.to_string())),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    remarks.iter().for_each(Diagnostic::emit);
    if with_summary {
        let mut text = format!("alpa-annotate-costs: {}", summary.describe(graph));
        if let Some(cluster) = &cluster {
            let seconds = summary.compute_seconds(|element| cluster.peak_flops(element));
            text += &format!(
                "; compute on one {} of {}: {} at peak",
                cluster.device.name,
                cluster.name,
                human_seconds(seconds)
            );
            if let Some(bandwidth) = cluster.hbm_bytes_per_s() {
                // Every op's cost was read above (an error there returned): all are Ok here.
                let seconds: Vec<f64> = op_seconds(graph, &traffic, cluster).into_iter().flatten().collect();
                let roofline_seconds: f64 = seconds.iter().sum();
                let fused: u64 = traffic.iter().fold(0, |a, &b| a.saturating_add(b));
                let shapes = cluster.measured.as_ref().is_some_and(|m| !m.matmul_shapes.is_empty());
                text += &format!(
                    ", {} with its device-memory traffic ({} after fusion at {:.3} TB/s){}",
                    human_seconds(roofline_seconds),
                    human_bytes(fused),
                    bandwidth / 1e12,
                    if shapes { " and its contractions at their GEMM shapes' measured rates" } else { "" }
                );
                if cluster.measured.as_ref().is_some_and(|m| m.xla.is_some()) {
                    let kernels: Vec<f64> =
                        seconds.iter().zip(&launches).filter(|(_, &l)| l).map(|(&s, _)| s).collect();
                    let overhead = cluster.xla_overhead_seconds(kernels.iter().copied(), 1);
                    text += &format!(
                        "; as one XLA program of {} kernels: {} (a kernel at least {}, the program's dispatch {})",
                        kernels.len(),
                        human_seconds(roofline_seconds + overhead),
                        human_seconds(cluster.kernel_launch_s()),
                        human_seconds(cluster.program_dispatch_s())
                    );
                }
            }
        }
        Diagnostic::remark(entry.op, text).emit();
    }
    Ok(())
}

/// Writes a count as an i64 attribute, or as ui64 past i64::MAX (it was clamped there).
fn set_count(op: MlirOperation, name: &str, value: u64) {
    match i64::try_from(value) {
        Ok(v) => mlir::set_i64_attr(op, name, v),
        Err(_) => unsafe {
            let unsigned = mlirIntegerTypeUnsignedGet(mlirOperationGetContext(op), 64);
            // The attribute holds the bits; its unsigned type prints them as the u64 value.
            mlir::set_attr(op, name, mlirIntegerAttrGet(unsigned, value as i64));
        },
    }
}
