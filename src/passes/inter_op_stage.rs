//! `alpa-inter-op-stage`: Alpa's inter-op pass (paper §5) on the entry function. Reads the
//! step, asks inter/layer_policy.rs for its layers and inter/driver.rs for the plan (B given or
//! searched, stage-mesh DP, baselines, report) and each stage's shardings, then writes the IR:
//! `alpa.layer`, `alpa.phase` and `alpa.stage` on every op, `alpa.pipeline` (one dictionary per
//! stage) on the entry, the JSON / HTML reports on request, and, for a train step exported at
//! microbatch size, the stage functions that the rewritten entry calls over the microbatches
//! (`inter::program`, `stage_slicing`).

use super::diagnostics::Diagnostic;
use super::entry::find_entry;
use super::mlir;
use super::options::{AlpaInterOpStageOptions, PassOptionSet};
use super::read_graph::read_function;
use super::stage_shardings;
use super::stage_slicing::{self, StagePlacement};
use super::PassResult;
use crate::cluster::Cluster;
use crate::inter::driver::{plan_inter_op, stage_shardings, summary, DriverOptions, InterOpPlan};
use crate::inter::layer_policy::{auto_choice, choose_layers};
use crate::inter::program::{analyze_train_step, build_program, ProgramError};
use crate::inter::{render_html, LayerId, PipelinePlan, PlacedStage, StageId};
use crate::ir::batch_inputs::{shared_with_a_batch_sized_dim, BATCH_DIM_ATTR};
use crate::ir::batch_split::{batch_dims, BatchSplitError};
use crate::ir::train_step::Phase;
use mlir_sys::MlirOperation;

