//! Stages the user fixes instead of the stage DP (`stages=0..4@1x4:2x2,4..8@1x4`), like Alpa's
//! `ManualStageOption`: the layer range and submesh of every stage, optionally its logical
//! mesh. Each stage is planned by the same oracle as in the DP and takes its fastest option that
//! fits in memory at its pipeline depth (on the given logical mesh, if any).

use super::cache::CachedCost;
use super::error::InterError;
use super::pipeline::PipelinePlan;
use super::placement::place_stages;
use super::plan::{best_fitting, StageDpOptions, StagePlan};
use super::stage_cost::{StageCost, StageCostResult};
use super::stage_dp::DpStats;
use super::submesh::{logical_meshes, ClusterShape, SubmeshShape};
use super::table::CostTable;
use crate::cluster::parse_mesh_shape;
use std::ops::Range;

/// One stage of `stages=`: layers (half-open), submesh, and the logical mesh when given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManualStage {
    pub layers: Range<usize>,
    pub submesh: SubmeshShape,
    pub logical_mesh: Option<[usize; 2]>,
}

impl std::fmt::Display for ManualStage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..{}@{}", self.layers.start, self.layers.end, self.submesh)?;
        match self.logical_mesh {
            Some([a, b]) => write!(f, ":{a}x{b}"),
            None => Ok(()),
        }
    }
}

/// Parses `START..END@HxD[:AxB]` items separated by commas. Checks each item on its own; how
/// the stages fit the model and the cluster is checked by [`plan_manual_stages`].
pub fn parse_manual_stages(text: &str) -> Result<Vec<ManualStage>, String> {
    let syntax = "START..END@HOSTSxDEVICES[:AxB], e.g. 0..4@1x4:2x2,4..8@1x4";
    text.split(',')
        .map(str::trim)
        .map(|item| {
            let bad = |why: String| format!("stages: cannot read `{item}` ({syntax}): {why}");
            let (range, mesh) = item.split_once('@').ok_or_else(|| bad("no `@`".into()))?;
            let (start, end) = range.split_once("..").ok_or_else(|| bad("the layers need `..`".into()))?;
            let layer = |s: &str| s.trim().parse::<usize>().map_err(|_| bad(format!("`{s}` is not a layer index")));
            let (start, end) = (layer(start)?, layer(end)?);
            if start >= end {
                return Err(bad(format!("the range {start}..{end} is empty")));
            }
            let (submesh, logical) = match mesh.split_once(':') {
                Some((s, l)) => (s, Some(l)),
                None => (mesh, None),
            };
            let [hosts, devices_per_host] = parse_mesh_shape(submesh).map_err(|e| bad(e.to_string()))?;
            let submesh = SubmeshShape::new(hosts, devices_per_host);
            let logical_mesh = logical.map(|l| parse_mesh_shape(l).map_err(|e| bad(e.to_string()))).transpose()?;
            if let Some(l) = logical_mesh {
                if !logical_meshes(submesh).contains(&l) {
                    return Err(bad(format!(
                        "logical mesh {}x{} does not have the {} devices of submesh {submesh}",
                        l[0],
                        l[1],
                        submesh.devices()
                    )));
                }
            }
            Ok(ManualStage { layers: start..end, submesh, logical_mesh })
        })
        .collect()
}

