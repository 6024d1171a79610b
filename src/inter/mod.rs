//! The inter-op pass core (paper §5; spec §2, §4, §5), free of MLIR types.
//!
//! - Operator clustering (Eq. 6): [`cluster_operators`] cuts ops in topological order into L
//!   layers minimising the largest communication a layer receives, under a FLOP balance cap,
//!   ties broken by FLOP variance; `layers=auto` via [`AutoLayers`].
//! - Layer assignment: [`assign_layers`] clusters a graph's (forward) ops and places every
//!   other op with its anchor, as `alpa-cluster-layers` does.
//! - Stage cost oracle: [`GraphStageOracle`] cuts a layer range out of the graph
//!   ([`StageGraph`]) and plans it with the intra-op pass on every logical mesh of a submesh;
//!   [`layer_signatures`] lets [`CachedCost`] reuse the answers of identical layers, and
//!   [`CachedCost::with_composition`] compose long ranges from short windows (an
//!   approximation for large models, compose.rs).
//! - Stage-mesh DP (Eq. 3-5): a [`StageCost`] oracle (the intra-op pass) is queried for every
//!   (layer range, submesh) through a [`CachedCost`] into a [`CostTable`];
//!   [`solve_stage_dp`] finds the stages, submeshes and logical meshes minimising
//!   T = sum t_i + (B - 1) max t_i under the 1F1B (or GPipe) memory rule;
//!   [`place_stages`] assigns device ids. [`plan_pipeline`] does all three.
//! - Baselines with the same table: [`intra_op_only`], [`inter_op_only`], [`equal_layer`],
//!   [`equal_layer_equal_mesh`], [`megatron_grid`]; equal-operator layers via
//!   [`equal_operator_boundaries`].
//! - Beyond the paper: cross-stage transfers priced by the cross-mesh planner inside each
//!   stage's cost (`stage_transfers`, `cross-stage-cost=on`) and the search over the number of
//!   microbatches ([`search_microbatches`]).
//! - Fixed stages instead of the DP (`stages=`, Alpa's manual stage option):
//!   [`plan_manual_stages`].
//! - The plan report: [`InterReport`] (JSON) and [`render_html`] (one self-contained page).
//! - Brute force references for tests: [`brute_force_stage_plan`], [`brute_force_clustering`].

mod baselines;
mod batch_order;
mod batch_parts;
mod batch_positions;
mod batch_statistics;
mod brute;
mod cache;
mod cluster_auto;
mod cluster_brute;
mod cluster_graph;
mod clustering;
mod combined_metrics;
mod compose;
mod deadline;
pub mod driver;
mod error;
mod examples_count;
mod gradient_meetings;
mod gradient_seeds;
mod graph_oracle;
mod html;
mod interleaved_batch;
mod layer_assignment;
pub mod layer_policy;
mod layer_signature;
mod loop_classes;
mod lost_examples;
mod manual_stages;
mod meeting_warnings;
mod memory;
mod microbatches;
mod nonlinear_loss;
mod output_combine;
mod parallel;
mod pipeline;
mod placement;
mod plan;
mod plan_floor;
pub mod program;
mod progress;
mod report;
mod scatter_bins;
mod shared_answers;
mod stage_cost;
mod stage_dp;
mod stage_floor;
mod stage_graph;
mod stage_moves;
mod stage_table;
pub mod stage_transfers;
mod submesh;
mod table;
mod table_prune;
#[cfg(test)]
pub(crate) mod tests;
mod walk_back;
pub mod weighted_loss;

pub use baselines::{
    best_megatron, equal_layer, equal_layer_equal_mesh, inter_op_only, intra_op_only, megatron_grid, standard_submesh,
    MegatronPoint,
};
pub use brute::{brute_force_stage_plan, BRUTE_FORCE_MAX_LAYERS};
pub use cache::{CachedCost, QueryStats, RangeKey};
pub use cluster_brute::{brute_force_clustering, CLUSTER_BRUTE_MAX_OPS};
pub use cluster_graph::{layer_comm, OpNode, Operand, ValueRef};
pub use clustering::{
    cluster_operators, describe_clustering, equal_operator_boundaries, AutoFallback, AutoLayers, AutoTrial,
    ClusterOptions, Clustering, LayerCount,
};
pub use error::InterError;
pub use graph_oracle::{
    layer_signatures, GraphStageOracle, OracleOptions, QueryFailure, StageEvaluation, StageGraph, StageInput,
};
pub use html::{esc as html_escape, render_html, PALETTE};
pub use layer_assignment::{
    assign_layers, clustered_ops, clustering_ops, equal_operator_layers, user_layer_of, user_layers, LayerAssignment,
    LayerAssignmentError, LayerId, USER_LAYER_MARKER,
};
pub use manual_stages::{parse_manual_stages, plan_manual_stages, ManualStage};
pub use memory::{fits, max_fitting_depth, stage_memory, Schedule};
pub use microbatches::{microbatch_candidates, search_microbatches, MicrobatchTrial, Planned};
pub use pipeline::{plan_pipeline, plan_pipeline_parallel, PipelinePlan, PlacedStage};
pub use placement::place_stages;
pub use plan::{best_fitting, evaluate_stages, pipeline_time, PlannedStage, StageDpOptions, StageId, StagePlan};
pub use report::{
    BaselineStage, BaselineStatus, InterReport, LayerWork, MegatronDegrees, MicrobatchSearch, ReportBaseline,
    ReportCluster, ReportExtras, ReportOptions, ReportStage, BASELINE_NAMES, MAX_GRID_DEVICES,
};
pub use shared_answers::SharedAnswers;
pub use stage_cost::{FnCost, StageCost, StageCostResult, StageFloor};
pub use stage_dp::{solve_stage_dp, solve_stage_dp_filtered, DpStats, StageDpResult};
pub use submesh::{logical_meshes, submesh_shapes, ClusterShape, SubmeshShape, SubmeshSpace};
pub use table::{CostTable, ImbalancePrune, TableOptions};
