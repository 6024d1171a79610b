//! The stage cost oracle of the stage DP on a real graph (paper §5.2): a layer range is cut out
//! of the function as its own sub-graph and planned by the intra-op pass on every logical mesh
//! of the submesh.
//!
//! For layers `k..i` on a submesh of `d` devices viewed as the logical mesh [a, b]:
//! - latency = compute + communication + resharding, in seconds, where
//!   compute = sum over the stage's ops of FLOPs / (p x peak FLOP/s of the op's element type)
//!   with p the number of devices the op's chosen strategy splits it over (its parallelism:
//!   d for a heavy op split over every mesh axis, as Alpa's strategies are, 1 for an op
//!   computed replicated on every device), and communication + resharding are the collectives
//!   of the intra-op plan's strategies and the conversions between them, priced by the
//!   cluster's alpha-beta links on that mesh. (Dividing every op by d instead would let a plan
//!   whose ops fall back to replicated computation, where no even split exists, look both
//!   communication-free and perfectly parallel.)
//! - mem_param = sum over the stage's donated arguments (parameters, optimizer state) of their
//!   per-device bytes as the plan shards them, twice for a parameter a forward op of the stage
//!   reads (its gradient has the parameter's size and sharding);
//! - mem_act = the per-device bytes, as sharded by the plan, of every forward value that a
//!   backward op of the stage reads: forward results of the stage's own ops, and stage inputs
//!   that are forward activations of an earlier stage or per-microbatch inputs (non-donated
//!   arguments). 1F1B keeps exactly these alive from a microbatch's forward to its backward.
//!   Without a train step there is no backward pass and mem_act is 0.
//!
//! A (range, logical mesh) the planner cannot handle is dropped and recorded as a
//! [`QueryFailure`]; a range with no plan on any logical mesh has no options.
//!
//! The ILP minimises time and its own memory model is not the DP's, so the plan it returns
//! may keep parameters replicated (data parallelism) where the stage then does not fit.
//! With [`OracleOptions::sharded_params_variant`] every logical mesh is planned a second time
//! with no parameter fully replicated (sharded over some mesh axis: tensor parallelism or
//! ZeRO-3 style), and both plans are options, in that order; the DP takes the fastest that
//! fits at each pipeline depth. A first plan proven optimal that already replicates no
//! argument a sharded layout divides is the second's optimum too and is not solved again (on
//! one device, always).
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §5.

use super::error::InterError;
use super::layer_assignment::LayerId;
pub use super::layer_signature::layer_signatures;
use super::layer_signature::signatures;
use super::parallel::map_in_threads;
use super::progress::Progress;
use super::shared_answers::SharedAnswers;
use super::stage_cost::{StageCost, StageCostResult, StageFloor};
use super::stage_floor::FloorData;
pub use super::stage_graph::{StageGraph, StageInput};
use super::submesh::{logical_meshes, SubmeshShape};
use crate::cluster::mesh::{DeviceMesh, PhysicalSubmesh};
use crate::cluster::spec::Cluster;
use crate::intra::options::IntraOptions;
use crate::intra::plan::{IntraPlan, PlanError};
use crate::intra::planner::plan_intra_op;
use crate::intra::solution::{SolveOptions, SolveStatus};
use crate::ir::fused_traffic::{fused_kernels, FusedKernels};
use crate::ir::graph::{Graph, ValueRef};
use crate::ir::op_time::op_seconds;
use crate::ir::train_step::{Phase, TrainStep};
use crate::ir::types::ValueType;
use crate::sharding::strategy::{argument_strategies, StrategyOptions};
use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// How the oracle runs the intra-op pass. The mesh of [`IntraOptions`] is set per query; the
/// memory budget is left to the stage DP (it checks mem_param + s x mem_act itself).
#[derive(Clone, Debug)]
pub struct OracleOptions {
    pub strategy: StrategyOptions,
    pub allow_replicated_parameters: bool,
    pub merge_trivial_ops: bool,
    /// Solver options of every plan; `solve.time_limit` is the limit of one (range, logical
    /// mesh) plan.
    pub solve: SolveOptions,
    /// Periodic progress lines on stderr while queries run.
    pub progress: bool,
    /// Per-device budget of the intra-op ILP's live values (None: unconstrained, the DP's
    /// memory rule alone decides).
    pub memory_budget: Option<u64>,
    /// Also plan every logical mesh with parameters sharded (see the module doc).
    pub sharded_params_variant: bool,
    /// `cross-stage-cost=on`: each stage's latency also pays for handing its values to other
    /// stages, priced by the cross-mesh planner in this mode (stage_transfers.rs).
    pub cross_stage: Option<crate::resharding::Mode>,
}

impl Default for OracleOptions {
    fn default() -> Self {
        OracleOptions {
            strategy: StrategyOptions::default(),
            allow_replicated_parameters: true,
            merge_trivial_ops: true,
            solve: SolveOptions { time_limit: Some(10.0), ..SolveOptions::default() },
            progress: false,
            memory_budget: None,
            sharded_params_variant: false,
            cross_stage: None,
        }
    }
}

/// Why one (layer range, logical mesh) has no plan.
#[derive(Clone, Debug, PartialEq)]
pub struct QueryFailure {
    pub layers: Range<usize>,
    pub submesh: SubmeshShape,
    pub logical_mesh: [usize; 2],
    pub message: String,
}

/// One stage planned on one logical mesh: the cost the DP sees and its parts.
#[derive(Clone, Debug)]
pub struct StageEvaluation {
    pub cost: StageCostResult,
    /// FLOPs / (the op's parallelism x peak), summed over the stage's ops.
    pub compute_seconds: f64,
    /// What running the stage's work as XLA programs adds: each kernel that would take less
    /// than a launch takes the launch, and each program its dispatch (`runtime_overhead`).
    pub overhead_seconds: f64,
    /// Collectives of the chosen strategies.
    pub communication_seconds: f64,
    /// Conversions between the chosen strategies.
    pub resharding_seconds: f64,
    /// Handing values to other stages (`cross_stage` only; part of the latency).
    pub transfer_seconds: f64,
    pub stage: StageGraph,
    pub plan: IntraPlan,
}

struct PlannedParts {
    cost: StageCostResult,
    compute_seconds: f64,
    overhead_seconds: f64,
    communication_seconds: f64,
    resharding_seconds: f64,
    transfer_seconds: f64,
    plan: IntraPlan,
}

