use super::util::{close, random_table, Rng};
use crate::inter::{
    brute_force_stage_plan, evaluate_stages, solve_stage_dp, solve_stage_dp_filtered, submesh_shapes, ClusterShape,
    CostTable, InterError, Schedule, StageCostResult, StageDpOptions, StagePlan, SubmeshShape, SubmeshSpace,
};
use proptest::prelude::*;

const CLUSTERS: [(usize, usize); 7] = [(1, 1), (1, 2), (1, 4), (2, 1), (2, 2), (2, 4), (1, 8)];

fn options(b: usize, mem: f64, schedule: Schedule) -> StageDpOptions {
    StageDpOptions { microbatches: b, mem_device: mem, epsilon: 0.0, schedule, time_limit: None, progress: false }
}

/// The DP's plan is consistent: the stages tile the layers, use every device, each stage's
/// option is the fastest that fits at its depth, and T is recomputed from the stages.
fn check_plan(table: &CostTable, opts: &StageDpOptions, plan: &StagePlan) {
    let cut: Vec<_> =
        plan.stages.iter().map(|s| (s.layers.clone(), table.shape_index(s.submesh).expect("shape in table"))).collect();
    let again = evaluate_stages(table, &cut, opts).expect("the DP's cut is valid");
    assert!(close(again.iteration_time, plan.iteration_time), "{} vs {}", again.iteration_time, plan.iteration_time);
    for (a, b) in again.stages.iter().zip(&plan.stages) {
        assert!(close(a.latency, b.latency));
        assert!(b.memory <= opts.mem_device);
    }
}

/// Checks the DP against the brute force; whether a plan exists.
fn compare(
    table: &CostTable,
    opts: &StageDpOptions,
    allow: &dyn Fn(std::ops::Range<usize>, SubmeshShape) -> bool,
) -> bool {
    let brute = brute_force_stage_plan(table, opts, allow);
    let dp = solve_stage_dp_filtered(table, opts, allow);
    match (brute, dp) {
        (None, Err(InterError::NoStagePlan { .. })) => false,
        (Some(b), Ok(d)) => {
            assert!(
                close(b.iteration_time, d.plan.iteration_time),
                "brute T {} vs DP T {} (B {}, mem {}, {:?})\nbrute {:?}\ndp {:?}",
                b.iteration_time,
                d.plan.iteration_time,
                opts.microbatches,
                opts.mem_device,
                opts.schedule,
                b.stages,
                d.plan.stages
            );
            check_plan(table, opts, &d.plan);
            for s in &d.plan.stages {
                assert!(allow(s.layers.clone(), s.submesh));
            }
            true
        }
        (b, d) => panic!("brute {b:?} vs DP {d:?}"),
    }
}

fn random_case(seed: u64, layers: usize, cluster: usize, space: SubmeshSpace) -> (CostTable, StageDpOptions) {
    let mut rng = Rng::new(seed ^ 0xABCD);
    let (n, m) = CLUSTERS[cluster];
    let table = random_table(seed, layers, ClusterShape::new(n, m), space, 0.15);
    let b = 1 + rng.below(8);
    let mem = if rng.chance(0.3) { f64::INFINITY } else { (4 + rng.below(40)) as f64 };
    let schedule = if rng.chance(0.7) { Schedule::OneFOneB } else { Schedule::GPipe };
    (table, options(b, mem, schedule))
}

#[test]
fn dp_matches_brute_force_on_many_instances() {
    let (mut feasible, mut multi_stage, mut infeasible) = (0, 0, 0);
    for seed in 0..600u64 {
        let layers = 1 + (seed as usize % 6);
        let cluster = (seed as usize / 6) % CLUSTERS.len();
        let space = if seed % 5 == 0 { SubmeshSpace::All } else { SubmeshSpace::PowerOfTwo };
        let (table, opts) = random_case(seed, layers, cluster, space);
        if compare(&table, &opts, &|_, _| true) {
            feasible += 1;
            if solve_stage_dp(&table, &opts).unwrap().plan.stages.len() > 1 {
                multi_stage += 1;
            }
        } else {
            infeasible += 1;
        }
    }
    // The instances exercise both outcomes and real pipelines.
    assert!(feasible > 300 && multi_stage > 150 && infeasible > 30, "{feasible} {multi_stage} {infeasible}");
}