pub fn run(module: MlirOperation, options: &AlpaInterOpStageOptions) -> PassResult {
    // alpa-auto-shard runs this pass too: its diagnostics carry the name the user invoked.
    let pass = options.pass();
    let fail = |message: String| vec![Diagnostic::error(module, format!("{pass}: {message}"))];
    let entry = find_entry(module, &options.entry).map_err(|d| vec![d])?;
    let opts = DriverOptions::new(options).map_err(fail)?;
    super::trivial_meshes::strip_then_refuse_meshes(module, pass, |name| {
        format!("the module already carries a Shardy mesh (sdy.mesh @{name}): plan the unpartitioned step, the pass chooses each stage's mesh")
    })?;
    check_not_partitioned(module, &opts.cluster).map_err(fail)?;
    // Layers inside a scan become ops of their own, so stages can be cut between them.
    super::unroll_loops::run_if_asked(module, options.unroll_loops, &options.entry, pass)?;
    super::mhlo_custom_calls::rewrite_mhlo_custom_calls(entry.op);
    super::case_to_select::convert_capturing_cases(entry.op, pass)?;
    super::captured_constants::copy_captured_constants(entry.op);
    super::dead_ops::erase_dead_ops(entry.op);
    let mut read = read_function(entry)?;
    let state = super::donation::apply(&mut read, entry, &options.donation, pass)?;
    let graph = &read.graph;
    if graph.ops().is_empty() {
        return Err(fail("the entry function has no ops to place in stages".into()));
    }
    let step = analyze_train_step(graph);
    let carries_state = !state.pairs.is_empty() || graph.args.iter().any(|a| a.is_donated());
    if let (None, true, true, Err(why)) = (&step, opts.slice, carries_state, crate::ir::train_step::analyze(graph)) {
        Diagnostic::warning(
            entry.op,
            format!("{pass}: the step carries state but is not read as a train step ({why}): the module is annotated with its stages, not sliced into stage functions; name the state with donation=ARG:RESULT,... if a result was taken for state"),
        )
        .emit();
    }
    if step.is_some() && !carries_state {
        return Err(fail(
            "the step returns a loss but no state that feeds back was found: it donates no argument (jax.jit donate_argnums) and no result updates an argument of the same type; name the state with donation=ARG:RESULT,...".into(),
        ));
    }
    let devices = opts.cluster_shape().devices();
    let assignment = choose_layers(graph, step.as_ref(), &opts.layers, opts.delta, opts.delta_given, devices)
        .map_err(|e| super::cluster_layers::at_op(e, &read.handles, &fail))?;

    // What keeps the batch from splitting is told at its op (planning says it again, placeless).
    if opts.split_batch {
        if let Err(BatchSplitError::Op { op, message, .. }) = batch_dims(graph) {
            return Err(vec![Diagnostic::error(
                read.handles[op],
                format!("{pass}: cannot split the batch into microbatches: {message}"),
            )]);
        }
    }
    let InterOpPlan { plan, report, search, failures } =
        plan_inter_op(graph, step.as_ref(), &assignment, &opts).map_err(fail)?;
    for failure in failures.iter().take(5) {
        Diagnostic::warning(entry.op, format!("{pass}: a stage candidate could not be planned: {failure:?}")).emit();
    }
    let stage_of_op: Vec<StageId> = assignment
        .layer_of
        .iter()
        .map(|&layer| {
            StageId::new(plan.plan.stages.iter().position(|s| s.layers.contains(&layer.index())).unwrap_or(0))
        })
        .collect();
    annotate(
        module,
        entry.op,
        &read.handles,
        &assignment.layer_of,
        &stage_of_op,
        step.as_ref().map(|s| s.phase.as_slice()),
        &plan,
    )
    .map_err(|e| fail(format!("writing alpa.pipeline: {e}")))?;
    write_output(&opts.report, || report.to_json_pretty()).map_err(|e| fail(format!("report: {e}")))?;
    write_output(&opts.report_html, || render_html(&report)).map_err(|e| fail(format!("report-html: {e}")))?;
    let layers = assignment.num_layers();
    Diagnostic::remark(
        entry.op,
        summary(pass, &plan, layers, &auto_choice(&assignment.clustering), &opts, search.as_ref()),
    )
    .emit();

    // A train step is sliced into stage functions called by the schedule from the entry.
    // Its functions are clones of the exported ops, so the step must be one microbatch.
    if step.is_some() && opts.slice && opts.split_batch {
        Diagnostic::warning(
            entry.op,
            format!("{pass}: the step was planned as the global batch (split-batch or microbatches=auto): stage functions need a step exported at microbatch size, so the module is annotated, not sliced"),
        )
        .emit();
    }
    if let (Some(step), true, false) = (&step, opts.slice, opts.split_batch) {
        let program = build_program(
            graph,
            step,
            &stage_of_op,
            plan.plan.stages.len(),
            plan.plan.microbatches,
            opts.schedule,
            opts.combine,
        )
        .map_err(|e| match e {
            ProgramError::Capture { op } | ProgramError::Order { op, .. } | ProgramError::Combine { op, .. } => {
                vec![Diagnostic::error(read.handles[op.index()], format!("{pass}: {e}"))]
            }
            other => fail(other.to_string()),
        })?;
        for (op, message) in &program.warnings {
            Diagnostic::warning(read.handles[op.index()], format!("{pass}: {message}")).emit();
        }
        let shared = if program.microbatches > 1 {
            shared_with_a_batch_sized_dim(graph, &program.batch_dims)
        } else {
            Vec::new()
        };
        for (arg, dim, batch) in shared {
            Diagnostic::warning(
                entry.op,
                format!("{pass}: argument #{arg} is shared by every microbatch (its dim 0 is not the batch size {batch}), but its dim {dim} has the batch size: if that dim is its batch (a time-major input), say so with {BATCH_DIM_ATTR} = {dim} (from JAX: alpa_mlir.hints.Hint(batch_dim={dim})); -1 silences this"),
            )
            .at_argument(Some(arg))
            .emit();
        }
        let placements: Vec<StagePlacement> = plan
            .plan
            .stages
            .iter()
            .zip(&plan.devices)
            .map(|(s, devices)| StagePlacement { devices: devices.clone(), logical_mesh: s.logical_mesh })
            .collect();
        // Each stage's intra-op plan (the one the DP priced) goes onto its functions.
        let stage_plans = stage_shardings(graph, Some(step), &assignment, &opts, &plan).map_err(fail)?;
        let shardings_of = |op: usize, result: usize, from: usize, to: usize| {
            if opts.shardings {
                stage_shardings::transfer_shardings(&stage_plans, op, result, from, to)
            } else {
                None
            }
        };
        let clones = stage_slicing::emit(
            module,
            entry,
            &read.handles,
            &program,
            &graph.returned,
            &placements,
            opts.transfers,
            &shardings_of,
        )
        .map_err(|e| fail(format!("slicing into stage functions: {e}")))?;
        if opts.shardings {
            stage_shardings::write(module, &clones, &stage_plans)
                .map_err(|e| fail(format!("writing stage shardings: {e}")))?;
            stage_shardings::pin(module, graph, &program, &clones, &stage_plans)
                .map_err(|e| fail(format!("pinning stage shardings: {e}")))?;
        }
    }
    Ok(())
}

