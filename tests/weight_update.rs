//! Weight-update sharding (`prefer-reduce-scatter`, paper §4.2) on the data-parallel MLP export:
//! every weight gradient's all-reduce becomes a reduce-scatter and an all-gather, and Adam's
//! states are sharded.

mod common;
use common::fixture_graph as graph;

use alpa_mlir::cluster::{Collective, DeviceMesh};
use alpa_mlir::intra::memory::peak_memory;
use alpa_mlir::intra::options::IntraOptions;
use alpa_mlir::intra::plan::IntraPlan;
use alpa_mlir::intra::plan_cost::ALL_REDUCE_TIE_BREAK;
use alpa_mlir::intra::planner::plan_intra_op;
use std::collections::BTreeMap;

fn options(mesh: DeviceMesh, prefer_reduce_scatter: bool) -> IntraOptions {
    IntraOptions { prefer_reduce_scatter, ..IntraOptions::on_mesh(mesh) }
}

/// (count, bytes) of every collective kind the plan runs.
fn by_kind(plan: &IntraPlan) -> BTreeMap<&'static str, (usize, u64)> {
    let mut out = BTreeMap::new();
    let strategies = plan.args.iter().flatten().chain(&plan.ops).flat_map(|s| s.collectives.iter());
    let reshardings = plan.reshardings.iter().flat_map(|r| r.resharding.collectives.iter());
    for c in strategies.chain(reshardings) {
        let e = out.entry(c.kind.name()).or_insert((0, 0));
        e.0 += 1;
        e.1 += c.bytes;
    }
    out
}

#[test]
fn mlp_dp_on_4x1_scatters_every_gradient_and_shards_adam() {
    let g = graph("mlp_dp.mlir");
    let mesh = DeviceMesh::abstract_units([4, 1], [1.0, 1.0], [1.0, 1.0]).unwrap();
    let plain = plan_intra_op(&g, &options(mesh.clone(), false)).unwrap();
    let zero = plan_intra_op(&g, &options(mesh, true)).unwrap();

    // 6 kernels (32x32) and 6 biases (32) plus the loss: 13 all-reduces in the ILP's plan.
    let all_reduces = |p: &IntraPlan| by_kind(p).get("all-reduce").copied();
    assert_eq!(all_reduces(&plain), Some((13, 6 * 4096 + 6 * 128 + 4)));
    // Each gradient's becomes a reduce-scatter of the same bytes, and the new parameter is
    // all-gathered back from the scattered update: the loss' all-reduce stays.
    let kinds = by_kind(&zero);
    assert_eq!(kinds.get("all-reduce"), Some(&(1, 4)));
    assert_eq!(kinds.get("reduce-scatter"), Some(&(12, 6 * 4096 + 6 * 128)));
    assert_eq!(kinds.get("all-gather"), Some(&(12, 6 * 4096 + 6 * 128)));
    assert_eq!(zero.weight_update.gradients.len(), 12);
    // mu and nu of every parameter (arguments 13..37; 12 is Adam's step count, a scalar).
    assert_eq!(zero.weight_update.optimizer_states, (13..37).collect::<Vec<_>>());
    for (i, (before, after)) in plain.args.iter().zip(&zero.args).enumerate() {
        let (before, after) = (before.as_ref().unwrap(), after.as_ref().unwrap());
        if (13..37).contains(&i) {
            assert_eq!(after.result_bytes_per_device * 4, before.result_bytes_per_device, "argument {i}");
        } else {
            assert_eq!(after, before, "argument {i}");
        }
    }
    // No new resharding but the 12 all-gathers, and the same volume: 12 more latencies, 12
    // tie-breaks fewer.
    assert_eq!(zero.reshardings.len(), plain.reshardings.len() + 12);
    assert!(zero.reshardings.iter().all(|r| r.resharding.collectives.iter().all(|c| c.kind == Collective::AllGather)));
    let extra = 12.0 * (1.0 - ALL_REDUCE_TIE_BREAK);
    assert!((zero.objective - plain.objective - extra).abs() < 1e-6, "{} vs {}", zero.objective, plain.objective);
    // The memory model is the solver's, and the states (and scattered update) shrink it.
    assert_eq!(peak_memory(&g, &plain), plain.peak_memory_bytes);
    assert!(zero.peak_memory_bytes < plain.peak_memory_bytes);
}

#[test]
fn mlp_dp_on_2x4_scatters_over_the_gradient_all_reduce_axes() {
    let g = graph("mlp_dp.mlir");
    let mesh = DeviceMesh::abstract_units([2, 4], [1.0, 1.0], [1.0, 0.1]).unwrap();
    let plain = plan_intra_op(&g, &options(mesh.clone(), false)).unwrap();
    let zero = plan_intra_op(&g, &options(mesh, true)).unwrap();
    let axes = |p: &IntraPlan, kind: Collective| -> Vec<Vec<usize>> {
        let mut v: Vec<Vec<usize>> = p
            .ops
            .iter()
            .flat_map(|s| &s.collectives)
            .filter(|c| c.kind == kind)
            .map(|c| c.axes.indices().to_vec())
            .collect();
        v.sort();
        v
    };
    // Whatever axes the ILP all-reduces the gradients over, the scatter runs over the same.
    let mut gradient_all_reduces = axes(&plain, Collective::AllReduce);
    let loss = gradient_all_reduces.iter().position(|a| a == &[0, 1]).unwrap();
    gradient_all_reduces.remove(loss);
    assert_eq!(axes(&zero, Collective::ReduceScatter), gradient_all_reduces);
    assert_eq!(zero.weight_update.gradients.len(), 12);
    assert_eq!(zero.weight_update.optimizer_states.len(), 24);
    assert!(zero.peak_memory_bytes < plain.peak_memory_bytes);
}