/// [`StageCost`] of a function whose ops are assigned to layers: see the module doc.
pub struct GraphStageOracle<'g> {
    graph: &'g Graph,
    layer_of: Vec<usize>,
    num_layers: usize,
    phase: Option<Vec<Phase>>,
    cluster: Cluster,
    options: OracleOptions,
    /// Seconds of each op on one device at peak, or why its FLOPs are unknown.
    op_seconds: Vec<Result<f64, String>>,
    /// Whether each op is launched as a kernel of its own once elementwise chains are fused.
    launches: Vec<bool>,
    /// The ops that read each result of each op.
    users: Vec<Vec<Vec<(usize, usize)>>>,
    failures: Mutex<Vec<QueryFailure>>,
    progress: Progress,
    floors: FloorData,
    shared: Option<Arc<SharedAnswers>>,
}

impl<'g> GraphStageOracle<'g> {
    /// `layer_of[op]` is the layer of every op of `graph` (layer_assignment.rs); layers are
    /// `0..=max(layer_of)`. `step` (the train step of `graph`, if it is one) tells forward
    /// from backward ops for mem_param's gradients and mem_act.
    pub fn new(
        graph: &'g Graph,
        layer_of: Vec<LayerId>,
        step: Option<&TrainStep>,
        cluster: Cluster,
        options: OracleOptions,
    ) -> Result<Self, InterError> {
        let layer_of: Vec<usize> = layer_of.into_iter().map(LayerId::index).collect();
        let n = graph.ops().len();
        if layer_of.len() != n {
            return Err(InterError::InvalidInput(format!("{} layer ids for {n} ops", layer_of.len())));
        }
        let Some(num_layers) = layer_of.iter().max().map(|m| m + 1) else {
            return Err(InterError::InvalidInput("the graph has no ops".into()));
        };
        let mut has_ops = vec![false; num_layers];
        for &l in &layer_of {
            has_ops[l] = true;
        }
        if let Some(empty) = has_ops.iter().position(|h| !h) {
            return Err(InterError::InvalidInput(format!("layer {empty} of {num_layers} has no ops")));
        }
        if let Some(step) = step {
            if step.phase.len() != n {
                return Err(InterError::InvalidInput(format!(
                    "the train step describes {} ops, the graph has {n}",
                    step.phase.len()
                )));
            }
        }
        cluster.validate().map_err(|e| InterError::InvalidInput(e.to_string()))?;
        // Each op's roofline time: its FLOPs, or the bytes its fused kernel moves through
        // device memory (ir/fused_traffic.rs), whichever takes longer.
        let FusedKernels { traffic, launches } = fused_kernels(&graph.body, &graph.returned);
        let op_seconds: Vec<Result<f64, String>> =
            op_seconds(graph, &traffic, &cluster).into_iter().map(|r| r.map_err(|e| e.to_string())).collect();
        let floors = FloorData::new(graph, &layer_of, num_layers, step.map(|s| s.phase.as_slice()), |op| {
            op_seconds[op].as_ref().ok().copied()
        });
        Ok(GraphStageOracle {
            graph,
            layer_of,
            num_layers,
            phase: step.map(|s| s.phase.clone()),
            cluster,
            progress: Progress::new(options.progress, "stage oracle"),
            options,
            op_seconds,
            launches,
            users: graph.body.users(),
            failures: Mutex::new(Vec::new()),
            floors,
            shared: None,
        })
    }

    /// Answers stages from `shared` when an oracle of the same graph, cluster and options (with
    /// other layers) has planned the same ops, and adds this oracle's answers to it.
    pub fn with_shared_answers(mut self, shared: Arc<SharedAnswers>) -> Self {
        self.shared = Some(shared);
        self
    }

