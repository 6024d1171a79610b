//! The paper's claims about the stage DP (§8.1, §8.3), checked on real JAX train steps with
//! the baselines of `inter::baselines` computed from the same cost table:
//!
//! - GPT (homogeneous): the DP gives every stage the same number of layers (so "equal layer"
//!   finds the same plan) and is at least as good as the best Megatron-style
//!   (data, tensor, pipeline) grid point;
//! - Wide-ResNet (heterogeneous): the DP's stages have unequal layer counts and beat the DP
//!   restricted to equal layer counts clearly.
//!
//! The tiny fixtures are too small for either claim: their stages compute for microseconds, less
//! than one collective's latency, so plans are decided by link latencies (checked below only
//! for what holds at any size). `gpt_pipeline.mlir` and `wresnet_pipeline.mlir` (see
//! lit-tests/inputs/README.md) are the smallest exports where compute dominates.
//!
//! The layers are Eq. 6's clusters, not transformer blocks: with the LM head's FLOPs to
//! balance, the 4 layers of the 4-block GPT cut two blocks in the middle (FLOPs per layer
//! 2.2e11, 3.1e11, 2.2e11, 2.8e11), so "homogeneous" holds for the DP's stages, not per layer.
//!
//! Two causes the first runs exposed were fixed rather than worked around: the stage oracle
//! divided every op's compute by the submesh's devices, so a plan of ops computed replicated
//! (no even split over 24 devices) looked both communication-free and 24-way parallel, and the
//! Megatron grid missed pure data parallelism (the oracle plans a 1-D mesh as [1, d] only).
//!
//! Measured when written (p3.16xlarge x 2 = 16 V100s, B = 16, epsilon 0):
//! - gpt_pipeline, 4 layers: DP 2 stages of 2 layers, T = 243.22 ms; equal layer 243.22 ms;
//!   best Megatron (d=1, t=8, p=2) 243.25 ms; intra-op only 455.38 ms.
//! - wresnet_pipeline, 8 layers: DP 5 stages of 1, 1, 2, 3, 1 layers, T = 5.85 ms; equal layer
//!   (8 stages of 1) 6.63 ms, 1.13x; best Megatron 6.70 ms. The paper reports 1.6x on 32 GPUs
//!   for a much larger, memory-bound Wide-ResNet; here the clustering already balances the
//!   layers' FLOPs (delta 0.5), so equal layer counts are near-balanced in compute and the DP's
//!   gain comes from grouping layers whose communication and memory differ.

mod common;
use common::fixture_graph as graph;

use alpa_mlir::cluster::Cluster;
use alpa_mlir::inter::{
    assign_layers, best_megatron, equal_layer, intra_op_only, megatron_grid, plan_pipeline_parallel, CachedCost,
    ClusterOptions, ClusterShape, CostTable, GraphStageOracle, LayerCount, OracleOptions, PipelinePlan, StageDpOptions,
    StagePlan, TableOptions,
};
use alpa_mlir::intra::SolveOptions;
use alpa_mlir::ir::train_step::analyze;

/// The DP's plan and the cost table of `name` cut into `layers` layers on `cluster`.
struct Outcome {
    plan: PipelinePlan,
    table: CostTable,
    opts: StageDpOptions,
}

fn plan(name: &str, layers: usize, cluster: &str, microbatches: usize) -> Outcome {
    let g = graph(name);
    let step = analyze(&g).unwrap();
    let clustering = ClusterOptions { layers: LayerCount::Fixed(layers), delta: 0.5, progress: false };
    let assignment = assign_layers(&g, Some(&step), &clustering).unwrap();
    let cluster = Cluster::load(cluster).unwrap();
    let shape = ClusterShape::new(cluster.hosts, cluster.devices_per_host);
    let opts = StageDpOptions {
        microbatches,
        mem_device: cluster.device.memory_bytes as f64,
        // Exact: the claims compare plans whose times differ by less than the default 1 us.
        epsilon: 0.0,
        ..StageDpOptions::default()
    };
    let options = OracleOptions {
        solve: SolveOptions { time_limit: Some(10.0), ..SolveOptions::default() },
        ..OracleOptions::default()
    };
    let oracle = GraphStageOracle::new(&g, assignment.layer_of, Some(&step), cluster, options).unwrap();
    let signatures = oracle.layer_signatures();
    let cached = CachedCost::with_signatures(oracle, signatures);
    let table_options = TableOptions { threads: 2, progress: true, ..TableOptions::default() };
    let (plan, table) = plan_pipeline_parallel(&cached, layers, shape, &table_options, &opts).unwrap();
    assert!(cached.inner().failures().is_empty(), "{:?}", cached.inner().failures());
    Outcome { plan, table, opts }
}

