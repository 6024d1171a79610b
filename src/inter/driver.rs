//! The inter-op pass's orchestration (paper §5 and what this project adds around it), free of
//! MLIR: the pass options checked into `DriverOptions`, B given or searched
//! (`microbatches=auto`, inter/microbatches.rs) over the graph of one microbatch
//! (ir/batch_split.rs), the cost table, stage DP and placement per B, the cross-stage transfer
//! share of each stage (`cross-stage-cost=on`), the equal-operator baseline, the report, and the
//! per-stage re-planning whose shardings go onto the stage functions.
//!
//! src/passes/inter_op_stage.rs reads the IR, calls `plan_inter_op` and `stage_shardings`, and
//! writes the IR.

use super::deadline::Deadline;
use super::graph_oracle::{GraphStageOracle, OracleOptions, QueryFailure, StageInput};
use super::layer_assignment::LayerId;
use super::layer_policy::check_delta;
use super::program::GradientCombine;
use super::progress::Progress;
use super::{
    equal_operator_layers, microbatch_candidates, parse_manual_stages, plan_manual_stages, plan_pipeline_parallel,
    search_microbatches, CachedCost, ClusterShape, CostTable, ImbalancePrune, InterError, InterReport, LayerAssignment,
    LayerWork, ManualStage, MicrobatchSearch, PipelinePlan, PlacedStage, Planned, ReportCluster, ReportExtras,
    Schedule, SharedAnswers, StageDpOptions, StagePlan, SubmeshSpace, TableOptions,
};
use crate::cluster::Cluster;
use crate::intra::config::MAX_MESH_DEVICES;
use crate::intra::SolveOptions;
use crate::ir::batch_split::{batch_dims, split_with, BatchDims};
use crate::ir::graph::Graph;
use crate::ir::summary::human_bytes;
use crate::ir::train_step::TrainStep;
use crate::pass_options::AlpaInterOpStageOptions;
use crate::sharding::ShardingSpec;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// The most microbatches a plan may use: `@main` holds one call per stage function and
/// microbatch, so B sizes the emitted program (Alpa's runs use tens).
pub const MAX_MICROBATCHES: usize = 4096;

/// The most worker threads the stage queries may use (each is an OS thread).
pub const MAX_THREADS: usize = 256;

/// B: given, or searched over the divisors of the global batch up to a cap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Microbatches {
    Fixed(usize),
    Auto { max: usize },
}

/// The pass options, checked.
pub struct DriverOptions {
    pub cluster: Cluster,
    pub microbatches: Microbatches,
    /// The exported step is the global batch; each microbatch gets 1 / B of it.
    pub split_batch: bool,
    pub cross_stage_cost: bool,
    pub transfer_mode: crate::resharding::Mode,
    pub delta: f64,
    /// The user chose delta: layers=auto may not raise it.
    pub delta_given: bool,
    /// Option `layers`: a count, auto or user.
    pub layers: String,
    pub epsilon: f64,
    pub imbalance_tolerance: Option<f64>,
    pub shapes: SubmeshSpace,
    pub schedule: Schedule,
    /// Solver limit of one (range, logical mesh) plan, and of the DP's t_max enumeration.
    pub time_limit: f64,
    pub threads: usize,
    /// Ranges longer than this many layers are composed from windows (0: all exact).
    pub compose_stages: usize,
    /// Also plan every stage with sharded parameters.
    pub sharded_params_variant: bool,
    pub report: String,
    pub report_html: String,
    /// Slice a train step into stage functions (off: annotations only).
    pub slice: bool,
    /// Mark values crossing stages with `alpa.transfer` (off: plain values, runnable on one
    /// device as is).
    pub transfers: bool,
    pub combine: GradientCombine,
    /// Write each stage's intra-op shardings (`sdy.sharding`) into its functions.
    pub shardings: bool,
    /// Also plan the equal-operator baseline (its own table and DP) for the report.
    pub baselines: bool,
    /// How long the baseline's table may take (`None`: no limit).
    pub baseline_time_limit: Option<Duration>,
    /// `stages=`: the user's stages instead of the DP's.
    pub manual_stages: Option<Vec<ManualStage>>,
}

