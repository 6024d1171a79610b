//! The stage DP with cross-stage transfer costs (`cross-stage-cost=on`) against the brute force,
//! with T recomputed by hand from the per-boundary times.

use super::util::{close, random_table, Rng};
use crate::inter::{
    brute_force_stage_plan, evaluate_stages, megatron_grid, solve_stage_dp, submesh_shapes, ClusterShape, CostTable,
    InterError, Schedule, StageCostResult, StageDpOptions, StagePlan, StageTransfer, SubmeshSpace,
};
use proptest::prelude::*;

const CLUSTERS: [(usize, usize); 5] = [(1, 1), (1, 2), (1, 4), (2, 2), (2, 4)];

fn random_transfer(rng: &mut Rng, layers: usize) -> StageTransfer {
    let mut draw = || (0..=layers).map(|_| if rng.chance(0.2) { 0.0 } else { rng.below(5) as f64 * 0.25 }).collect();
    StageTransfer { forward: draw(), backward: draw() }
}

/// T of `plan` from its options' latencies and the raw per-boundary times: a stage k..i pays
/// forward[i] unless it is the last and backward[k] unless it is the first.
fn by_hand(table: &CostTable, plan: &StagePlan, t: &StageTransfer, b: usize) -> f64 {
    let l = table.num_layers();
    let lat: Vec<f64> = plan
        .stages
        .iter()
        .map(|s| {
            let intra = s.latency - s.transfer;
            let on = if s.layers.end < l { t.forward[s.layers.end] } else { 0.0 };
            let back = if s.layers.start > 0 { t.backward[s.layers.start] } else { 0.0 };
            assert!(close(s.transfer, on + back), "stage {:?}: {} vs {}", s.layers, s.transfer, on + back);
            let shape = table.shape_index(s.submesh).unwrap();
            assert!(table.options(s.layers.clone(), shape).iter().any(|o| close(o.latency, intra)));
            intra + on + back
        })
        .collect();
    lat.iter().sum::<f64>() + (b - 1) as f64 * lat.iter().copied().fold(0.0, f64::max)
}

fn check(seed: u64, layers: usize, cluster: usize) -> bool {
    let mut rng = Rng::new(seed ^ 0x7A3);
    let (n, m) = CLUSTERS[cluster];
    let table = random_table(seed, layers, ClusterShape::new(n, m), SubmeshSpace::PowerOfTwo, 0.1);
    let b = 1 + rng.below(8);
    let mem = if rng.chance(0.4) { f64::INFINITY } else { (4 + rng.below(40)) as f64 };
    let transfer = random_transfer(&mut rng, layers);
    let opts = StageDpOptions {
        microbatches: b,
        mem_device: mem,
        epsilon: 0.0,
        schedule: if rng.chance(0.7) { Schedule::OneFOneB } else { Schedule::GPipe },
        transfer: Some(transfer.clone()),
        ..StageDpOptions::default()
    };
    let brute = brute_force_stage_plan(&table, &opts, &|_, _| true);
    match (brute, solve_stage_dp(&table, &opts)) {
        (None, Err(InterError::NoStagePlan { .. })) => false,
        (Some(x), Ok(d)) => {
            assert!(close(x.iteration_time, d.plan.iteration_time), "brute {} vs DP {}", x.iteration_time, d.plan.iteration_time);
            assert!(close(by_hand(&table, &d.plan, &transfer, b), d.plan.iteration_time));
            assert!(close(by_hand(&table, &x, &transfer, b), x.iteration_time));
            let cut: Vec<_> = d.plan.stages.iter().map(|s| (s.layers.clone(), table.shape_index(s.submesh).unwrap())).collect();
            let again = evaluate_stages(&table, &cut, &opts).unwrap();
            assert!(close(again.iteration_time, d.plan.iteration_time));
            true
        }
        (x, d) => panic!("brute {x:?} vs DP {d:?}"),
    }
}

#[test]
fn dp_with_transfers_matches_brute_force() {
    let mut feasible = 0;
    for seed in 0..400u64 {
        if check(seed, 1 + seed as usize % 6, (seed as usize / 6) % CLUSTERS.len()) {
            feasible += 1;
        }
    }
    assert!(feasible > 200, "{feasible}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn dp_with_transfers_equals_brute_force(seed in any::<u64>(), layers in 1usize..=6, cluster in 0usize..CLUSTERS.len()) {
        check(seed, layers, cluster);
    }
}

