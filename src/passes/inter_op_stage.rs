//! `alpa-inter-op-stage`: Alpa's inter-op pass (paper §5) on the entry function: layers by
//! Eq. 6, every (layer range, submesh, logical mesh) planned by the intra-op ILP, the stage-mesh
//! DP (Eq. 3-5) and the placement; each op gets `alpa.layer`, `alpa.phase` and `alpa.stage`,
//! the entry function gets `alpa.pipeline` (one dictionary per stage), and the JSON / HTML
//! reports are written on request. A train step exported at microbatch size is then sliced
//! into stage functions that the rewritten entry calls over the microbatches (`inter::program`,
//! `stage_slicing`).
//!
//! Beyond the paper: `microbatches=auto` (with `split-batch=true` implied) takes the exported
//! step as the global batch, splits it into B microbatches for every B dividing it up to
//! `max-microbatches` (ir/batch_split.rs), plans each and keeps the least iteration time
//! (inter/microbatches.rs); `cross-stage-cost=on` adds the activation and gradient transfers
//! between consecutive stages to the stage latencies (inter/transfer.rs).

use super::cluster_layers::{auto_choice, check_delta, layer_assignment};
use super::diagnostics::Diagnostic;
use super::entry::find_entry;
use super::mlir;
use super::options::{AlpaInterOpStageOptions, PassOptionSet};
use super::read_graph::read_function;
use super::PassResult;
use crate::cluster::Cluster;
use super::stage_shardings::{self, StageShardings};
use super::stage_slicing::{self, StagePlacement};
use crate::inter::program::{build_program, GradientCombine, ProgramError};
use crate::inter::train_step::{analyze, Phase, TrainStep};
use crate::inter::{
    equal_operator_layers, microbatch_candidates, plan_pipeline_parallel, render_html, search_microbatches,
    CachedCost, ClusterShape, CostTable, GraphStageOracle, ImbalancePrune, InterError, InterReport, LayerAssignment,
    LayerWork, MicrobatchSearch, OracleOptions, PipelinePlan, Planned, QueryFailure, ReportCluster, ReportExtras, Schedule,
    StageDpOptions, StagePlan, SubmeshSpace, TableOptions,
};
use crate::inter::StageInput;
use crate::intra::config::MAX_MESH_DEVICES;
use crate::intra::SolveOptions;
use crate::ir::batch_split::{batch_dims, split_with, BatchDims};
use crate::ir::graph::Graph;
use std::borrow::Cow;
use std::collections::HashMap;
use crate::ir::summary::human_bytes;
use mlir_sys::MlirOperation;
use std::time::Duration;


/// The most microbatches a plan may use: `@main` holds one call per stage function and
/// microbatch, so B sizes the emitted program (Alpa's runs use tens).
pub const MAX_MICROBATCHES: usize = 4096;

/// The most worker threads the stage queries may use (each is an OS thread).
pub const MAX_THREADS: usize = 256;

/// B: given, or searched over the divisors of the global batch up to a cap.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Microbatches {
    Fixed(usize),
    Auto { max: usize },
}

/// The pass options, parsed.
struct StageOptions {
    cluster: Cluster,
    microbatches: Microbatches,
    /// The exported step is the global batch; each microbatch gets 1 / B of it.
    split_batch: bool,
    cross_stage_cost: bool,
    transfer_mode: crate::resharding::Mode,
    delta: f64,
    /// The user chose delta: layers=auto may not raise it.
    delta_given: bool,
    /// Option `layers`: a count, auto or user.
    layers: String,
    epsilon: f64,
    imbalance_tolerance: Option<f64>,
    shapes: SubmeshSpace,
    schedule: Schedule,
    /// Solver limit of one (range, logical mesh) plan, and of the DP's t_max enumeration.
    time_limit: f64,
    threads: usize,
    /// Ranges longer than this many layers are composed from windows (0: all exact).
    compose_stages: usize,
    /// Also plan every stage with sharded parameters.
    sharded_params_variant: bool,
    report: String,
    report_html: String,
    /// Slice a train step into stage functions (off: annotations only).
    slice: bool,
    /// Mark values crossing stages with `alpa.transfer` (off: plain values, runnable on one
    /// device as is).
    transfers: bool,
    combine: GradientCombine,
    /// Write each stage's intra-op shardings (`sdy.sharding`) into its functions.
    shardings: bool,
    /// Also plan the equal-operator baseline (its own table and DP) for the report.
    baselines: bool,
}