    pub fn graph(&self) -> &'g Graph {
        self.graph
    }

    pub fn num_layers(&self) -> usize {
        self.num_layers
    }

    pub fn layer_of(&self) -> &[usize] {
        &self.layer_of
    }

    pub fn cluster(&self) -> &Cluster {
        &self.cluster
    }

    /// The signature of every layer (see [`layer_signatures`]), for
    /// [`CachedCost::with_signatures`](super::CachedCost::with_signatures).
    pub fn layer_signatures(&self) -> Vec<u64> {
        signatures(self.graph, &self.layer_of, self.num_layers, self.phase.as_deref())
    }

    /// Every (range, logical mesh) that had no plan so far, in (range, submesh, mesh) order.
    pub fn failures(&self) -> Vec<QueryFailure> {
        let mut f = self.failures.lock().map(|f| f.clone()).unwrap_or_default();
        f.sort_by_key(|q| (q.layers.start, q.layers.end, q.submesh, q.logical_mesh));
        f
    }

    /// The options the intra-op pass runs with on `mesh`.
    pub fn intra_options(&self, mesh: DeviceMesh) -> IntraOptions {
        self.intra_options_with(mesh, self.options.allow_replicated_parameters)
    }

    fn intra_options_with(&self, mesh: DeviceMesh, allow_replicated_parameters: bool) -> IntraOptions {
        IntraOptions {
            mesh,
            strategy: self.options.strategy.clone(),
            allow_replicated_parameters,
            memory_budget: self.options.memory_budget,
            merge_trivial_ops: self.options.merge_trivial_ops,
            solve: self.options.solve.clone(),
            // The stage DP prices stages as the ILP plans them (no weight-update rewrite yet).
            prefer_reduce_scatter: false,
            price_shared_moves: false,
        }
    }

    /// The ops of `layers`, all phases, in program order.
    pub fn stage_graph(&self, layers: Range<usize>) -> Result<StageGraph, InterError> {
        if layers.start >= layers.end || layers.end > self.num_layers {
            return Err(InterError::InvalidInput(format!("layer range {layers:?} of {} layers", self.num_layers)));
        }
        let ops: Vec<usize> = (0..self.layer_of.len()).filter(|&i| layers.contains(&self.layer_of[i])).collect();
        let name = format!("{}_layers_{}_{}", self.graph.func_name, layers.start, layers.end);
        StageGraph::extract(self.graph, &ops, name)
    }

    /// Plans `layers` on `submesh` viewed as `logical_mesh` (see the module doc).
    pub fn evaluate(
        &self,
        layers: Range<usize>,
        submesh: SubmeshShape,
        logical_mesh: [usize; 2],
    ) -> Result<StageEvaluation, String> {
        let stage = self.stage_graph(layers).map_err(|e| e.to_string())?;
        let parts = self.plan_stage(&stage, submesh, logical_mesh, self.options.allow_replicated_parameters)?;
        Ok(StageEvaluation {
            cost: parts.cost,
            compute_seconds: parts.compute_seconds,
            overhead_seconds: parts.overhead_seconds,
            communication_seconds: parts.communication_seconds,
            resharding_seconds: parts.resharding_seconds,
            transfer_seconds: parts.transfer_seconds,
            stage,
            plan: parts.plan,
        })
    }

    fn device_mesh(&self, submesh: SubmeshShape, logical_mesh: [usize; 2]) -> Result<DeviceMesh, String> {
        let physical = PhysicalSubmesh::new(submesh.hosts, submesh.devices_per_host);
        DeviceMesh::from_submesh(&self.cluster, &physical, logical_mesh).map_err(|e| e.to_string())
    }

    fn plan_stage(
        &self,
        stage: &StageGraph,
        submesh: SubmeshShape,
        logical_mesh: [usize; 2],
        replicated_params: bool,
    ) -> Result<PlannedParts, String> {
        let mesh = self.device_mesh(submesh, logical_mesh)?;
        let mut op_seconds = Vec::with_capacity(stage.ops.len());
        for &op in &stage.ops {
            match &self.op_seconds[op] {
                Ok(s) => op_seconds.push(*s),
                Err(e) => return Err(format!("op {op} ({}): {e}", self.graph.ops()[op].name)),
            }
        }
        let options = self.intra_options_with(mesh, replicated_params);
        let plan = plan_intra_op(&stage.graph, &options).map_err(|e| match e {
            PlanError::Op { op, message } => {
                let original = stage.ops.get(op.index()).copied().unwrap_or(op.index());
                format!(
                    "op {original} ({}): {message}",
                    self.graph.ops().get(original).map_or("?", |o| o.name.as_str())
                )
            }
            PlanError::OutOfMemory { budget, least_memory, .. } => {
                format!("needs {least_memory} bytes per device, budget {budget}")
            }
            PlanError::Solver(message) => format!("solver: {message}"),
        })?;
        // Each op's work is split over the devices its strategy shards it across.
        let per_device: Vec<f64> = op_seconds
            .iter()
            .zip(&plan.ops)
            .map(|(s, strategy)| s / strategy.parallelism(options.mesh.shape).max(1) as f64)
            .collect();
        let compute_seconds: f64 = per_device.iter().sum();
        let kernels = stage.ops.iter().zip(&per_device).filter(|(&op, _)| self.launches[op]).map(|(_, &s)| s);
        let overhead_seconds = self.cluster.xla_overhead_seconds(kernels, self.programs(stage));
        // The strategies' own collectives, without the planner's all-reduce tie-break.
        let communication_seconds: f64 =
            plan.args.iter().flatten().chain(&plan.ops).map(|s| s.communication_cost).sum();
        let resharding_seconds = plan.resharding_cost;
        let transfer_seconds = match self.options.cross_stage {
            Some(mode) => self.transfer_seconds(stage, &plan, submesh, logical_mesh, mode)?,
            None => 0.0,
        };
        let cost = StageCostResult {
            latency: compute_seconds + overhead_seconds + communication_seconds + resharding_seconds + transfer_seconds,
            mem_param: self.param_bytes(stage, &plan),
            mem_act: self.activation_bytes(stage, &plan, &options.mesh),
            logical_mesh,
        };
        if !cost.is_valid() {
            return Err(format!("invalid cost {cost:?}"));
        }
        Ok(PlannedParts {
            cost,
            compute_seconds,
            overhead_seconds,
            communication_seconds,
            resharding_seconds,
            transfer_seconds,
            plan,
        })
    }

    /// The XLA programs the stage runs as: one per phase of a train step (forward, backward,
    /// update) that has ops in it; one for a function that is not a train step.
    fn programs(&self, stage: &StageGraph) -> usize {
        let Some(phase) = &self.phase else { return 1 };
        let mut phases: Vec<Phase> = Vec::new();
        for &op in &stage.ops {
            if !phases.contains(&phase[op]) {
                phases.push(phase[op]);
            }
        }
        phases.len()
    }

    /// What the stage pays per microbatch to hand the values other layers read to their stages.
    fn transfer_seconds(
        &self,
        stage: &StageGraph,
        plan: &IntraPlan,
        submesh: SubmeshShape,
        logical_mesh: [usize; 2],
        mode: crate::resharding::Mode,
    ) -> Result<f64, String> {
        use super::stage_transfers::{mirror_transfer_seconds, SentValue};
        let layers = stage.ops.iter().map(|&op| self.layer_of[op]);
        let (first, last) = (layers.clone().min().unwrap_or(0), layers.max().unwrap_or(0));
        let mut sent = Vec::new();
        // Values of constants are recomputed where they are read, never sent (inter/program.rs).
        let constant = crate::ir::constant_values::constant_ops(self.graph);
        for (position, &op) in stage.ops.iter().enumerate().filter(|(_, &op)| !constant[op]) {
            for (result, readers) in self.users[op].iter().enumerate() {
                let elsewhere = readers.iter().any(|&(reader, _)| !(first..=last).contains(&self.layer_of[reader]));
                let spec = plan.ops.get(position).and_then(|s| s.result_specs.get(result)).and_then(Option::as_ref);
                let tensor = self.graph.ops()[op].results.get(result).and_then(ValueType::tensor);
                if let (true, Some(spec), Some(tensor)) = (elsewhere, spec, tensor) {
                    sent.push(SentValue {
                        shape: &tensor.shape,
                        element_bytes: u64::from(tensor.element.bits().div_ceil(8)),
                        spec,
                    });
                }
            }
        }
        mirror_transfer_seconds(&sent, submesh.hosts * submesh.devices_per_host, logical_mesh, &self.cluster, mode)
    }

    /// Donated arguments as sharded, parameters read by the forward pass twice (gradients).
    fn param_bytes(&self, stage: &StageGraph, plan: &IntraPlan) -> f64 {
        let mut forward_read = vec![false; stage.inputs.len()];
        if let Some(phase) = &self.phase {
            for (k, op) in stage.graph.ops().iter().enumerate() {
                if phase[stage.ops[k]] == Phase::Forward {
                    for operand in &op.operands {
                        if let ValueRef::Arg(a) = *operand {
                            forward_read[a] = true;
                        }
                    }
                }
            }
        }
        stage
            .inputs
            .iter()
            .enumerate()
            .filter(|(_, input)| matches!(input, StageInput::Arg(a) if self.graph.args[*a].is_donated()))
            .map(|(j, _)| {
                let bytes = plan.args[j].as_ref().map_or(0, |s| s.result_bytes_per_device) as f64;
                if forward_read[j] {
                    2.0 * bytes
                } else {
                    bytes
                }
            })
            .sum()
    }

    /// Forward values the stage's backward ops read, per device as sharded.
    fn activation_bytes(&self, stage: &StageGraph, plan: &IntraPlan, mesh: &DeviceMesh) -> f64 {
        let Some(phase) = &self.phase else { return 0.0 };
        let is_forward_input = |j: usize| match stage.inputs[j] {
            StageInput::Arg(a) => !self.graph.args[a].is_donated(),
            StageInput::Value { op, .. } => phase[op] == Phase::Forward,
        };
        let mut kept = BTreeSet::new();
        for (k, op) in stage.graph.ops().iter().enumerate() {
            if phase[stage.ops[k]] != Phase::Backward {
                continue;
            }
            for operand in &op.operands {
                let keep = match *operand {
                    ValueRef::Op { op, .. } => phase[stage.ops[op]] == Phase::Forward,
                    ValueRef::Arg(j) => is_forward_input(j),
                    ValueRef::Outer => false,
                };
                if keep {
                    kept.insert(*operand);
                }
            }
        }
        kept.iter()
            .map(|value| match *value {
                ValueRef::Arg(j) => plan.args[j]
                    .as_ref()
                    .map_or_else(|| stage.graph.args[j].ty.byte_size(), |s| s.result_bytes_per_device),
                ValueRef::Op { op, result } => {
                    let total = stage.graph.ops()[op].results.get(result).map_or(0, ValueType::byte_size);
                    match plan.ops[op].result_specs.get(result).and_then(Option::as_ref) {
                        Some(spec) => spec.tile_bytes(total, mesh.shape),
                        None => total,
                    }
                }
                ValueRef::Outer => 0,
            } as f64)
            .sum()
    }

    /// The logical meshes tried on `submesh`. The 1-D views d x 1 and 1 x d are the same mesh
    /// to the planner (one axis of size 1 carries no collective), so only 1 x d is tried
    /// unless a batch dim is forced onto a mesh axis (then the two differ).
    fn meshes(&self, submesh: SubmeshShape) -> Vec<[usize; 2]> {
        let d = submesh.devices();
        logical_meshes(submesh)
            .into_iter()
            .filter(|m| d == 1 || *m != [d, 1] || self.options.strategy.force_batch_dim_to_mesh_dim.is_some())
            .collect()
    }
}