impl DriverOptions {
    /// The options of alpa-inter-op-stage / alpa-auto-shard, checked; loads the cluster.
    pub fn new(options: &AlpaInterOpStageOptions) -> Result<DriverOptions, String> {
        let text = |value: &str| value.trim().to_string();
        let number = |name: &str, value: f64| -> Result<f64, String> {
            Some(value)
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or(format!("{name} must be a non-negative number, got '{value}'"))
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
                _ => {
                    return Err(format!(
                        "microbatches must be auto or an integer from 1 to {MAX_MICROBATCHES}, got '{t}'"
                    ))
                }
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
            0.0 => None,
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
            _ => {
                return Err(format!(
                    "threads must be an integer from 0 (all cores) to {MAX_THREADS}, got '{}'",
                    options.threads
                ))
            }
        };
        let compose_stages = match usize::try_from(options.compose_stages) {
            Ok(n) => n,
            Err(_) => {
                return Err(format!("compose-stages must be a non-negative integer, got '{}'", options.compose_stages))
            }
        };
        let transfer_mode = options.transfer_mode.trim().parse().map_err(|_| {
            format!("mode must be send-recv, local-all-gather, broadcast or auto, got '{}'", options.transfer_mode)
        })?;
        Ok(DriverOptions {
            compose_stages,
            sharded_params_variant: options.sharded_params_variant,
            cluster,
            microbatches,
            split_batch,
            cross_stage_cost,
            transfer_mode,
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
            // 0, or more seconds than a Duration holds: no limit.
            baseline_time_limit: match number("baseline-time-limit", options.baseline_time_limit)? {
                0.0 => None,
                v => Duration::try_from_secs_f64(v).ok(),
            },
            manual_stages: match text(&options.stages).as_str() {
                "" => None,
                t => Some(parse_manual_stages(t)?),
            },
            transfers: options.transfers,
            combine: match text(&options.gradient_accumulation).as_str() {
                "auto" => GradientCombine::Auto,
                "mean" => GradientCombine::Mean,
                "sum" => GradientCombine::Sum,
                other => return Err(format!("gradient-accumulation must be auto, mean or sum, got '{other}'")),
            },
        })
    }

    pub fn cluster_shape(&self) -> ClusterShape {
        ClusterShape::new(self.cluster.hosts, self.cluster.devices_per_host)
    }
}

/// What the inter-op pass plans for a graph: the chosen pipeline and its report.
pub struct InterOpPlan {
    pub plan: PipelinePlan,
    pub report: InterReport,
    /// The B search (`microbatches=auto`), when there was one.
    pub search: Option<MicrobatchSearch>,
    /// Stage candidates the intra-op pass could not plan.
    pub failures: Vec<QueryFailure>,
}