proptest! {
    // No failure file: regressions found are pinned as unit tests instead.
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn dp_equals_brute_force(seed in any::<u64>(), layers in 1usize..=6, cluster in 0usize..CLUSTERS.len(), all in any::<bool>()) {
        let space = if all { SubmeshSpace::All } else { SubmeshSpace::PowerOfTwo };
        let (table, opts) = random_case(seed, layers, cluster, space);
        compare(&table, &opts, &|_, _| true);
    }

    #[test]
    fn filtered_dp_equals_filtered_brute_force(seed in any::<u64>(), layers in 1usize..=6, cluster in 0usize..CLUSTERS.len(), len in 1usize..=3) {
        let (table, opts) = random_case(seed, layers, cluster, SubmeshSpace::PowerOfTwo);
        compare(&table, &opts, &|r, s| r.len() <= len && s.hosts == 1);
    }

    #[test]
    fn epsilon_stays_within_b_epsilon(seed in any::<u64>(), layers in 1usize..=6, cluster in 0usize..CLUSTERS.len(), e in 1usize..=4) {
        let (table, mut opts) = random_case(seed, layers, cluster, SubmeshSpace::PowerOfTwo);
        let exact = solve_stage_dp(&table, &opts);
        opts.epsilon = e as f64 * 0.3;
        let approx = solve_stage_dp(&table, &opts);
        match (exact, approx) {
            (Ok(x), Ok(a)) => {
                prop_assert!(a.plan.iteration_time >= x.plan.iteration_time - 1e-9);
                prop_assert!(a.plan.iteration_time <= x.plan.iteration_time + (opts.microbatches - 1) as f64 * opts.epsilon + 1e-9);
                check_plan(&table, &opts, &a.plan);
            }
            (Err(_), Err(_)) => {}
            (x, a) => prop_assert!(false, "exact {:?} vs epsilon {:?}", x, a),
        }
    }
}

fn fixed_table(
    layers: usize,
    cluster: ClusterShape,
    f: impl Fn(usize, SubmeshShape) -> Option<(f64, f64, f64)>,
) -> CostTable {
    CostTable::from_fn(layers, cluster, submesh_shapes(cluster, SubmeshSpace::PowerOfTwo), |r, s| {
        f(r.len(), s)
            .map(|(latency, mem_param, mem_act)| StageCostResult {
                latency,
                mem_param,
                mem_act,
                logical_mesh: [1, s.devices()],
            })
            .into_iter()
            .collect()
    })
    .unwrap()
}

#[test]
fn balanced_pipeline_on_a_homogeneous_model() {
    // 4 identical layers, 4 devices: latency = layers / devices (perfect scaling) plus a
    // per-stage overhead when a stage spans more than one device (intra-op communication).
    let cluster = ClusterShape::new(1, 4);
    let table = fixed_table(4, cluster, |n, s| {
        let d = s.devices() as f64;
        Some((n as f64 / d + if d > 1.0 { 0.1 * n as f64 } else { 0.0 }, 0.0, 0.0))
    });
    let r = solve_stage_dp(&table, &options(16, f64::INFINITY, Schedule::OneFOneB)).unwrap();
    // 4 stages of 1 layer on 1 device: T = 4 + 15 x 1 = 19.
    assert_eq!(r.plan.stages.len(), 4);
    assert!(r.plan.stages.iter().all(|s| s.layers.len() == 1 && s.submesh == SubmeshShape::new(1, 1)));
    assert!(close(r.plan.iteration_time, 19.0));
    // With B = 1 the bubble is free: the best is the fastest sum (still 4 x 1.0, or one stage
    // on 4 devices: 1.0 + 0.4 = 1.4).
    let r1 = solve_stage_dp(&table, &options(1, f64::INFINITY, Schedule::OneFOneB)).unwrap();
    assert!(close(r1.plan.iteration_time, 1.4), "{}", r1.plan.iteration_time);
}

