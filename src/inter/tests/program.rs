//! The pipelined program: functions, schedule order, accumulation, and refused assignments.

use crate::inter::memory::Schedule;
use crate::inter::plan::StageId;
use crate::inter::program::{
    analyze_train_step, build_program, Accumulate, FunctionKind, GradientCombine, PipelineProgram, ProgramError, Ratio,
};
use crate::ir::graph::ValueRef;
use crate::ir::test_graphs::tanh_mlp_step;
use crate::ir::train_step::analyze;

/// Stage of every op: ops anchored at the forward matmul of layer k go to stage k * stages / depth.
fn stages_by_anchor(g: &crate::ir::graph::Graph, stages: usize, depth: usize) -> Vec<StageId> {
    stages_by_anchor_of(g, &analyze(g).unwrap(), stages, depth)
}

fn stages_by_anchor_of(
    g: &crate::ir::graph::Graph,
    step: &crate::ir::train_step::TrainStep,
    stages: usize,
    depth: usize,
) -> Vec<StageId> {
    let dots: Vec<usize> = (0..g.ops().len()).filter(|&i| g.ops()[i].name == "stablehlo.dot_general").collect();
    (0..g.ops().len())
        .map(|i| {
            let anchor = step.anchor[i].unwrap_or(i);
            let layer = dots.iter().filter(|&&d| d <= anchor).count().saturating_sub(1).min(depth - 1);
            StageId::new(layer * stages / depth)
        })
        .collect()
}

#[test]
fn one_f_one_b_order_and_functions() {
    let g = tanh_mlp_step(4, 8, 16);
    let step = analyze(&g).unwrap();
    let stage_of = stages_by_anchor(&g, 2, 4);
    let p = build_program(&g, &step, &stage_of, 2, 3, Schedule::OneFOneB, GradientCombine::Mean).unwrap();
    let names: Vec<String> = p.functions.iter().map(|f| f.symbol()).collect();
    assert_eq!(
        names,
        ["stage0_forward", "stage1_forward", "stage0_backward", "stage1_backward", "stage0_apply", "stage1_apply"]
    );
    // 1F1B with 2 stages and 3 microbatches: stage 0 warms up with one forward.
    let order: Vec<String> = p
        .calls
        .iter()
        .map(|c| {
            format!("{}{}", p.functions[c.function].symbol(), c.microbatch.map_or(String::new(), |k| format!("/{k}")))
        })
        .collect();
    assert_eq!(
        order,
        [
            "stage0_forward/0",
            "stage0_forward/1",
            "stage1_forward/0",
            "stage1_backward/0",
            "stage0_backward/0",
            "stage1_forward/1",
            "stage0_forward/2",
            "stage1_backward/1",
            "stage0_backward/1",
            "stage1_forward/2",
            "stage1_backward/2",
            "stage0_backward/2",
            "stage0_apply",
            "stage1_apply",
        ]
    );
    // The only batch input is the activation argument; the weights are shared.
    assert_eq!(p.batch_dims.iter().filter(|d| d.is_some()).count(), 1);
    // Four weight gradients are averaged (combine=mean); the loss, a sum over the batch, adds up.
    let means = p.accumulated.iter().filter(|(_, m)| *m == Accumulate::Mean).count();
    assert_eq!(means, 4, "{:?}", p.accumulated);
    let loss = g.returned[step.loss];
    assert_eq!(p.accumulated.iter().find(|(v, _)| *v == loss).map(|(_, m)| *m), Some(Accumulate::Sum));
    // Every function's inputs come from outside it, its outputs from inside.
    for (f, function) in p.functions.iter().enumerate() {
        for v in &function.inputs {
            if let ValueRef::Op { op, .. } = v {
                assert_ne!(p.function_of_op[*op], f);
            }
        }
        for v in &function.outputs {
            let ValueRef::Op { op, .. } = v else { panic!("an argument as an output") };
            assert_eq!(p.function_of_op[*op], f);
        }
    }
}

#[test]
fn gpipe_runs_all_forwards_first() {
    let g = tanh_mlp_step(2, 4, 8);
    let step = analyze(&g).unwrap();
    let stage_of = stages_by_anchor(&g, 2, 2);
    let p = build_program(&g, &step, &stage_of, 2, 2, Schedule::GPipe, GradientCombine::Sum).unwrap();
    let kinds: Vec<FunctionKind> = p.calls.iter().map(|c| p.functions[c.function].kind).collect();
    let first_backward = kinds.iter().position(|k| *k == FunctionKind::Backward).unwrap();
    assert!(kinds[..first_backward].iter().all(|k| *k == FunctionKind::Forward));
    assert_eq!(kinds[..first_backward].len(), 4);
    assert!(p.accumulated.iter().all(|(_, m)| *m == Accumulate::Sum));
}

#[test]
fn an_assignment_that_needs_a_later_stage_first_is_refused() {
    // Forward ops of layer 0 in stage 1 and of layer 1 in stage 0: stage 0's forward would
    // need stage 1's forward, which the schedule runs later.
    let g = tanh_mlp_step(2, 4, 8);
    let step = analyze(&g).unwrap();
    let stage_of: Vec<StageId> = stages_by_anchor(&g, 2, 2).into_iter().map(|s| StageId::new(1 - s.index())).collect();
    let e = build_program(&g, &step, &stage_of, 2, 2, Schedule::OneFOneB, GradientCombine::Mean).unwrap_err();
    assert!(matches!(e, ProgramError::Order { .. }), "{e:?}");
}

/// `g` with `op` appended and its result returned too, as a metric named `name` (JAX's
/// `jax.result_info` of a dictionary entry).
fn returning(g: &mut crate::ir::graph::Graph, op: crate::ir::graph::OpNode, name: &str) -> ValueRef {
    use crate::ir::graph::{Attr, Attrs, Param};
    let ty = op.results[0].clone();
    let v = pushed(g, op);
    g.returned.push(v);
    let info = Attr::Str(format!("result[9]['{name}']"));
    g.results.push(Param { ty, attrs: Attrs::from([("jax.result_info".to_string(), info)]) });
    v
}

/// How each accumulated value of `g`, planned as one stage over `microbatches` under
/// gradient-accumulation=mean, combines.
fn accumulation_modes(g: &crate::ir::graph::Graph, microbatches: usize) -> Vec<(ValueRef, Accumulate)> {
    let step = analyze(g).unwrap();
    let stage_of = vec![StageId::new(0); g.ops().len()];
    build_program(g, &step, &stage_of, 1, microbatches, Schedule::OneFOneB, GradientCombine::Mean).unwrap().accumulated
}

fn mode_in(modes: &[(ValueRef, Accumulate)], v: ValueRef) -> Option<Accumulate> {
    modes.iter().find(|(w, _)| *w == v).map(|(_, m)| *m)
}

/// An f32 scalar constant of `value`.
fn f32_constant(value: f64) -> crate::ir::graph::OpNode {
    use crate::ir::graph::Attr;
    use crate::ir::types::{ElementType, TensorType, ValueType};
    let ty = TensorType::new(vec![], ElementType::f32());
    let mut c = op("stablehlo.constant", vec![], ValueType::Tensor(ty.clone()));
    c.attrs.insert("value".into(), Attr::FloatScalar { ty, value });
    c
}

