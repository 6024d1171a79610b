use super::util::{close, random_table};
use crate::inter::{
    best_megatron, equal_layer, equal_layer_equal_mesh, inter_op_only, intra_op_only, logical_meshes, megatron_grid,
    solve_stage_dp, submesh_shapes, ClusterShape, CostTable, Schedule, StageCostResult, StageDpOptions, SubmeshShape,
    SubmeshSpace,
};

fn opts(b: usize, mem: f64) -> StageDpOptions {
    StageDpOptions {
        microbatches: b,
        mem_device: mem,
        epsilon: 0.0,
        schedule: Schedule::OneFOneB,
        time_limit: None,
        progress: false,
    }
}

#[test]
fn dp_is_never_worse_than_a_baseline() {
    for seed in 0..150 {
        let cluster = ClusterShape::new(2, 4);
        let table = random_table(seed, 8, cluster, SubmeshSpace::PowerOfTwo, 0.05);
        let o = opts(1 + seed as usize % 8, if seed % 3 == 0 { f64::INFINITY } else { 80.0 });
        let dp = solve_stage_dp(&table, &o).ok().map(|r| r.plan.iteration_time);
        let mut baselines = vec![intra_op_only(&table, &o), inter_op_only(&table, &o), equal_layer(&table, &o)];
        baselines.extend(equal_layer_equal_mesh(&table, &o).into_iter().map(|x| x.1));
        baselines.extend(megatron_grid(&table, &o).into_iter().map(|p| p.plan));
        for b in baselines.into_iter().flatten() {
            let t = dp.expect("a baseline plan exists, so the DP finds one");
            assert!(t <= b.iteration_time * (1.0 + 1e-12), "DP {t} > baseline {}", b.iteration_time);
        }
    }
}

#[test]
fn baseline_shapes() {
    let cluster = ClusterShape::new(2, 4);
    let table = random_table(3, 8, cluster, SubmeshSpace::PowerOfTwo, 0.0);
    let o = opts(4, f64::INFINITY);
    let intra = intra_op_only(&table, &o).unwrap();
    assert_eq!(intra.stages.len(), 1);
    assert_eq!(intra.stages[0].submesh, SubmeshShape::new(2, 4));
    assert!(close(intra.iteration_time, 4.0 * intra.stages[0].latency));
    let inter = inter_op_only(&table, &o).unwrap();
    assert_eq!(inter.stages.len(), 8);
    assert!(inter.stages.iter().all(|s| s.submesh == SubmeshShape::new(1, 1) && s.layers.len() == 1));
    let eq = equal_layer(&table, &o).unwrap();
    let len = eq.stages[0].layers.len();
    assert!(eq.stages.iter().all(|s| s.layers.len() == len));
    let em = equal_layer_equal_mesh(&table, &o);
    assert_eq!(em.iter().map(|x| x.0).collect::<Vec<_>>(), vec![1, 2, 4, 8]);
    for (s, p) in em {
        let p = p.unwrap();
        assert_eq!(p.stages.len(), s);
        assert!(p.stages.iter().all(|x| x.submesh.devices() == 8 / s));
    }
    // Too few layers for inter-op only on 8 devices.
    let small = random_table(3, 4, cluster, SubmeshSpace::PowerOfTwo, 0.0);
    assert!(inter_op_only(&small, &o).is_none());
}

/// A homogeneous model: every option per logical mesh; data parallel is cheap within a host,
/// tensor parallel costs communication, memory pushes towards tensor parallelism.
fn homogeneous_table(layers: usize, cluster: ClusterShape) -> CostTable {
    CostTable::from_fn(layers, cluster, submesh_shapes(cluster, SubmeshSpace::PowerOfTwo), |r, s| {
        logical_meshes(s)
            .into_iter()
            .map(|[dp, tp]| {
                let n = r.len() as f64;
                let d = s.devices() as f64;
                let cross = if s.hosts > 1 { 4.0 } else { 1.0 };
                StageCostResult {
                    latency: n / d + 0.02 * n * (tp as f64 - 1.0) * cross + 0.01 * (dp as f64 - 1.0) * cross,
                    mem_param: 10.0 * n / tp as f64,
                    mem_act: n / d,
                    logical_mesh: [dp, tp],
                }
            })
            .collect()
    })
    .unwrap()
}

#[test]
fn megatron_grid_on_a_homogeneous_model() {
    let cluster = ClusterShape::new(2, 4);
    let table = homogeneous_table(8, cluster);
    let o = opts(16, 30.0);
    let grid = megatron_grid(&table, &o);
    // pp in {1, 2, 4, 8}; dp x tp = 8 / pp.
    assert_eq!(grid.len(), 4 + 3 + 2 + 1);
    for p in &grid {
        assert_eq!(p.data * p.tensor * p.pipeline, 8);
        if let Some(plan) = &p.plan {
            assert_eq!(plan.stages.len(), p.pipeline);
            let one_d = p.data == 1 || p.tensor == 1;
            assert!(plan
                .stages
                .iter()
                .all(|s| s.logical_mesh == [p.data, p.tensor] || one_d && s.logical_mesh == [p.tensor, p.data]));
        } else {
            assert!(p.note.is_some());
        }
    }
    let best = best_megatron(&grid).unwrap().plan.clone().unwrap();
    let dp = solve_stage_dp(&table, &o).unwrap().plan;
    assert!(dp.iteration_time <= best.iteration_time * (1.0 + 1e-12));
    // Homogeneous layers: the DP's stages have equal layer counts.
    let len = dp.stages[0].layers.len();
    assert!(dp.stages.iter().all(|s| s.layers.len() == len), "{:?}", dp.stages);
}

#[test]
fn megatron_accepts_either_view_of_a_one_dimensional_mesh() {
    // The oracle plans [1, d] only (graph_oracle.rs); Megatron's pure data parallelism asks
    // for [d, 1].
    let cluster = ClusterShape::new(1, 4);
    let shapes = submesh_shapes(cluster, SubmeshSpace::PowerOfTwo);
    let table = CostTable::from_fn(4, cluster, shapes, |r, s| {
        vec![StageCostResult {
            latency: r.len() as f64 / s.devices() as f64,
            mem_param: 0.0,
            mem_act: 0.0,
            logical_mesh: [1, s.devices()],
        }]
    })
    .unwrap();
    let grid = megatron_grid(&table, &opts(4, f64::INFINITY));
    let data = grid.iter().find(|p| (p.data, p.tensor, p.pipeline) == (4, 1, 1)).unwrap();
    let tensor = grid.iter().find(|p| (p.data, p.tensor, p.pipeline) == (1, 4, 1)).unwrap();
    assert!(data.plan.is_some(), "{:?}", data.note);
    assert_eq!(data.plan, tensor.plan, "the same 1-D mesh either way round");
    // A 2-D mesh must match exactly: [2, 2] has no option here.
    let square = grid.iter().find(|p| (p.data, p.tensor, p.pipeline) == (2, 2, 1)).unwrap();
    assert!(square.plan.is_none());
}
