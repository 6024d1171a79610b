//! The intra-op plan of one function on one mesh, as the planner returns it and the report and
//! the emitter read it: the chosen strategy of every argument and op, the reshardings and moves
//! they need, the solve's statistics. Types only; [`super::planner`] makes a plan.

use super::merge::Role;
use super::solution::SolveStatus;
use crate::ir::graph::{OpId, ValueRef};
use crate::sharding::reshard::CollectiveUse;
use crate::sharding::spec::ShardingSpec;
use crate::sharding::strategy::Strategy;

/// Where a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Producer {
    Arg(usize),
    Op(OpId),
}

#[derive(Clone, Debug, PartialEq)]
pub enum PlanError {
    /// An op cannot be described (malformed attributes, inconsistent shapes).
    Op {
        op: OpId,
        message: String,
    },
    /// No plan fits the memory budget: what the least-memory plan needs per device, and what
    /// the cheapest plan (ignoring the budget) needs.
    OutOfMemory {
        budget: u64,
        least_memory: f64,
        cheapest_plan_memory: Option<f64>,
    },
    Solver(String),
}

/// One move of a value's move tree the plan runs, once for every operand whose chain passes it.
#[derive(Clone, Debug)]
pub struct SharedMove {
    pub producer: Producer,
    pub result: usize,
    pub from: ShardingSpec,
    pub to: ShardingSpec,
    pub collective: CollectiveUse,
    pub cost: f64,
    /// (op, operand) of every operand that needs the move.
    pub consumers: Vec<(OpId, usize)>,
}

/// A resharding the plan pays for: a value converted for one operand of one op.
#[derive(Clone, Debug)]
pub struct ChosenResharding {
    pub producer: Producer,
    pub op: OpId,
    pub operand: usize,
    pub from: ShardingSpec,
    pub to: ShardingSpec,
    pub resharding: crate::sharding::reshard::Resharding,
}

#[derive(Clone, Debug)]
pub struct IntraPlan {
    /// The chosen strategy of every argument (`None` for non-tensor arguments).
    pub args: Vec<Option<Strategy>>,
    pub ops: Vec<Strategy>,
    pub roles: Vec<Role>,
    /// What the plan costs as the emitted module runs it: `communication_cost +
    /// resharding_cost`, every move once however many consumers share it.
    pub objective: f64,
    /// What the solver minimised. Unless shared moves are priced, a move that consumers of
    /// several groups share is counted once per group there, so this can exceed `objective`.
    pub ilp_objective: f64,
    pub communication_cost: f64,
    pub resharding_cost: f64,
    pub peak_memory_bytes: f64,
    pub status: SolveStatus,
    pub solver_seconds: f64,
    pub variables: usize,
    pub constraints: usize,
    /// ILP nodes: arguments plus ops before merging, and groups after.
    pub nodes_before_merging: usize,
    pub nodes_after_merging: usize,
    /// Per operand, the chain it is resharded along (for the emitter).
    pub reshardings: Vec<ChosenResharding>,
    /// The moves those chains run, each once: what the objective counts and the report lists.
    pub moves: Vec<SharedMove>,
    /// Ops that had no even strategy and were computed replicated.
    pub replicated_fallbacks: Vec<OpId>,
    /// What the weight-update sharding rewrite changed (empty unless it ran and applied).
    pub weight_update: WeightUpdateSharding,
}

/// Where a value comes from (`None`: a capture from an enclosing region).
pub(crate) fn producer_of(value: ValueRef) -> Option<(Producer, usize)> {
    match value {
        ValueRef::Arg(i) => Some((Producer::Arg(i), 0)),
        ValueRef::Op { op, result } => Some((Producer::Op(OpId::new(op)), result)),
        ValueRef::Outer => None,
    }
}

/// A gradient whose all-reduce became a reduce-scatter.
#[derive(Clone, Debug, PartialEq)]
pub struct ScatteredGradient {
    /// The op that produces it.
    pub op: OpId,
    /// The tensor dim scattered, and its new layout.
    pub dim: usize,
    pub spec: ShardingSpec,
}

/// What the rewrite changed, for the report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WeightUpdateSharding {
    pub gradients: Vec<ScatteredGradient>,
    /// Update ops now computed on a scattered layout, in program order.
    pub update_ops: Vec<OpId>,
    /// Optimizer-state arguments now sharded (in and out), in order.
    pub optimizer_states: Vec<usize>,
}

impl WeightUpdateSharding {
    pub fn is_empty(&self) -> bool {
        self.gradients.is_empty()
    }
}