/// `g` with `node` appended: its result.
fn pushed(g: &mut crate::ir::graph::Graph, node: crate::ir::graph::OpNode) -> ValueRef {
    g.body.ops.push(node);
    ValueRef::Op { op: g.body.ops.len() - 1, result: 0 }
}

/// A new argument of `g` of type `ty`, donated to the result `g` returns next: the state that
/// result updates.
fn donated_state(g: &mut crate::ir::graph::Graph, ty: &crate::ir::types::ValueType) -> ValueRef {
    use crate::ir::graph::{Attr, Attrs, Param};
    let (arg, result) = (g.args.len(), g.returned.len());
    let donated = Attrs::from([("tf.aliasing_output".to_string(), Attr::Int(result as i64))]);
    g.args.push(Param { ty: ty.clone(), attrs: donated });
    g.body.args.push(ty.clone());
    ValueRef::Arg(arg)
}

/// The sum of rank-2 `x` over both dims from `zero`, an f32 scalar.
fn summed(x: ValueRef, zero: ValueRef) -> crate::ir::graph::OpNode {
    use crate::ir::graph::Attr;
    use crate::ir::types::{ElementType, TensorType, ValueType};
    let mut sum = op("stablehlo.reduce", vec![x, zero], ValueType::Tensor(TensorType::new(vec![], ElementType::f32())));
    sum.attrs.insert("dimensions".into(), Attr::I64Array(vec![0, 1]));
    sum.regions.push(crate::ir::op_table::test_util::add_body());
    sum
}

fn op(name: &str, operands: Vec<ValueRef>, result: crate::ir::types::ValueType) -> crate::ir::graph::OpNode {
    crate::ir::graph::OpNode {
        name: name.into(),
        location: String::new(),
        operands,
        results: vec![result],
        attrs: Default::default(),
        regions: vec![],
    }
}

#[test]
fn results_combine_as_sums_and_means_over_the_batch_and_integers_add_up() {
    // tanh_mlp_step's loss sums its 4 x 8 outputs. The step also returns that sum divided by
    // 32 (a mean: the microbatches' values average), a count (an integer computed from the
    // batch: the counts add up) and the sum's square root (neither: refused).
    use crate::ir::graph::Attr;
    use crate::ir::types::{ElementType, TensorType, ValueType};
    let mut g = tanh_mlp_step(2, 4, 8);
    let loss = *g.returned.last().unwrap();
    // The loss is returned directly, the metrics in a dictionary: the loss is told apart.
    g.results.last_mut().unwrap().attrs.insert("jax.result_info".into(), Attr::Str("result[2]".into()));
    let scalar = |e: ElementType| ValueType::Tensor(TensorType::new(vec![], e));
    let n = pushed(&mut g, f32_constant(32.0));
    let mean = returning(&mut g, op("stablehlo.divide", vec![loss, n], scalar(ElementType::f32())), "mean");
    let count = returning(&mut g, op("stablehlo.convert", vec![loss], scalar(ElementType::Int(32))), "count");
    let step = analyze(&g).unwrap();
    let stage_of = vec![StageId::new(0); g.ops().len()];
    let p = build_program(&g, &step, &stage_of, 1, 3, Schedule::OneFOneB, GradientCombine::Mean).unwrap();
    let mode = |v: ValueRef| p.accumulated.iter().find(|(w, _)| *w == v).map(|(_, m)| *m);
    assert_eq!(mode(count), Some(Accumulate::Sum));
    assert_eq!(mode(mean), Some(Accumulate::Mean));
    assert_eq!(mode(loss), Some(Accumulate::Sum));
    // The sum's square root is no sum or mean, but computed from the sum alone: it runs once,
    // in the apply function, on the combined sum.
    let root = returning(&mut g, op("stablehlo.sqrt", vec![loss], scalar(ElementType::f32())), "root");
    let p = one_stage(&g, 3).unwrap();
    let ValueRef::Op { op: root_op, .. } = root else { unreachable!() };
    assert_eq!(p.functions[p.function_of_op[root_op]].kind, FunctionKind::Apply);
    assert!(p.accumulated.iter().all(|(v, _)| *v != root), "computed after the accumulation");
    assert!(p.accumulated.contains(&(loss, Accumulate::Sum)));
    // Divided by the square root of its count (a constant of the microbatch's export, wrong
    // for the whole batch), the root is computed per microbatch, and so refused.
    let mut scaled = g.clone();
    let root_of_count = pushed(&mut scaled, f32_constant(32f64.sqrt()));
    returning(&mut scaled, op("stablehlo.divide", vec![root, root_of_count], scalar(ElementType::f32())), "rms");
    let e = one_stage(&scaled, 3).unwrap_err();
    assert!(matches!(e, ProgramError::Combine { op, .. } if op.index() == root_op), "{e:?}");
    // The largest of what the loss sums combines by the microbatches' maximum.
    let by_maximum = reduced_as(&g, loss, "stablehlo.maximum");
    let largest = returning(&mut g, by_maximum, "largest");
    assert!(one_stage(&g, 3).unwrap().accumulated.contains(&(largest, Accumulate::Extreme { max: true })));
    // The product over the batch of what the loss sums is neither, nor computed from sums:
    // refused, unless one microbatch combines nothing.
    let by_product = reduced_as(&g, loss, "stablehlo.multiply");
    let product = returning(&mut g, by_product, "product");
    let ProgramError::Combine { op, result, .. } = one_stage(&g, 3).unwrap_err() else { panic!() };
    let ValueRef::Op { op: product_op, .. } = product else { unreachable!() };
    assert_eq!((op.index(), result), (product_op, g.returned.len() - 1));
    assert!(one_stage(&g, 1).is_ok());
}

/// `g` planned as one stage over `microbatches` under gradient-accumulation=mean.
fn one_stage(g: &crate::ir::graph::Graph, microbatches: usize) -> Result<PipelineProgram, ProgramError> {
    let step = analyze_train_step(g).unwrap();
    let stage_of = vec![StageId::new(0); g.ops().len()];
    build_program(g, &step, &stage_of, 1, microbatches, Schedule::OneFOneB, GradientCombine::Mean)
}

/// The reduce that computes `reduced`, reducing by `combiner` instead.
fn reduced_as(g: &crate::ir::graph::Graph, reduced: ValueRef, combiner: &str) -> crate::ir::graph::OpNode {
    let ValueRef::Op { op, .. } = reduced else { unreachable!() };
    let mut reduce = g.ops()[op].clone();
    reduce.regions = vec![crate::ir::op_table::test_util::combiner_body(combiner)];
    reduce
}

#[test]
fn a_returned_count_of_the_examples_computed_from_the_shape_adds_up() {
    // CLU counts a metric's examples as jnp.ones(batch).sum(): in the export at microbatch size
    // a constant, the microbatch's count (4 here), which was returned as the last microbatch's.
    let mut g = tanh_mlp_step(2, 4, 8);
    let count = returning(&mut g, f32_constant(4.0), "count");
    let other = returning(&mut g, f32_constant(3.0), "other");
    let modes = accumulation_modes(&g, 2);
    assert_eq!(mode_in(&modes, count), Some(Accumulate::Sum));
    assert_ne!(mode_in(&modes, other), Some(Accumulate::Sum));
}

