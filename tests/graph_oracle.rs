//! The stage cost oracle on real JAX train steps: layers assigned, stages cut out and planned
//! by the intra-op pass, and the stage DP run on the answers.

mod common;
use common::fixture_graph as graph;

use alpa_mlir::cluster::Cluster;
use alpa_mlir::inter::{
    assign_layers, plan_pipeline_parallel, CachedCost, ClusterOptions, ClusterShape, GraphStageOracle, LayerCount,
    OracleOptions, PipelinePlan, StageCost, StageDpOptions, SubmeshShape, TableOptions,
};
use alpa_mlir::intra::SolveOptions;
use alpa_mlir::ir::graph::Graph;
use alpa_mlir::ir::train_step::analyze;

/// The oracle of a train step cut into `layers` layers, with short solver limits.
fn oracle<'g>(graph: &'g Graph, layers: usize, cluster: &str) -> GraphStageOracle<'g> {
    let step = analyze(graph).unwrap();
    let clustering = ClusterOptions { layers: LayerCount::Fixed(layers), delta: 0.5, progress: false };
    let assignment = assign_layers(graph, Some(&step), &clustering).unwrap();
    assert_eq!(assignment.num_layers(), layers);
    let options = OracleOptions {
        solve: SolveOptions { time_limit: Some(2.0), ..SolveOptions::default() },
        ..OracleOptions::default()
    };
    GraphStageOracle::new(graph, assignment.layer_of, Some(&step), Cluster::load(cluster).unwrap(), options).unwrap()
}

fn plan(oracle: &CachedCost<GraphStageOracle<'_>>, cluster: ClusterShape) -> PipelinePlan {
    let layers = oracle.inner().num_layers();
    // Progress on: a long table build prints a line every few seconds (stderr).
    let table = TableOptions { threads: 2, progress: true, ..TableOptions::default() };
    let dp = StageDpOptions { microbatches: 4, ..StageDpOptions::default() };
    let (plan, _) = plan_pipeline_parallel(oracle, layers, cluster, &table, &dp).unwrap();
    let covered: Vec<usize> = plan.plan.stages.iter().flat_map(|s| s.layers.clone()).collect();
    assert_eq!(covered, (0..layers).collect::<Vec<_>>(), "the stages cover every layer once, in order");
    let devices: usize = plan.plan.stages.iter().map(|s| s.submesh.devices()).sum();
    assert_eq!(devices, cluster.devices());
    for s in &plan.plan.stages {
        assert!(s.latency > 0.0 && s.latency.is_finite(), "{s:?}");
        assert!(s.mem_param > 0.0 && s.mem_param.is_finite() && s.mem_act.is_finite(), "{s:?}");
    }
    assert!(oracle.inner().failures().is_empty(), "{:?}", oracle.inner().failures());
    plan
}

#[test]
fn gpt_tiny_blocks_are_planned_once() {
    let g = graph("gpt_tiny.mlir");
    // Five layers cut the two transformer blocks alike: layers 1 and 3 are the same half of
    // each block (the embedding and the loss make layers 0 and 4 differ).
    let o = oracle(&g, 5, "p3.16xlarge-x1");
    let signatures = o.layer_signatures();
    assert_eq!(signatures[1], signatures[3], "{signatures:x?}");
    assert_ne!(signatures[0], signatures[1]);
    assert_ne!(signatures[3], signatures[4]);
    // Reuse is sound: the two copies cost the same when asked separately.
    for submesh in [SubmeshShape::new(1, 1), SubmeshShape::new(1, 2)] {
        assert_eq!(o.cost_options(1..2, submesh), o.cost_options(3..4, submesh));
    }
    let cached = CachedCost::with_signatures(o, signatures);
    let p = plan(&cached, ClusterShape::new(1, 4));
    assert!(p.queries.signature_hits > 0, "{:?}", p.queries);
    assert!(p.queries.queries < p.queries.lookups, "{:?}", p.queries);
}

#[test]
fn mlp_and_wresnet_are_planned_on_two_hosts() {
    for name in ["mlp.mlir", "wresnet_tiny.mlir"] {
        let g = graph(name);
        let o = oracle(&g, 4, "p3.16xlarge-x2");
        let signatures = o.layer_signatures();
        let cached = CachedCost::with_signatures(o, signatures);
        let p = plan(&cached, ClusterShape::new(2, 2));
        assert!(p.plan.iteration_time > 0.0 && p.plan.iteration_time.is_finite(), "{name}: {:?}", p.plan);
    }
}

#[test]
fn composed_stage_costs_track_the_exact_ilp() {
    // compose-stages=2 costs a range of more than two layers from its two-layer windows; on a
    // chain of transformer blocks that should be close to planning the range whole. Prints the
    // measured deviations (cargo test -- --nocapture).
    let g = graph("gpt_pipeline.mlir");
    let exact = oracle(&g, 4, "p3.16xlarge-x1");
    let composed = CachedCost::new(oracle(&g, 4, "p3.16xlarge-x1")).with_composition(2);
    let mut worst: f64 = 0.0;
    for submesh in [SubmeshShape::new(1, 2), SubmeshShape::new(1, 4)] {
        for range in [0..3, 1..4, 0..4] {
            let exact_options = exact.cost_options(range.clone(), submesh);
            let composed_options = composed.cost_options(range.clone(), submesh);
            assert!(!exact_options.is_empty() && !composed_options.is_empty());
            for e in &exact_options {
                let c =
                    composed_options.iter().find(|c| c.logical_mesh == e.logical_mesh).expect("same logical meshes");
                let deviation = (c.latency - e.latency).abs() / e.latency;
                println!(
                    "layers {range:?} on {submesh:?} logical {:?}: exact {:.4e} s, composed {:.4e} s ({:+.2}%)",
                    e.logical_mesh,
                    e.latency,
                    c.latency,
                    100.0 * (c.latency - e.latency) / e.latency
                );
                worst = worst.max(deviation);
            }
        }
    }
    println!("largest latency deviation: {:.2}%", 100.0 * worst);
    assert!(worst < 0.05, "composed latencies deviate from the exact ILP by up to {:.1}%", 100.0 * worst);
}
