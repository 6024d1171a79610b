//! The intra-op pass's JSON report: what was chosen, what it costs, what the solver did.

use super::merge::Role;
use super::plan::{IntraPlan, Producer};
use crate::cluster::mesh::DeviceMesh;
use crate::ir::graph::{Graph, OpId};
use crate::sharding::spec::ShardingSpec;
use crate::sharding::strategy::CollectiveUse;
use serde::Serialize;

/// A layout as data for the bridge (which must not parse spec names): for each dimension, the
/// mesh axes it is split over, major first.
pub type DimAxes = Vec<Vec<usize>>;

fn dim_axes(spec: &ShardingSpec) -> DimAxes {
    spec.dims().iter().map(|d| d.mesh_axes().to_vec()).collect()
}

#[derive(Clone, Debug, Serialize)]
pub struct MeshReport {
    pub shape: [usize; 2],
    pub device_ids: Vec<u32>,
    pub alpha: [f64; 2],
    pub beta: [f64; 2],
}

#[derive(Clone, Debug, Serialize)]
pub struct SolverReport {
    pub status: String,
    pub seconds: f64,
    pub variables: usize,
    pub constraints: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct OpReport {
    pub index: usize,
    pub name: String,
    pub location: String,
    pub strategy: String,
    /// "leader", or "follows operand N" for a merged trivial op.
    pub role: String,
    pub results: Vec<Option<String>>,
}

#[derive(Clone, Debug, Serialize)]
pub struct CollectiveReport {
    pub kind: String,
    pub bytes: u64,
    pub axes: Vec<usize>,
    pub op: OpId,
    /// "strategy" (the op's own communication) or "resharding".
    pub reason: String,
    /// For a resharding's move (listed once however many operands share it, as the emitter
    /// shares the constraint and XLA runs it once): the value moved, the move's layouts and the
    /// operands that need it; `op` is the first of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resharding: Option<MoveReport>,
}

/// One move of a value's resharding.
#[derive(Clone, Debug, Serialize)]
pub struct MoveReport {
    /// "op N" or "argument N".
    pub value: String,
    pub result: usize,
    pub from: String,
    pub to: String,
    pub consumers: Vec<ConsumerReport>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ConsumerReport {
    pub op: OpId,
    pub operand: usize,
}

/// One gradient whose all-reduce became a reduce-scatter (`prefer-reduce-scatter`).
#[derive(Clone, Debug, Serialize)]
pub struct ScatteredGradientReport {
    pub op: OpId,
    pub dim: usize,
    pub spec: String,
}

/// What the weight-update sharding rewrite changed.
#[derive(Clone, Debug, Serialize)]
pub struct WeightUpdateReport {
    pub gradients: Vec<ScatteredGradientReport>,
    /// Update ops computed on the scattered layouts.
    pub update_ops: Vec<OpId>,
    /// Optimizer-state arguments sharded in and out.
    pub optimizer_states: Vec<usize>,
}

#[derive(Clone, Debug, Serialize)]
pub struct CandidateReport {
    pub shape: [usize; 2],
    pub objective: Option<f64>,
    pub error: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct IntraReport {
    pub mesh: MeshReport,
    /// The plan's cost as it runs (communication plus every move once).
    pub objective: f64,
    pub communication: f64,
    pub resharding: f64,
    /// What the ILP minimised (a move shared across consumer groups once per group).
    pub ilp_objective: f64,
    pub memory_per_device_bytes: f64,
    pub memory_budget_bytes: Option<u64>,
    pub solver: SolverReport,
    pub ops_before_merging: usize,
    pub ops_after_merging: usize,
    pub arguments: Vec<Option<String>>,
    /// `arguments` as data (`None` for non-tensor arguments).
    pub argument_axes: Vec<Option<DimAxes>>,
    pub ops: Vec<OpReport>,
    pub collectives: Vec<CollectiveReport>,
    /// Only when `prefer-reduce-scatter` changed the plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight_update: Option<WeightUpdateReport>,
    /// For logical-mesh=auto: every logical shape tried.
    pub logical_meshes: Vec<CandidateReport>,
}

/// Costs rounded to 1e-6: the sums of many float terms print as 38035.13, not 38035.12999999999.
fn rounded(cost: f64) -> f64 {
    (cost * 1e6).round() / 1e6
}

fn collective_report(collective: &CollectiveUse, op: OpId, reason: String) -> CollectiveReport {
    CollectiveReport {
        kind: collective.kind.name().to_string(),
        bytes: collective.bytes,
        axes: collective.axes.indices().to_vec(),
        op,
        reason,
        resharding: None,
    }
}

pub fn build_report(
    graph: &Graph,
    plan: &IntraPlan,
    mesh: &DeviceMesh,
    memory_budget: Option<u64>,
    logical_meshes: Vec<CandidateReport>,
) -> IntraReport {
    let spec_text = |spec: &Option<ShardingSpec>| spec.as_ref().map(|s| s.to_string());
    let argument_specs: Vec<Option<&ShardingSpec>> =
        plan.args.iter().map(|a| a.as_ref().and_then(|s| s.result_specs.first()).and_then(Option::as_ref)).collect();
    let ops = graph
        .ops()
        .iter()
        .zip(&plan.ops)
        .enumerate()
        .map(|(index, (op, strategy))| OpReport {
            index,
            name: op.name.clone(),
            location: op.location.clone(),
            strategy: strategy.name.clone(),
            role: match plan.roles[index] {
                Role::Leader => "leader".into(),
                Role::Follower { operand } => format!("follows operand {operand}"),
            },
            results: strategy.result_specs.iter().map(spec_text).collect(),
        })
        .collect();
    let mut collectives: Vec<CollectiveReport> = plan
        .ops
        .iter()
        .enumerate()
        .flat_map(|(op, s)| s.collectives.iter().map(move |c| collective_report(c, OpId::new(op), "strategy".into())))
        .collect();
    for m in &plan.moves {
        let value = match m.producer {
            Producer::Arg(i) => format!("argument {i}"),
            Producer::Op(i) => format!("op {i}"),
        };
        let mut report = collective_report(&m.collective, m.consumers[0].0, "resharding".into());
        report.resharding = Some(MoveReport {
            value,
            result: m.result,
            from: m.from.to_string(),
            to: m.to.to_string(),
            consumers: m.consumers.iter().map(|&(op, operand)| ConsumerReport { op, operand }).collect(),
        });
        collectives.push(report);
    }
    IntraReport {
        mesh: MeshReport { shape: mesh.shape, device_ids: mesh.device_ids.clone(), alpha: mesh.alpha, beta: mesh.beta },
        objective: rounded(plan.objective),
        communication: rounded(plan.communication_cost),
        resharding: rounded(plan.resharding_cost),
        ilp_objective: rounded(plan.ilp_objective),
        memory_per_device_bytes: plan.peak_memory_bytes,
        memory_budget_bytes: memory_budget,
        solver: SolverReport {
            status: format!("{:?}", plan.status),
            seconds: plan.solver_seconds,
            variables: plan.variables,
            constraints: plan.constraints,
        },
        ops_before_merging: plan.nodes_before_merging,
        ops_after_merging: plan.nodes_after_merging,
        arguments: argument_specs.iter().map(|s| s.map(ShardingSpec::to_string)).collect(),
        argument_axes: argument_specs.iter().map(|s| s.map(dim_axes)).collect(),
        ops,
        collectives,
        weight_update: weight_update_report(plan),
        logical_meshes,
    }
}

fn weight_update_report(plan: &IntraPlan) -> Option<WeightUpdateReport> {
    let w = &plan.weight_update;
    (!w.is_empty()).then(|| WeightUpdateReport {
        gradients: w
            .gradients
            .iter()
            .map(|g| ScatteredGradientReport { op: g.op, dim: g.dim, spec: g.spec.to_string() })
            .collect(),
        update_ops: w.update_ops.clone(),
        optimizer_states: w.optimizer_states.clone(),
    })
}
