//! The weight-update sharding rewrite on small train steps built by hand.

use crate::cluster::{Collective, DeviceMesh, MeshAxes};
use crate::intra::memory::peak_memory;
use crate::intra::options::IntraOptions;
use crate::intra::plan::IntraPlan;
use crate::intra::plan_cost::ALL_REDUCE_TIE_BREAK;
use crate::intra::planner::plan_intra_op;
use crate::ir::graph::{Attr, Attrs, Block, Graph, OpId, OpNode, Param, ValueRef};
use crate::ir::op_table::test_util::{add_body, f32t, ints, op, opaque};
use crate::ir::types::ValueType;
use crate::sharding::strategy::{CollectiveUse, StrategyOptions};

const W: usize = 0; // parameter [16, 8], aliased to result 0
const M: usize = 1; // momentum [16, 8], aliased to result 1
const X: usize = 2; // batch [1024, 16]

const DW: usize = 3;
const SCALE_M: usize = 6;
const NEW_M: usize = 7;
const STEP: usize = 10;
const NEW_W: usize = 11;

fn v(op: usize) -> ValueRef {
    ValueRef::Op { op, result: 0 }
}

fn with(mut node: OpNode, operands: Vec<ValueRef>) -> OpNode {
    node.operands = operands;
    node
}

fn scalar_broadcast(scalar: usize) -> OpNode {
    with(op("stablehlo.broadcast_in_dim", &[f32t(&[16, 8])], &[("broadcast_dimensions", ints(&[]))]), vec![v(scalar)])
}

fn elementwise(name: &str, operands: Vec<ValueRef>) -> OpNode {
    with(op(name, &[f32t(&[16, 8])], &[]), operands)
}

fn donated(output: i64) -> Attrs {
    let mut attrs = Attrs::new();
    attrs.insert("tf.aliasing_output".into(), Attr::Int(output));
    attrs
}

/// `loss = sum(x @ w)`, `dw = x^T @ (x @ w)`, momentum SGD: `m' = 0.9 m + dw`,
/// `w' = w - 0.1 m'`. Returns (w', m', loss).
fn momentum_step() -> Graph {
    let contract_batch = "dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>";
    let matmul = "dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>";
    let mut reduce = op("stablehlo.reduce", &[f32t(&[])], &[("dimensions", ints(&[0, 1]))]);
    reduce.regions = vec![add_body()];
    let ops = vec![
        with(
            op("stablehlo.dot_general", &[f32t(&[1024, 8])], &[("dot_dimension_numbers", opaque(matmul))]),
            vec![ValueRef::Arg(X), ValueRef::Arg(W)],
        ),
        op("stablehlo.constant", &[f32t(&[])], &[]),
        with(reduce, vec![v(0), v(1)]),
        with(
            op("stablehlo.dot_general", &[f32t(&[16, 8])], &[("dot_dimension_numbers", opaque(contract_batch))]),
            vec![ValueRef::Arg(X), v(0)],
        ),
        op("stablehlo.constant", &[f32t(&[])], &[]),
        scalar_broadcast(4),
        elementwise("stablehlo.multiply", vec![v(5), ValueRef::Arg(M)]),
        elementwise("stablehlo.add", vec![v(SCALE_M), v(DW)]),
        op("stablehlo.constant", &[f32t(&[])], &[]),
        scalar_broadcast(8),
        elementwise("stablehlo.multiply", vec![v(9), v(NEW_M)]),
        elementwise("stablehlo.subtract", vec![ValueRef::Arg(W), v(STEP)]),
    ];
    let t = |shape: &[i64]| ValueType::Tensor(f32t(shape));
    let param = |ty: ValueType, attrs: Attrs| Param { ty, attrs };
    Graph {
        func_name: "main".into(),
        args: vec![param(t(&[16, 8]), donated(0)), param(t(&[16, 8]), donated(1)), param(t(&[1024, 16]), Attrs::new())],
        results: vec![param(t(&[16, 8]), Attrs::new()), param(t(&[16, 8]), Attrs::new()), param(t(&[]), Attrs::new())],
        body: Block { args: vec![t(&[16, 8]), t(&[16, 8]), t(&[1024, 16])], ops, terminator: None },
        returned: vec![v(NEW_W), v(NEW_M), v(2)],
    }
}

