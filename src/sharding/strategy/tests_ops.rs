//! Strategies of the light ops, unknown ops, function arguments and odd shapes.

use super::test_util::*;
use super::{argument_strategies, op_strategies, StrategyOptions};
use crate::cluster::{Collective, MeshAxes};
use crate::ir::graph::Attr;
use crate::ir::types::TensorType;
use crate::sharding::reshard::CollectiveUse;
use crate::sharding::{DimSharding, ShardingSpec};

fn reduce(input: &[i64], dims: &[i64], out: &[i64]) -> Case {
    Case::new(op("stablehlo.reduce", &[f32t(out)], &[("dimensions", ints(dims))]), &[f32t(input), f32t(&[])])
}

#[test]
fn reduce_over_a_sharded_dim_all_reduces_the_result() {
    let m = mesh([2, 4]);
    let all = reduce(&[16, 32], &[1], &[16]).light(&m);
    // Rows over axis 0, the reduced dim over axis 1: the [8] partial tile (32 bytes) is
    // all-reduced over axis 1: 1 + 0.1 * 2 * 3/4 * 32.
    let s = find(&all, "S0 = S0S1 x [] @ allreduce{1}");
    assert_eq!(s.collectives, vec![CollectiveUse { kind: Collective::AllReduce, axes: MeshAxes::Axis1, bytes: 32 }]);
    assert!(close(s.communication_cost, 5.8));
    // Reducing over both axes: the whole [16] result (64 bytes) over the mesh.
    let s = find(&all, "R = RS01 x [] @ allreduce{0,1}");
    assert!(close(s.communication_cost, 1.0 + 1.75 * 64.0));
    // Splitting only the kept dim is free.
    assert_eq!(find(&all, "S01 = S01R x []").communication_cost, 0.0);
    // A full reduction to a scalar.
    let all = reduce(&[16, 32], &[0, 1], &[]).light(&m);
    let s = find(&all, "[] = S0S1 x [] @ allreduce{0}, allreduce{1}");
    // Two reduced dims on two axes: one all-reduce per axis, as XLA runs them.
    assert_eq!(
        s.collectives,
        vec![
            CollectiveUse { kind: Collective::AllReduce, axes: MeshAxes::Axis0, bytes: 4 },
            CollectiveUse { kind: Collective::AllReduce, axes: MeshAxes::Axis1, bytes: 4 },
        ]
    );
}

#[test]
fn variadic_reduce_all_reduces_each_result() {
    // argmax-style reduce: (values, indices) over dim 1.
    let o = op("stablehlo.reduce", &[f32t(&[4]), typed(&[4], "i32")], &[("dimensions", ints(&[1]))]);
    let c = Case::new(o, &[f32t(&[4, 16]), typed(&[4, 16], "i32"), f32t(&[]), typed(&[], "i32")]);
    let all = c.light(&mesh([2, 4]));
    let s = find(&all, "S0, S0 = S0S1 x S0S1 x [] x [] @ allreduce{1}");
    assert_eq!(s.collectives.len(), 2);
    assert_eq!(s.collectives[0].bytes, 8);
    assert_eq!(s.result_bytes_per_device, 16);
}

#[test]
fn broadcast_transpose_and_reshape_propagate_specs() {
    let m = mesh([2, 4]);
    // broadcast_in_dim [16] -> [16, 32]: the new dim may be split too (each device makes its
    // own slice), free.
    let b = broadcast_rows(16, 32);
    let all = b.light(&m);
    assert_eq!(find(&all, "S0S1 = S0").communication_cost, 0.0);
    find(&all, "RS01 = R");
    find(&all, "S01R = S01");
    assert!(all.iter().all(|s| s.collectives.is_empty()));

    // transpose [16, 32] -> [32, 16]: every result spec is the operand's, permuted.
    let t = transpose_2d(16, 32);
    let all = t.light(&m);
    assert_eq!(all.len(), 11);
    for s in &all {
        let (i, o) = (s.operand_specs[0].as_ref().unwrap(), s.result_specs[0].as_ref().unwrap());
        assert_eq!((i.dims()[0], i.dims()[1]), (o.dims()[1], o.dims()[0]), "{}", s.name);
    }

    // reshape [32, 64] -> [4, 8, 64]: dim 0 splits into factors 4 (major) and 8. Axis 1 (4
    // devices) can split the 4 completely and axis 0 then takes the 8; axis 0 alone on the 4
    // leaves it partly split, so axis 1 cannot go on the 8 after it.
    let r = Case::new(op("stablehlo.reshape", &[f32t(&[4, 8, 64])], &[]), &[f32t(&[32, 64])]);
    let all = r.light(&m);
    find(&all, "S1S0R = S10R");
    find(&all, "S0RR = S0R");
    find(&all, "S0RS1 = S0S1");
    assert!(!names(&all).contains(&"S0S1R = S01R"));
    // The 8 is only ever split under a completely split 4.
    for s in &all {
        let out = s.result_specs[0].as_ref().unwrap().dims().to_vec();
        assert!(out[1] == DimSharding::R || out[0] == DimSharding::S1, "{}", s.name);
    }
}

