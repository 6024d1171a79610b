//! `alpa-cross-mesh-resharding`: replaces every `alpa.transfer` with `alpa.transfer_plan`, the
//! explicit plan of src/resharding (which device sends which slice to which, and the local
//! all-gathers), chosen under `mode` on the `cluster`.

use super::diagnostics::Diagnostic;
use super::mlir;
use super::options::{AlpaCrossMeshReshardingOptions, PassOptionSet};
use super::transfer_ops::{plan_attributes, read_transfer, replace_with, TRANSFER, TRANSFER_PLAN};
use super::PassResult;
use crate::cluster::Cluster;
use crate::resharding::lowering::broadcast_routes;
use crate::resharding::{self, Mode};
use mlir_sys::MlirOperation;

pub fn run(module: MlirOperation, options: &AlpaCrossMeshReshardingOptions) -> PassResult {
    let pass = options.pass();
    let fail = |message: String| vec![Diagnostic::error(module, format!("{pass}: {message}"))];
    let cluster = cluster(&options.cluster).map_err(fail)?;
    let mode = transfer_mode(&options.mode).map_err(fail)?;
    let planned = plan_transfers(module, &cluster, mode, pass)?;
    let report = options.report.trim();
    if !report.is_empty() {
        let text = serde_json::to_string_pretty(&planned).map_err(|e| fail(format!("report: {e}")))?;
        let written = if report == "-" {
            eprintln!("{text}");
            Ok(())
        } else {
            std::fs::write(report, text + "\n")
        };
        written.map_err(|e| fail(format!("cannot write report {report}: {e}")))?;
    }
    Ok(())
}

/// One planned transfer, for the report.
#[derive(serde::Serialize)]
pub struct PlannedTransfer {
    pub src_stage: Option<i64>,
    pub dst_stage: Option<i64>,
    pub shape: Vec<i64>,
    pub element_bytes: u64,
    pub mode: &'static str,
    pub seconds: f64,
    pub lower_bound_seconds: f64,
    pub bytes_across_hosts: u64,
    pub pieces: usize,
    pub gathers: usize,
}

/// The cluster the transfers are planned on (option `cluster`, required).
pub fn cluster(name: &str) -> Result<Cluster, String> {
    match name.trim() {
        "" => Err("option 'cluster' is required: the transfers are planned on the cluster's links".into()),
        name => Cluster::load(name).map_err(|e| e.to_string()),
    }
}

/// Option `mode` (alpa-inter-op-stage's `transfer-mode`).
pub fn transfer_mode(text: &str) -> Result<Mode, String> {
    text.trim()
        .parse::<Mode>()
        .map_err(|_| format!("mode must be send-recv, local-all-gather, broadcast or auto, got '{text}'"))
}

/// Plans every `alpa.transfer` of the module, in program order.
pub fn plan_transfers(
    module: MlirOperation,
    cluster: &Cluster,
    mode: Mode,
    pass: &str,
) -> Result<Vec<PlannedTransfer>, Vec<Diagnostic>> {
    let transfers: Vec<MlirOperation> =
        mlir::nested_ops(module).into_iter().filter(|op| mlir::op_name(*op) == TRANSFER).collect();
    let context = mlir::context(module);
    let mut planned = Vec::with_capacity(transfers.len());
    let stage = |op: MlirOperation, name: &str| match mlir::attribute(op, name).map(mlir::attr_value) {
        Some(crate::ir::graph::Attr::Int(v)) => Some(v),
        _ => None,
    };
    for op in transfers {
        let at_op = |message: String| vec![Diagnostic::error(op, format!("{pass}: {message}"))];
        let transfer = read_transfer(module, op).map_err(at_op)?;
        let plan = resharding::plan(&transfer.desc(), &transfer.src, &transfer.dst, cluster, mode)
            .map_err(|e| at_op(e.to_string()))?;
        let mut attrs = Vec::new();
        let routes = if plan.mode == Mode::Broadcast {
            broadcast_routes(&plan.pieces, cluster.devices_per_host)
        } else {
            Vec::new()
        };
        for (name, text) in plan_attributes(&plan, &routes) {
            attrs.push((name, mlir::parse_attr(context, &text).map_err(at_op)?));
        }
        planned.push(PlannedTransfer {
            src_stage: stage(op, "src_stage"),
            dst_stage: stage(op, "dst_stage"),
            shape: transfer.tensor.shape.clone(),
            element_bytes: transfer.desc().element_bytes,
            mode: plan.mode.name(),
            seconds: plan.cost,
            lower_bound_seconds: plan.lower_bound,
            bytes_across_hosts: plan.bytes_across_hosts,
            pieces: plan.pieces.len(),
            gathers: plan.gathers.len(),
        });
        replace_with(op, TRANSFER_PLAN, &attrs);
    }
    Ok(planned)
}