fn options(shape: [usize; 2], prefer_reduce_scatter: bool) -> IntraOptions {
    IntraOptions {
        // Data parallelism, as in the paper's setting for this rewrite: the batch on axis 0.
        strategy: StrategyOptions { force_batch_dim_to_mesh_dim: Some(0), ..StrategyOptions::default() },
        prefer_reduce_scatter,
        ..IntraOptions::on_mesh(DeviceMesh::abstract_units(shape, [1.0, 1.0], [1.0, 1.0]).unwrap())
    }
}

fn plan(graph: &Graph, shape: [usize; 2], prefer_reduce_scatter: bool) -> IntraPlan {
    plan_intra_op(graph, &options(shape, prefer_reduce_scatter)).unwrap()
}

fn spec(plan: &IntraPlan, value: ValueRef) -> String {
    let strategy = match value {
        ValueRef::Arg(i) => plan.args[i].as_ref().unwrap(),
        ValueRef::Op { op, .. } => &plan.ops[op],
        ValueRef::Outer => unreachable!(),
    };
    strategy.result_specs[0].as_ref().unwrap().to_string()
}

/// Every collective of the plan (strategies and reshardings), sorted.
fn collectives(plan: &IntraPlan) -> Vec<(Collective, MeshAxes, u64)> {
    let strategies = plan.args.iter().flatten().chain(&plan.ops).flat_map(|s| s.collectives.iter());
    let reshardings = plan.moves.iter().map(|m| &m.collective);
    let mut out: Vec<_> = strategies.chain(reshardings).map(|c: &CollectiveUse| (c.kind, c.axes, c.bytes)).collect();
    out.sort_by_key(|&(k, a, b)| (format!("{k:?}"), format!("{a:?}"), b));
    out
}

#[test]
fn a_data_parallel_gradient_is_reduce_scattered_and_the_momentum_sharded() {
    let graph = momentum_step();
    let plain = plan(&graph, [4, 1], false);
    let zero = plan(&graph, [4, 1], true);
    // The ILP's plan is data parallel: dw (16x8 f32 = 512 B) is all-reduced over axis 0.
    assert_eq!(plain.ops[DW].name, "RR = S0R x S0R @ allreduce{0}");
    assert!(plain.weight_update.is_empty());
    assert_eq!(
        collectives(&plain),
        vec![(Collective::AllReduce, MeshAxes::Axis0, 4), (Collective::AllReduce, MeshAxes::Axis0, 512)]
    );

    // (1) the all-reduce becomes a reduce-scatter onto dw's larger dim.
    assert_eq!(zero.ops[DW].name, "S0R = S0R x S0R @ reducescatter{0}");
    // (2) the update math runs on the scattered layout; (3) so does the momentum, in and out.
    for value in [v(SCALE_M), v(NEW_M), v(STEP), ValueRef::Arg(M)] {
        assert_eq!(spec(&zero, value), "S0R", "{value:?}");
    }
    // (4) the new parameter keeps the parameter's layout: one all-gather restores it.
    assert_eq!(spec(&zero, v(NEW_W)), "RR");
    assert_eq!(spec(&zero, ValueRef::Arg(W)), spec(&plain, ValueRef::Arg(W)));
    let [gather] = zero.reshardings.as_slice() else { panic!("{:#?}", zero.reshardings) };
    assert_eq!(
        (gather.op.index(), gather.operand, gather.from.to_string(), gather.to.to_string()),
        (NEW_W, 1, "S0R".into(), "RR".into())
    );
    // The loss' all-reduce is not a gradient's: it stays.
    assert_eq!(
        collectives(&zero),
        vec![
            (Collective::AllGather, MeshAxes::Axis0, 512),
            (Collective::AllReduce, MeshAxes::Axis0, 4),
            (Collective::ReduceScatter, MeshAxes::Axis0, 512),
        ]
    );
    let w = &zero.weight_update;
    assert_eq!((w.gradients.len(), w.gradients[0].op.index(), w.gradients[0].dim), (1, DW, 0));
    assert_eq!(w.update_ops, [SCALE_M, NEW_M, STEP].map(OpId::new));
    assert_eq!(w.optimizer_states, vec![M]);

    // Same volume: 2(n-1)/n B = (n-1)/n B + (n-1)/n B; one more latency, no tie-break.
    let alpha = 1.0;
    let extra = alpha - ALL_REDUCE_TIE_BREAK * alpha;
    assert!((zero.objective - plain.objective - extra).abs() < 1e-9, "{} vs {}", zero.objective, plain.objective);
    assert!(
        (zero.communication_cost + zero.resharding_cost - plain.communication_cost - plain.resharding_cost - extra)
            .abs()
            < 1e-9
    );
    // Memory is measured as the solver measured it, and goes down: dw, m, m' and the step
    // are a quarter as large (3 x 384 B here; the scattered dw shares its node's peak).
    assert_eq!(peak_memory(&graph, &plain), plain.peak_memory_bytes);
    assert!(
        zero.peak_memory_bytes < plain.peak_memory_bytes,
        "{} vs {}",
        zero.peak_memory_bytes,
        plain.peak_memory_bytes
    );
}