fn describe(name: &str, plan: &StagePlan) -> String {
    let stages: Vec<String> =
        plan.stages.iter().map(|s| format!("{}..{} on {}", s.layers.start, s.layers.end, s.submesh)).collect();
    format!("{name}: T = {:.4} ms, {}", plan.iteration_time * 1e3, stages.join(", "))
}

fn layer_counts(plan: &StagePlan) -> Vec<usize> {
    plan.stages.iter().map(|s| s.layers.len()).collect()
}

#[test]
fn gpt_stages_have_equal_layers_and_match_megatron() {
    let o = plan("gpt_pipeline.mlir", 4, "p3.16xlarge-x2", 16);
    let dp = &o.plan.plan;
    let equal = equal_layer(&o.table, &o.opts).expect("equal layer has a plan");
    let grid = megatron_grid(&o.table, &o.opts);
    let megatron = best_megatron(&grid).and_then(|p| p.plan.clone()).expect("some Megatron point fits");
    let intra = intra_op_only(&o.table, &o.opts).expect("one stage fits");
    for (name, p) in [("DP", dp), ("equal layer", &equal), ("best Megatron", &megatron), ("intra-op only", &intra)] {
        eprintln!("{}", describe(name, p));
    }
    // A pipeline across the two hosts, every stage with the same number of layers.
    assert!(dp.stages.len() > 1, "{dp:?}");
    let counts = layer_counts(dp);
    assert!(counts.iter().all(|&c| c == counts[0]), "{counts:?}");
    // So equal layer finds the same optimum ...
    assert!((equal.iteration_time - dp.iteration_time).abs() <= 1e-9 * dp.iteration_time);
    // ... and no Megatron point is better (each is a plan the DP could have chosen).
    assert!(dp.iteration_time <= megatron.iteration_time * (1.0 + 1e-12));
    assert!(dp.iteration_time < intra.iteration_time / 1.5, "the pipeline beats intra-op parallelism across hosts");
}

#[test]
fn wresnet_stages_are_unequal_and_beat_equal_layer() {
    let o = plan("wresnet_pipeline.mlir", 8, "p3.16xlarge-x2", 16);
    let dp = &o.plan.plan;
    let equal = equal_layer(&o.table, &o.opts).expect("equal layer has a plan");
    let grid = megatron_grid(&o.table, &o.opts);
    let megatron = best_megatron(&grid).and_then(|p| p.plan.clone()).expect("some Megatron point fits");
    for (name, p) in [("DP", dp), ("equal layer", &equal), ("best Megatron", &megatron)] {
        eprintln!("{}", describe(name, p));
    }
    let counts = layer_counts(dp);
    assert!(counts.iter().any(|&c| c != counts[0]), "heterogeneous layers, unequal stages: {counts:?}");
    let speedup = equal.iteration_time / dp.iteration_time;
    eprintln!("DP over equal layer: {speedup:.3}x");
    // Measured 1.128x while the intra-op solver missed cheaper plans of equal layer's 2-layer
    // stages on 1x4, 1.092x since it finds them (nodes tied by forbidden pairs solved as groups),
    // 1.026x since a convolution counts only the taps that read its input (its strided
    // gradients had counted 4x their work, which made the layers look more unequal).
    assert!(speedup >= 1.02, "DP {} vs equal layer {}", dp.iteration_time, equal.iteration_time);
    assert!(dp.iteration_time <= megatron.iteration_time * (1.0 + 1e-12));
}

/// What holds at any size: the DP is optimal over a space that contains equal layer counts and
/// every Megatron point, so it is never worse than either.
#[test]
fn on_the_tiny_fixtures_the_dp_is_never_worse_than_the_baselines() {
    for (name, layers) in [("gpt_tiny.mlir", 4), ("wresnet_tiny.mlir", 4)] {
        let o = plan(name, layers, "p3.16xlarge-x1", 8);
        let dp = &o.plan.plan;
        eprintln!("{}", describe(name, dp));
        let equal = equal_layer(&o.table, &o.opts).expect("equal layer has a plan");
        assert!(dp.iteration_time <= equal.iteration_time * (1.0 + 1e-12));
        for point in megatron_grid(&o.table, &o.opts) {
            if let Some(p) = &point.plan {
                assert!(dp.iteration_time <= p.iteration_time * (1.0 + 1e-12), "{point:?}");
            }
        }
    }
}