#[test]
fn running_totals_kept_in_the_state_add_up_over_the_microbatches() {
    // total' = total + sum(x) and seen' = seen + 4 (the microbatch's examples, a constant of
    // the export), both kept in donated arguments, under gradient-accumulation=mean: the sum
    // was averaged as the gradients are, and the count added once.
    use crate::ir::types::{ElementType, TensorType, ValueType};
    let mut g = tanh_mlp_step(2, 4, 8);
    let scalar = ValueType::Tensor(TensorType::new(vec![], ElementType::f32()));
    // A sum over the batch that reads the examples (x, argument 2), so it runs per microbatch.
    let zero = pushed(&mut g, f32_constant(0.0));
    let doubled = pushed(&mut g, summed(ValueRef::Arg(2), zero));
    let examples = pushed(&mut g, f32_constant(4.0));
    let keep = |g: &mut crate::ir::graph::Graph, read: ValueRef, name: &str| {
        let state = donated_state(g, &scalar);
        returning(g, op("stablehlo.add", vec![state, read], scalar.clone()), name)
    };
    keep(&mut g, doubled, "total");
    keep(&mut g, examples, "seen");
    let modes = accumulation_modes(&g, 2);
    assert_eq!(mode_in(&modes, doubled), Some(Accumulate::Sum));
    assert_eq!(mode_in(&modes, examples), Some(Accumulate::Sum));
}

#[test]
fn a_metric_of_a_metric_the_microbatches_also_read_runs_per_microbatch_and_is_refused() {
    // p = exp(loss) is computed from the combined loss, and q = sqrt(p) from p; but a running
    // total of the examples scaled by p (total' = total + sum(x * p)) reads p per microbatch,
    // so p is computed per microbatch: q then read p's microbatch values averaged as the
    // gradients are, silently. It runs per microbatch too, and is refused.
    use crate::ir::graph::Attr;
    use crate::ir::types::{ElementType, TensorType, ValueType};
    let mut g = tanh_mlp_step(2, 4, 8);
    let loss = *g.returned.last().unwrap();
    g.results.last_mut().unwrap().attrs.insert("jax.result_info".into(), Attr::Str("result[2]".into()));
    let scalar = ValueType::Tensor(TensorType::new(vec![], ElementType::f32()));
    let p = pushed(&mut g, op("stablehlo.exponential", vec![loss], scalar.clone()));
    let q = returning(&mut g, op("stablehlo.sqrt", vec![p], scalar.clone()), "q");
    assert!(one_stage(&g, 2).is_ok(), "computed once from the combined loss");
    let x = ValueRef::Arg(2);
    let x_type = g.value_type(x).unwrap().clone();
    let mut spread = op("stablehlo.broadcast_in_dim", vec![p], x_type.clone());
    spread.attrs.insert("broadcast_dimensions".into(), Attr::I64Array(vec![]));
    let spread = pushed(&mut g, spread);
    let scaled = pushed(&mut g, op("stablehlo.multiply", vec![x, spread], x_type));
    let zero = pushed(&mut g, f32_constant(0.0));
    let sum = pushed(&mut g, summed(scaled, zero));
    let total = donated_state(&mut g, &scalar);
    returning(&mut g, op("stablehlo.add", vec![total, sum], scalar), "total");
    let e = one_stage(&g, 2).unwrap_err();
    let ValueRef::Op { op: q_op, .. } = q else { unreachable!() };
    assert!(matches!(e, ProgramError::Combine { op, .. } if op.index() == q_op), "{e:?}");
}

#[test]
fn a_cotangent_the_update_reads_through_a_value_of_a_states_type_combines_as_the_gradients_do() {
    // The backward's seed g (4 x 8, the type of a state z, so no batch-shaped value by its
    // type) transposed and reshaped loses the batch dimension (PyTorch's attention merges the
    // examples below the sequence); p = (m . w) * m of it is neither a sum nor a mean. Read by
    // a bias gradient sum(p) alone, p would run once, but a running total of the examples
    // scaled by p reads it per microbatch too. The bias update then reads p's microbatch
    // values averaged as the gradients are, which is right: p is linear in the seed, unlike a
    // metric of the loss (above), and the update stays in the apply function.
    use crate::ir::graph::{Attr, Attrs, Param};
    use crate::ir::types::{ElementType, TensorType, ValueType};
    let mut g = tanh_mlp_step(2, 4, 8);
    let constant = |v: &ValueRef| matches!(*v, ValueRef::Op { op, .. } if g.ops()[op].name == "stablehlo.constant");
    let seed = g.ops().iter().position(|o| o.name == "stablehlo.multiply" && o.operands.iter().any(constant)).unwrap();
    let seed = ValueRef::Op { op: seed, result: 0 };
    let act = g.value_type(seed).unwrap().clone();
    let scalar = ValueType::Tensor(TensorType::new(vec![], ElementType::f32()));
    let z = donated_state(&mut g, &act);
    g.returned.push(z);
    g.results.push(Param { ty: act.clone(), attrs: Attrs::new() });
    let mut transposed =
        op("stablehlo.transpose", vec![seed], ValueType::Tensor(TensorType::new(vec![8, 4], ElementType::f32())));
    transposed.attrs.insert("permutation".into(), Attr::I64Array(vec![1, 0]));
    let transposed = pushed(&mut g, transposed);
    let merged = pushed(&mut g, op("stablehlo.reshape", vec![transposed], act.clone()));
    let mut dot = op("stablehlo.dot_general", vec![merged, ValueRef::Arg(0)], act.clone());
    let contracting = "dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>".to_string();
    dot.attrs.insert("dot_dimension_numbers".into(), Attr::Opaque { dialect: "stablehlo".into(), data: contracting });
    let dot = pushed(&mut g, dot);
    let p = pushed(&mut g, op("stablehlo.multiply", vec![dot, merged], act.clone()));
    let zero = pushed(&mut g, f32_constant(0.0));
    let bias_gradient = pushed(&mut g, summed(p, zero));
    let bias = donated_state(&mut g, &scalar);
    let update = returning(&mut g, op("stablehlo.subtract", vec![bias, bias_gradient], scalar.clone()), "bias");
    let scaled = pushed(&mut g, op("stablehlo.multiply", vec![ValueRef::Arg(2), p], act));
    let examples_total = pushed(&mut g, summed(scaled, zero));
    let total = donated_state(&mut g, &scalar);
    returning(&mut g, op("stablehlo.add", vec![total, examples_total], scalar), "total");
    let program = one_stage(&g, 2).unwrap();
    let ValueRef::Op { op: update_op, .. } = update else { unreachable!() };
    assert_eq!(program.functions[program.function_of_op[update_op]].kind, FunctionKind::Apply);
}