/// Plans `graph` (its layers `assignment`) for the cluster: B given or searched, the stage
/// DP's plan, its cross-stage transfer times (`cross-stage-cost=on`) and the report with the
/// equal-operator baseline.
pub fn plan_inter_op(
    graph: &Graph,
    step: Option<&TrainStep>,
    assignment: &LayerAssignment,
    opts: &DriverOptions,
) -> Result<InterOpPlan, String> {
    let batch = match opts.split_batch {
        true => Some(batch_dims(graph).map_err(|e| format!("cannot split the batch into microbatches: {e}"))?),
        false => None,
    };
    let context =
        PlanContext { graph, step, assignment, batch: batch.as_ref(), opts, cluster_shape: opts.cluster_shape() };

    let (chosen, search) = match opts.microbatches {
        Microbatches::Fixed(b) => (context.plan(b)?, None),
        Microbatches::Auto { max } => {
            let global_batch = batch.as_ref().map_or(1, |d| d.global_batch.max(1) as usize);
            let candidates = microbatch_candidates(global_batch, max);
            let (_, trial, trials) = search_microbatches(&candidates, true, |b| {
                context.plan(b).map(|t| Planned {
                    iteration_time: t.plan.plan.iteration_time,
                    stages: t.plan.plan.stages.len(),
                    value: t,
                })
            })
            .map_err(|e| format!("microbatches=auto: {e}"))?;
            (trial, Some(MicrobatchSearch { global_batch, trials }))
        }
    };
    let Trial { mut plan, table, dp_options, failures, answers } = chosen;

    // With cross-stage-cost=on the transfers are inside each stage's latency: the report says
    // how much of it they are.
    if opts.cross_stage_cost {
        let graph = context.microbatch_graph(plan.plan.microbatches)?;
        let oracle = context.oracle_on_layers(graph.as_ref(), assignment.layer_of.clone(), None)?;
        for stage in &mut plan.plan.stages {
            stage.transfer = oracle.evaluate(stage.layers.clone(), stage.submesh, stage.logical_mesh)?.transfer_seconds;
        }
    }
    // The equal-operator baseline needs its own layers, so its own table and DP. Fixed stages
    // have no table for the baselines to read.
    let baselines = opts.baselines && opts.manual_stages.is_none();
    let (equal_operator, equal_operator_note) = match baselines {
        true => match context.equal_operator_plan(&dp_options, answers) {
            EqualOperator::Planned(plan) => (Some(plan), None),
            EqualOperator::NoPlan => (None, None),
            EqualOperator::TimeLimit(limit) => (
                None,
                Some(format!(
                    "not computed: its own cost table passed baseline-time-limit={} s (0: no limit)",
                    limit.as_secs_f64()
                )),
            ),
        },
        false => (None, None),
    };
    let mut report = InterReport::new(
        &plan,
        &table,
        &dp_options,
        ReportCluster::from_cluster(&opts.cluster),
        &ReportExtras {
            layer_work: Some(LayerWork::from_clustering(&assignment.clustering)),
            equal_operator,
            equal_operator_note,
            microbatch_search: search.clone(),
            fixed_stages: opts
                .manual_stages
                .as_ref()
                .map(|stages| stages.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(",")),
        },
    );
    report.options.cross_stage_cost = opts.cross_stage_cost;
    Ok(InterOpPlan { plan, report, search, failures })
}

/// The plan of one stage: its logical mesh and, per op of the entry (by index), the result
/// shardings its strategy produces (`None` for ops of other stages).
pub struct StageShardings {
    pub logical_mesh: [usize; 2],
    pub result_specs: Vec<Option<Vec<Option<ShardingSpec>>>>,
    /// The sharding the stage's plan takes each value from another stage in, by (op, result).
    pub input_specs: HashMap<(usize, usize), ShardingSpec>,
    /// The sharding the stage's plan takes each entry argument it reads in.
    pub arg_specs: HashMap<usize, ShardingSpec>,
    /// Per op of the entry (of this stage), the sharding its strategy needs of each operand.
    pub operand_specs: Vec<Option<Vec<Option<ShardingSpec>>>>,
    /// Per (entry op, operand): the layouts the planned resharding passes through.
    pub resharding_steps: HashMap<(usize, usize), Vec<ShardingSpec>>,
}