impl StageCost for GraphStageOracle<'_> {
    fn cost(&self, layers: Range<usize>, submesh: SubmeshShape) -> Option<StageCostResult> {
        self.cost_options(layers, submesh).into_iter().min_by(|a, b| a.latency.total_cmp(&b.latency))
    }

    fn floor(&self, layers: Range<usize>, submesh: SubmeshShape) -> Option<StageFloor> {
        Some(self.floors.floor(layers, submesh.devices()))
    }

    fn cost_options(&self, layers: Range<usize>, submesh: SubmeshShape) -> Vec<StageCostResult> {
        self.cost_options_on(layers, submesh, 1)
    }

    /// Plans the logical meshes on up to `threads` threads side by side.
    fn cost_options_on(&self, layers: Range<usize>, submesh: SubmeshShape, threads: usize) -> Vec<StageCostResult> {
        let meshes = self.meshes(submesh);
        let record = |logical_mesh: [usize; 2], message: String| {
            if let Ok(mut f) = self.failures.lock() {
                f.push(QueryFailure { layers: layers.clone(), submesh, logical_mesh, message });
            }
        };
        let stage = match self.stage_graph(layers.clone()) {
            Ok(stage) => stage,
            Err(e) => {
                meshes.into_iter().for_each(|m| record(m, e.to_string()));
                return Vec::new();
            }
        };
        if let Some(known) = self.shared.as_ref().and_then(|s| s.get(&stage.ops, submesh)) {
            self.progress.say(|| {
                format!("layers {layers:?} on {submesh}: the answer planned for the same ops under other layers")
            });
            return known;
        }
        let allowed = self.options.allow_replicated_parameters;
        let sharded_variant = self.options.sharded_params_variant && allowed;
        // One logical mesh: its options, and the messages of the plans that failed.
        let view = |logical_mesh: [usize; 2]| {
            let start = Instant::now();
            let (mut options, mut failed) = (Vec::new(), Vec::new());
            let first = self.plan_stage(&stage, submesh, logical_mesh, allowed);
            // The sharded variant is solved only when the first plan may not be its answer.
            let reused = sharded_variant
                && first.as_ref().is_ok_and(|parts| {
                    self.device_mesh(submesh, logical_mesh)
                        .is_ok_and(|mesh| already_sharded(&stage, &parts.plan, &mesh))
                });
            match first {
                Ok(parts) if reused => options.extend([parts.cost, parts.cost]),
                Ok(parts) => options.push(parts.cost),
                Err(message) => failed.push(message),
            }
            if sharded_variant && !reused {
                match self.plan_stage(&stage, submesh, logical_mesh, false) {
                    Ok(parts) => options.push(parts.cost),
                    Err(message) => failed.push(message),
                }
            }
            self.progress.tick(|| {
                format!(
                    "layers {layers:?} on {submesh} as {}x{}: {:.2}s",
                    logical_mesh[0],
                    logical_mesh[1],
                    start.elapsed().as_secs_f64()
                )
            });
            (options, failed)
        };
        let mut options = Vec::new();
        for (logical_mesh, (found, failed)) in meshes.iter().zip(map_in_threads(&meshes, threads, view)) {
            options.extend(found);
            failed.into_iter().for_each(|message| record(*logical_mesh, message));
        }
        if let Some(shared) = &self.shared {
            shared.insert(&stage.ops, submesh, &options);
        }
        options
    }
}

