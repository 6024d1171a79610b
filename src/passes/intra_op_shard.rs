//! `alpa-intra-op-shard`: plans the entry function on one mesh and writes the shardings.

use super::diagnostics::Diagnostic;
use super::entry::{find_entry, Function};
use super::mlir;
use super::options::AlpaIntraOpShardOptions;
use super::read_graph::read_function;
use super::write_shardings::{self, Shardings};
use super::PassResult;
use crate::intra::config::{mesh_config, parse_bytes, parse_output_format};
use crate::intra::plan::{plan_intra_op, IntraOptions, IntraPlan, PlanError};
use crate::intra::report::{build_report, CandidateReport};
use crate::intra::solution::{SolveOptions, SolveStatus};
use crate::ir::summary::human_bytes;
use crate::sharding::strategy::StrategyOptions;
use mlir_sys::MlirOperation;

const PASS: &str = "alpa-intra-op-shard";
/// Graphs at least this large print solver progress on stderr.
const VERBOSE_SOLVE_OPS: usize = 5000;

pub fn run(module: MlirOperation, options: &AlpaIntraOpShardOptions) -> PassResult {
    let fail = |message: String| vec![Diagnostic::error(module, message)];
    let entry = find_entry(module, &options.entry).map_err(|d| vec![d])?;

    let mesh_config = mesh_config(&options.mesh, &options.cluster, &options.alpha, &options.beta, &options.logical_mesh)
        .map_err(|e| fail(format!("{PASS}: {e}")))?;
    let format = parse_output_format(&options.format).map_err(|e| fail(format!("{PASS}: {e}")))?;
    let memory_budget = match options.memory_budget.trim() {
        "" => None,
        text => Some(parse_bytes(text).map_err(|e| fail(format!("{PASS}: memory-budget: {e}")))?),
    };
    let time_limit = options.time_limit;
    if !(time_limit.is_finite() && time_limit > 0.0) {
        return Err(fail(format!("{PASS}: time-limit must be a positive number of seconds")));
    }
    let force_batch_dim_to_mesh_dim = match options.force_batch_dim_to_mesh_dim {
        -1 => None,
        axis @ (0 | 1) => Some(axis as usize),
        other => return Err(fail(format!("{PASS}: force-batch-dim-to-mesh-dim must be -1, 0 or 1, got {other}"))),
    };
    let allow_replicated_parameters = options.allow_replicated_parameters;
    let merge_trivial_ops = options.merge_trivial_ops;
    let prefer_reduce_scatter = options.prefer_reduce_scatter;
    let report_path = options.report.trim().to_string();

    check_unsharded(module, entry).map_err(|e| fail(format!("{PASS}: {e}")))?;
    // A loop's carried values and body are sharded consistently by planning its copies.
    super::unroll_loops::run_if_asked(module, options.unroll_loops, &options.entry, PASS)?;
    let mut read = read_function(entry)?;
    super::donation::apply(&mut read, entry, &options.donation, PASS)?;
    let graph = &read.graph;
    let meshes = mesh_config.meshes().map_err(|e| fail(format!("{PASS}: {e}")))?;

    let mut best: Option<(IntraPlan, usize)> = None;
    let mut candidates = Vec::new();
    let mut out_of_memory: Option<(f64, Option<f64>)> = None;
    for (index, mesh) in meshes.iter().enumerate() {
        let intra_options = IntraOptions {
            mesh: mesh.clone(),
            strategy: StrategyOptions {
                force_batch_dim_to_mesh_dim,
                ..StrategyOptions::default()
            },
            allow_replicated_parameters,
            memory_budget,
            merge_trivial_ops,
            prefer_reduce_scatter,
            price_shared_moves: false,
            // Large problems take a while: the solver then reports its progress on stderr.
            solve: SolveOptions {
                time_limit: Some(time_limit),
                verbose: graph.ops().len() >= VERBOSE_SOLVE_OPS,
                ..SolveOptions::default()
            },
        };
        match plan_intra_op(graph, &intra_options) {
            Ok(plan) => {
                candidates.push(CandidateReport { shape: mesh.shape, objective: Some((plan.objective * 1e6).round() / 1e6), error: None });
                if best.as_ref().is_none_or(|(b, _)| plan.objective < b.objective) {
                    best = Some((plan, index));
                }
            }
            Err(PlanError::Op { op, message }) => return Err(vec![Diagnostic::error(read.handles[op], message)]),
            Err(PlanError::OutOfMemory { least_memory, cheapest_plan_memory, .. }) => {
                if out_of_memory.is_none_or(|(least, _)| least_memory < least) {
                    out_of_memory = Some((least_memory, cheapest_plan_memory));
                }
                candidates.push(CandidateReport { shape: mesh.shape, objective: None, error: Some("out of memory".into()) });
            }
            Err(PlanError::Solver(message)) => return Err(fail(format!("{PASS}: the solver failed: {message}"))),
        }
    }
    let Some((plan, mesh_index)) = best else {
        let budget = memory_budget.unwrap_or(0);
        let (least, cheapest) = out_of_memory.unwrap_or((f64::NAN, None));
        let cheapest = cheapest.map_or(String::new(), |c| format!("; the cheapest plan needs {} per device", human_bytes(c.ceil() as u64)));
        return Err(fail(format!(
            "{PASS}: no plan fits in memory-budget={} per device: the least-memory plan needs {} per device{cheapest}",
            human_bytes(budget),
            human_bytes(least.ceil() as u64)
        )));
    };
    let mesh = &meshes[mesh_index];

    for &op in &plan.replicated_fallbacks {
        Diagnostic::warning(read.handles[op], format!("{PASS}: no even sharding of this op on mesh {}x{}: it is computed replicated", mesh.shape[0], mesh.shape[1])).emit();
    }
    if plan.status != SolveStatus::Optimal {
        Diagnostic::warning(
            module,
            format!("{PASS}: solver status {:?} after {:.1} s: keeping the best plan found (objective {})", plan.status, plan.solver_seconds, plan.objective),
        )
        .emit();
    }

    let arg_specs: Vec<_> = plan.args.iter().map(|a| a.as_ref().and_then(|s| s.result_specs.first()).and_then(Option::as_ref)).collect();
    let op_specs: Vec<Vec<_>> = plan.ops.iter().map(|s| s.result_specs.iter().map(Option::as_ref).collect()).collect();
    let returned = graph.returned.iter().map(|v| Shardings::of_value(&arg_specs, &op_specs, *v)).collect();
    let operand_specs: Vec<Vec<_>> = plan.ops.iter().map(|s| s.operand_specs.iter().map(Option::as_ref).collect()).collect();
    let operand_values = graph.ops().iter().map(|op| op.operands.clone()).collect();
    let resharding_steps = plan.reshardings.iter().map(|r| ((r.op, r.operand), r.resharding.steps.as_slice())).collect();
    let shardings = Shardings { args: arg_specs, ops: op_specs, operands: operand_specs, operand_values, returned, resharding_steps };
    write_shardings::write(module, entry, &read.handles, &shardings, mesh.shape, format)
        .map_err(|e| fail(format!("{PASS}: {e}")))?;

    if !report_path.is_empty() {
        let report = build_report(graph, &plan, mesh, memory_budget, candidates);
        let text = serde_json::to_string_pretty(&report).map_err(|e| fail(format!("{PASS}: report: {e}")))?;
        if report_path == "-" {
            eprintln!("{text}");
        } else {
            std::fs::write(&report_path, text + "\n")
                .map_err(|e| fail(format!("{PASS}: cannot write report {report_path}: {e}")))?;
        }
    }
    Ok(())
}

/// The pass plans an unsharded step: a module that already carries a Shardy mesh or a
/// partition count would get a second mesh and a plan that is not what XLA runs.
fn check_unsharded(module: MlirOperation, entry: Function) -> Result<(), String> {
    if let Some(partitions) = mlir::attribute(module, "mhlo.num_partitions").and_then(|a| mlir::attr_value(a).as_int()) {
        if partitions > 1 {
            return Err(format!("the module is already partitioned for {partitions} devices (mhlo.num_partitions): shard the unpartitioned export"));
        }
    }
    let body = mlir::body_block(module).ok_or("the module has no body")?;
    if let Some(mesh) = mlir::block_ops(body).into_iter().find(|op| mlir::op_name(*op) == "sdy.mesh") {
        let name = mlir::string_attr(mesh, "sym_name").unwrap_or_default();
        return Err(format!("the module is already sharded (sdy.mesh @{name}): shard the unpartitioned export"));
    }
    if mlir::nested_ops(entry.op).into_iter().any(|op| mlir::op_name(op) == "sdy.sharding_constraint") {
        return Err("the entry already holds sdy.sharding_constraint ops: shard the unpartitioned export".into());
    }
    Ok(())
}