fn parse_options(options: &AlpaInterOpStageOptions) -> Result<StageOptions, String> {
    let text = |value: &str| value.trim().to_string();
    let number = |name: &str, value: f64| -> Result<f64, String> {
        Some(value).filter(|v| v.is_finite() && *v >= 0.0).ok_or(format!("{name} must be a non-negative number, got '{value}'"))
    };
    let cluster_name = text(&options.cluster);
    let cluster = Cluster::load(&cluster_name).map_err(|e| format!("cluster '{cluster_name}': {e}"))?;
    // The stage DP and placement are sized by the device count.
    match cluster.hosts.checked_mul(cluster.devices_per_host) {
        Some(devices) if devices <= MAX_MESH_DEVICES => {}
        _ => {
            return Err(format!(
                "cluster '{cluster_name}' has {} x {} devices, more than the {MAX_MESH_DEVICES} a plan supports",
                cluster.hosts, cluster.devices_per_host
            ))
        }
    }
    let max = match usize::try_from(options.max_microbatches) {
        Ok(m) if (1..=MAX_MICROBATCHES).contains(&m) => m,
        _ => {
            return Err(format!(
                "max-microbatches must be an integer from 1 to {MAX_MICROBATCHES}, got '{}'",
                options.max_microbatches
            ))
        }
    };
    let microbatches = match text(&options.microbatches).as_str() {
        "auto" => Microbatches::Auto { max },
        t => match t.parse::<usize>() {
            Ok(b) if (1..=MAX_MICROBATCHES).contains(&b) => Microbatches::Fixed(b),
            _ => return Err(format!("microbatches must be auto or an integer from 1 to {MAX_MICROBATCHES}, got '{t}'")),
        },
    };
    let cross_stage_cost = match text(&options.cross_stage_cost).as_str() {
        "on" | "true" | "1" => true,
        "off" | "false" | "0" | "" => false,
        other => return Err(format!("cross-stage-cost must be on or off, got '{other}'")),
    };
    // Comparing B needs a fixed global batch: auto always splits the exported one.
    let split_batch = options.split_batch || matches!(microbatches, Microbatches::Auto { .. });
    let imbalance_tolerance = match options.imbalance_tolerance {
        v if v == 0.0 => None,
        v if v >= 1.0 && v.is_finite() => Some(v),
        v => return Err(format!("imbalance-tolerance must be 0 (off) or a number >= 1, got '{v}'")),
    };
    let shapes = match text(&options.submesh_shapes).as_str() {
        "power-of-two" => SubmeshSpace::PowerOfTwo,
        "all" => SubmeshSpace::All,
        other => return Err(format!("submesh-shapes must be power-of-two or all, got '{other}'")),
    };
    let schedule = match text(&options.schedule).as_str() {
        "1f1b" => Schedule::OneFOneB,
        "gpipe" => Schedule::GPipe,
        other => return Err(format!("schedule must be 1f1b or gpipe, got '{other}'")),
    };
    let time_limit = number("time-limit", options.time_limit)?;
    if time_limit == 0.0 {
        return Err("time-limit must be positive".into());
    }
    let threads = match usize::try_from(options.threads) {
        Ok(0) => std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS),
        Ok(n) if n <= MAX_THREADS => n,
        _ => return Err(format!("threads must be an integer from 0 (all cores) to {MAX_THREADS}, got '{}'", options.threads)),
    };
    let compose_stages = match usize::try_from(options.compose_stages) {
        Ok(n) => n,
        Err(_) => return Err(format!("compose-stages must be a non-negative integer, got '{}'", options.compose_stages)),
    };
    Ok(StageOptions {
        compose_stages,
        sharded_params_variant: options.sharded_params_variant,
        cluster,
        microbatches,
        split_batch,
        cross_stage_cost,
        transfer_mode: super::cross_mesh_resharding::transfer_mode(&options.transfer_mode)?,
        delta: check_delta(options.delta)?,
        delta_given: options.given.delta,
        layers: options.layers.clone(),
        epsilon: number("epsilon", options.epsilon)?,
        imbalance_tolerance,
        shapes,
        schedule,
        time_limit,
        threads,
        report: text(&options.report),
        report_html: text(&options.report_html),
        slice: options.slice,
        shardings: options.shardings,
        baselines: options.baselines,
        transfers: options.transfers,
        combine: match text(&options.gradient_accumulation).as_str() {
            "mean" => GradientCombine::Mean,
            "sum" => GradientCombine::Sum,
            other => return Err(format!("gradient-accumulation must be mean or sum, got '{other}'")),
        },
    })
}

