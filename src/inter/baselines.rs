//! Baselines computed with the same cost table and memory rule as the DP (paper §8.1, §8.3).

use super::memory::fits;
use super::plan::{evaluate_stages, StageDpOptions, StagePlan};
use super::stage_dp::solve_stage_dp_filtered;
use super::submesh::SubmeshShape;
use super::table::CostTable;
use serde::Serialize;
use std::ops::Range;

/// "Intra-op only": one stage with every layer on the whole cluster (N, M).
pub fn intra_op_only(table: &CostTable, opts: &StageDpOptions) -> Option<StagePlan> {
    let c = table.cluster();
    let s = table.shape_index(SubmeshShape::new(c.hosts, c.devices_per_host))?;
    evaluate_stages(table, &[(0..table.num_layers(), s)], opts)
}

/// "Inter-op only" (paper §8.1): no intra-op parallelism, so every stage runs on a single
/// device and, as every device is used, the pipeline has N x M stages on (1, 1) submeshes; the
/// DP chooses the cut. `None` when L < N x M or no cut fits in memory.
pub fn inter_op_only(table: &CostTable, opts: &StageDpOptions) -> Option<StagePlan> {
    solve_stage_dp_filtered(table, opts, &|_, s| inter_op_only_allows(s)).ok().map(|r| r.plan)
}

/// Whether the inter-op-only baseline's DP may use a stage on `shape`.
pub(crate) fn inter_op_only_allows(shape: SubmeshShape) -> bool {
    shape == SubmeshShape::new(1, 1)
}

/// "Equal layer" (paper §8.3): the DP restricted to stages with the same number of layers
/// (submeshes still chosen by the DP); the best over the layer counts dividing L.
pub fn equal_layer(table: &CostTable, opts: &StageDpOptions) -> Option<StagePlan> {
    equal_layer_lengths(table.num_layers())
        .filter_map(|len| solve_stage_dp_filtered(table, opts, &|r, _| r.len() == len).ok().map(|r| r.plan))
        .min_by(|a, b| a.iteration_time.total_cmp(&b.iteration_time))
}

/// The stage lengths the equal-layer baseline runs its DP with (each its own DP, restricted to
/// ranges of that length): those dividing `layers`.
pub(crate) fn equal_layer_lengths(layers: usize) -> impl Iterator<Item = usize> {
    (1..=layers).filter(move |len| layers.is_multiple_of(*len))
}

/// The stages of a pipeline of `stages` equal stages over `layers` layers (`stages` divides it).
pub(crate) fn equal_stages(layers: usize, stages: usize) -> impl Iterator<Item = Range<usize>> {
    let len = layers / stages;
    (0..stages).map(move |j| j * len..(j + 1) * len)
}

/// The stage counts that split both `layers` and `devices` evenly (the Megatron grid's pipeline
/// depths, equal layers on equal submeshes).
pub(crate) fn equal_split_depths(layers: usize, devices: usize) -> impl Iterator<Item = usize> {
    (1..=layers.min(devices)).filter(move |p| layers.is_multiple_of(*p) && devices.is_multiple_of(*p))
}

/// Equal layers on equal submeshes: S stages (S dividing L) of L / S layers, each on the
/// submesh of N x M / S devices (`standard_submesh`). One entry per S that has such a submesh.
pub fn equal_layer_equal_mesh(table: &CostTable, opts: &StageDpOptions) -> Vec<(usize, Option<StagePlan>)> {
    let l = table.num_layers();
    let d = table.cluster().devices();
    equal_split_depths(l, d)
        .filter_map(|s| {
            let shape = standard_submesh(table, d / s)?;
            let idx = table.shape_index(shape)?;
            let stages: Vec<_> = equal_stages(l, s).map(|r| (r, idx)).collect();
            Some((s, evaluate_stages(table, &stages, opts)))
        })
        .collect()
}

