//! Fixed stages (`stages=`) against the table's own evaluation of a cut and against the DP:
//! a cut planned as fixed stages costs what `evaluate_stages` says of it, and the DP's plan fed
//! back as fixed stages is the DP's plan.

use super::util::{random_table, Rng};
use crate::inter::{
    evaluate_stages, parse_manual_stages, plan_manual_stages, plan_pipeline, CachedCost, ClusterShape, CostTable,
    ManualStage, Schedule, StageCost, StageCostResult, StageDpOptions, SubmeshShape, SubmeshSpace, TableOptions,
};
use std::ops::Range;

/// A table's answers as an oracle.
struct TableOracle(CostTable);

impl StageCost for TableOracle {
    fn cost(&self, layers: Range<usize>, submesh: SubmeshShape) -> Option<StageCostResult> {
        self.cost_options(layers, submesh).into_iter().min_by(|a, b| a.latency.total_cmp(&b.latency))
    }
    fn cost_options(&self, layers: Range<usize>, submesh: SubmeshShape) -> Vec<StageCostResult> {
        self.0.options(layers, self.0.shape_index(submesh).unwrap()).to_vec()
    }
}

fn random_setting(rng: &mut Rng) -> (usize, ClusterShape, StageDpOptions) {
    let layers = 1 + rng.below(6);
    let cluster = [ClusterShape::new(1, 4), ClusterShape::new(2, 2), ClusterShape::new(1, 8), ClusterShape::new(2, 4)]
        [rng.below(4)];
    let dp = StageDpOptions {
        microbatches: [1, 2, 8][rng.below(3)],
        mem_device: [f64::INFINITY, 10.0, 20.0][rng.below(3)],
        schedule: if rng.chance(0.8) { Schedule::OneFOneB } else { Schedule::GPipe },
        ..StageDpOptions::default()
    };
    (layers, cluster, dp)
}

/// A random cut of 0..layers into stages whose power-of-two submeshes use every device.
fn random_cut(rng: &mut Rng, layers: usize, table: &CostTable) -> Option<Vec<(Range<usize>, usize)>> {
    let mut cut = Vec::new();
    let (mut start, mut left) = (0, table.cluster().devices());
    while start < layers {
        let end = if left == 1 { layers } else { start + 1 + rng.below(layers - start) };
        let fitting: Vec<usize> = (0..table.shapes().len()).filter(|&s| table.shapes()[s].devices() <= left).collect();
        let s = match end == layers {
            // The last stage takes the devices left, if a shape has that many.
            true => *fitting.iter().find(|&&s| table.shapes()[s].devices() == left)?,
            false if fitting.is_empty() => return None,
            false => fitting[rng.below(fitting.len())],
        };
        left -= table.shapes()[s].devices();
        cut.push((start..end, s));
        start = end;
    }
    Some(cut)
}

fn manual(cut: &[(Range<usize>, usize)], table: &CostTable) -> Vec<ManualStage> {
    let text: Vec<String> = cut.iter().map(|(r, s)| format!("{}..{}@{}", r.start, r.end, table.shapes()[*s])).collect();
    parse_manual_stages(&text.join(",")).unwrap()
}

#[test]
fn a_fixed_cut_costs_what_the_table_says_of_it() {
    let mut planned = 0;
    for seed in 0..400u64 {
        let mut rng = Rng::new(seed);
        let (layers, cluster, dp) = random_setting(&mut rng);
        let table = random_table(seed, layers, cluster, SubmeshSpace::PowerOfTwo, 0.15);
        let Some(cut) = random_cut(&mut rng, layers, &table) else { continue };
        let stages = manual(&cut, &table);
        let oracle = CachedCost::new(TableOracle(table.clone()));
        match (plan_manual_stages(&oracle, &stages, layers, cluster, &dp), evaluate_stages(&table, &cut, &dp)) {
            (Ok((plan, _)), Some(expected)) => {
                assert_eq!(plan.plan, expected, "seed {seed}");
                assert_eq!(oracle.stats().queries, cut.len(), "seed {seed}: one query per stage");
                planned += 1;
            }
            (Err(_), None) => {}
            (a, b) => panic!("seed {seed}: {:?} vs {b:?}", a.map(|p| p.0.plan)),
        }
    }
    assert!(planned > 100, "only {planned} cuts were feasible");
}

#[test]
fn the_dps_plan_as_fixed_stages_is_the_dps_plan() {
    let mut compared = 0;
    for seed in 0..300u64 {
        let mut rng = Rng::new(seed);
        let (layers, cluster, dp) = random_setting(&mut rng);
        let table = random_table(seed, layers, cluster, SubmeshSpace::PowerOfTwo, 0.15);
        let oracle = CachedCost::new(TableOracle(table.clone()));
        let Ok((best, _)) = plan_pipeline(&oracle, layers, cluster, &TableOptions::default(), &dp) else { continue };
        let with_meshes: Vec<ManualStage> = best
            .plan
            .stages
            .iter()
            .map(|s| ManualStage { layers: s.layers.clone(), submesh: s.submesh, logical_mesh: Some(s.logical_mesh) })
            .collect();
        let fresh = CachedCost::new(TableOracle(table.clone()));
        let (fixed, _) = plan_manual_stages(&fresh, &with_meshes, layers, cluster, &dp).unwrap();
        assert_eq!(fixed.devices, best.devices, "seed {seed}");
        assert_eq!(fixed.plan.iteration_time, best.plan.iteration_time, "seed {seed}");
        // Without the logical meshes each stage may take another option of the same latency.
        let free: Vec<ManualStage> =
            with_meshes.iter().map(|s| ManualStage { logical_mesh: None, ..s.clone() }).collect();
        let (unpinned, _) = plan_manual_stages(&fresh, &free, layers, cluster, &dp).unwrap();
        assert_eq!(unpinned.plan.iteration_time, best.plan.iteration_time, "seed {seed}");
        compared += 1;
    }
    assert!(compared > 100, "only {compared} instances had a plan");
}