pub fn run(module: MlirOperation, options: &AlpaInterOpStageOptions) -> PassResult {
    // alpa-auto-shard runs this pass too: its diagnostics carry the name the user invoked.
    let pass = options.pass();
    let fail = |message: String| vec![Diagnostic::error(module, format!("{pass}: {message}"))];
    let entry = find_entry(module, &options.entry).map_err(|d| vec![d])?;
    let opts = parse_options(options).map_err(fail)?;
    check_not_partitioned(module, &opts.cluster).map_err(fail)?;
    // Layers inside a scan become ops of their own, so stages can be cut between them.
    super::unroll_loops::run_if_asked(module, options.unroll_loops, &options.entry, pass)?;
    let mut read = read_function(entry)?;
    let state = super::donation::apply(&mut read, entry, &options.donation, pass)?;
    let graph = &read.graph;
    if graph.ops().is_empty() {
        return Err(fail("the entry function has no ops to place in stages".into()));
    }
    let step = analyze(graph).ok();
    if step.is_some() && state.pairs.is_empty() && !graph.args.iter().any(|a| a.is_donated()) {
        return Err(fail(
            "the step returns a loss but no state that feeds back was found: it donates no argument (jax.jit donate_argnums) and no result updates an argument of the same type; name the state with donation=ARG:RESULT,...".into(),
        ));
    }
    let cluster_shape = ClusterShape::new(opts.cluster.hosts, opts.cluster.devices_per_host);
    let assignment =
        layer_assignment(graph, &read.handles, step.as_ref(), &opts.layers, opts.delta, opts.delta_given, cluster_shape.devices(), &fail)?;

    let layers = assignment.num_layers();
    let batch = match opts.split_batch {
        true => Some(batch_dims(graph).map_err(|e| fail(format!("cannot split the batch into microbatches: {e}")))?),
        false => None,
    };
    let context = PlanContext { graph, step: step.as_ref(), assignment: &assignment, batch: batch.as_ref(), opts: &opts, cluster_shape };

    let (chosen, search) = match opts.microbatches {
        Microbatches::Fixed(b) => (context.plan(b).map_err(fail)?, None),
        Microbatches::Auto { max } => {
            let global_batch = batch.as_ref().map_or(1, |d| d.global_batch.max(1) as usize);
            let candidates = microbatch_candidates(global_batch, max);
            let (_, trial, trials) = search_microbatches(&candidates, true, |b| {
                context.plan(b).map(|t| Planned { iteration_time: t.plan.plan.iteration_time, stages: t.plan.plan.stages.len(), value: t })
            })
            .map_err(|e| fail(format!("microbatches=auto: {e}")))?;
            (trial, Some(MicrobatchSearch { global_batch, trials }))
        }
    };
    let Trial { plan, table, dp_options, failures } = chosen;
    for failure in failures.iter().take(5) {
        Diagnostic::warning(entry.op, format!("{pass}: a stage candidate could not be planned: {failure:?}")).emit();
    }

    let stage_of_op: Vec<usize> = assignment
        .layer_of
        .iter()
        .map(|&layer| plan.plan.stages.iter().position(|s| s.layers.contains(&layer)).unwrap_or(0))
        .collect();
    annotate(module, entry.op, &read.handles, &assignment.layer_of, &stage_of_op, step.as_ref().map(|s| s.phase.as_slice()), &plan)
        .map_err(|e| fail(format!("writing alpa.pipeline: {e}")))?;

    // With cross-stage-cost=on the transfers are inside each stage's latency: the report says
    // how much of it they are.
    let mut plan = plan;
    if opts.cross_stage_cost {
        let graph = context.microbatch_graph(plan.plan.microbatches).map_err(fail)?;
        let oracle = context.oracle(graph.as_ref()).map_err(fail)?;
        for stage in &mut plan.plan.stages {
            stage.transfer = oracle.evaluate(stage.layers.clone(), stage.submesh, stage.logical_mesh).map_err(fail)?.transfer_seconds;
        }
    }
    // The equal-operator baseline needs its own layers, so its own table and DP.
    let equal_operator = if opts.baselines { context.equal_operator_plan(&dp_options) } else { None };
    let mut report = InterReport::new(
        &plan,
        &table,
        &dp_options,
        ReportCluster::from_cluster(&opts.cluster),
        &ReportExtras {
            layer_work: Some(LayerWork::from_clustering(&assignment.clustering)),
            equal_operator,
            microbatch_search: search.clone(),
        },
    );
    report.options.cross_stage_cost = opts.cross_stage_cost;
    write_output(&opts.report, || report.to_json_pretty()).map_err(|e| fail(format!("report: {e}")))?;
    write_output(&opts.report_html, || render_html(&report)).map_err(|e| fail(format!("report-html: {e}")))?;
    Diagnostic::remark(entry.op, summary(pass, &plan, layers, &auto_choice(&assignment.clustering), &opts, search.as_ref())).emit();

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
            ProgramError::Capture { op } => vec![Diagnostic::error(read.handles[op], format!("{pass}: {e}"))],
            other => fail(other.to_string()),
        })?;
        let placements: Vec<StagePlacement> = plan
            .plan
            .stages
            .iter()
            .zip(&plan.devices)
            .map(|(s, devices)| StagePlacement { devices: devices.clone(), logical_mesh: s.logical_mesh })
            .collect();
        // Each stage's intra-op plan (the one the DP priced) goes onto its functions.
        let oracle = context.oracle(graph).map_err(fail)?;
        let mut stage_plans = Vec::with_capacity(plan.plan.stages.len());
        for stage in &plan.plan.stages {
            let evaluation = oracle
                .evaluate(stage.layers.clone(), stage.submesh, stage.logical_mesh)
                .map_err(|e| fail(format!("re-planning stage layers {}..{}: {e}", stage.layers.start, stage.layers.end)))?;
            let mut result_specs = vec![None; graph.ops().len()];
            let mut operand_specs = vec![None; graph.ops().len()];
            for (position, &op) in evaluation.stage.ops.iter().enumerate() {
                if let Some(strategy) = evaluation.plan.ops.get(position) {
                    result_specs[op] = Some(strategy.result_specs.clone());
                    operand_specs[op] = Some(strategy.operand_specs.clone());
                }
            }
            let mut input_specs = HashMap::new();
            let mut arg_specs = HashMap::new();
            for (input, strategy) in evaluation.stage.inputs.iter().zip(&evaluation.plan.args) {
                let Some(spec) = strategy.as_ref().and_then(|s| s.result_specs.first().cloned().flatten()) else { continue };
                match input {
                    StageInput::Value { op, result } => {
                        input_specs.insert((*op, *result), spec);
                    }
                    StageInput::Arg(a) => {
                        arg_specs.insert(*a, spec);
                    }
                }
            }
            let resharding_steps = evaluation
                .plan
                .reshardings
                .iter()
                .filter_map(|r| Some(((*evaluation.stage.ops.get(r.op)?, r.operand), r.resharding.steps.clone())))
                .collect();
            stage_plans.push(StageShardings {
                logical_mesh: stage.logical_mesh,
                result_specs,
                input_specs,
                arg_specs,
                operand_specs,
                resharding_steps,
            });
        }
        let shardings_of = |op: usize, result: usize, from: usize, to: usize| {
            if opts.shardings { stage_shardings::transfer_shardings(&stage_plans, op, result, from, to) } else { None }
        };
        let clones = stage_slicing::emit(module, entry, &read.handles, &program, &graph.returned, &placements, opts.transfers, &shardings_of)
            .map_err(|e| fail(format!("slicing into stage functions: {e}")))?;
        if opts.shardings {
            stage_shardings::write(module, &clones, &stage_plans).map_err(|e| fail(format!("writing stage shardings: {e}")))?;
            stage_shardings::pin(module, graph, &program, &clones, &stage_plans).map_err(|e| fail(format!("pinning stage shardings: {e}")))?;
        }
    }
    Ok(())
}