#[test]
fn reverse_needs_a_permute() {
    let o = op("stablehlo.reverse", &[f32t(&[16])], &[("dimensions", ints(&[0]))]);
    let c = Case::new(o, &[f32t(&[16])]);
    let all = c.light(&mesh([4, 1]));
    assert_eq!(names(&all), ["R = R", "S0 = S0 @ permute{0}"]);
    assert_eq!(
        all[1].collectives,
        vec![CollectiveUse { kind: Collective::PointToPoint, axes: MeshAxes::Axis0, bytes: 16 }]
    );
    assert!(close(all[1].communication_cost, 17.0));
}

#[test]
fn need_replication_dims_stay_whole() {
    // sort along dim 1: only dim 0 may be split.
    let o = op("stablehlo.sort", &[f32t(&[8, 16])], &[("dimension", Attr::Int(1))]);
    let c = Case::new(o, &[f32t(&[8, 16])]);
    let all = c.light(&mesh([2, 4]));
    assert_eq!(names(&all), ["RR = RR", "S1R = S1R", "S0R = S0R", "S01R = S01R", "S10R = S10R"]);
}

#[test]
fn unknown_ops_are_replicated() {
    let o = op("stablehlo.custom_call", &[f32t(&[8, 16])], &[("call_target_name", Attr::Str("my_kernel".into()))]);
    let c = Case::new(o, &[f32t(&[8, 16])]);
    assert!(!c.rule.known);
    for heavy in [false, true] {
        let all = c.strategies(heavy, &mesh([2, 4]), &StrategyOptions::default());
        assert_eq!(names(&all), ["RR = RR"]);
        assert_eq!(all[0].communication_cost, 0.0);
        assert_eq!(all[0].result_bytes_per_device, 512);
    }
    // A non-tensor operand has no spec.
    let token = None;
    let t = f32t(&[8, 16]);
    let all = op_strategies(&c.rule, &[Some(&t), token], &[Some(&t)], false, &mesh([2, 4]), &Default::default());
    assert_eq!(names(&all), ["RR = RR x -"]);
    assert_eq!(all[0].operand_specs, vec![Some(ShardingSpec::replicated(2)), None]);
}

#[test]
fn scalars_and_size_one_dims() {
    let m = mesh([2, 4]);
    let add = |shape: &[i64]| Case::new(op("stablehlo.add", &[f32t(shape)], &[]), &[f32t(shape), f32t(shape)]);
    assert_eq!(names(&add(&[]).light(&m)), ["[] = [] x []"]);
    // A size-1 dim has no factor and is never split.
    let all = add(&[1, 8]).light(&m);
    assert!(all.iter().all(|s| s.result_specs[0].as_ref().unwrap().dims()[0] == DimSharding::R));
    assert_eq!(all.len(), 5);
    // Odd sizes: only what divides.
    assert_eq!(names(&add(&[3]).light(&m)), ["R = R x R"]);
    assert_eq!(names(&add(&[6]).light(&m)), ["R = R x R", "S0 = S0 x S0"]);
}

#[test]
fn rules_that_do_not_fit_their_types_fall_back_to_replication() {
    let c = Case::new(op("stablehlo.add", &[f32t(&[8])], &[]), &[f32t(&[8]), f32t(&[8])]);
    let wrong = f32t(&[4]);
    let all = op_strategies(
        &c.rule,
        &[Some(&wrong), Some(&wrong)],
        &[Some(&wrong)],
        false,
        &mesh([2, 4]),
        &Default::default(),
    );
    assert_eq!(names(&all), ["R = R x R"]);
}

#[test]
fn function_arguments_take_any_divisible_spec() {
    let m = mesh([2, 4]);
    let ty = f32t(&[8, 16]);
    let all = argument_strategies(&ty, &m, false);
    assert_eq!(all.len(), 10);
    assert!(all.iter().all(|s| s.communication_cost == 0.0 && s.collectives.is_empty()));
    assert!(!names(&all).contains(&"RR"));
    assert_eq!(find(&all, "S01R").result_bytes_per_device, 64);
    assert_eq!(find(&all, "S0S1").factor_axes, vec![vec![0], vec![1]]);
    assert_eq!(argument_strategies(&ty, &m, true).len(), 11);
    // Nothing divides: replication is the only choice even when not allowed.
    assert_eq!(names(&argument_strategies(&f32t(&[3, 5]), &m, false)), ["RR"]);
    assert_eq!(names(&argument_strategies(&f32t(&[]), &m, false)), ["[]"]);
    assert_eq!(names(&argument_strategies(&f32t(&[1, 4]), &m, false)), ["RS1", "RS0"]);
    let bf16 = TensorType::new(vec![8, 16], crate::ir::types::ElementType::parse("bf16").unwrap());
    assert_eq!(find(&argument_strategies(&bf16, &m, false), "S0R").result_bytes_per_device, 128);
}

#[test]
fn zero_sized_tensors_do_not_panic() {
    let m = mesh([2, 4]);
    let shape = [0, 8];
    let add = Case::new(op("stablehlo.add", &[f32t(&shape)], &[]), &[f32t(&shape), f32t(&shape)]);
    let all = add.light(&m);
    assert_eq!(all[0].name, "RR = RR x RR");
    assert!(all.iter().all(|s| s.communication_cost == 0.0 && s.result_bytes_per_device == 0));
    // Reducing the empty dim while it is split still all-reduces the (non-empty) result.
    let all = reduce(&shape, &[0], &[8]).light(&m);
    let s = find(&all, "S1 = S0S1 x [] @ allreduce{0}");
    assert_eq!(s.collectives[0].bytes, 8);
    assert_eq!(names(&argument_strategies(&f32t(&shape), &m, false)).len(), 10);
}
