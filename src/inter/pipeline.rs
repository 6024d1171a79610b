//! The whole inter-op search on layers: cost table, stage DP, placement.

use super::cache::{CachedCost, QueryStats};
use super::error::InterError;
use super::placement::place_stages;
use super::plan::{StageDpOptions, StagePlan};
use super::stage_cost::StageCost;
use super::stage_dp::{solve_stage_dp, solve_stage_dp_filtered, DpStats, StageDpResult};
use super::submesh::{placeable_families, ClusterShape};
use super::table::{CostTable, TableOptions};
use super::table_prune::build_pruned;
use serde::Serialize;
use std::ops::Range;

/// A placed plan with the statistics of its search.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PipelinePlan {
    pub plan: StagePlan,
    /// Device ids of each stage (pipeline order), host-major.
    pub devices: Vec<Vec<usize>>,
    pub dp: DpStats,
    pub queries: QueryStats,
}

/// One placed stage, as the pass describes it (its remark and `alpa.pipeline`): layers
/// (half-open), submesh (hosts x devices per host), logical mesh, device ids, and
/// per-microbatch latency in seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedStage<'a> {
    pub layers: Range<usize>,
    pub submesh: [usize; 2],
    pub logical_mesh: [usize; 2],
    pub devices: &'a [usize],
    pub latency: f64,
}

impl PipelinePlan {
    /// The stages in pipeline order with their devices.
    pub fn placed_stages(&self) -> impl Iterator<Item = PlacedStage<'_>> {
        self.plan.stages.iter().zip(&self.devices).map(|(s, devices)| PlacedStage {
            layers: s.layers.clone(),
            submesh: [s.submesh.hosts, s.submesh.devices_per_host],
            logical_mesh: s.logical_mesh,
            devices,
            latency: s.latency,
        })
    }
}

/// Builds the table through `oracle` on the caller's thread, runs the DP and places the
/// stages. The table is returned too, for baselines.
pub fn plan_pipeline<C: StageCost>(
    oracle: &CachedCost<C>,
    layers: usize,
    cluster: ClusterShape,
    table: &TableOptions,
    dp: &StageDpOptions,
) -> Result<(PipelinePlan, CostTable), InterError> {
    let t = CostTable::build(oracle, layers, cluster, table)?;
    finish(oracle, t, cluster, dp)
}

/// [`plan_pipeline`] with the table built by `table.threads` workers, without the pairs that
/// cannot change the plan (table_prune.rs; all of them with `compose-stages`).
pub fn plan_pipeline_parallel<C: StageCost + Sync>(
    oracle: &CachedCost<C>,
    layers: usize,
    cluster: ClusterShape,
    table: &TableOptions,
    dp: &StageDpOptions,
) -> Result<(PipelinePlan, CostTable), InterError> {
    // Composition (an approximation) plans its windows first, as the whole table needs them.
    let t = match oracle.composition_window() {
        Some(_) => CostTable::build_parallel(oracle, layers, cluster, table)?,
        None => build_pruned(oracle, layers, cluster, table, dp)?,
    };
    finish(oracle, t, cluster, dp)
}

fn finish<C: StageCost>(
    oracle: &CachedCost<C>,
    t: CostTable,
    cluster: ClusterShape,
    dp: &StageDpOptions,
) -> Result<(PipelinePlan, CostTable), InterError> {
    let r = solve_placeable(&t, cluster, dp)?;
    let devices = place_stages(cluster, &r.plan.submeshes())?;
    Ok((PipelinePlan { plan: r.plan, devices, dp: r.stats, queries: oracle.stats() }, t))
}

/// The fastest plan the DP finds within one placeable family of the table's shapes (one run per
/// family; a single run when every shape is in one family, as the power-of-two shapes are), so
/// that placement never fails on a combination the DP chose by device count alone.
pub fn solve_placeable(t: &CostTable, cluster: ClusterShape, dp: &StageDpOptions) -> Result<StageDpResult, InterError> {
    let families = placeable_families(cluster, t.shapes());
    if let [only] = families.as_slice() {
        if only.len() == t.shapes().len() {
            return solve_stage_dp(t, dp);
        }
    }
    let mut best: Option<StageDpResult> = None;
    let mut first_error = None;
    for family in &families {
        match solve_stage_dp_filtered(t, dp, &|_, s| family.contains(&s)) {
            Ok(r) if best.as_ref().is_none_or(|b| r.plan.iteration_time < b.plan.iteration_time) => best = Some(r),
            Ok(_) => {}
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    best.ok_or_else(|| {
        first_error.unwrap_or_else(|| InterError::Placement("no submesh shape can tile the cluster".into()))
    })
}