/// The pass plans an unpartitioned step for the whole cluster: a module already partitioned
/// for another device count (or already carrying a Shardy mesh) does not match it.
fn check_not_partitioned(module: MlirOperation, cluster: &Cluster) -> Result<(), String> {
    let devices = cluster.hosts * cluster.devices_per_host;
    if let Some(partitions) = mlir::attribute(module, "mhlo.num_partitions").and_then(|a| mlir::attr_value(a).as_int()) {
        if partitions > 1 && partitions as usize != devices {
            return Err(format!(
                "the module is partitioned for {partitions} devices (mhlo.num_partitions) but cluster {} has {devices} ({} x {}); plan the unpartitioned step",
                cluster.name, cluster.hosts, cluster.devices_per_host
            ));
        }
    }
    let body = mlir::body_block(module).ok_or("the module has no body")?;
    if mlir::block_ops(body).into_iter().any(|op| mlir::op_name(op) == "sdy.mesh") {
        return Err("the module already carries a Shardy mesh (sdy.mesh): plan the unpartitioned step, the pass chooses each stage's mesh".into());
    }
    Ok(())
}

/// What planning one B needs; the same for every B.
struct PlanContext<'a> {
    graph: &'a Graph,
    step: Option<&'a TrainStep>,
    assignment: &'a LayerAssignment,
    batch: Option<&'a BatchDims>,
    opts: &'a StageOptions,
    cluster_shape: ClusterShape,
}