/// Whether `plan`, planned with replicated parameters allowed, is also the sharded variant's
/// plan: proven optimal, and every argument already has a layout the variant allows (sharded,
/// or replicated where no sharded layout divides it). The variant's problem is the same with
/// fewer argument strategies, so an optimum of the larger problem that it allows is its optimum.
fn already_sharded(stage: &StageGraph, plan: &IntraPlan, mesh: &DeviceMesh) -> bool {
    plan.status == SolveStatus::Optimal
        && stage.graph.args.iter().zip(&plan.args).all(|(arg, chosen)| match (arg.ty.tensor(), chosen) {
            (Some(ty), Some(chosen)) => {
                argument_strategies(ty, mesh, false).iter().any(|allowed| allowed.result_specs == chosen.result_specs)
            }
            (None, _) => true,
            (Some(_), None) => false,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inter::clustering::{ClusterOptions, LayerCount};
    use crate::inter::layer_assignment::assign_layers;
    use crate::inter::{plan_pipeline_parallel, CachedCost, ClusterShape, StageDpOptions, TableOptions};
    use crate::ir::cost::op_cost;
    use crate::ir::fused_traffic::fused_traffic;
    use crate::ir::test_graphs::tanh_mlp_step;
    use crate::ir::train_step::analyze;

    fn cluster() -> Cluster {
        Cluster::load("p3.16xlarge-x1").unwrap()
    }

    fn layers_of(graph: &Graph, step: Option<&TrainStep>, layers: usize) -> Vec<LayerId> {
        let options = ClusterOptions { layers: LayerCount::Fixed(layers), delta: 1.0, progress: false };
        assign_layers(graph, step, &options).unwrap().layer_of
    }

    /// The oracle of `graph` cut into `layers` layers (as a train step when `train`).
    fn oracle(graph: &Graph, layers: usize, train: bool) -> GraphStageOracle<'_> {
        let step = train.then(|| analyze(graph).unwrap());
        let layer_of = layers_of(graph, step.as_ref(), layers);
        GraphStageOracle::new(graph, layer_of, step.as_ref(), cluster(), OracleOptions::default()).unwrap()
    }

    fn sub(devices: usize) -> SubmeshShape {
        SubmeshShape::new(1, devices)
    }

    fn with_xla_overheads(program_dispatch_s: f64, kernel_launch_s: f64) -> Cluster {
        let mut c = cluster();
        c.measured = Some(crate::cluster::Measured {
            xla: Some(crate::cluster::XlaOverheads { program_dispatch_s, kernel_launch_s, runtime: String::new() }),
            ..Default::default()
        });
        c
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-30)
    }

    #[test]
    fn boundary_values_become_arguments_and_results() {
        let graph = tanh_mlp_step(2, 8, 16);
        let o = oracle(&graph, 2, true);
        let stage = o.stage_graph(1..2).unwrap();
        let ops: BTreeSet<usize> = stage.ops.iter().copied().collect();
        // Every operand from outside is an argument, every value read outside is a result.
        for (k, &index) in stage.ops.iter().enumerate() {
            for (operand, original) in stage.graph.ops()[k].operands.iter().zip(&graph.ops()[index].operands) {
                match (*original, *operand) {
                    (ValueRef::Op { op, result }, ValueRef::Arg(j)) => {
                        assert!(!ops.contains(&op));
                        assert_eq!(stage.inputs[j], StageInput::Value { op, result });
                        assert!(stage.graph.args[j].attrs.is_empty(), "values of other stages are plain arguments");
                    }
                    (ValueRef::Op { op, result }, ValueRef::Op { op: p, result: r }) => {
                        assert_eq!((stage.ops[p], r), (op, result));
                    }
                    (ValueRef::Arg(a), ValueRef::Arg(j)) => {
                        assert_eq!(stage.inputs[j], StageInput::Arg(a));
                        assert_eq!(stage.graph.args[j].ty, graph.args[a].ty);
                    }
                    other => panic!("{other:?}"),
                }
            }
        }
        for (r, &(op, result)) in stage.outputs.iter().enumerate() {
            assert_eq!(stage.graph.returned[r], ValueRef::Op { op: stage.ops.binary_search(&op).unwrap(), result });
            let read_outside = graph
                .ops()
                .iter()
                .enumerate()
                .any(|(i, user)| !ops.contains(&i) && user.operands.contains(&ValueRef::Op { op, result }));
            assert!(read_outside || graph.returned.contains(&ValueRef::Op { op, result }));
        }
        // Layer 1 holds w_1, the loss and w_1's update: the donated w_1 stays aliased to the
        // stage result that is its new value; w_0 is not an input.
        assert!(!stage.inputs.contains(&StageInput::Arg(0)));
        let j = stage.inputs.iter().position(|i| *i == StageInput::Arg(1)).expect("w_1 is an input");
        let r = stage.graph.args[j].aliased_output().expect("w_1 stays aliased");
        assert_eq!(
            stage.outputs[r],
            match graph.returned[1] {
                ValueRef::Op { op, result } => (op, result),
                _ => unreachable!(),
            }
        );
        let loss = match graph.returned[2] {
            ValueRef::Op { op, result } => (op, result),
            _ => unreachable!(),
        };
        assert!(stage.outputs.contains(&loss));
    }

    #[test]
    fn an_alias_whose_result_is_in_another_stage_is_dropped() {
        // Clustered in program order without a train step, w_0's reader is in the first layer
        // and its update in the last.
        let graph = tanh_mlp_step(2, 8, 16);
        let o = oracle(&graph, 2, false);
        let first = o.stage_graph(0..1).unwrap();
        let j = first.inputs.iter().position(|i| *i == StageInput::Arg(0)).unwrap();
        assert_eq!(first.graph.args[j].aliased_output(), None);
        let whole = o.stage_graph(0..2).unwrap();
        for (a, input) in whole.inputs.iter().enumerate() {
            let StageInput::Arg(original) = *input else { panic!("the whole graph has no values from elsewhere") };
            let expected = graph.args[original].aliased_output().map(|r| graph.returned[r]);
            assert_eq!(
                whole.graph.args[a].aliased_output().map(|r| whole.graph.returned[r]).map(|v| match v {
                    ValueRef::Op { op, result } => ValueRef::Op { op: whole.ops[op], result },
                    other => other,
                }),
                expected
            );
        }
    }

    #[test]
    fn the_whole_range_is_planned_like_the_whole_graph() {
        for train in [false, true] {
            let graph = tanh_mlp_step(3, 16, 32);
            let o = oracle(&graph, 3, train);
            for (devices, mesh) in [(4, [2, 2]), (4, [1, 4]), (2, [1, 2])] {
                let e = o.evaluate(0..3, sub(devices), mesh).unwrap();
                let device_mesh =
                    DeviceMesh::from_submesh(o.cluster(), &PhysicalSubmesh::new(1, devices), mesh).unwrap();
                let whole = plan_intra_op(&graph, &o.intra_options(device_mesh)).unwrap();
                assert!(close(e.plan.objective, whole.objective), "{} vs {}", e.plan.objective, whole.objective);
                assert!(close(e.compute_seconds + e.communication_seconds + e.resharding_seconds, e.cost.latency));
            }
        }
    }

    #[test]
    fn measured_xla_overheads_add_each_programs_dispatch_and_each_short_kernels_launch() {
        let graph = tanh_mlp_step(2, 8, 16);
        let launched = fused_kernels(&graph.body, &graph.returned).launches;
        for train in [false, true] {
            let step = train.then(|| analyze(&graph).unwrap());
            let layer_of = layers_of(&graph, step.as_ref(), 2);
            let priced = |cluster: Cluster| {
                GraphStageOracle::new(&graph, layer_of.clone(), step.as_ref(), cluster, OracleOptions::default())
                    .unwrap()
            };
            let plain = priced(cluster());
            let dispatch = priced(with_xla_overheads(1e-3, 0.0));
            // Launches of a second: every kernel of this small graph takes exactly that.
            let launch = priced(with_xla_overheads(0.0, 1.0));
            for (layers, mesh) in [(0..2, [1, 1]), (0..1, [1, 2]), (1..2, [1, 1])] {
                let base = plain.evaluate(layers.clone(), sub(mesh[1]), mesh).unwrap();
                assert_eq!(base.overhead_seconds, 0.0, "no measured overheads, no term");
                let e = dispatch.evaluate(layers.clone(), sub(mesh[1]), mesh).unwrap();
                let programs = if train { 3 } else { 1 }; // forward, backward and update in every layer
                assert!(close(e.overhead_seconds, programs as f64 * 1e-3), "{layers:?}: {}", e.overhead_seconds);
                assert!(close(e.cost.latency, base.cost.latency + e.overhead_seconds));
                let e = launch.evaluate(layers.clone(), sub(mesh[1]), mesh).unwrap();
                let kernels = e.stage.ops.iter().filter(|&&op| launched[op]).count();
                assert!(kernels > 0);
                // Ops fused into the kernels keep their roofline time; each kernel takes a second.
                let fused_seconds: f64 = (e.stage.ops.iter().zip(&e.plan.ops))
                    .filter(|(&op, _)| !launched[op])
                    .map(|(&op, strategy)| plain.op_seconds[op].as_ref().unwrap() / strategy.parallelism(mesh) as f64)
                    .sum();
                let expected = kernels as f64 + fused_seconds;
                assert!(close(e.compute_seconds + e.overhead_seconds, expected), "{layers:?}: {kernels} kernels");
            }
        }
    }

    #[test]
    fn latency_grows_with_flops_and_compute_shrinks_with_devices() {
        let small = tanh_mlp_step(2, 8, 16);
        let large = tanh_mlp_step(2, 64, 16);
        let (s, l) = (oracle(&small, 2, true), oracle(&large, 2, true));
        // One device: no communication, latency is the compute term.
        let es = s.evaluate(0..2, sub(1), [1, 1]).unwrap();
        let el = l.evaluate(0..2, sub(1), [1, 1]).unwrap();
        assert_eq!(es.cost.latency, es.compute_seconds);
        assert!(el.cost.latency > es.cost.latency);
        // Each op's roofline: its FLOPs at the peak or its fused kernel's bytes at the HBM rate.
        let op_time = |graph: &Graph, traffic: &[u64], i: usize| {
            let flops = op_cost(&graph.ops()[i], &graph.operand_tensors(i)).unwrap().flops as f64;
            cluster().op_seconds(flops, "f32", traffic[i] as f64, None)
        };
        let small_traffic = fused_traffic(&small.body, &small.returned);
        let one_device: f64 = (0..small.ops().len()).map(|i| op_time(&small, &small_traffic, i)).sum();
        assert!(close(es.compute_seconds, one_device), "{} vs {one_device}", es.compute_seconds);
        let large_traffic = fused_traffic(&large.body, &large.returned);
        // Each op's work divides over the devices its strategy splits it across: the matmuls
        // over all of them, ops the plan computes replicated not at all.
        for devices in [2, 4, 8] {
            let e = l.evaluate(0..2, sub(devices), [1, devices]).unwrap();
            let expected: f64 = e
                .stage
                .ops
                .iter()
                .zip(&e.plan.ops)
                .map(|(&op, strategy)| {
                    let one = op_time(&large, &large_traffic, op);
                    let p = strategy.parallelism([1, devices]);
                    if large.ops()[op].short_name() == "dot_general" {
                        assert_eq!(p, devices, "heavy ops use every device");
                    }
                    one / p as f64
                })
                .sum();
            assert!(close(e.compute_seconds, expected), "{} vs {expected}", e.compute_seconds);
            assert!(e.compute_seconds * devices as f64 >= el.compute_seconds * (1.0 - 1e-12));
            assert!(e.compute_seconds < el.compute_seconds);
            assert!(e.cost.latency > 0.0 && e.cost.latency.is_finite());
        }
        // More layers, more work.
        assert!(l.evaluate(0..1, sub(1), [1, 1]).unwrap().cost.latency < el.cost.latency);
    }

    #[test]
    fn memory_counts_parameters_with_gradients_and_stored_activations() {
        let graph = tanh_mlp_step(2, 8, 16);
        let o = oracle(&graph, 2, true);
        let e = o.evaluate(0..2, sub(1), [1, 1]).unwrap();
        // Two 16x16 f32 weights and their gradients.
        assert_eq!(e.cost.mem_param, 2.0 * 2.0 * 1024.0);
        // The backward pass reads x, a_1 and a_2 (8x16 f32 each); w_1 counts as a parameter.
        assert_eq!(e.cost.mem_act, 3.0 * 512.0);
        // Sharded over two devices, nothing needs more memory per device.
        let half = o.evaluate(0..2, sub(2), [1, 2]).unwrap();
        assert!(half.cost.mem_param <= e.cost.mem_param && half.cost.mem_act <= e.cost.mem_act);
        // Not a train step: no gradients, nothing stored for a backward pass.
        let inference = oracle(&graph, 2, false).evaluate(0..2, sub(1), [1, 1]).unwrap();
        assert_eq!((inference.cost.mem_param, inference.cost.mem_act), (2.0 * 1024.0, 0.0));
    }

    #[test]
    fn failed_plans_are_dropped_and_recorded() {
        let mut graph = tanh_mlp_step(2, 8, 16);
        let step = analyze(&graph).unwrap();
        let layer_of = layers_of(&graph, Some(&step), 2);
        // Break a matmul of the last layer.
        let bad = (0..graph.ops().len())
            .rev()
            .find(|&i| layer_of[i] == LayerId::new(1) && graph.ops()[i].short_name() == "dot_general")
            .unwrap();
        graph.body.ops[bad].attrs.clear();
        let o = GraphStageOracle::new(&graph, layer_of, Some(&step), cluster(), OracleOptions::default()).unwrap();
        assert!(!o.cost_options(0..1, sub(2)).is_empty());
        assert!(o.cost_options(1..2, sub(2)).is_empty());
        assert_eq!(o.cost(0..2, sub(2)), None);
        let failures = o.failures();
        assert!(failures.iter().all(|f| f.message.contains(&format!("op {bad}"))), "{failures:?}");
        assert_eq!(failures.len(), 2, "one per range, the 2x1 view is not tried: {failures:?}");
        assert!(o.evaluate(2..3, sub(1), [1, 1]).is_err(), "a range beyond the layers");
    }

    #[test]
    fn the_sharded_parameter_variant_trades_time_for_memory() {
        let graph = tanh_mlp_step(2, 1024, 16);
        let step = analyze(&graph).unwrap();
        let layer_of = layers_of(&graph, Some(&step), 2);
        let options = OracleOptions { sharded_params_variant: true, ..OracleOptions::default() };
        let o = GraphStageOracle::new(&graph, layer_of.clone(), Some(&step), cluster(), options).unwrap();
        let plain = oracle(&graph, 2, true);
        // Parameters (and their gradients) whole, on one device.
        let whole = plain.cost_options(0..2, sub(1))[0].mem_param;
        for devices in [2, 4] {
            let both = o.cost_options(0..2, sub(devices));
            let one = plain.cost_options(0..2, sub(devices));
            assert_eq!(both.len(), 2 * one.len(), "two plans per logical mesh");
            for (pair, first) in both.chunks(2).zip(&one) {
                assert_eq!(pair[0], *first, "the first plan is the usual one");
                assert_eq!(pair[1].logical_mesh, first.logical_mesh);
                // The usual plan is the fastest of a superset of plans.
                assert!(pair[1].latency >= pair[0].latency * (1.0 - 1e-12));
                // On the 1-D mesh every weight is split over all devices.
                assert!(pair[1].mem_param * devices as f64 <= whole, "{pair:?} vs {whole}");
            }
        }
        // Without the option, or with replicated parameters forbidden anyway, one plan each.
        let forbidden = OracleOptions {
            sharded_params_variant: true,
            allow_replicated_parameters: false,
            ..OracleOptions::default()
        };
        let f = GraphStageOracle::new(&graph, layer_of, Some(&step), cluster(), forbidden).unwrap();
        assert_eq!(f.cost_options(0..2, sub(2)).len(), plain.cost_options(0..2, sub(2)).len());
    }

    #[test]
    fn the_sharded_variant_reuses_a_first_plan_that_it_allows() {
        // One device (nothing shards), and widths no mesh axis divides (nothing shards either):
        // the first plan is the variant's. A batch of 1024 on 2 devices shards: solved again.
        for (graph, devices, reuses) in [
            (tanh_mlp_step(2, 8, 16), 1, true),
            (tanh_mlp_step(2, 3, 5), 2, true),
            (tanh_mlp_step(2, 1024, 16), 2, false),
        ] {
            let step = analyze(&graph).unwrap();
            let layer_of = layers_of(&graph, Some(&step), 2);
            let options = OracleOptions { sharded_params_variant: true, ..OracleOptions::default() };
            let o = GraphStageOracle::new(&graph, layer_of, Some(&step), cluster(), options).unwrap();
            let mesh = [1, devices];
            let stage = o.stage_graph(0..2).unwrap();
            let first = o.plan_stage(&stage, sub(devices), mesh, true).unwrap();
            let device_mesh = o.device_mesh(sub(devices), mesh).unwrap();
            assert_eq!(already_sharded(&stage, &first.plan, &device_mesh), reuses, "{devices} devices");
            // Whether reused or solved, the variant's option is the one a fresh solve gives.
            let fresh = o.plan_stage(&stage, sub(devices), mesh, false).unwrap();
            let both = o.cost_options(0..2, sub(devices));
            assert_eq!(both.len(), 2);
            assert_eq!(both[0], first.cost);
            assert_eq!(both[1], fresh.cost);
            assert_eq!(both[0] == both[1], reuses);
        }
    }

    #[test]
    fn a_plan_that_is_not_proven_optimal_is_not_reused() {
        let graph = tanh_mlp_step(2, 8, 16);
        let o = oracle(&graph, 2, true);
        let stage = o.stage_graph(0..2).unwrap();
        let mut first = o.plan_stage(&stage, sub(1), [1, 1], true).unwrap();
        let mesh = o.device_mesh(sub(1), [1, 1]).unwrap();
        assert!(already_sharded(&stage, &first.plan, &mesh));
        first.plan.status = SolveStatus::Feasible;
        assert!(!already_sharded(&stage, &first.plan, &mesh));
    }

    #[test]
    fn a_counted_loop_costs_its_body_times_its_trips() {
        let graph = crate::inter::layer_assignment::tests::scan_function();
        let o =
            GraphStageOracle::new(&graph, vec![LayerId::new(0); 2], None, cluster(), OracleOptions::default()).unwrap();
        let flops = crate::ir::cost::op_cost_in_block(&graph.body, 1).unwrap().flops as f64;
        let bytes = fused_traffic(&graph.body, &graph.returned)[1] as f64;
        assert!(bytes > 0.0);
        assert!(close(*o.op_seconds[1].as_ref().unwrap(), cluster().op_seconds(flops, "f32", bytes, None)));
    }

    #[test]
    fn memory_bound_ops_take_their_bytes_time_and_a_cluster_without_a_bandwidth_only_flops() {
        // A wide elementwise step: few FLOPs per byte, so its ops are priced by their traffic.
        let graph = tanh_mlp_step(1, 4096, 16);
        let traffic = fused_traffic(&graph.body, &graph.returned);
        let with_hbm = cluster();
        let hbm = with_hbm.hbm_bytes_per_s().unwrap();
        let one_layer = |c: &Cluster| {
            let layers = vec![LayerId::new(0); graph.ops().len()];
            GraphStageOracle::new(&graph, layers, None, c.clone(), OracleOptions::default()).unwrap()
        };
        let o = one_layer(&with_hbm);
        let memory_bound = (0..graph.ops().len())
            .filter(|&i| {
                let flops = op_cost(&graph.ops()[i], &graph.operand_tensors(i)).unwrap().flops as f64;
                traffic[i] as f64 / hbm > with_hbm.compute_seconds(flops, "f32")
            })
            .inspect(|&i| assert!(close(*o.op_seconds[i].as_ref().unwrap(), traffic[i] as f64 / hbm)))
            .count();
        assert!(memory_bound > 0);
        let mut flops_only = cluster();
        flops_only.device.hbm_bytes_per_s = None;
        let o = one_layer(&flops_only);
        for i in 0..graph.ops().len() {
            let flops = op_cost(&graph.ops()[i], &graph.operand_tensors(i)).unwrap().flops as f64;
            assert!(close(*o.op_seconds[i].as_ref().unwrap(), flops_only.compute_seconds(flops, "f32")));
        }
    }

    #[test]
    fn bad_layer_ids_are_rejected() {
        let graph = tanh_mlp_step(2, 8, 16);
        let n = graph.ops().len();
        assert!(GraphStageOracle::new(&graph, vec![LayerId::new(0); n - 1], None, cluster(), OracleOptions::default())
            .is_err());
        let mut gap = vec![LayerId::new(0); n];
        gap[n - 1] = LayerId::new(2);
        assert!(
            GraphStageOracle::new(&graph, gap, None, cluster(), OracleOptions::default()).is_err(),
            "layer 1 is empty"
        );
        assert!(layer_signatures(&graph, &[LayerId::new(0)], None).is_err());
    }

    #[test]
    fn identical_layers_have_equal_signatures() {
        let graph = tanh_mlp_step(4, 8, 16);
        let step = analyze(&graph).unwrap();
        let layer_of = layers_of(&graph, Some(&step), 4);
        let sig = layer_signatures(&graph, &layer_of, Some(&step)).unwrap();
        assert_eq!(sig[1], sig[2], "the middle layers are copies");
        assert_ne!(sig[0], sig[1], "the first layer reads the batch and passes no gradient back");
        assert_ne!(sig[2], sig[3], "the last layer computes the loss");
        assert_eq!(layer_signatures(&graph, &layer_of, Some(&step)).unwrap(), sig, "deterministic");
        // Any change of an op's name, attributes or types changes its layer's signature only.
        let mut changed = graph.clone();
        let op = (0..changed.ops().len())
            .find(|&i| layer_of[i] == LayerId::new(2) && changed.ops()[i].short_name() == "tanh")
            .unwrap();
        changed.body.ops[op].name = "stablehlo.logistic".into();
        let other = layer_signatures(&changed, &layer_of, Some(&step)).unwrap();
        assert_eq!((other[0], other[1], other[3]), (sig[0], sig[1], sig[3]));
        assert_ne!(other[2], sig[2]);
    }

    #[test]
    fn the_stage_dp_plans_a_pipeline_with_the_oracle() {
        fn sync<T: Sync>(_: &T) {}
        let graph = tanh_mlp_step(4, 32, 64);
        let o = oracle(&graph, 4, true);
        sync(&o);
        let signatures = o.layer_signatures();
        let cached = CachedCost::with_signatures(o, signatures);
        let table = TableOptions { threads: 2, ..TableOptions::default() };
        let (plan, _) =
            plan_pipeline_parallel(&cached, 4, ClusterShape::new(1, 4), &table, &StageDpOptions::default()).unwrap();
        let covered: Vec<usize> = plan.plan.stages.iter().flat_map(|s| s.layers.clone()).collect();
        assert_eq!(covered, vec![0, 1, 2, 3]);
        assert!(plan.plan.stages.iter().all(|s| s.latency > 0.0 && s.latency.is_finite()));
        assert!(plan.queries.signature_hits > 0, "{:?}", plan.queries);
        assert!(cached.inner().failures().is_empty());
    }

    #[test]
    fn oracles_with_other_layers_share_the_answers_of_the_same_ops() {
        let graph = tanh_mlp_step(4, 16, 32);
        let step = analyze(&graph).unwrap();
        let with = |layers: usize, shared: Option<&Arc<SharedAnswers>>| {
            let o = GraphStageOracle::new(
                &graph,
                layers_of(&graph, Some(&step), layers),
                Some(&step),
                cluster(),
                OracleOptions::default(),
            )
            .unwrap();
            match shared {
                Some(s) => o.with_shared_answers(s.clone()),
                None => o,
            }
        };
        let shared = Arc::new(SharedAnswers::default());
        let (two, four, fresh) = (with(2, Some(&shared)), with(4, Some(&shared)), with(4, None));
        let whole: Vec<usize> = (0..graph.ops().len()).collect();
        let planned = two.cost_options(0..2, sub(2));
        assert!(!planned.is_empty());
        // The whole model is the same ops in both cuts: stored once, read by the other oracle.
        assert_eq!(shared.get(&whole, sub(2)), Some(planned.clone()));
        assert_eq!(four.cost_options(0..4, sub(2)), planned);
        assert_eq!(fresh.cost_options(0..4, sub(2)), planned, "the stored answer is what a solve gives");
        // What the other oracle reads is the store's, not a solve of its own.
        let marker = StageCostResult { latency: 123.0, mem_param: 1.0, mem_act: 2.0, logical_mesh: [1, 4] };
        shared.insert(&whole, sub(4), &[marker]);
        assert_eq!(four.cost_options(0..4, sub(4)), vec![marker]);
        // Ops no oracle planned yet are solved, then stored.
        let first = four.stage_graph(0..1).unwrap().ops;
        assert_eq!(shared.get(&first, sub(2)), None);
        assert_eq!(four.cost_options(0..1, sub(2)), fresh.cost_options(0..1, sub(2)));
        assert_eq!(shared.get(&first, sub(2)), Some(fresh.cost_options(0..1, sub(2))));
    }

    #[test]
    fn logical_meshes_planned_side_by_side_give_the_same_options_in_order() {
        let graph = tanh_mlp_step(3, 16, 32);
        let step = analyze(&graph).unwrap();
        let options = OracleOptions { sharded_params_variant: true, ..OracleOptions::default() };
        let o =
            GraphStageOracle::new(&graph, layers_of(&graph, Some(&step), 3), Some(&step), cluster(), options).unwrap();
        for devices in [2, 4, 8] {
            let options = o.cost_options(0..3, sub(devices));
            assert!(options.len() >= 2, "{devices}: {options:?}");
            assert_eq!(o.cost_options_on(0..3, sub(devices), 2), options, "{devices} devices");
        }
    }
}