/// The plan of the fixed `stages` on a model of `layers` layers: the stages must tile
/// 0..layers in order and their submeshes must lay out on `cluster` using every device (as the
/// DP's do). Also returns the table of the queried pairs (only those), for the report.
pub fn plan_manual_stages<C: StageCost>(
    oracle: &CachedCost<C>,
    stages: &[ManualStage],
    layers: usize,
    cluster: ClusterShape,
    dp: &StageDpOptions,
) -> Result<(PipelinePlan, CostTable), InterError> {
    let invalid = |why: String| InterError::InvalidInput(format!("stages: {why}"));
    let mut next = 0;
    for s in stages {
        if s.layers.start != next {
            return Err(invalid(format!("stage {s} should start at layer {next}: the stages must tile the layers")));
        }
        next = s.layers.end;
    }
    if next != layers {
        return Err(invalid(format!(
            "the stages cover layers 0..{next}, the model has {layers} (layers= sets the count)"
        )));
    }
    let submeshes: Vec<SubmeshShape> = stages.iter().map(|s| s.submesh).collect();
    let devices = place_stages(cluster, &submeshes)?;

    let mut shapes = submeshes.clone();
    shapes.sort_by_key(|s| (s.devices(), s.hosts));
    shapes.dedup();
    let mut table = CostTable::empty(layers, cluster, shapes)?;
    let mut choices = Vec::with_capacity(stages.len());
    for (j, s) in stages.iter().enumerate() {
        let planned = oracle.cost_options(s.layers.clone(), s.submesh);
        let options: Vec<StageCostResult> =
            planned.iter().copied().filter(|o| s.logical_mesh.is_none_or(|l| o.logical_mesh == l)).collect();
        if options.is_empty() && !planned.is_empty() {
            let meshes: Vec<String> =
                planned.iter().map(|o| format!("{}x{}", o.logical_mesh[0], o.logical_mesh[1])).collect();
            return Err(invalid(format!(
                "stage {s}: the intra-op pass has no plan on that logical mesh, only on {} (a d x 1 mesh is planned as 1 x d)",
                meshes.join(", ")
            )));
        }
        let shape = table.shape_index(s.submesh).expect("the table holds every stage's submesh");
        table.set(s.layers.start, s.layers.end, shape, options.clone())?;
        let depth = stages.len() - j;
        let chosen = best_fitting(&options, depth, dp).ok_or_else(|| InterError::NoStagePlan {
            detail: match options.is_empty() {
                true => format!("stage {s} has no intra-op plan"),
                false => format!("no plan of stage {s} fits in device memory at pipeline depth {depth}"),
            },
            mem_device: dp.mem_device,
            bottleneck_layer: None,
            bottleneck_memory: None,
        })?;
        choices.push((s.layers.clone(), s.submesh, chosen));
    }
    let plan = StagePlan::from_choices(choices, dp);
    Ok((PipelinePlan { plan, devices, dp: DpStats::default(), queries: oracle.stats() }, table))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inter::stage_cost::FnCost;

    fn option(latency: f64, mem_param: f64, logical_mesh: [usize; 2]) -> StageCostResult {
        StageCostResult { latency, mem_param, mem_act: 0.0, logical_mesh }
    }

    /// Two options per stage: the wider logical mesh is faster but needs more memory.
    fn oracle() -> CachedCost<FnCost<impl Fn(Range<usize>, SubmeshShape) -> Vec<StageCostResult>>> {
        CachedCost::new(FnCost(|layers: Range<usize>, submesh: SubmeshShape| {
            let work = layers.len() as f64 / submesh.devices() as f64;
            logical_meshes(submesh)
                .into_iter()
                .map(|l| option(work * (1.0 + 0.1 * l[0] as f64), 10.0 * l[1] as f64, l))
                .collect()
        }))
    }

    #[test]
    fn parses_ranges_submeshes_and_logical_meshes() {
        let stages = parse_manual_stages("0..4@1x4:2x2, 4..6@1x2").unwrap();
        assert_eq!(
            stages,
            vec![
                ManualStage { layers: 0..4, submesh: SubmeshShape::new(1, 4), logical_mesh: Some([2, 2]) },
                ManualStage { layers: 4..6, submesh: SubmeshShape::new(1, 2), logical_mesh: None },
            ]
        );
        assert_eq!(stages.iter().map(|s| s.to_string()).collect::<Vec<_>>(), ["0..4@1x4:2x2", "4..6@1x2"]);
    }

    #[test]
    fn rejects_malformed_items() {
        for (text, why) in [
            ("0..4", "no `@`"),
            ("0-4@1x4", "need `..`"),
            ("4..4@1x4", "empty"),
            ("a..4@1x4", "not a layer index"),
            ("0..4@1x0", "at least 1"),
            ("0..4@1x4:3x1", "does not have the 4 devices"),
            ("0..4@1x4,", "no `@`"),
        ] {
            let e = parse_manual_stages(text).unwrap_err();
            assert!(e.contains(why) && e.contains("stages:"), "{text}: {e}");
        }
    }

    #[test]
    fn each_stage_takes_its_fastest_fitting_option() {
        let cluster = ClusterShape::new(1, 8);
        let stages = parse_manual_stages("0..2@1x4,2..3@1x2:2x1,3..4@1x2").unwrap();
        let dp = StageDpOptions { microbatches: 4, ..StageDpOptions::default() };
        let (plan, table) = plan_manual_stages(&oracle(), &stages, 4, cluster, &dp).unwrap();
        let meshes: Vec<[usize; 2]> = plan.plan.stages.iter().map(|s| s.logical_mesh).collect();
        assert_eq!(meshes, [[1, 4], [2, 1], [1, 2]]);
        assert_eq!(plan.devices, [vec![0, 1, 2, 3], vec![4, 5], vec![6, 7]]);
        let latencies: Vec<f64> = plan.plan.stages.iter().map(|s| s.latency).collect();
        for (got, want) in latencies.iter().zip([0.55, 0.6, 0.55]) {
            assert!((got - want).abs() < 1e-12, "{latencies:?}");
        }
        assert!((plan.plan.iteration_time - (1.7 + 3.0 * 0.6)).abs() < 1e-12, "{:?}", plan.plan);
        // Only the fixed stages were planned; the given logical mesh keeps one option.
        assert_eq!(table.options(0..2, table.shape_index(SubmeshShape::new(1, 4)).unwrap()).len(), 3);
        assert_eq!(table.options(2..3, table.shape_index(SubmeshShape::new(1, 2)).unwrap()).len(), 1);
        assert!(table.options(0..4, table.shape_index(SubmeshShape::new(1, 4)).unwrap()).is_empty());
    }

    #[test]
    fn memory_moves_a_stage_to_the_option_that_fits() {
        let cluster = ClusterShape::new(1, 4);
        let stages = parse_manual_stages("0..4@1x4").unwrap();
        // 1x4 needs 40 bytes, 2x2 20, 4x1 10: with 25 bytes the 2x2 plan is the fastest that fits.
        let dp = StageDpOptions { mem_device: 25.0, ..StageDpOptions::default() };
        let (plan, _) = plan_manual_stages(&oracle(), &stages, 4, cluster, &dp).unwrap();
        assert_eq!(plan.plan.stages[0].logical_mesh, [2, 2]);
        let pinned = parse_manual_stages("0..4@1x4:1x4").unwrap();
        let e = plan_manual_stages(&oracle(), &pinned, 4, cluster, &dp).unwrap_err();
        assert!(e.to_string().contains("no plan of stage 0..4@1x4:1x4 fits in device memory"), "{e}");
    }

    #[test]
    fn a_logical_mesh_the_oracle_does_not_plan_is_named_with_those_it_does() {
        // The graph oracle plans 1 x d and never d x 1 (the same mesh to it).
        let oracle = CachedCost::new(FnCost(|layers: Range<usize>, submesh: SubmeshShape| {
            let meshes = logical_meshes(submesh).into_iter().filter(|l| l[1] != 1 || l[0] == 1);
            meshes.map(|l| option(layers.len() as f64, 0.0, l)).collect::<Vec<_>>()
        }));
        let stages = parse_manual_stages("0..4@1x4:4x1").unwrap();
        let dp = StageDpOptions::default();
        let e = plan_manual_stages(&oracle, &stages, 4, ClusterShape::new(1, 4), &dp).unwrap_err().to_string();
        assert!(e.contains("no plan on that logical mesh, only on 1x4, 2x2"), "{e}");
        let empty = CachedCost::new(FnCost(|_: Range<usize>, _: SubmeshShape| Vec::new()));
        let e = plan_manual_stages(&empty, &stages, 4, ClusterShape::new(1, 4), &dp).unwrap_err().to_string();
        assert!(e.contains("stage 0..4@1x4:4x1 has no intra-op plan"), "{e}");
    }

    #[test]
    fn stages_must_tile_the_layers_and_use_every_device() {
        let cluster = ClusterShape::new(1, 8);
        let dp = StageDpOptions::default();
        for (text, why) in [
            ("0..2@1x4,3..4@1x4", "should start at layer 2"),
            ("0..2@1x4,2..3@1x4", "cover layers 0..3, the model has 4"),
            ("0..2@1x4,2..4@1x2", "use 6 devices, the cluster has 8"),
            ("0..4@2x4", "does not fit in a 1x8 cluster"),
        ] {
            let stages = parse_manual_stages(text).unwrap();
            let e = plan_manual_stages(&oracle(), &stages, 4, cluster, &dp).unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