/// DP-SGD's clipping by the norm across layers, on `tanh_mlp_step`'s layers: per-example
/// gradients pe_k = a_k (x) g_k (a dot_general batched over the examples), n = sum_k |pe_k|^2
/// per example, w_k' = w_k - sum over the batch of pe_k / n (elementwise: update-phase ops).
fn per_example_clipping_step(depth: usize, batch: i64, width: i64) -> crate::ir::graph::Graph {
    use crate::ir::graph::Attr;
    use crate::ir::test_graphs::{attrs, t, tanh_mlp_args, tanh_mlp_gradients, Builder};
    let (weight, per_example, norms) = (t(&[width, width]), t(&[batch, width, width]), t(&[batch]));
    let batched = Attr::Opaque {
        dialect: "stablehlo".into(),
        data: "dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0]>".into(),
    };
    let mut b = Builder::new();
    let (grads, loss) = tanh_mlp_gradients(&mut b, depth, batch, width, |b, a, g| {
        let dims = attrs(&[("dot_dimension_numbers", batched.clone())]);
        b.op("stablehlo.dot_general", vec![a, g], per_example.clone(), dims)
    });
    let mut total = None;
    for grad in &grads {
        let squared = b.binary("stablehlo.multiply", *grad, *grad, per_example.clone());
        let init = b.scalar_constant();
        let norm = b.reduce_sum(squared, init, &[1, 2], norms.clone());
        total = Some(total.map_or(norm, |t| b.binary("stablehlo.add", t, norm, norms.clone())));
    }
    let spread = attrs(&[("broadcast_dimensions", Attr::I64Array(vec![0]))]);
    let divisor = b.op("stablehlo.broadcast_in_dim", vec![total.unwrap()], per_example.clone(), spread);
    let mut returned = Vec::new();
    for (k, grad) in grads.iter().enumerate() {
        let clipped = b.binary("stablehlo.divide", *grad, divisor, per_example.clone());
        let init = b.scalar_constant();
        let summed = b.reduce_sum(clipped, init, &[0], weight.clone());
        returned.push(b.binary("stablehlo.subtract", ValueRef::Arg(k), summed, weight.clone()));
    }
    returned.push(loss);
    b.graph(tanh_mlp_args(depth, batch, width), returned)
}

#[test]
fn what_a_per_example_factor_over_all_layers_scales_runs_where_the_first_layers_backward_ends() {
    let (depth, microbatches) = (4, 2);
    let g = per_example_clipping_step(depth, 4, 8);
    let step = analyze_train_step(&g).unwrap();
    // Every cut of the layers into stages gives a program, and layer k's clipped gradient is
    // computed in stage 0's backward function, read by stage k's apply function.
    for stages in 1..=depth {
        let stage_of = stages_by_anchor_of(&g, &step, stages, depth);
        let p = build_program(&g, &step, &stage_of, stages, microbatches, Schedule::OneFOneB, GradientCombine::Mean)
            .unwrap_or_else(|e| panic!("{stages} stages: {e}"));
        for (index, op) in g.ops().iter().enumerate().filter(|(_, op)| op.name == "stablehlo.divide") {
            let function = &p.functions[p.function_of_op[index]];
            assert_eq!((function.stage, function.kind), (StageId::new(0), FunctionKind::Backward), "op {index} {op:?}");
        }
    }
    // The train step's own placement puts a layer's clipping with its layer, which the schedule
    // cannot run once the layers are in different stages.
    let unplaced = analyze(&g).unwrap();
    let stage_of = stages_by_anchor_of(&g, &unplaced, depth, depth);
    let e = build_program(&g, &unplaced, &stage_of, depth, microbatches, Schedule::OneFOneB, GradientCombine::Mean)
        .unwrap_err();
    assert!(matches!(e, ProgramError::Order { .. }), "{e:?}");
}

#[test]
fn the_placement_of_per_microbatch_ops_changes_nothing_in_plain_backpropagation() {
    let g = tanh_mlp_step(4, 4, 8);
    assert_eq!(analyze_train_step(&g), analyze(&g).ok());
}

#[test]
fn an_apply_op_is_placed_no_later_than_the_apply_ops_reading_it() {
    // tanh_mlp_step(2, ..) with w0's update also subtracting dw1^T dw1: a product of the later
    // layer's accumulated gradient (run once per step) that the earlier layer's update reads.
    use crate::ir::test_graphs::{t, Builder};
    let mut g = tanh_mlp_step(2, 4, 8);
    let producer = |v: ValueRef| match v {
        ValueRef::Op { op, .. } => op,
        _ => unreachable!(),
    };
    let new_w0 = producer(g.returned[0]);
    let dw1 = producer(g.returned[1]);
    let dw1 = g.ops()[dw1].operands[1];
    let mut b = Builder { ops: std::mem::take(&mut g.body.ops) };
    let gram = b.dot(dw1, dw1, 0, 0, t(&[8, 8]));
    let shifted = b.binary("stablehlo.subtract", ValueRef::Op { op: new_w0, result: 0 }, gram, t(&[8, 8]));
    g.body.ops = b.ops;
    g.returned[0] = shifted;
    let step = analyze_train_step(&g).unwrap();
    let stage_of = stages_by_anchor_of(&g, &step, 2, 2);
    let p = build_program(&g, &step, &stage_of, 2, 2, Schedule::OneFOneB, GradientCombine::Mean).unwrap();
    let gram_function = &p.functions[p.function_of_op[producer(gram)]];
    assert_eq!((gram_function.stage, gram_function.kind), (StageId::new(0), FunctionKind::Apply));
    // Placed as the train step says, it would run in stage 1's apply function, after stage 0's.
    let unplaced = analyze(&g).unwrap();
    let stage_of = stages_by_anchor_of(&g, &unplaced, 2, 2);
    let e = build_program(&g, &unplaced, &stage_of, 2, 2, Schedule::OneFOneB, GradientCombine::Mean).unwrap_err();
    assert!(matches!(e, ProgramError::Order { .. }), "{e:?}");
}

/// The gradients (accumulated values other than the loss) combined as `mode`, and the
/// warnings, of `g` planned in one stage over two microbatches with `combine`.
fn gradient_modes(g: &crate::ir::graph::Graph, combine: GradientCombine) -> (Vec<Accumulate>, Vec<String>) {
    let step = analyze(g).unwrap();
    let stage_of = vec![StageId::new(0); g.ops().len()];
    let p = build_program(g, &step, &stage_of, 1, 2, Schedule::OneFOneB, combine).unwrap();
    let loss = g.returned[step.loss];
    let modes = p.accumulated.iter().filter(|(v, _)| *v != loss).map(|(_, m)| *m).collect();
    (modes, p.warnings.into_iter().map(|(_, w)| w).collect())
}

