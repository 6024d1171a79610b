use crate::inter::{
    plan_pipeline, plan_pipeline_parallel, CachedCost, ClusterShape, FnCost, StageCostResult, StageDpOptions,
    SubmeshShape, TableOptions,
};
use std::ops::Range;

/// Latency: layer weights / devices + 5% per extra host; memory: weights / devices.
fn oracle(r: Range<usize>, s: SubmeshShape) -> Vec<StageCostResult> {
    let w: f64 = r.clone().map(|l| 1.0 + (l % 3) as f64).sum();
    let d = s.devices() as f64;
    vec![StageCostResult {
        latency: w / d * (1.0 + 0.05 * (s.hosts as f64 - 1.0)),
        mem_param: w / d,
        mem_act: 0.1,
        logical_mesh: [s.hosts, s.devices_per_host],
    }]
}

#[test]
fn end_to_end_plan_is_placed() {
    let cluster = ClusterShape::new(4, 4);
    let dp = StageDpOptions { microbatches: 8, mem_device: 3.0, epsilon: 0.0, ..StageDpOptions::default() };
    let seq = CachedCost::new(FnCost(oracle));
    let (a, _) = plan_pipeline(&seq, 12, cluster, &TableOptions::default(), &dp).unwrap();
    let par = CachedCost::new(FnCost(oracle));
    let (b, table) =
        plan_pipeline_parallel(&par, 12, cluster, &TableOptions { threads: 3, ..TableOptions::default() }, &dp)
            .unwrap();
    assert_eq!(a.plan, b.plan);
    assert_eq!(a.devices, b.devices);
    assert_eq!(a.queries.queries, 12 * 13 / 2 * table.shapes().len());
    let mut all: Vec<usize> = a.devices.iter().flatten().copied().collect();
    all.sort_unstable();
    assert_eq!(all, (0..16).collect::<Vec<_>>());
    for (s, d) in a.plan.stages.iter().zip(&a.devices) {
        assert_eq!(s.submesh.devices(), d.len());
        assert!(s.memory <= 3.0);
    }
}

#[test]
fn all_submesh_shapes_yield_placed_plans() {
    // Once every (n, m) entered the DP by device count, and plans such as 2x3 + 1x2 on two
    // hosts of 4 could not be placed.
    use crate::inter::SubmeshSpace;
    let dp = StageDpOptions { microbatches: 4, mem_device: f64::INFINITY, epsilon: 0.0, ..StageDpOptions::default() };
    let all = TableOptions { shapes: SubmeshSpace::All, ..TableOptions::default() };
    for (n, m) in [(2, 4), (2, 3), (2, 6), (3, 6), (2, 12), (1, 30)] {
        let cluster = ClusterShape::new(n, m);
        let (plan, table) = plan_pipeline(&CachedCost::new(FnCost(oracle)), 6, cluster, &all, &dp)
            .unwrap_or_else(|e| panic!("{n}x{m}: {e}"));
        assert_eq!(plan.devices.iter().map(Vec::len).sum::<usize>(), n * m);
        // At least as fast as the power-of-two shapes, which are one placeable family of them.
        let (paper, _) =
            plan_pipeline(&CachedCost::new(FnCost(oracle)), 6, cluster, &TableOptions::default(), &dp).unwrap();
        assert!(plan.plan.iteration_time <= paper.plan.iteration_time + 1e-12, "{n}x{m}");
        assert!(table.shapes().iter().all(|s| s.hosts == 1 || s.devices_per_host == m));
    }
}