#[test]
fn one_f_one_b_depth_decides_memory() {
    // 2 layers, 2 devices. Each single-layer stage on 1 device needs param 4 + depth x act 3.
    // With memory 10 the first stage (depth 2) needs 10: fits; with memory 9 it does not,
    // and the only plan left is both layers on 2 devices (param 6 + 1 x 2 = 8).
    let cluster = ClusterShape::new(1, 2);
    let table = fixed_table(2, cluster, |n, s| match (n, s.devices()) {
        (1, 1) => Some((1.0, 4.0, 3.0)),
        (2, 2) => Some((3.0, 6.0, 2.0)),
        _ => None,
    });
    let r = solve_stage_dp(&table, &options(8, 10.0, Schedule::OneFOneB)).unwrap();
    assert_eq!(r.plan.stages.len(), 2);
    assert_eq!(r.plan.stages[0].memory, 10.0);
    assert_eq!(r.plan.stages[1].memory, 7.0);
    let r = solve_stage_dp(&table, &options(8, 9.0, Schedule::OneFOneB)).unwrap();
    assert_eq!(r.plan.stages.len(), 1);
    assert!(close(r.plan.iteration_time, 24.0));
    // GPipe holds all 8 microbatches: 4 + 8 x 3 = 28 > 10; 6 + 8 x 2 = 22 > 10: nothing fits.
    let e = solve_stage_dp(&table, &options(8, 10.0, Schedule::GPipe)).unwrap_err();
    match e {
        InterError::NoStagePlan { bottleneck_memory, bottleneck_layer, .. } => {
            assert_eq!(bottleneck_memory, Some(22.0));
            assert!(bottleneck_layer.is_some());
        }
        e => panic!("{e:?}"),
    }
}

#[test]
fn faster_option_is_used_only_where_it_fits() {
    // One stage per layer on 1 device each; two options per stage: fast but memory hungry in
    // activations, or slow and lean. At depth 2 only the lean one fits.
    let cluster = ClusterShape::new(1, 2);
    let table = CostTable::from_fn(2, cluster, submesh_shapes(cluster, SubmeshSpace::PowerOfTwo), |r, s| {
        if r.len() == 1 && s.devices() == 1 {
            vec![
                StageCostResult { latency: 1.0, mem_param: 0.0, mem_act: 5.0, logical_mesh: [1, 1] },
                StageCostResult { latency: 2.0, mem_param: 0.0, mem_act: 1.0, logical_mesh: [1, 1] },
            ]
        } else {
            vec![]
        }
    })
    .unwrap();
    let r = solve_stage_dp(&table, &options(4, 6.0, Schedule::OneFOneB)).unwrap();
    let lat: Vec<f64> = r.plan.stages.iter().map(|s| s.latency).collect();
    assert_eq!(lat, vec![2.0, 1.0]);
    assert!(close(r.plan.iteration_time, 3.0 + 3.0 * 2.0));
}

#[test]
fn no_plan_diagnostics() {
    let cluster = ClusterShape::new(1, 2);
    let empty = fixed_table(3, cluster, |_, _| None);
    match solve_stage_dp(&empty, &options(2, 1.0, Schedule::OneFOneB)).unwrap_err() {
        InterError::NoStagePlan { detail, bottleneck_layer, .. } => {
            assert!(detail.contains("no stage cost"), "{detail}");
            assert_eq!(bottleneck_layer, None);
        }
        e => panic!("{e:?}"),
    }
    // Everything fits somewhere, but only 1-device stages exist and there are 3 layers for
    // 2 devices... which is fine (2 stages); with 1 layer there is no way to use 2 devices.
    let one = fixed_table(1, cluster, |_, s| (s.devices() == 1).then_some((1.0, 0.0, 0.0)));
    match solve_stage_dp(&one, &options(2, 1.0, Schedule::OneFOneB)).unwrap_err() {
        InterError::NoStagePlan { detail, .. } => assert!(detail.contains("exactly all 2 devices"), "{detail}"),
        e => panic!("{e:?}"),
    }
    assert!(matches!(solve_stage_dp(&one, &options(0, 1.0, Schedule::OneFOneB)), Err(InterError::InvalidInput(_))));
}