/// The pass plans an unpartitioned step for the whole cluster: a module already partitioned
/// for another device count does not match it.
fn check_not_partitioned(module: MlirOperation, cluster: &Cluster) -> Result<(), String> {
    let devices = cluster.hosts * cluster.devices_per_host;
    if let Some(partitions) = mlir::attribute(module, "mhlo.num_partitions").and_then(|a| mlir::attr_value(a).as_int())
    {
        if partitions > 1 && partitions as usize != devices {
            return Err(format!(
                "the module is partitioned for {partitions} devices (mhlo.num_partitions) but cluster {} has {devices} ({} x {}); plan the unpartitioned step",
                cluster.name, cluster.hosts, cluster.devices_per_host
            ));
        }
    }
    Ok(())
}

/// `alpa.stage` on every op (the stage owning its layer) and `alpa.pipeline` on the entry.
fn annotate(
    module: MlirOperation,
    entry: MlirOperation,
    handles: &[MlirOperation],
    layer_of: &[LayerId],
    stage_of_op: &[StageId],
    phases: Option<&[Phase]>,
    plan: &PipelinePlan,
) -> Result<(), String> {
    let context = mlir::context(module);
    for (index, (handle, &layer)) in handles.iter().zip(layer_of).enumerate() {
        mlir::set_i64_attr(*handle, "alpa.layer", layer.index() as i64);
        mlir::set_i64_attr(*handle, "alpa.stage", stage_of_op[index].index() as i64);
        if let Some(phase) = phases.and_then(|p| p.get(index)) {
            let name = match phase {
                Phase::Forward => "forward",
                Phase::Backward => "backward",
                Phase::Update => "update",
            };
            mlir::set_attr(*handle, "alpa.phase", mlir::string_attr_value(context, name));
        }
    }
    let stages: Vec<String> = plan
        .placed_stages()
        .map(|PlacedStage { layers, submesh: [hosts, per_host], logical_mesh: [rows, cols], devices, latency }| {
            let ids: Vec<String> = devices.iter().map(|d| d.to_string()).collect();
            format!(
                "{{layers = array<i64: {}, {}>, submesh = array<i64: {hosts}, {per_host}>, logical_mesh = array<i64: {rows}, {cols}>, devices = array<i64: {}>, latency = {}}}",
                layers.start,
                layers.end,
                ids.join(", "),
                mlir::f64_attr_text(latency)
            )
        })
        .collect();
    let text = format!("[{}]", stages.join(", "));
    mlir::set_attr(entry, "alpa.pipeline", mlir::parse_attr(context, &text)?);
    mlir::set_attr(
        entry,
        "alpa.microbatches",
        mlir::parse_attr(context, &format!("{} : i64", plan.plan.microbatches))?,
    );
    Ok(())
}

/// Writes `content()` to `path` (`-` = stderr); nothing when `path` is empty.
fn write_output(path: &str, content: impl FnOnce() -> String) -> Result<(), String> {
    match path {
        "" => Ok(()),
        "-" => {
            eprintln!("{}", content());
            Ok(())
        }
        path => std::fs::write(path, content()).map_err(|e| format!("cannot write {path}: {e}")),
    }
}