#[test]
fn gradients_combine_as_the_loss_does_and_a_contradicting_option_is_warned() {
    use crate::ir::graph::Attr;
    use crate::ir::types::{ElementType, TensorType, ValueType};
    // tanh_mlp_step's loss sums over the batch: its gradients add up.
    let summed = tanh_mlp_step(2, 4, 8);
    assert_eq!(gradient_modes(&summed, GradientCombine::Auto), (vec![Accumulate::Sum; 2], vec![]));
    assert_eq!(gradient_modes(&summed, GradientCombine::Sum), (vec![Accumulate::Sum; 2], vec![]));
    let (modes, warnings) = gradient_modes(&summed, GradientCombine::Mean);
    assert_eq!(modes, vec![Accumulate::Mean; 2]);
    assert!(
        matches!(&warnings[..], [w] if w.contains("a sum over the batch, but gradient-accumulation=mean")),
        "{warnings:?}"
    );
    // The same loss divided by its 32 elements is a mean: its gradients average.
    let mut averaged = tanh_mlp_step(2, 4, 8);
    let loss = *averaged.returned.last().unwrap();
    let scalar = ValueType::Tensor(TensorType::new(vec![], ElementType::f32()));
    let mut constant = op("stablehlo.constant", vec![], scalar.clone());
    let value = Attr::FloatScalar { ty: TensorType::new(vec![], ElementType::f32()), value: 32.0 };
    constant.attrs.insert("value".into(), value);
    let n = pushed(&mut averaged, constant);
    *averaged.returned.last_mut().unwrap() = pushed(&mut averaged, op("stablehlo.divide", vec![loss, n], scalar));
    assert_eq!(gradient_modes(&averaged, GradientCombine::Auto), (vec![Accumulate::Mean; 2], vec![]));
    assert_eq!(gradient_modes(&averaged, GradientCombine::Mean), (vec![Accumulate::Mean; 2], vec![]));
    let (modes, warnings) = gradient_modes(&averaged, GradientCombine::Sum);
    assert_eq!(modes, vec![Accumulate::Sum; 2]);
    assert!(
        matches!(&warnings[..], [w] if w.contains("a mean over the batch, but gradient-accumulation=sum")),
        "{warnings:?}"
    );
    // A summed loss returned directly beside a mean in the metrics: the sum is the loss, and
    // auto says which result it took, since the mean could be the loss.
    let mut beside_a_mean = tanh_mlp_step(2, 4, 8);
    let loss = *beside_a_mean.returned.last().unwrap();
    beside_a_mean.results.last_mut().unwrap().attrs.insert("jax.result_info".into(), Attr::Str("result[2]".into()));
    let n = pushed(&mut beside_a_mean, averaged.body.ops[averaged.body.ops.len() - 2].clone());
    let scalar = ValueType::Tensor(TensorType::new(vec![], ElementType::f32()));
    returning(&mut beside_a_mean, op("stablehlo.divide", vec![loss, n], scalar), "mean");
    let (modes, warnings) = gradient_modes(&beside_a_mean, GradientCombine::Auto);
    assert_eq!(modes.iter().filter(|m| **m == Accumulate::Sum).count(), 2, "{modes:?}");
    assert!(matches!(&warnings[..], [w] if w.contains("set gradient-accumulation=mean")), "{warnings:?}");
}

#[test]
fn returned_gradients_combine_as_gradients_and_their_norm_is_taken_once_on_the_accumulated_ones() {
    // tanh_mlp_step also returning w0's gradient, the norm of w1's, x^T x (a contraction over
    // the batch of the batch itself, reading no seed: no gradient, a sum) and (x * 0.25)^T x (a
    // contraction of values scaled by a constant that may be 1/count: refused).
    use crate::ir::graph::{Attr, Attrs, Param};
    use crate::ir::test_graphs::{t, tanh_mlp_args, tanh_mlp_gradients, Builder};
    let (depth, batch, width) = (2, 4, 8);
    let weight = t(&[width, width]);
    let mut b = Builder::new();
    let (grads, loss) = tanh_mlp_gradients(&mut b, depth, batch, width, |b, a, g| b.dot(a, g, 0, 0, weight.clone()));
    let mut returned: Vec<ValueRef> =
        (0..depth).map(|k| b.binary("stablehlo.subtract", ValueRef::Arg(k), grads[k], weight.clone())).collect();
    returned.push(loss);
    let squared = b.binary("stablehlo.multiply", grads[1], grads[1], weight.clone());
    let sum = b.sum(squared);
    let norm = b.unary("stablehlo.sqrt", sum, t(&[]));
    let x = ValueRef::Arg(depth);
    let gram = b.dot(x, x, 0, 0, weight.clone());
    let quarter = b.splat(0.25, t(&[batch, width]));
    let scaled = b.binary("stablehlo.multiply", x, quarter, t(&[batch, width]));
    let scaled_gram = b.dot(scaled, x, 0, 0, weight.clone());
    returned.extend([grads[0], norm]);
    let mut g = b.graph(tanh_mlp_args(depth, batch, width), returned.clone());
    let info = |text: &str| Attrs::from([("jax.result_info".to_string(), Attr::Str(text.into()))]);
    g.results[depth].attrs = info("result[1]");
    g.results[depth + 1].attrs = info("result[2]['grad']");
    g.results[depth + 2].attrs = info("result[2]['norm']");
    let step = analyze_train_step(&g).unwrap();
    let stage_of = vec![StageId::new(0); g.ops().len()];
    let p = build_program(&g, &step, &stage_of, 1, 3, Schedule::OneFOneB, GradientCombine::Auto).unwrap();
    let mode = |v: ValueRef| p.accumulated.iter().find(|(w, _)| *w == v).map(|(_, m)| *m);
    // The loss is a sum, and so the gradients add up, the returned one too.
    assert_eq!(mode(grads[0]), Some(Accumulate::Sum));
    let ValueRef::Op { op: norm_op, .. } = norm else { unreachable!() };
    assert_eq!(p.functions[p.function_of_op[norm_op]].kind, FunctionKind::Apply);
    assert_eq!(mode(norm), None, "computed after the accumulation, not accumulated");

    g.returned.push(gram);
    g.results.push(Param { ty: weight.clone(), attrs: info("result[2]['gram']") });
    let step = analyze_train_step(&g).unwrap();
    let p = build_program(&g, &step, &stage_of, 1, 3, Schedule::OneFOneB, GradientCombine::Auto).unwrap();
    assert_eq!(p.accumulated.iter().find(|(w, _)| *w == gram).map(|(_, m)| *m), Some(Accumulate::Sum));
    g.returned.push(scaled_gram);
    g.results.push(Param { ty: weight.clone(), attrs: info("result[2]['scaled_gram']") });
    let step = analyze_train_step(&g).unwrap();
    let e = build_program(&g, &step, &stage_of, 1, 3, Schedule::OneFOneB, GradientCombine::Auto).unwrap_err();
    assert!(matches!(e, ProgramError::Combine { result, .. } if result == g.returned.len() - 1), "{e:?}");
}

