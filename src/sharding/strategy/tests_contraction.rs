//! The generic routine against Alpa's own lists: Table 3 for a batched dot, Megatron's column
//! and row partitions on a 1-D mesh, convolutions.
//!
//! Costs are on Alpa's test mesh (`alpha = (1, 1)`, `beta = (1, 0.1)`). On a 2x4 mesh an
//! all-reduce of B bytes costs `1 + 2 * 1/2 * B` over axis 0, `1 + 0.1 * 2 * 3/4 * B` over axis 1
//! and `1 + 2 * 7/8 * B` over both (the slower link).

use super::test_util::*;
use super::StrategyOptions;
use crate::cluster::{Collective, MeshAxes};
use crate::ir::graph::Attr;
use crate::sharding::reshard::CollectiveUse;

/// `[b, i, k] x [b, k, j] -> [b, i, j]` with b = 8, i = 16, k = 32, j = 64 (f32).
fn batched_dot() -> Case {
    Case::new(
        dot(
            "dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], \
             lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>",
            &[8, 16, 64],
        ),
        &[f32t(&[8, 16, 32]), f32t(&[8, 32, 64])],
    )
}

#[test]
fn table_3_batched_dot_on_2x4() {
    let m = mesh([2, 4]);
    let all = batched_dot().heavy(&m);
    // The result is M = 8 * 16 * 64 * 4 = 32768 bytes.
    let ar1 = 1.0 + 0.15 * 16384.0; // all-reduce of the M/2 tile over axis 1
    let ar0 = 1.0 + 8192.0; // all-reduce of the M/4 tile over axis 0
    let ar01 = 1.0 + 1.75 * 32768.0; // all-reduce of M over both axes
    let expected = [
        ("S01RR = S01RR x S01RR", 0.0),
        ("S10RR = S10RR x S10RR", 0.0),
        ("S0S1R = S0S1R x S0RR", 0.0), // Table 3 #4: b -> 0, i -> 1
        ("S0RS1 = S0RR x S0RS1", 0.0),
        ("S0RR = S0RS1 x S0S1R @ allreduce{1}", ar1), // #5: b -> 0, k -> 1
        ("S1S0R = S1S0R x S1RR", 0.0),
        ("RS01R = RS01R x RRR", 0.0), // #6: i -> {0, 1}
        ("RS10R = RS10R x RRR", 0.0),
        ("RS0S1 = RS0R x RRS1", 0.0),                // #1: i -> 0, j -> 1
        ("RS0R = RS0S1 x RS1R @ allreduce{1}", ar1), // #2: i -> 0, k -> 1
        ("S1RS0 = S1RR x S1RS0", 0.0),
        ("RS1S0 = RS1R x RRS0", 0.0),
        ("RRS01 = RRR x RRS01", 0.0),
        ("RRS10 = RRR x RRS10", 0.0),
        ("RRS0 = RRS1 x RS1S0 @ allreduce{1}", ar1), // #3: j -> 0, k -> 1
        ("S1RR = S1RS0 x S1S0R @ allreduce{0}", ar0),
        ("RS1R = RS1S0 x RS0R @ allreduce{0}", ar0),
        ("RRS1 = RRS0 x RS0S1 @ allreduce{0}", ar0),
        ("RRR = RRS01 x RS01R @ allreduce{0,1}", ar01), // #7: k -> {0, 1}
        ("RRR = RRS10 x RS10R @ allreduce{0,1}", ar01),
    ];
    assert_eq!(names(&all), expected.iter().map(|e| e.0).collect::<Vec<_>>());
    for (s, (name, cost)) in all.iter().zip(expected) {
        assert!(close(s.communication_cost, cost), "{name}: {} != {cost}", s.communication_cost);
        assert!(s.uses_all_devices(m.shape), "{name}");
    }
    // The collectives behind the costs: the partial result tile, over the reduction's axes.
    let two = find(&all, "RS0R = RS0S1 x RS1R @ allreduce{1}");
    assert_eq!(
        two.collectives,
        vec![CollectiveUse { kind: Collective::AllReduce, axes: MeshAxes::Axis1, bytes: 16384 }]
    );
    assert_eq!(two.result_bytes_per_device, 16384);
    let seven = find(&all, "RRR = RRS01 x RS01R @ allreduce{0,1}");
    assert_eq!(
        seven.collectives,
        vec![CollectiveUse { kind: Collective::AllReduce, axes: MeshAxes::Both, bytes: 32768 }]
    );
    // Factor ids: b, i, j, k. #1 maps i to axis 0 and j to axis 1.
    assert_eq!(find(&all, "RS0S1 = RS0R x RRS1").factor_axes, vec![vec![], vec![0], vec![1], vec![]]);
    assert_eq!(find(&all, "RS10R = RS10R x RRR").factor_axes, vec![vec![], vec![1, 0], vec![], vec![]]);
}

