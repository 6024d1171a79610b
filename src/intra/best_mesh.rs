//! alpa-intra-op-shard's entry, free of MLIR: its options checked into `ShardOptions`, then
//! "plan on the best logical mesh": the intra-op plan on every candidate mesh (the one given,
//! or with `logical-mesh=auto` every logical shape of its devices) and the cheapest kept.

use super::config::{mesh_config, parse_bytes, parse_output_format, OutputFormat};
use super::options::IntraOptions;
use super::plan::{IntraPlan, PlanError};
use super::planner::plan_intra_op;
use super::report::CandidateReport;
use super::solution::SolveOptions;
use crate::cluster::DeviceMesh;
use crate::ir::graph::Graph;
use crate::ir::summary::human_bytes;
use crate::pass_options::AlpaIntraOpShardOptions;
use crate::sharding::strategy::StrategyOptions;

/// Graphs at least this large print solver progress on stderr.
const VERBOSE_SOLVE_OPS: usize = 5000;

/// The options of alpa-intra-op-shard, checked.
pub struct ShardOptions {
    /// The meshes to try: one, or every logical shape of its devices.
    pub meshes: Vec<DeviceMesh>,
    pub format: OutputFormat,
    pub memory_budget: Option<u64>,
    pub time_limit: f64,
    pub force_batch_dim_to_mesh_dim: Option<usize>,
    pub allow_replicated_parameters: bool,
    pub merge_trivial_ops: bool,
    pub prefer_reduce_scatter: bool,
    /// Where the JSON report goes ("": nowhere, "-": stderr).
    pub report: String,
}

impl ShardOptions {
    pub fn new(options: &AlpaIntraOpShardOptions) -> Result<ShardOptions, String> {
        let mesh_config =
            mesh_config(&options.mesh, &options.cluster, &options.alpha, &options.beta, &options.logical_mesh)?;
        let format = parse_output_format(&options.format)?;
        let memory_budget = match options.memory_budget.trim() {
            "" => None,
            text => Some(parse_bytes(text).map_err(|e| format!("memory-budget: {e}"))?),
        };
        let time_limit = options.time_limit;
        if !(time_limit.is_finite() && time_limit > 0.0) {
            return Err("time-limit must be a positive number of seconds".into());
        }
        let force_batch_dim_to_mesh_dim = match options.force_batch_dim_to_mesh_dim {
            -1 => None,
            axis @ (0 | 1) => Some(axis as usize),
            other => return Err(format!("force-batch-dim-to-mesh-dim must be -1, 0 or 1, got {other}")),
        };
        Ok(ShardOptions {
            meshes: mesh_config.meshes()?,
            format,
            memory_budget,
            time_limit,
            force_batch_dim_to_mesh_dim,
            allow_replicated_parameters: options.allow_replicated_parameters,
            merge_trivial_ops: options.merge_trivial_ops,
            prefer_reduce_scatter: options.prefer_reduce_scatter,
            report: options.report.trim().to_string(),
        })
    }

    fn on_mesh(&self, mesh: &DeviceMesh, verbose: bool) -> IntraOptions {
        IntraOptions {
            mesh: mesh.clone(),
            strategy: StrategyOptions {
                force_batch_dim_to_mesh_dim: self.force_batch_dim_to_mesh_dim,
                ..StrategyOptions::default()
            },
            allow_replicated_parameters: self.allow_replicated_parameters,
            memory_budget: self.memory_budget,
            merge_trivial_ops: self.merge_trivial_ops,
            prefer_reduce_scatter: self.prefer_reduce_scatter,
            price_shared_moves: false,
            // Large problems take a while: the solver then reports its progress on stderr.
            solve: SolveOptions { time_limit: Some(self.time_limit), verbose, ..SolveOptions::default() },
        }
    }
}

/// The cheapest plan over the candidate meshes.
pub struct BestMeshPlan {
    pub plan: IntraPlan,
    /// Index into `ShardOptions::meshes`.
    pub mesh_index: usize,
    /// Every mesh tried, for the report.
    pub candidates: Vec<CandidateReport>,
}

/// Plans `graph` on every mesh of `options` and keeps the least objective. No mesh fitting the
/// memory budget is `PlanError::OutOfMemory` with the least memory any mesh's plan needs.
pub fn plan_on_best_mesh(graph: &Graph, options: &ShardOptions) -> Result<BestMeshPlan, PlanError> {
    let verbose = graph.ops().len() >= VERBOSE_SOLVE_OPS;
    let mut best: Option<(IntraPlan, usize)> = None;
    let mut candidates = Vec::new();
    let mut out_of_memory: Option<(f64, Option<f64>)> = None;
    for (index, mesh) in options.meshes.iter().enumerate() {
        match plan_intra_op(graph, &options.on_mesh(mesh, verbose)) {
            Ok(plan) => {
                candidates.push(CandidateReport {
                    shape: mesh.shape,
                    objective: Some((plan.objective * 1e6).round() / 1e6),
                    error: None,
                });
                if best.as_ref().is_none_or(|(b, _)| plan.objective < b.objective) {
                    best = Some((plan, index));
                }
            }
            Err(PlanError::OutOfMemory { least_memory, cheapest_plan_memory, .. }) => {
                if out_of_memory.is_none_or(|(least, _)| least_memory < least) {
                    out_of_memory = Some((least_memory, cheapest_plan_memory));
                }
                candidates.push(CandidateReport {
                    shape: mesh.shape,
                    objective: None,
                    error: Some("out of memory".into()),
                });
            }
            Err(other) => return Err(other),
        }
    }
    match best {
        Some((plan, mesh_index)) => Ok(BestMeshPlan { plan, mesh_index, candidates }),
        None => {
            let (least_memory, cheapest_plan_memory) = out_of_memory.unwrap_or((f64::NAN, None));
            Err(PlanError::OutOfMemory {
                budget: options.memory_budget.unwrap_or(0),
                least_memory,
                cheapest_plan_memory,
            })
        }
    }
}

/// What the pass says when no mesh's plan fits the memory budget.
pub fn out_of_memory_message(budget: u64, least_memory: f64, cheapest_plan_memory: Option<f64>) -> String {
    let cheapest = cheapest_plan_memory
        .map_or(String::new(), |c| format!("; the cheapest plan needs {} per device", human_bytes(c.ceil() as u64)));
    format!(
        "no plan fits in memory-budget={} per device: the least-memory plan needs {} per device{cheapest}",
        human_bytes(budget),
        human_bytes(least_memory.ceil() as u64)
    )
}