#[test]
fn a_norm_of_every_stages_gradients_is_taken_after_the_last_of_them() {
    // Each layer's gradient scaled once on the whole batch's (an apply op of its stage), the
    // updates of the last layer first, then the norm of the scaled gradients: nothing on the
    // way to the new state reads the norm, so it has no anchor. Placed after the op before it
    // (the first layer's update), it read the last stage's apply result before it existed.
    use crate::inter::clustering::{ClusterOptions, LayerCount};
    use crate::inter::layer_assignment::assign_layers;
    use crate::ir::graph::{Attr, Attrs};
    use crate::ir::test_graphs::{t, tanh_mlp_args, tanh_mlp_gradients, Builder};
    use crate::ir::types::{ElementType, TensorType};
    let (depth, batch, width) = (2, 4, 8);
    let weight = t(&[width, width]);
    let mut b = Builder::new();
    let (grads, loss) = tanh_mlp_gradients(&mut b, depth, batch, width, |b, a, g| b.dot(a, g, 0, 0, weight.clone()));
    let value = Attr::FloatScalar { ty: TensorType::new(vec![], ElementType::f32()), value: 0.5 };
    let half = b.op("stablehlo.constant", vec![], t(&[]), Attrs::from([("value".to_string(), value)]));
    let everywhere = Attrs::from([("broadcast_dimensions".to_string(), Attr::I64Array(vec![]))]);
    let halves = b.op("stablehlo.broadcast_in_dim", vec![half], weight.clone(), everywhere);
    let scaled: Vec<ValueRef> =
        grads.iter().map(|g| b.binary("stablehlo.multiply", *g, halves, weight.clone())).collect();
    let mut updates: Vec<ValueRef> =
        (0..depth).rev().map(|k| b.binary("stablehlo.subtract", ValueRef::Arg(k), scaled[k], weight.clone())).collect();
    updates.reverse();
    let squares: Vec<ValueRef> = scaled
        .iter()
        .map(|g| {
            let square = b.binary("stablehlo.multiply", *g, *g, weight.clone());
            b.sum(square)
        })
        .collect();
    let total = b.binary("stablehlo.add", squares[0], squares[1], t(&[]));
    let norm = b.unary("stablehlo.sqrt", total, t(&[]));
    let mut returned = updates;
    returned.extend([loss, norm]);
    let mut g = b.graph(tanh_mlp_args(depth, batch, width), returned);
    let info = |text: &str| Attrs::from([("jax.result_info".to_string(), Attr::Str(text.into()))]);
    g.results[depth].attrs = info("result[1]");
    g.results[depth + 1].attrs = info("result[2]['norm']");
    let step = analyze_train_step(&g).unwrap();
    let options = ClusterOptions { layers: LayerCount::Fixed(depth), delta: 1.0, progress: false };
    let layers = assign_layers(&g, Some(&step), &options).unwrap();
    let stage_of: Vec<StageId> = layers.layer_of.iter().map(|l| StageId::new(l.index())).collect();
    let p = build_program(&g, &step, &stage_of, depth, 2, Schedule::OneFOneB, GradientCombine::Auto).unwrap();
    let ValueRef::Op { op: norm_op, .. } = norm else { unreachable!() };
    let function = &p.functions[p.function_of_op[norm_op]];
    assert_eq!((function.kind, function.stage), (FunctionKind::Apply, StageId::new(1)), "{}", function.symbol());
}

#[test]
fn a_returned_sum_over_the_batch_on_the_way_to_a_parameter_combines_as_the_gradients_do() {
    // Each weight's gradient plus its cotangents summed over the batch (a bias's gradient, the
    // transpose of its broadcast), layer 1's sum also returned; and a statistic the forward
    // does not read, a sum of squared cotangents, as the new value of its own donated argument.
    use crate::ir::graph::{Attr, Attrs, Param};
    use crate::ir::test_graphs::{attrs, t, tanh_mlp_args, tanh_mlp_gradients, Builder};
    let (depth, batch, width) = (2, 4, 8);
    let weight = t(&[width, width]);
    let mut b = Builder::new();
    let seen = std::cell::RefCell::new(Vec::new());
    let (grads, loss) = tanh_mlp_gradients(&mut b, depth, batch, width, |b, a, g| {
        let init = b.scalar_constant();
        let summed = b.reduce_sum(g, init, &[0], t(&[width]));
        seen.borrow_mut().push((g, summed));
        let spread = attrs(&[("broadcast_dimensions", Attr::I64Array(vec![1]))]);
        let rows = b.op("stablehlo.broadcast_in_dim", vec![summed], weight.clone(), spread);
        let contracted = b.dot(a, g, 0, 0, weight.clone());
        b.binary("stablehlo.add", contracted, rows, weight.clone())
    });
    // Built from the last layer back.
    let seen = seen.into_inner();
    let (cotangents, bias_gradient) = (seen[1].0, seen[0].1);
    let squared = b.binary("stablehlo.multiply", cotangents, cotangents, t(&[batch, width]));
    let init = b.scalar_constant();
    let statistic = b.reduce_sum(squared, init, &[0], t(&[width]));
    let mut returned: Vec<ValueRef> =
        (0..depth).map(|k| b.binary("stablehlo.subtract", ValueRef::Arg(k), grads[k], weight.clone())).collect();
    returned.extend([loss, bias_gradient, statistic]);
    let mut args = tanh_mlp_args(depth, batch, width);
    let aliased = Attrs::from([("tf.aliasing_output".to_string(), Attr::Int(depth as i64 + 2))]);
    args.push(Param { ty: t(&[width]), attrs: aliased });
    let mut g = b.graph(args, returned);
    g.results[depth].attrs = Attrs::from([("jax.result_info".to_string(), Attr::Str("result[1]".into()))]);
    let step = analyze_train_step(&g).unwrap();
    let stage_of = vec![StageId::new(0); g.ops().len()];
    let p = build_program(&g, &step, &stage_of, 1, 2, Schedule::OneFOneB, GradientCombine::Mean).unwrap();
    let mode = |v: ValueRef| p.accumulated.iter().find(|(w, _)| *w == v).map(|(_, m)| *m);
    assert_eq!(mode(bias_gradient), Some(Accumulate::Mean), "a gradient, averaged as gradient-accumulation=mean says");
    assert_eq!(mode(statistic), Some(Accumulate::Sum), "no parameter's gradient: a sum over the batch");
}

#[test]
fn returned_values_per_example_are_concatenated_along_their_batch_dimension() {
    // tanh_mlp_step(2, 4, 8) with its batch input x [4, 8] squared and returned (the batch in
    // dimension 0), transposed (in dimension 1) and reversed along the batch (moved: refused).
    use crate::ir::graph::Attr;
    use crate::ir::test_graphs::t;
    let mut g = tanh_mlp_step(2, 4, 8);
    let x = ValueRef::Arg(2);
    let squared = returning(&mut g, op("stablehlo.multiply", vec![x, x], t(&[4, 8])), "squared");
    let mut transpose = op("stablehlo.transpose", vec![squared], t(&[8, 4]));
    transpose.attrs.insert("permutation".into(), Attr::I64Array(vec![1, 0]));
    let columns = returning(&mut g, transpose, "columns");
    let modes = accumulation_modes(&g, 3);
    assert_eq!(mode_in(&modes, squared), Some(Accumulate::Concatenate { dim: 0 }));
    assert_eq!(mode_in(&modes, columns), Some(Accumulate::Concatenate { dim: 1 }));

    let mut reverse = op("stablehlo.reverse", vec![squared], t(&[4, 8]));
    reverse.attrs.insert("dimensions".into(), Attr::I64Array(vec![0]));
    let flipped = returning(&mut g, reverse, "flipped");
    let step = analyze(&g).unwrap();
    let stage_of = vec![StageId::new(0); g.ops().len()];
    let e = build_program(&g, &step, &stage_of, 1, 3, Schedule::OneFOneB, GradientCombine::Mean).unwrap_err();
    let ProgramError::Combine { op, result, why } = e else { panic!("{e:?}") };
    assert_eq!((ValueRef::Op { op: op.index(), result: 0 }, result), (flipped, g.returned.len() - 1));
    assert!(why.contains("moved along it"), "{why}");
}