#[test]
fn the_rewrite_is_deterministic_and_off_by_default() {
    let graph = momentum_step();
    let a = plan(&graph, [4, 1], true);
    let b = plan(&graph, [4, 1], true);
    assert_eq!(a.ops, b.ops);
    assert_eq!(a.args, b.args);
    let plain = plan(&graph, [4, 1], false);
    assert_eq!(plan(&graph, [4, 1], false).ops, plain.ops);
}

/// The plan with and without the option agree on every strategy; `all_reduced`: the plan does
/// all-reduce dw (so the case is not trivially unchanged).
fn unchanged(graph: &Graph, shape: [usize; 2], all_reduced: bool) {
    let plain = plan(graph, shape, false);
    let has = plain.ops[DW].collectives.iter().any(|c| c.kind == Collective::AllReduce);
    assert_eq!(has, all_reduced, "{}", plain.ops[DW].name);
    let zero = plan(graph, shape, true);
    assert!(zero.weight_update.is_empty());
    assert_eq!(zero.ops, plain.ops);
    assert_eq!(zero.args, plain.args);
    assert_eq!(zero.objective, plain.objective);
}

#[test]
fn nothing_to_scatter_leaves_the_plan_alone() {
    // One device: no all-reduce at all.
    unchanged(&momentum_step(), [1, 1], false);
    // Not a train step (no scalar loss): no update phase to shard.
    let mut graph = momentum_step();
    graph.results.pop();
    graph.returned.pop();
    unchanged(&graph, [4, 1], true);
    // The gradient is also returned: its layout is part of the function's contract.
    let mut graph = momentum_step();
    graph.results.push(graph.results[0].clone());
    graph.returned.push(v(DW));
    unchanged(&graph, [4, 1], true);
    // A dim the axis does not divide: dw is 6x5 on 4 devices.
    unchanged(&odd_step(), [4, 1], true);
}

#[test]
fn a_gradient_only_the_parameter_update_reads_is_not_scattered() {
    // Plain SGD `w' = w - dw`: the only reader of dw defines the new parameter and keeps its
    // layout, so a reduce-scatter would just be all-gathered again.
    let mut graph = momentum_step();
    graph.body.ops[NEW_W].operands = vec![ValueRef::Arg(W), v(DW)];
    // Drop the momentum: nothing else reads dw.
    graph.body.ops[NEW_M].operands = vec![v(SCALE_M), v(SCALE_M)];
    unchanged(&graph, [4, 1], true);
}

/// `momentum_step` with a 6x5 parameter and gradient.
fn odd_step() -> Graph {
    let mut graph = momentum_step();
    let resize = |t: &mut ValueType| {
        if let ValueType::Tensor(t) = t {
            if t.shape == [16, 8] {
                t.shape = vec![6, 5];
            } else if t.shape == [1024, 16] {
                t.shape = vec![1024, 6];
            } else if t.shape == [1024, 8] {
                t.shape = vec![1024, 5];
            }
        }
    };
    graph.args.iter_mut().for_each(|p| resize(&mut p.ty));
    graph.results.iter_mut().for_each(|p| resize(&mut p.ty));
    graph.body.args.iter_mut().for_each(resize);
    for node in &mut graph.body.ops {
        node.results.iter_mut().for_each(resize);
    }
    graph
}