/// The plan for one B and what the report needs of it.
struct Trial {
    plan: PipelinePlan,
    table: CostTable,
    dp_options: StageDpOptions,
    failures: Vec<QueryFailure>,
}

impl PlanContext<'_> {
    /// Cost table, DP and placement for B = `microbatches` (on the graph of one microbatch of
    /// G / B examples when the batch is split; the op indices, and so the layers, stay).
    fn plan(&self, microbatches: usize) -> Result<Trial, String> {
        let opts = self.opts;
        let graph = self.microbatch_graph(microbatches)?;
        let graph = graph.as_ref();
        let oracle = self.oracle(graph)?;
        let signatures = oracle.layer_signatures();
        let cached = CachedCost::with_signatures(oracle, signatures).with_composition(opts.compose_stages);
        let layers = self.assignment.num_layers();
        let table_options = self.table_options();
        let dp_options = StageDpOptions {
            microbatches,
            mem_device: opts.cluster.device.memory_bytes as f64,
            epsilon: opts.epsilon,
            schedule: opts.schedule,
            time_limit: Some(Duration::from_secs_f64(opts.time_limit)),
            progress: true,
        };
        let (plan, table) = plan_pipeline_parallel(&cached, layers, self.cluster_shape, &table_options, &dp_options)
            .map_err(|e| plan_failure(&e, opts, microbatches))?;
        Ok(Trial { plan, table, dp_options, failures: cached.inner().failures() })
    }
}