/// Each stage of `plan` planned again (the intra-op plan the DP priced) on the exported graph
/// (one microbatch), indexed by the entry's ops, for the stage functions.
pub fn stage_shardings(
    graph: &Graph,
    step: Option<&TrainStep>,
    assignment: &LayerAssignment,
    opts: &DriverOptions,
    plan: &PipelinePlan,
) -> Result<Vec<StageShardings>, String> {
    let context = PlanContext { graph, step, assignment, batch: None, opts, cluster_shape: opts.cluster_shape() };
    let oracle = context.oracle_on_layers(graph, assignment.layer_of.clone(), None)?;
    let mut stage_plans = Vec::with_capacity(plan.plan.stages.len());
    for stage in &plan.plan.stages {
        let evaluation = oracle
            .evaluate(stage.layers.clone(), stage.submesh, stage.logical_mesh)
            .map_err(|e| format!("re-planning stage layers {}..{}: {e}", stage.layers.start, stage.layers.end))?;
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
            let Some(spec) = strategy.as_ref().and_then(|s| s.result_specs.first().cloned().flatten()) else {
                continue;
            };
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
            .filter_map(|r| Some(((*evaluation.stage.ops.get(r.op.index())?, r.operand), r.resharding.steps.clone())))
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
    Ok(stage_plans)
}

/// The pass's remark: the stages, B and how it was chosen, the modeled iteration time.
pub fn summary(
    pass: &str,
    plan: &PipelinePlan,
    layers: usize,
    layer_choice: &str,
    opts: &DriverOptions,
    search: Option<&MicrobatchSearch>,
) -> String {
    let stages: Vec<String> = plan
        .placed_stages()
        .map(|PlacedStage { layers, submesh: [hosts, per_host], logical_mesh: [rows, cols], devices, latency }| {
            let (first, last) = (devices.first().copied().unwrap_or(0), devices.last().copied().unwrap_or(0));
            let ms = latency * 1e3;
            format!(
                "layers {layers:?} on {hosts}x{per_host} (logical {rows}x{cols}, devices {first}..={last}) {ms:.3} ms"
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

/// What planning one B needs; the same for every B.
struct PlanContext<'a> {
    graph: &'a Graph,
    step: Option<&'a TrainStep>,
    assignment: &'a LayerAssignment,
    batch: Option<&'a BatchDims>,
    opts: &'a DriverOptions,
    cluster_shape: ClusterShape,
}

/// The plan for one B and what the report needs of it.
struct Trial {
    plan: PipelinePlan,
    table: CostTable,
    dp_options: StageDpOptions,
    failures: Vec<QueryFailure>,
    /// The stage answers of this B's oracle, for the equal-operator baseline's (same graph).
    answers: Arc<SharedAnswers>,
}

impl PlanContext<'_> {
    /// Cost table, DP and placement for B = `microbatches` (on the graph of one microbatch of
    /// G / B examples when the batch is split; the op indices, and so the layers, stay).
    fn plan(&self, microbatches: usize) -> Result<Trial, String> {
        let opts = self.opts;
        let graph = self.microbatch_graph(microbatches)?;
        let graph = graph.as_ref();
        let answers = Arc::new(SharedAnswers::default());
        let oracle = self.oracle_on_layers(graph, self.assignment.layer_of.clone(), Some(answers.clone()))?;
        let signatures = oracle.layer_signatures();
        let cached = CachedCost::with_signatures(oracle, signatures).with_composition(opts.compose_stages);
        let layers = self.assignment.num_layers();
        let table_options = self.table_options();
        let dp_options = StageDpOptions {
            microbatches,
            mem_device: opts.cluster.device.memory_bytes as f64,
            epsilon: opts.epsilon,
            schedule: opts.schedule,
            // More seconds than a Duration holds: no limit.
            time_limit: Duration::try_from_secs_f64(opts.time_limit).ok(),
            progress: true,
        };
        let (plan, table) = match &opts.manual_stages {
            Some(stages) => plan_manual_stages(&cached, stages, layers, self.cluster_shape, &dp_options),
            None => plan_pipeline_parallel(&cached, layers, self.cluster_shape, &table_options, &dp_options),
        }
        .map_err(|e| plan_failure(&e, opts, microbatches))?;
        Ok(Trial { plan, table, dp_options, failures: cached.inner().failures(), answers })
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

    /// The intra-op oracle of `graph` (one microbatch) on the layers `layer_of`, with the
    /// pass's solver time limit, variants and transfer pricing; with `shared`, it shares its
    /// answers with the other oracles of `graph` that hold it.
    fn oracle_on_layers<'g>(
        &self,
        graph: &'g Graph,
        layer_of: Vec<LayerId>,
        shared: Option<Arc<SharedAnswers>>,
    ) -> Result<GraphStageOracle<'g>, String> {
        let opts = self.opts;
        let options = OracleOptions {
            solve: SolveOptions { time_limit: Some(opts.time_limit), ..SolveOptions::default() },
            progress: true,
            sharded_params_variant: opts.sharded_params_variant,
            cross_stage: opts.cross_stage_cost.then_some(opts.transfer_mode),
            ..OracleOptions::default()
        };
        let oracle = GraphStageOracle::new(graph, layer_of, self.step, opts.cluster.clone(), options)
            .map_err(|e| e.to_string())?;
        Ok(match shared {
            Some(shared) => oracle.with_shared_answers(shared),
            None => oracle,
        })
    }

    fn table_options(&self) -> TableOptions {
        TableOptions {
            shapes: self.opts.shapes,
            threads: self.opts.threads.max(1),
            imbalance: self.opts.imbalance_tolerance.map(|tolerance| ImbalancePrune {
                layer_flops: self.assignment.clustering.layer_flops.clone(),
                tolerance,
            }),
            progress: true,
            baselines: true,
        }
    }

    /// The stage DP on layers of equal op count (the paper's equal-operator baseline) with the
    /// chosen plan's B and the stage answers of its oracle, its table cut at
    /// `baseline-time-limit`.
    fn equal_operator_plan(&self, dp_options: &StageDpOptions, answers: Arc<SharedAnswers>) -> EqualOperator {
        let Ok(graph) = self.microbatch_graph(dp_options.microbatches) else { return EqualOperator::NoPlan };
        let graph = graph.as_ref();
        let Ok(layers) = equal_operator_layers(graph, self.step, self.assignment.num_layers(), self.opts.delta) else {
            return EqualOperator::NoPlan;
        };
        // Its own table can take as long as the plan's: the same progress lines, after one
        // that says whose they are.
        let progress = Progress::new(true, "equal-operator baseline");
        let limit = self.opts.baseline_time_limit;
        progress.say(|| {
            format!(
                "planning its own cost table ({} layers of equal op count{}; baselines=false skips it)",
                layers.num_layers(),
                limit.map_or(String::new(), |l| format!(", at most {} s: baseline-time-limit", l.as_secs_f64()))
            )
        });
        let Ok(oracle) = self.oracle_on_layers(graph, layers.layer_of.clone(), Some(answers)) else {
            return EqualOperator::NoPlan;
        };
        let signatures = oracle.layer_signatures();
        let oracle = Deadline::new(oracle, limit);
        let cached = CachedCost::with_signatures(&oracle, signatures).with_composition(self.opts.compose_stages);
        // Only its plan is reported, not baselines on its table.
        let table_options = TableOptions { imbalance: None, baselines: false, ..self.table_options() };
        let dp_options = StageDpOptions { progress: false, ..dp_options.clone() };
        let plan =
            plan_pipeline_parallel(&cached, layers.num_layers(), self.cluster_shape, &table_options, &dp_options);
        match (oracle.expired(), plan) {
            (true, _) => {
                progress.say(|| "stopped at baseline-time-limit: the report lists it as not computed".to_string());
                EqualOperator::TimeLimit(limit.unwrap_or_default())
            }
            (false, Ok((p, _))) => EqualOperator::Planned(p.plan),
            (false, Err(_)) => EqualOperator::NoPlan,
        }
    }
}

/// What became of the equal-operator baseline.
enum EqualOperator {
    Planned(StagePlan),
    NoPlan,
    /// Its table passed `baseline-time-limit` (this long).
    TimeLimit(Duration),
}

fn plan_failure(error: &InterError, opts: &DriverOptions, microbatches: usize) -> String {
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
