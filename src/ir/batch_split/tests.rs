use super::*;
use crate::ir::cost::op_cost;
use crate::ir::graph::Attrs;
use crate::ir::test_graphs::{t, tanh_mlp_step, Builder};

fn shape(ty: &ValueType) -> Vec<i64> {
    ty.tensor().map(|t| t.shape.clone()).unwrap_or_default()
}

fn flops(graph: &Graph) -> Vec<f64> {
    (0..graph.ops().len()).map(|i| op_cost(&graph.ops()[i], &graph.operand_tensors(i)).unwrap().flops as f64).collect()
}

fn input(shape: &[i64]) -> Param {
    Param { ty: t(shape), attrs: Attrs::new() }
}

fn ints(v: &[i64]) -> Attr {
    Attr::I64Array(v.to_vec())
}

#[test]
fn a_train_step_splits_its_activations_not_its_weights() {
    let g = tanh_mlp_step(3, 8, 16);
    let dims = batch_dims(&g).unwrap();
    assert_eq!(dims.global_batch, 8);
    assert_eq!(dims.inputs, vec![3], "x is the only per-example input; the weights are donated");
    assert_eq!(dims.divisors(), vec![1, 2, 4, 8]);
    let half = split_batch(&g, 2).unwrap();
    assert_eq!(shape(&half.args[3].ty), vec![4, 16]);
    for a in 0..3 {
        assert_eq!(half.args[a], g.args[a], "weights keep their type and attributes");
    }
    assert_eq!(half.ops().len(), g.ops().len());
    let (full, split) = (flops(&g), flops(&half));
    for (i, op) in g.ops().iter().enumerate() {
        let before = shape(&op.results[0]);
        let after = shape(&half.ops()[i].results[0]);
        if before == vec![8, 16] {
            assert_eq!(after, vec![4, 16], "op {i} {}", op.name);
        } else {
            assert_eq!(after, before, "op {i} {}: weights, weight gradients and the loss", op.name);
        }
        // Every op's work is per example except the weight update.
        if op.short_name() == "subtract" && before == vec![16, 16] {
            assert_eq!(split[i], full[i]);
        } else {
            assert_eq!(split[i] * 2.0, full[i], "op {i} {}", op.name);
        }
    }
    assert_eq!(split_batch(&g, 1).unwrap(), g);
    assert_eq!(shape(&split_batch(&g, 8).unwrap().args[3].ty), vec![1, 16]);
    assert_eq!(split_batch(&g, 3), Err(BatchSplitError::NotDivisible { batch: 8, parts: 3 }));
    assert!(split_batch(&g, 0).is_err() && split_batch(&g, 16).is_err());
}

#[test]
fn created_tensors_that_meet_the_batch_are_split_too() {
    // y = x + broadcast(c): the broadcast result has no operand with the batch, but the add
    // shares its dims with x.
    let mut b = Builder::new();
    let mut value = Attrs::new();
    value.insert(
        "value".into(),
        Attr::Elements { ty: TensorType::new(vec![], crate::ir::types::ElementType::f32()), splat: true, values: None },
    );
    let c = b.op("stablehlo.constant", vec![], t(&[]), value);
    let mut bcast = Attrs::new();
    bcast.insert("broadcast_dimensions".into(), ints(&[]));
    let wide = b.op("stablehlo.broadcast_in_dim", vec![c], t(&[6, 4]), bcast);
    let y = b.binary("stablehlo.add", ValueRef::Arg(0), wide, t(&[6, 4]));
    let g = b.graph(vec![input(&[6, 4])], vec![y]);
    let s = split_batch(&g, 3).unwrap();
    assert_eq!(shape(&s.ops()[1].results[0]), vec![2, 4]);
    assert_eq!(shape(&s.results[0].ty), vec![2, 4], "the function result follows");
    assert_eq!(shape(&s.ops()[0].results[0]), Vec::<i64>::new());
}

#[test]
fn full_slices_shrink_and_cuts_of_the_batch_are_refused() {
    let slice = |start: i64, limit: i64| {
        let mut b = Builder::new();
        let mut attrs = Attrs::new();
        attrs.insert("start_indices".into(), ints(&[start, 0]));
        attrs.insert("limit_indices".into(), ints(&[limit, 2]));
        attrs.insert("strides".into(), ints(&[1, 1]));
        let y = b.op("stablehlo.slice", vec![ValueRef::Arg(0)], t(&[limit - start, 2]), attrs);
        b.graph(vec![input(&[8, 4])], vec![y])
    };
    let s = split_batch(&slice(0, 8), 4).unwrap();
    assert_eq!(s.ops()[0].attr("limit_indices"), Some(&ints(&[2, 2])));
    assert_eq!(shape(&s.ops()[0].results[0]), vec![2, 2]);
    // A slice that keeps part of the batch is its own dim: the batch stops there, and the
    // shapes no longer fit the slice once the input shrinks.
    let err = split_batch(&slice(2, 8), 2).unwrap_err();
    assert!(matches!(err, BatchSplitError::Op { op: 0, .. }), "{err}");
}

#[test]
fn a_batch_merged_below_another_dim_is_refused() {
    // [G, S] -> transpose -> [S, G] -> reshape [S*G]: the batch is the minor part.
    let mut b = Builder::new();
    let mut perm = Attrs::new();
    perm.insert("permutation".into(), ints(&[1, 0]));
    let tr = b.op("stablehlo.transpose", vec![ValueRef::Arg(0)], t(&[3, 4]), perm);
    let flat = b.op("stablehlo.reshape", vec![tr], t(&[12]), Attrs::new());
    let g = b.graph(vec![input(&[4, 3])], vec![flat]);
    let err = split_batch(&g, 2).unwrap_err();
    assert!(matches!(err, BatchSplitError::Op { op: 1, .. }), "{err}");
    assert!(err.to_string().contains("below another factor"), "{err}");
}

#[test]
fn unknown_ops_on_the_batch_and_graphs_without_one_are_refused() {
    let mut b = Builder::new();
    let y = b.op("stablehlo.custom_call", vec![ValueRef::Arg(0)], t(&[4, 3]), Attrs::new());
    let g = b.graph(vec![input(&[4, 3])], vec![y]);
    let err = split_batch(&g, 2).unwrap_err();
    assert!(err.to_string().contains("does not know"), "{err}");

    let mut donated = input(&[4, 3]);
    donated.attrs.insert("tf.aliasing_output".into(), Attr::Int(0));
    let mut b = Builder::new();
    let y = b.unary("stablehlo.tanh", ValueRef::Arg(0), t(&[4, 3]));
    let g = b.graph(vec![donated], vec![y]);
    assert_eq!(batch_dims(&g), Err(BatchSplitError::NoBatch));
}