impl<'a> PlanContext<'a> {
    /// The graph of one microbatch: the exported one, or 1 / B of it when the batch is split.
    fn microbatch_graph(&self, microbatches: usize) -> Result<Cow<'a, Graph>, String> {
        match self.batch {
            Some(dims) if microbatches > 1 => split_with(self.graph, dims, microbatches as i64)
                .map(Cow::Owned)
                .map_err(|e| format!("cannot split the batch into {microbatches} microbatches: {e}")),
            _ => Ok(Cow::Borrowed(self.graph)),
        }
    }

    /// The intra-op oracle of `graph` (one microbatch) with the pass's options.
    fn oracle<'g>(&self, graph: &'g Graph) -> Result<GraphStageOracle<'g>, String> {
        let opts = self.opts;
        let oracle_options = OracleOptions {
            solve: SolveOptions { time_limit: Some(opts.time_limit), ..SolveOptions::default() },
            progress: true,
            sharded_params_variant: opts.sharded_params_variant,
            cross_stage: opts.cross_stage_cost.then_some(opts.transfer_mode),
            ..OracleOptions::default()
        };
        GraphStageOracle::new(graph, self.assignment.layer_of.clone(), self.step, opts.cluster.clone(), oracle_options)
            .map_err(|e| e.to_string())
    }

    fn table_options(&self) -> TableOptions {
        TableOptions {
            shapes: self.opts.shapes,
            threads: self.opts.threads.max(1),
            imbalance: self
                .opts
                .imbalance_tolerance
                .map(|tolerance| ImbalancePrune { layer_flops: self.assignment.clustering.layer_flops.clone(), tolerance }),
            progress: true,
        }
    }

    /// The stage DP on layers of equal op count (the paper's equal-operator baseline) with the
    /// chosen plan's B; `None` when it has no feasible plan.
    fn equal_operator_plan(&self, dp_options: &StageDpOptions) -> Option<StagePlan> {
        let graph = self.microbatch_graph(dp_options.microbatches).ok()?;
        let graph = graph.as_ref();
        let layers = equal_operator_layers(graph, self.step, self.assignment.num_layers(), self.opts.delta).ok()?;
        let oracle_options = OracleOptions {
            solve: SolveOptions { time_limit: Some(self.opts.time_limit), ..SolveOptions::default() },
            sharded_params_variant: self.opts.sharded_params_variant,
            cross_stage: self.opts.cross_stage_cost.then_some(self.opts.transfer_mode),
            ..OracleOptions::default()
        };
        let oracle =
            GraphStageOracle::new(graph, layers.layer_of.clone(), self.step, self.opts.cluster.clone(), oracle_options).ok()?;
        let signatures = oracle.layer_signatures();
        let cached = CachedCost::with_signatures(oracle, signatures).with_composition(self.opts.compose_stages);
        let table_options = TableOptions { imbalance: None, progress: false, ..self.table_options() };
        let dp_options = StageDpOptions { progress: false, ..dp_options.clone() };
        plan_pipeline_parallel(&cached, layers.num_layers(), self.cluster_shape, &table_options, &dp_options)
            .ok()
            .map(|(p, _)| p.plan)
    }
}

/// Per-boundary transfer times: the bytes crossing each layer boundary over the link between
/// stages. Consecutive stages may share a host, but the DP places no stage on a host yet, so a
/// multi-host cluster is charged its inter-host link (an upper bound); one host, its own link.
fn plan_failure(error: &InterError, opts: &StageOptions, microbatches: usize) -> String {
    // The ILP's plans minimise time and may replicate every parameter; say what could help.
    let hint = match error {
        InterError::NoStagePlan { .. } if !opts.sharded_params_variant => {
            " (sharded-params-variant=true also offers each stage with its parameters sharded)"
        }
        _ => "",
    };
    format!(
        "no pipeline plan for cluster {} ({} x {} devices, {} per device) with {} microbatches: {error}{hint}",
        opts.cluster.name,
        opts.cluster.hosts,
        opts.cluster.devices_per_host,
        human_bytes(opts.cluster.device.memory_bytes),
        microbatches
    )
}