#[test]
fn a_warning_repeated_at_one_place_is_given_once() {
    // tanh_mlp_step(2, 4, 8)'s batch x [4, 8] weighted by its positions (an iota over the
    // batch) three times: twice at one source line (a layer a loop unrolled), once elsewhere.
    use crate::ir::graph::Attr;
    use crate::ir::test_graphs::t;
    let mut g = tanh_mlp_step(2, 4, 8);
    for (k, place) in ["dropout.py:107", "dropout.py:107", "mixup.py:3"].into_iter().enumerate() {
        let mut positions = op("stablehlo.iota", vec![], t(&[4, 8]));
        positions.attrs.insert("iota_dimension".into(), Attr::Int(0));
        let positions = pushed(&mut g, positions);
        let mut weighted = op("stablehlo.multiply", vec![ValueRef::Arg(2), positions], t(&[4, 8]));
        weighted.location = place.into();
        returning(&mut g, weighted, &format!("weighted{k}"));
    }
    let step = analyze(&g).unwrap();
    let stage_of = vec![StageId::new(0); g.ops().len()];
    let p = build_program(&g, &step, &stage_of, 1, 3, Schedule::OneFOneB, GradientCombine::Mean).unwrap();
    let places: Vec<&str> = p
        .warnings
        .iter()
        .filter(|(_, message)| message.contains("their positions in the microbatch"))
        .map(|(op, _)| g.ops()[op.index()].location.as_str())
        .collect();
    assert_eq!(places, ["dropout.py:107", "mixup.py:3"]);
}

/// Where a ratio-of-sums step divides its gradients by the loss's denominator.
#[derive(Clone, Copy)]
enum RatioGradients {
    /// The gradients of the ratio: the cotangents divided by it, as the backward pass does.
    OfTheRatio,
    /// The numerator's gradients, divided in the update (`grad(sum) / n`).
    DividedInTheUpdate,
}

/// tanh_mlp_step(2, 4, 8) whose loss is its sum of squares divided by `sum(mask)` (or
/// `max(sum(mask), 1)` when `guarded`), the mask a batch input [4], its gradients divided by
/// that denominator as `gradients` says: the graph, the mask's sum and the denominator.
fn masked_mean_step(gradients: RatioGradients, guarded: bool) -> (crate::ir::graph::Graph, ValueRef, ValueRef) {
    use crate::ir::graph::{Attr, Attrs, Param};
    use crate::ir::test_graphs::{attrs, t, tanh_mlp_args, tanh_mlp_gradients, Builder};
    let (depth, batch, width) = (2, 4, 8);
    let mut b = Builder::new();
    let mut args = tanh_mlp_args(depth, batch, width);
    args.push(Param { ty: t(&[batch]), attrs: Attrs::new() });
    let total = b.sum(ValueRef::Arg(args.len() - 1));
    let denominator = if guarded {
        b.ops.push(f32_constant(1.0));
        let one = ValueRef::Op { op: b.ops.len() - 1, result: 0 };
        b.binary("stablehlo.maximum", total, one, t(&[]))
    } else {
        total
    };
    let everywhere = attrs(&[("broadcast_dimensions", Attr::I64Array(vec![]))]);
    let spread = |b: &mut Builder, ty| b.op("stablehlo.broadcast_in_dim", vec![denominator], ty, everywhere.clone());
    let (grads, squares) = tanh_mlp_gradients(&mut b, depth, batch, width, |b, a, g| {
        let g = match gradients {
            RatioGradients::OfTheRatio => {
                let divisor = spread(b, t(&[batch, width]));
                b.binary("stablehlo.divide", g, divisor, t(&[batch, width]))
            }
            RatioGradients::DividedInTheUpdate => g,
        };
        b.dot(a, g, 0, 0, t(&[width, width]))
    });
    let loss = b.binary("stablehlo.divide", squares, denominator, t(&[]));
    let mut returned: Vec<ValueRef> = grads
        .iter()
        .enumerate()
        .map(|(k, grad)| {
            let step = match gradients {
                RatioGradients::OfTheRatio => *grad,
                RatioGradients::DividedInTheUpdate => {
                    let divisor = spread(&mut b, t(&[width, width]));
                    b.binary("stablehlo.divide", *grad, divisor, t(&[width, width]))
                }
            };
            b.binary("stablehlo.subtract", ValueRef::Arg(k), step, t(&[width, width]))
        })
        .collect();
    returned.push(loss);
    (b.graph(args, returned), total, denominator)
}

#[test]
fn a_loss_that_is_a_ratio_of_sums_combines_by_its_denominators() {
    use crate::inter::weighted_loss::{DenominatorStep, WeightedLoss};
    let (g, total, denominator) = masked_mean_step(RatioGradients::OfTheRatio, true);
    let step = analyze(&g).unwrap();
    let stage_of = vec![StageId::new(0); g.ops().len()];
    let plan = |combine| build_program(&g, &step, &stage_of, 1, 3, Schedule::OneFOneB, combine).unwrap();
    let p = plan(GradientCombine::Auto);
    let ValueRef::Op { op: maximum, .. } = denominator else { unreachable!() };
    assert_eq!(
        p.weighted_loss,
        Some(WeightedLoss {
            weights: total,
            denominator,
            steps: vec![DenominatorStep { op: maximum, from: 0 }],
            nonnegative: false
        })
    );
    // The loss and the gradients the apply function reads, by their denominators; unwarned.
    let loss = *g.returned.last().unwrap();
    assert_eq!(mode_in(&p.accumulated, loss), Some(Accumulate::WeightedMean { of: Ratio::Loss }));
    assert!(
        p.accumulated.len() > 1
            && p.accumulated.iter().all(|(_, m)| *m == Accumulate::WeightedMean { of: Ratio::Loss }),
        "{:?}",
        p.accumulated
    );
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    // The microbatches' functions return the weights and the denominator.
    for v in [total, denominator] {
        assert!(p.functions.iter().any(|f| f.kind != FunctionKind::Apply && f.outputs.contains(&v)), "{v:?}");
    }
    // gradient-accumulation=mean, as set: averaged, and warned about as before.
    let averaged = plan(GradientCombine::Mean);
    assert_eq!(averaged.weighted_loss, None);
    assert_eq!(mode_in(&averaged.accumulated, loss), Some(Accumulate::Mean));
    assert!(averaged.warnings.iter().any(|(_, m)| m.contains("neither a sum nor a mean")));
}