/// Two identical layers on two devices: a pipeline of one layer per device wins until the
/// transfers across its boundary cost more than the single stage's intra-op communication.
#[test]
fn an_expensive_boundary_keeps_the_layers_together() {
    let cluster = ClusterShape::new(1, 2);
    // 1 s per layer on one device; on two, half of it plus 0.5 s of intra-op communication.
    let table = CostTable::from_fn(2, cluster, submesh_shapes(cluster, SubmeshSpace::PowerOfTwo), |r, s| {
        let d = s.devices() as f64;
        vec![StageCostResult { latency: r.len() as f64 / d + if d > 1.0 { 0.5 } else { 0.0 }, mem_param: 0.0, mem_act: 0.0, logical_mesh: [1, s.devices()] }]
    })
    .unwrap();
    let solve = |boundary: f64| {
        let transfer = StageTransfer { forward: vec![0.0, boundary, 0.0], backward: vec![0.0, boundary, 0.0] };
        let opts = StageDpOptions { microbatches: 4, epsilon: 0.0, transfer: Some(transfer), ..StageDpOptions::default() };
        solve_stage_dp(&table, &opts).unwrap().plan
    };
    // Pipeline 2 + 3 = 5 < one stage 4 x 1.5 = 6.
    let cheap = solve(0.0);
    assert_eq!(cheap.stages.len(), 2);
    assert!(close(cheap.iteration_time, 5.0));
    // Boundary 0.3 s each way: stages of 1.3, T = 2.6 + 3.9 = 6.5 > 6: one stage.
    let dear = solve(0.3);
    assert_eq!(dear.stages.len(), 1);
    assert!(close(dear.iteration_time, 6.0));
    // Boundary 0.2 s: 2.4 + 3.6 = 6.0 ties the single stage; 0.1 s: 5.5, the pipeline, whose
    // stages carry the transfer in their latency.
    let some = solve(0.1);
    assert_eq!(some.stages.len(), 2);
    assert!(close(some.iteration_time, 5.5));
    assert!(some.stages.iter().all(|s| close(s.transfer, 0.1) && close(s.latency, 1.1)));
}

#[test]
fn baselines_pay_the_same_transfers() {
    let cluster = ClusterShape::new(1, 4);
    let table = random_table(7, 4, cluster, SubmeshSpace::PowerOfTwo, 0.0);
    let transfer = StageTransfer { forward: vec![0.0, 0.5, 0.25, 1.0, 0.0], backward: vec![0.0, 0.1, 0.2, 0.3, 0.0] };
    let with = StageDpOptions { microbatches: 4, epsilon: 0.0, transfer: Some(transfer.clone()), ..StageDpOptions::default() };
    let without = StageDpOptions { transfer: None, ..with.clone() };
    for (a, b) in megatron_grid(&table, &with).iter().zip(megatron_grid(&table, &without)) {
        if let (Some(pa), Some(pb)) = (&a.plan, &b.plan) {
            assert!(close(by_hand(&table, pa, &transfer, 4), pa.iteration_time));
            assert!(pa.iteration_time >= pb.iteration_time);
        }
    }
    // All-zero transfers change nothing.
    let zero = StageDpOptions { transfer: Some(StageTransfer { forward: vec![0.0; 5], backward: vec![0.0; 5] }), ..with.clone() };
    assert_eq!(solve_stage_dp(&table, &zero).unwrap().plan, solve_stage_dp(&table, &without).unwrap().plan);
    // Transfers of the wrong length or sign are rejected, not indexed.
    let short = StageDpOptions { transfer: Some(StageTransfer { forward: vec![0.0; 4], backward: vec![0.0; 5] }), ..with.clone() };
    assert!(matches!(solve_stage_dp(&table, &short), Err(InterError::InvalidInput(_))));
    assert!(evaluate_stages(&table, &[(0..4, 0)], &short).is_none());
    let negative = StageDpOptions { transfer: Some(StageTransfer { forward: vec![0.0, -1.0, 0.0, 0.0, 0.0], backward: vec![0.0; 5] }), ..with };
    assert!(solve_stage_dp(&table, &negative).is_err());
}