/// `alpa.stage` on every op (the stage owning its layer) and `alpa.pipeline` on the entry.
fn annotate(
    module: MlirOperation,
    entry: MlirOperation,
    handles: &[MlirOperation],
    layer_of: &[usize],
    stage_of_op: &[usize],
    phases: Option<&[Phase]>,
    plan: &PipelinePlan,
) -> Result<(), String> {
    let context = mlir::context(module);
    for (index, (handle, &layer)) in handles.iter().zip(layer_of).enumerate() {
        mlir::set_i64_attr(*handle, "alpa.layer", layer as i64);
        mlir::set_i64_attr(*handle, "alpa.stage", stage_of_op[index] as i64);
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
        .plan
        .stages
        .iter()
        .zip(&plan.devices)
        .map(|(s, devices)| {
            let ids: Vec<String> = devices.iter().map(|d| d.to_string()).collect();
            format!(
                "{{layers = array<i64: {}, {}>, submesh = array<i64: {}, {}>, logical_mesh = array<i64: {}, {}>, devices = array<i64: {}>, latency = {}}}",
                s.layers.start,
                s.layers.end,
                s.submesh.hosts,
                s.submesh.devices_per_host,
                s.logical_mesh[0],
                s.logical_mesh[1],
                ids.join(", "),
                mlir::f64_attr_text(s.latency)
            )
        })
        .collect();
    let text = format!("[{}]", stages.join(", "));
    mlir::set_attr(entry, "alpa.pipeline", mlir::parse_attr(context, &text)?);
    mlir::set_attr(entry, "alpa.microbatches", mlir::parse_attr(context, &format!("{} : i64", plan.plan.microbatches))?);
    Ok(())
}

fn summary(pass: &str, plan: &PipelinePlan, layers: usize, layer_choice: &str, opts: &StageOptions, search: Option<&MicrobatchSearch>) -> String {
    let stages: Vec<String> = plan
        .plan
        .stages
        .iter()
        .zip(&plan.devices)
        .map(|(s, d)| {
            format!(
                "layers {}..{} on {}x{} (logical {}x{}, devices {}..={}) {:.3} ms",
                s.layers.start,
                s.layers.end,
                s.submesh.hosts,
                s.submesh.devices_per_host,
                s.logical_mesh[0],
                s.logical_mesh[1],
                d.first().copied().unwrap_or(0),
                d.last().copied().unwrap_or(0),
                s.latency * 1e3
            )
        })
        .collect();
    let how = match search {
        Some(m) => {
            let tried: Vec<String> = m
                .trials
                .iter()
                .map(|t| match t.iteration_time {
                    Some(time) => format!("{}: {:.3} ms", t.microbatches, time * 1e3),
                    None => format!("{}: no plan", t.microbatches),
                })
                .collect();
            format!(", chosen by auto from global batch {} ({})", m.global_batch, tried.join(", "))
        }
        None if opts.split_batch => ", split from the exported batch".to_string(),
        None => String::new(),
    };
    let transfers = if opts.cross_stage_cost { " with cross-stage transfers" } else { "" };
    format!(
        "{pass}: {} stages over {layers} layers{layer_choice} on {} ({} microbatches{how}): iteration {:.3} ms modeled{transfers}; {}; {} oracle queries, {} cache hits",
        plan.plan.stages.len(),
        opts.cluster.name,
        plan.plan.microbatches,
        plan.plan.iteration_time * 1e3,
        stages.join("; "),
        plan.queries.queries,
        plan.queries.cache_hits
    )
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