#[test]
fn time_limit_returns_a_plan() {
    let (table, mut opts) = random_case(11, 6, 5, SubmeshSpace::PowerOfTwo);
    opts.mem_device = f64::INFINITY;
    opts.time_limit = Some(std::time::Duration::ZERO);
    let r = solve_stage_dp(&table, &opts).unwrap();
    check_plan(&table, &opts, &r.plan);
    assert_eq!(r.stats.evaluated, 1);
}

#[test]
fn larger_instance_against_restricted_brute_force() {
    // 8 layers on 2 x 4 (brute force limit), a few seeds.
    for seed in 0..6 {
        let table = random_table(seed, 8, ClusterShape::new(2, 4), SubmeshSpace::PowerOfTwo, 0.1);
        assert!(compare(&table, &options(4, 60.0, Schedule::OneFOneB), &|_, _| true));
    }
}

#[test]
fn epsilon_regression_far_next_candidate() {
    // Found by the proptest: the optimum's t_max lay within epsilon of an evaluated candidate
    // and the next one was far; evaluating epsilon groups at their first candidate missed it.
    let seed = 11244270418947036337;
    let (table, mut opts) = random_case(seed, 5, 1, SubmeshSpace::PowerOfTwo);
    let exact = solve_stage_dp(&table, &opts).unwrap().plan.iteration_time;
    opts.epsilon = 0.3;
    let approx = solve_stage_dp(&table, &opts).unwrap().plan.iteration_time;
    assert!(
        approx >= exact - 1e-9 && approx <= exact + (opts.microbatches - 1) as f64 * 0.3 + 1e-9,
        "{approx} vs {exact}"
    );
}

#[test]
fn incremental_update_equals_recomputation() {
    let mut checked = 0;
    for seed in 0..200u64 {
        let layers = 1 + (seed as usize % 7);
        let cluster = (seed as usize / 7) % CLUSTERS.len();
        let (table, opts) = random_case(seed, layers, cluster, SubmeshSpace::PowerOfTwo);
        checked += crate::inter::stage_table::check_incremental(&table, &opts);
    }
    assert!(checked > 1000, "{checked}");
}

/// Under 1F1B a stage holds at most B microbatches: with B = 1, two one-device stages whose
/// activations fit once but not twice make a plan (the first stage, at depth 2, holds one).
#[test]
fn one_f_one_b_with_fewer_microbatches_than_stages_holds_only_those() {
    let cluster = ClusterShape::new(1, 2);
    let table = CostTable::from_fn(2, cluster, submesh_shapes(cluster, SubmeshSpace::PowerOfTwo), |r, shape| {
        // Only one-layer stages on one device can run.
        match (r.len(), shape.devices()) {
            (1, 1) => vec![StageCostResult { latency: 1.0, mem_param: 0.0, mem_act: 10.0, logical_mesh: [1, 1] }],
            _ => Vec::new(),
        }
    })
    .unwrap();
    let plan = solve_stage_dp(&table, &options(1, 15.0, Schedule::OneFOneB)).unwrap().plan;
    assert_eq!(plan.stages.len(), 2);
    assert_eq!(plan.stages[0].memory, 10.0);
    // With two microbatches the first stage holds both, which does not fit.
    assert!(solve_stage_dp(&table, &options(2, 15.0, Schedule::OneFOneB)).is_err());
    let brute = brute_force_stage_plan(&table, &options(1, 15.0, Schedule::OneFOneB), &|_, _| true).unwrap();
    assert_eq!(brute.iteration_time, plan.iteration_time);
}