/// The submesh of `devices` devices a manual plan would use: (1, devices) within one host when
/// devices <= M, otherwise (devices / M, M); `None` if the table has no such shape.
pub fn standard_submesh(table: &CostTable, devices: usize) -> Option<SubmeshShape> {
    let m = table.cluster().devices_per_host;
    let shape = if devices <= m {
        SubmeshShape::new(1, devices)
    } else if devices.is_multiple_of(m) {
        SubmeshShape::new(devices / m, m)
    } else {
        return None;
    };
    table.shape_index(shape).map(|_| shape)
}

/// One point of the Megatron-style grid: `pipeline` stages of L / pipeline layers, each on
/// `data` x `tensor` devices with logical mesh [data, tensor].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MegatronPoint {
    pub data: usize,
    pub tensor: usize,
    pub pipeline: usize,
    pub submesh: Option<SubmeshShape>,
    pub plan: Option<StagePlan>,
    /// Why there is no plan.
    pub note: Option<String>,
}

/// Every (data, tensor, pipeline) with data x tensor x pipeline = N x M and pipeline dividing
/// L. Each stage uses the oracle's option with logical mesh [data, tensor] (so the table must
/// hold an option per logical mesh, see `StageCost::cost_options`). A 1-D mesh may be given
/// either way round ([d, 1] or [1, d]): the oracle plans only one of the two views, which are
/// the same mesh to the intra-op pass, and pure data parallelism (tensor = 1) is Megatron's
/// best setting more often than not (paper §8.1).
pub fn megatron_grid(table: &CostTable, opts: &StageDpOptions) -> Vec<MegatronPoint> {
    let l = table.num_layers();
    let d = table.cluster().devices();
    let mut out = Vec::new();
    for pp in equal_split_depths(l, d) {
        let per_stage = d / pp;
        for dp in (1..=per_stage).filter(|x| per_stage.is_multiple_of(*x)) {
            let tp = per_stage / dp;
            out.push(megatron_point(table, opts, dp, tp, pp));
        }
    }
    out
}

/// The best grid point (least iteration time).
pub fn best_megatron(points: &[MegatronPoint]) -> Option<&MegatronPoint> {
    points.iter().filter(|p| p.plan.is_some()).min_by(|a, b| {
        let t = |p: &MegatronPoint| p.plan.as_ref().map_or(f64::INFINITY, |x| x.iteration_time);
        t(a).total_cmp(&t(b))
    })
}

fn megatron_point(table: &CostTable, opts: &StageDpOptions, dp: usize, tp: usize, pp: usize) -> MegatronPoint {
    let mut point = MegatronPoint { data: dp, tensor: tp, pipeline: pp, submesh: None, plan: None, note: None };
    let Some(shape) = standard_submesh(table, dp * tp) else {
        point.note = Some(format!("no submesh of {} devices", dp * tp));
        return point;
    };
    point.submesh = Some(shape);
    let idx = table.shape_index(shape).unwrap_or(0);
    let mut choices = Vec::new();
    for (j, r) in equal_stages(table.num_layers(), pp).enumerate() {
        let one_d = dp == 1 || tp == 1;
        let with_mesh: Vec<_> = table
            .options(r.clone(), idx)
            .iter()
            .filter(|o| o.logical_mesh == [dp, tp] || (one_d && o.logical_mesh == [tp, dp]))
            .copied()
            .collect();
        if with_mesh.is_empty() && table.memory_floor(r.clone(), idx).is_some() {
            point.note = Some(format!("layers {}..{} do not fit in device memory", r.start, r.end));
            return point;
        }
        if with_mesh.is_empty() {
            point.note = Some(format!("no plan with logical mesh [{dp}, {tp}] for layers {}..{}", r.start, r.end));
            return point;
        }
        let fitting = with_mesh
            .iter()
            .filter(|o| fits(o, pp - j, opts.microbatches, opts.schedule, opts.mem_device))
            .min_by(|a, b| a.latency.total_cmp(&b.latency));
        match fitting {
            Some(o) => choices.push((r, shape, *o)),
            None => {
                point.note = Some(format!("layers {}..{} do not fit in device memory", r.start, r.end));
                return point;
            }
        }
    }
    point.plan = Some(StagePlan::from_choices(choices, opts));
    point
}