#[test]
fn gradients_of_the_numerator_divided_in_the_update_add_up() {
    // grad(sum) / sum(mask) in the update: the numerator's gradients and the mask's sum, which
    // the update divides, add up over the microbatches; only the loss combines by the
    // denominators.
    let (g, ..) = masked_mean_step(RatioGradients::DividedInTheUpdate, false);
    let step = analyze(&g).unwrap();
    let stage_of = vec![StageId::new(0); g.ops().len()];
    let p = build_program(&g, &step, &stage_of, 1, 3, Schedule::OneFOneB, GradientCombine::Auto).unwrap();
    let loss = *g.returned.last().unwrap();
    assert_eq!(mode_in(&p.accumulated, loss), Some(Accumulate::WeightedMean { of: Ratio::Loss }));
    let others: Vec<Accumulate> = p.accumulated.iter().filter(|(v, _)| *v != loss).map(|(_, m)| *m).collect();
    // Two gradients and the two spreads of the count the update divides them by.
    assert!(others.len() == 4 && others.iter().all(|m| *m == Accumulate::Sum), "{:?}", p.accumulated);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    // Divided by max(sum(mask), 1): the microbatches' guarded counts add up to no global one;
    // combined as the gradients, and warned about at the update's reading.
    let (g, _, denominator) = masked_mean_step(RatioGradients::DividedInTheUpdate, true);
    let step = analyze(&g).unwrap();
    let stage_of = vec![StageId::new(0); g.ops().len()];
    let p = build_program(&g, &step, &stage_of, 1, 3, Schedule::OneFOneB, GradientCombine::Auto).unwrap();
    let ValueRef::Op { op: maximum, .. } = denominator else { unreachable!() };
    let warned: Vec<usize> = p
        .warnings
        .iter()
        .filter(|(_, m)| m.contains("carries neither the loss's 1/denominator"))
        .map(|(op, _)| op.index())
        .collect();
    assert!(!warned.is_empty() && warned.iter().all(|&op| op > maximum), "{:?}", p.warnings);
}

#[test]
fn a_returned_metric_that_is_a_ratio_of_sums_combines_by_its_own_denominators() {
    // The masked-mean step under a plain sum loss, returning `sum(mask) / max(sum(mask), 1)`
    // (a masked accuracy's form: a sum over the batch by a guarded sum of weights that come
    // from the batch inputs alone): combined by its denominators, its weights and denominator
    // returned by the microbatches' function.
    use crate::inter::weighted_loss::{DenominatorStep, WeightedLoss};
    use crate::ir::types::{ElementType, TensorType, ValueType};
    let (mut g, total, denominator) = masked_mean_step(RatioGradients::DividedInTheUpdate, true);
    let scalar = ValueType::Tensor(TensorType::new(vec![], ElementType::f32()));
    let metric = returning(&mut g, op("stablehlo.divide", vec![total, denominator], scalar), "masked_accuracy");
    // Before the loss, which stays the last float scalar (the loss when no result is named so).
    let last = g.returned.len() - 1;
    g.returned.swap(last - 1, last);
    g.results.swap(last - 1, last);
    let step = analyze(&g).unwrap();
    let stage_of = vec![StageId::new(0); g.ops().len()];
    let p = build_program(&g, &step, &stage_of, 1, 3, Schedule::OneFOneB, GradientCombine::Auto).unwrap();
    let ValueRef::Op { op: maximum, .. } = denominator else { unreachable!() };
    let ratio = WeightedLoss {
        weights: total,
        denominator,
        steps: vec![DenominatorStep { op: maximum, from: 0 }],
        nonnegative: false,
    };
    assert_eq!(p.ratio_metrics, vec![ratio]);
    assert_eq!(mode_in(&p.accumulated, metric), Some(Accumulate::WeightedMean { of: Ratio::Metric(0) }));
    for v in [total, denominator] {
        assert!(p.functions.iter().any(|f| f.kind != FunctionKind::Apply && f.outputs.contains(&v)), "{v:?}");
    }
}

/// A scale's gradient is the sum over the examples of two values per example multiplied
/// (`sum(dy * h)`, as an RMSNorm's or LayerNorm's scale has). Here `h` and `dy` are `[4, 4]`,
/// the type of the weight `w` too (a [batch, seq, hidden] activation and a [heads, head_dim,
/// hidden] kernel can coincide so): the product is computed per microbatch all the same, and only
/// its sum over the examples is combined. Combined first and multiplied once, the gradient is
/// the product of the microbatches' means, not the mean of their products.
#[test]
fn a_product_of_values_per_example_of_a_states_type_is_computed_per_microbatch() {
    assert_scale_gradient_per_microbatch(false);
}

/// As `jax.checkpoint` recomputes a layer: `h`, `dy` and the weight pass through an
/// `optimization_barrier` first, whose results are each of its own class.
#[test]
fn a_product_of_values_per_example_carried_through_a_barrier_is_computed_per_microbatch() {
    assert_scale_gradient_per_microbatch(true);
}

fn assert_scale_gradient_per_microbatch(through_barrier: bool) {
    use crate::ir::graph::{Attr, Attrs, Param};
    use crate::ir::test_graphs::{attrs, donated, t, Builder};
    let (w, s, x) = (ValueRef::Arg(0), ValueRef::Arg(1), ValueRef::Arg(2));
    let act = t(&[4, 4]);
    let mut b = Builder::new();
    let h = b.dot(x, w, 1, 0, act.clone());
    let scale = b.op(
        "stablehlo.broadcast_in_dim",
        vec![s],
        act.clone(),
        attrs(&[("broadcast_dimensions", Attr::I64Array(vec![1]))]),
    );
    let y = b.binary("stablehlo.multiply", h, scale, act.clone());
    let squares = b.binary("stablehlo.multiply", y, y, act.clone());
    let loss = b.sum(squares);
    let dy = b.binary("stablehlo.add", y, y, act.clone());
    let (w_again, h_again, dy_again) = if through_barrier {
        let types = vec![act.clone(); 3];
        let carried = b.ops_results("stablehlo.optimization_barrier", vec![w, h, dy], types, Attrs::new());
        (carried[0], carried[1], carried[2])
    } else {
        (w, h, dy)
    };
    let per_example = b.binary("stablehlo.multiply", dy_again, h_again, act.clone());
    let init = b.scalar_constant();
    let ds = b.reduce_sum(per_example, init, &[0], t(&[4]));
    let dh = b.binary("stablehlo.multiply", dy_again, scale, act.clone());
    let dw = b.dot(x, dh, 0, 0, act.clone());
    let new_w = b.binary("stablehlo.subtract", w_again, dw, act.clone());
    let new_s = b.binary("stablehlo.subtract", s, ds, t(&[4]));
    let args = vec![
        Param { ty: act.clone(), ..donated(0) },
        Param { ty: t(&[4]), ..donated(1) },
        Param { ty: act.clone(), attrs: Attrs::new() },
    ];
    let g = b.graph(args, vec![new_w, new_s, loss]);
    let p = one_stage(&g, 2).unwrap();
    let kind_of = |v: ValueRef| {
        let ValueRef::Op { op, .. } = v else { unreachable!() };
        p.functions[p.function_of_op[op]].kind
    };
    assert_eq!(kind_of(per_example), FunctionKind::Backward);
    assert_eq!(kind_of(ds), FunctionKind::Backward);
    assert_eq!(kind_of(new_s), FunctionKind::Apply);
    assert!(p.accumulated.iter().any(|(v, _)| *v == ds), "{:?}", p.accumulated);
    assert!(p.accumulated.iter().all(|(v, _)| ![dy, h, dy_again, h_again].contains(v)), "{:?}", p.accumulated);
}