#[test]
fn light_enumeration_adds_partial_strategies_and_replication() {
    let m = mesh([2, 4]);
    let all = batched_dot().light(&m);
    // 1 replicated + 4 on axis 0 only + 4 on axis 1 only + the 20 that use both.
    assert_eq!(all.len(), 29);
    assert_eq!(all[0].name, "RRR = RRR x RRR");
    assert_eq!(all[0].communication_cost, 0.0);
    let one_axis = find(&all, "RRR = RRS0 x RS0R @ allreduce{0}");
    assert!(close(one_axis.communication_cost, 1.0 + 32768.0));
    // Heavy with replication allowed: the 20 plus the replicated one.
    let opts = StrategyOptions { allow_replicated: true, ..StrategyOptions::default() };
    let heavy = batched_dot().strategies(true, &m, &opts);
    assert_eq!(heavy.len(), 21);
    assert_eq!(heavy[0].name, "RRR = RRR x RRR");
}

#[test]
fn megatron_partitions_on_a_1d_mesh() {
    // x[32, 256] @ W[256, 512]; the result is 32 * 512 * 4 = 65536 bytes.
    let mm = matmul(32, 256, 512);
    let m = mesh([4, 1]);
    let all = mm.heavy(&m);
    assert_eq!(names(&all), ["S0R = S0R x RR", "RS0 = RR x RS0", "RR = RS0 x S0R @ allreduce{0}"]);
    // Data parallel and column partition: no communication. Row partition: all-reduce of the
    // whole result over 4 devices, 1 + 2 * 3/4 * 65536.
    assert_eq!(all[0].communication_cost, 0.0);
    assert_eq!(all[1].communication_cost, 0.0);
    assert!(close(all[2].communication_cost, 98305.0));
    // The same on a 1x4 mesh uses axis 1 (beta 0.1).
    let all = mm.heavy(&mesh([1, 4]));
    assert_eq!(names(&all), ["S1R = S1R x RR", "RS1 = RR x RS1", "RR = RS1 x S1R @ allreduce{1}"]);
    assert!(close(all[2].communication_cost, 1.0 + 0.15 * 65536.0));
    // One device: only the replicated strategy, free.
    let all = mm.heavy(&mesh([1, 1]));
    assert_eq!(names(&all), ["RR = RR x RR"]);
}

#[test]
fn force_batch_dim_to_mesh_dim() {
    let mm = matmul(32, 256, 512);
    let m = mesh([2, 4]);
    let opts = StrategyOptions { force_batch_dim_to_mesh_dim: Some(0), ..StrategyOptions::default() };
    let all = mm.strategies(true, &m, &opts);
    assert_eq!(names(&all), ["S0S1 = S0R x RS1", "S0R = S0S1 x S1R @ allreduce{1}"]);
    for s in &all {
        assert_eq!(s.factor_axes[0], vec![0]);
    }
    // Forcing onto axis 1 on the same mesh.
    let opts = StrategyOptions { force_batch_dim_to_mesh_dim: Some(1), ..StrategyOptions::default() };
    let all = mm.strategies(true, &m, &opts);
    assert_eq!(names(&all), ["S1S0 = S1R x RS0", "S1R = S1S0 x S0R @ allreduce{0}"]);
    // A weight gradient x^T @ dy contracts the batch: no batch-like leading factor, no filter.
    let wgrad = Case::new(
        dot("dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>", &[256, 512]),
        &[f32t(&[32, 256]), f32t(&[32, 512])],
    );
    let opts = StrategyOptions { force_batch_dim_to_mesh_dim: Some(0), ..StrategyOptions::default() };
    assert_eq!(wgrad.strategies(true, &m, &opts).len(), wgrad.heavy(&m).len());
    // A batch that cannot take axis 0 keeps every strategy rather than none.
    let odd = matmul(3, 256, 512);
    assert_eq!(odd.strategies(true, &m, &opts).len(), odd.heavy(&m).len());
}

