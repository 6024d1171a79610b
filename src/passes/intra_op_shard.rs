//! `alpa-intra-op-shard`: plans the entry function on its best logical mesh
//! (intra/best_mesh.rs) and writes the shardings.

use super::diagnostics::Diagnostic;
use super::entry::{find_entry, Function};
use super::mlir;
use super::options::AlpaIntraOpShardOptions;
use super::read_graph::read_function;
use super::write_shardings::{self, Shardings};
use super::PassResult;
use crate::intra::best_mesh::{out_of_memory_message, plan_on_best_mesh, BestMeshPlan, ShardOptions};
use crate::intra::plan::PlanError;
use crate::intra::report::build_report;
use crate::intra::solution::SolveStatus;
use mlir_sys::MlirOperation;

const PASS: &str = "alpa-intra-op-shard";

pub fn run(module: MlirOperation, options: &AlpaIntraOpShardOptions) -> PassResult {
    let fail = |message: String| vec![Diagnostic::error(module, format!("{PASS}: {message}"))];
    let entry = find_entry(module, &options.entry).map_err(|d| vec![d])?;
    let shard_options = ShardOptions::new(options).map_err(fail)?;
    super::trivial_meshes::strip_then_refuse_meshes(module, PASS, |name| {
        format!("the module is already sharded (sdy.mesh @{name}): shard the unpartitioned export")
    })?;
    check_unsharded(module, entry).map_err(fail)?;
    // A loop's carried values and body are sharded consistently by planning its copies.
    super::unroll_loops::run_if_asked(module, options.unroll_loops, &options.entry, PASS)?;
    super::mhlo_custom_calls::rewrite_mhlo_custom_calls(entry.op);
    let mut read = read_function(entry)?;
    super::donation::apply(&mut read, entry, &options.donation, PASS)?;
    let graph = &read.graph;

    let BestMeshPlan { plan, mesh_index, candidates } =
        plan_on_best_mesh(graph, &shard_options).map_err(|e| match e {
            PlanError::Op { op, message } => vec![Diagnostic::error(read.handles[op.index()], message)],
            PlanError::OutOfMemory { budget, least_memory, cheapest_plan_memory } => {
                fail(out_of_memory_message(budget, least_memory, cheapest_plan_memory))
            }
            PlanError::Solver(message) => fail(format!("the solver failed: {message}")),
        })?;
    let (meshes, memory_budget, format, report_path) =
        (&shard_options.meshes, shard_options.memory_budget, shard_options.format, &shard_options.report);
    let mesh = &meshes[mesh_index];

    for &op in &plan.replicated_fallbacks {
        Diagnostic::warning(
            read.handles[op.index()],
            format!(
                "{PASS}: no even sharding of this op on mesh {}x{}: it is computed replicated",
                mesh.shape[0], mesh.shape[1]
            ),
        )
        .emit();
    }
    if plan.status != SolveStatus::Optimal {
        Diagnostic::warning(
            module,
            format!(
                "{PASS}: solver status {:?} after {:.1} s: keeping the best plan found (objective {})",
                plan.status, plan.solver_seconds, plan.objective
            ),
        )
        .emit();
    }

    let arg_specs: Vec<_> =
        plan.args.iter().map(|a| a.as_ref().and_then(|s| s.result_specs.first()).and_then(Option::as_ref)).collect();
    let op_specs: Vec<Vec<_>> = plan.ops.iter().map(|s| s.result_specs.iter().map(Option::as_ref).collect()).collect();
    let returned = graph.returned.iter().map(|v| Shardings::of_value(&arg_specs, &op_specs, *v)).collect();
    let operand_specs: Vec<Vec<_>> =
        plan.ops.iter().map(|s| s.operand_specs.iter().map(Option::as_ref).collect()).collect();
    let operand_values = graph.ops().iter().map(|op| op.operands.clone()).collect();
    let resharding_steps =
        plan.reshardings.iter().map(|r| ((r.op.index(), r.operand), r.resharding.steps.as_slice())).collect();
    let shardings = Shardings {
        args: arg_specs,
        ops: op_specs,
        operands: operand_specs,
        operand_values,
        returned,
        resharding_steps,
    };
    write_shardings::write(module, entry, &read.handles, &shardings, mesh.shape, format)
        .map_err(|e| fail(e.to_string()))?;

    if !report_path.is_empty() {
        let report = build_report(graph, &plan, mesh, memory_budget, candidates);
        let text = serde_json::to_string_pretty(&report).map_err(|e| fail(format!("report: {e}")))?;
        if report_path == "-" {
            eprintln!("{text}");
        } else {
            std::fs::write(report_path, text + "\n")
                .map_err(|e| fail(format!("cannot write report {report_path}: {e}")))?;
        }
    }
    Ok(())
}

/// The pass plans an unsharded step: a module that already carries a Shardy mesh or a
/// partition count would get a second mesh and a plan that is not what XLA runs.
fn check_unsharded(module: MlirOperation, entry: Function) -> Result<(), String> {
    if let Some(partitions) = mlir::attribute(module, "mhlo.num_partitions").and_then(|a| mlir::attr_value(a).as_int())
    {
        if partitions > 1 {
            return Err(format!("the module is already partitioned for {partitions} devices (mhlo.num_partitions): shard the unpartitioned export"));
        }
    }
    if mlir::nested_ops(entry.op).into_iter().any(|op| mlir::op_name(op) == "sdy.sharding_constraint") {
        return Err("the entry already holds sdy.sharding_constraint ops: shard the unpartitioned export".into());
    }
    Ok(())
}