#[test]
fn indivisible_dims_are_never_split_and_heavy_ops_use_what_divides() {
    // [6, 10] x [10, 3] on 2x4: nothing divides by 4, so no strategy uses axis 1; the heavy
    // filter keeps the strategies over the most devices (2) instead of dropping everything.
    let mm = matmul(6, 10, 3);
    let m = mesh([2, 4]);
    let all = mm.heavy(&m);
    assert_eq!(names(&all), ["S0R = S0R x RR", "RR = RS0 x S0R @ allreduce{0}"]);
    for s in mm.light(&m) {
        for (spec, ty) in s.operand_specs.iter().zip(&mm.operands) {
            spec.as_ref().unwrap().check_shape(&ty.shape, m.shape).unwrap();
        }
    }
    // Scalars and vectors: a dot of two vectors contracts the only factor.
    let vv = Case::new(
        dot("dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>", &[]),
        &[f32t(&[8]), f32t(&[8])],
    );
    let all = vv.heavy(&m);
    assert_eq!(names(&all), ["[] = S01 x S01 @ allreduce{0,1}", "[] = S10 x S10 @ allreduce{0,1}"]);
    assert!(close(all[0].communication_cost, 1.0 + 1.75 * 4.0));
}

fn conv(out: &[i64], input: &[i64], kernel: &[i64], groups: i64) -> Case {
    let o = op(
        "stablehlo.convolution",
        &[f32t(out)],
        &[
            ("dimension_numbers", opaque("conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>")),
            ("window_strides", ints(&[1, 1])),
            ("feature_group_count", Attr::Int(groups)),
            ("batch_group_count", Attr::Int(1)),
        ],
    );
    Case::new(o, &[f32t(input), f32t(kernel)])
}

#[test]
fn convolution_batch_channels_and_reduction() {
    // NHWC [8, 32, 32, 16] * HWIO [3, 3, 16, 64] -> [8, 32, 32, 64]: batch, output channels and
    // input channels (reduced) can be split; the 3x3 window keeps space whole.
    let c = conv(&[8, 32, 32, 64], &[8, 32, 32, 16], &[3, 3, 16, 64], 1);
    let m = mesh([2, 4]);
    let all = c.heavy(&m);
    assert_eq!(all.len(), 12);
    // Data parallel x output-channel parallel: no communication.
    assert_eq!(find(&all, "S0RRS1 = S0RRR x RRRS1").communication_cost, 0.0);
    assert_eq!(find(&all, "S01RRR = S01RRR x RRRR").communication_cost, 0.0);
    // Input channels over axis 1: the output tile (8*32*32*64*4 / 2 = 1 MiB) is all-reduced.
    let s = find(&all, "S0RRR = S0RRS1 x RRS1R @ allreduce{1}");
    assert_eq!(s.collectives[0].bytes, 1 << 20);
    assert!(close(s.communication_cost, 1.0 + 0.15 * (1u64 << 20) as f64));
    find(&all, "RRRS0 = RRRS1 x RRS1S0 @ allreduce{1}");
    // Space is never split.
    for s in &all {
        let out = s.result_specs[0].as_ref().unwrap();
        assert_eq!(&out.dims()[1..3], &[crate::sharding::DimSharding::R; 2], "{}", s.name);
    }
}

#[test]
fn depthwise_convolution_splits_channel_groups_without_communication() {
    // 16 groups of one channel each: the group is a pass-through factor of input features,
    // kernel output features and output features.
    let c = conv(&[8, 32, 32, 16], &[8, 32, 32, 16], &[3, 3, 1, 16], 16);
    let m = mesh([2, 4]);
    let all = c.heavy(&m);
    assert_eq!(all.len(), 6);
    find(&all, "S0RRS1 = S0RRS1 x RRRS1");
    find(&all, "RRRS01 = RRRS01 x RRRS01");
    assert!(all.iter().all(|s| s.collectives.is_empty()));
}
