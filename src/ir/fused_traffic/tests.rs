use super::*;
use crate::ir::graph::{Attr, Attrs, Graph, Param};
use crate::ir::test_graphs::{attrs, t, Builder};
use crate::rng::SplitMix64;

const S: u64 = 64 * 64 * 4; // one f32 64x64 tensor

fn args(n: usize) -> Vec<Param> {
    (0..n).map(|_| Param { ty: t(&[64, 64]), attrs: Attrs::new() }).collect()
}

fn traffic(g: &Graph) -> Vec<u64> {
    fused_traffic(&g.body, &g.returned)
}

#[test]
fn an_elementwise_chain_is_one_kernel_reading_its_inputs_once() {
    let mut b = Builder::new();
    let e = b.unary("stablehlo.exponential", ValueRef::Arg(0), t(&[64, 64]));
    let a = b.binary("stablehlo.add", e, ValueRef::Arg(1), t(&[64, 64]));
    let g = b.graph(args(2), vec![a]);
    assert_eq!(traffic(&g), vec![0, 3 * S]);
}

#[test]
fn a_contractions_operand_is_written_then_read() {
    let mut b = Builder::new();
    let h = b.unary("stablehlo.tanh", ValueRef::Arg(0), t(&[64, 64]));
    let d = b.dot(h, ValueRef::Arg(1), 1, 0, t(&[64, 64]));
    let g = b.graph(args(2), vec![d]);
    assert_eq!(traffic(&g), vec![2 * S, 3 * S]);
}

#[test]
fn a_reductions_producers_run_inside_it() {
    let mut b = Builder::new();
    let m = b.binary("stablehlo.multiply", ValueRef::Arg(0), ValueRef::Arg(0), t(&[64, 64]));
    let r = b.sum(m);
    let g = b.graph(args(1), vec![r]);
    // multiply, the init constant, reduce: x read once, the init's 4 bytes, 4 bytes written.
    assert_eq!(traffic(&g), vec![0, 0, S + 4 + 4]);
}

#[test]
fn reshapes_and_transposes_are_free_views() {
    let mut b = Builder::new();
    let r = b.unary("stablehlo.reshape", ValueRef::Arg(0), t(&[64, 64]));
    let tr = b.unary("stablehlo.transpose", r, t(&[64, 64]));
    let d = b.dot(tr, ValueRef::Arg(1), 1, 0, t(&[64, 64]));
    let g = b.graph(args(2), vec![d]);
    assert_eq!(traffic(&g), vec![0, 0, 3 * S]);
}

#[test]
fn a_returned_view_of_a_fused_value_puts_the_value_in_memory() {
    let mut b = Builder::new();
    let e = b.unary("stablehlo.exponential", ValueRef::Arg(0), t(&[64, 64]));
    let r = b.unary("stablehlo.reshape", e, t(&[64, 64]));
    let g = b.graph(args(1), vec![r]);
    assert_eq!(traffic(&g), vec![2 * S, 0]);
}

#[test]
fn a_slice_reads_only_its_part() {
    let mut b = Builder::new();
    let slice = attrs(&[
        ("start_indices", Attr::I64Array(vec![0, 0])),
        ("limit_indices", Attr::I64Array(vec![32, 64])),
        ("strides", Attr::I64Array(vec![1, 1])),
    ]);
    let s = b.op("stablehlo.slice", vec![ValueRef::Arg(0)], t(&[32, 64]), slice);
    let e = b.unary("stablehlo.exponential", s, t(&[32, 64]));
    let g = b.graph(args(1), vec![e]);
    assert_eq!(traffic(&g), vec![0, S / 2 + S / 2]);
}

/// `x + y` read by `readers` reductions.
fn sum_read_by(readers: usize) -> Vec<u64> {
    let mut b = Builder::new();
    let a = b.binary("stablehlo.add", ValueRef::Arg(0), ValueRef::Arg(1), t(&[64, 64]));
    let sums: Vec<ValueRef> = (0..readers).map(|_| b.sum(a)).collect();
    traffic(&b.graph(args(2), sums))
}

#[test]
fn a_value_read_by_many_kernels_is_written_once_when_that_moves_fewer_bytes() {
    // Two reductions: fused into both, x and y are read twice (4S) instead of read once,
    // written and read twice (2S + 3S).
    let two = sum_read_by(2);
    assert_eq!(two[0], 0);
    assert_eq!(two.iter().sum::<u64>(), 2 * (2 * S + 8));
    // Five: fused 10S against 2S + 6S.
    let five = sum_read_by(5);
    assert_eq!(five[0], 3 * S);
    assert_eq!(five.iter().sum::<u64>(), 3 * S + 5 * (S + 8));
}

#[test]
fn chlo_elementwise_ops_fuse_and_top_k_is_a_kernel() {
    let mut b = Builder::new();
    let sq = b.unary("chlo.square", ValueRef::Arg(0), t(&[64, 64]));
    let e = b.unary("chlo.erf", sq, t(&[64, 64]));
    let k = b.unary("chlo.top_k", e, t(&[64, 64]));
    let g = b.graph(args(1), vec![k]);
    // square and erf run in one kernel that writes erf's result for top_k, which reads it.
    assert_eq!(traffic(&g), vec![0, 2 * S, 2 * S]);
}

#[test]
fn an_unknown_dialects_op_is_a_kernel() {
    let mut b = Builder::new();
    let c = b.unary("mydialect.thing", ValueRef::Arg(0), t(&[64, 64]));
    // An op the op table does not know, in stablehlo's dialect too: a kernel, not fused.
    let d = b.unary("stablehlo.some_future_op", c, t(&[64, 64]));
    let g = b.graph(args(1), vec![d]);
    assert_eq!(traffic(&g), vec![2 * S, 2 * S]);
}

/// Each op its own kernel: it reads each distinct operand once and writes its results.
fn unfused(g: &Graph) -> Vec<u64> {
    g.body
        .ops
        .iter()
        .map(|op| {
            let mut operands = op.operands.clone();
            operands.sort_by_key(|v| format!("{v:?}"));
            operands.dedup();
            let read: u64 = operands.iter().map(|v| g.value_type(*v).map_or(0, |t| t.byte_size())).sum();
            read + op.results.iter().map(|t| t.byte_size()).sum::<u64>()
        })
        .collect()
}

/// A random step-like graph: elementwise ops, contractions and reductions over 64x64 values.
fn random_graph(rng: &mut SplitMix64, kernels_only: bool) -> Graph {
    let mut b = Builder::new();
    let mut values: Vec<ValueRef> = (0..3).map(ValueRef::Arg).collect();
    for _ in 0..(3 + rng.below(25)) {
        let x = values[rng.below(values.len())];
        let y = values[rng.below(values.len())];
        let v = match rng.below(if kernels_only { 1 } else { 5 }) {
            0 => b.dot(x, y, 1, 0, t(&[64, 64])),
            1 => b.unary("stablehlo.tanh", x, t(&[64, 64])),
            2 => b.binary("stablehlo.add", x, y, t(&[64, 64])),
            3 => b.unary("stablehlo.transpose", x, t(&[64, 64])),
            _ => {
                let s = b.sum(x);
                b.op("stablehlo.broadcast_in_dim", vec![s], t(&[64, 64]), Attrs::new())
            }
        };
        values.push(v);
    }
    let returned: Vec<ValueRef> = (0..1 + rng.below(3)).map(|_| values[3 + rng.below(values.len() - 3)]).collect();
    b.graph(args(3), returned)
}

#[test]
fn with_every_op_a_kernel_the_traffic_is_each_ops_reads_and_writes() {
    let mut rng = SplitMix64::new(7);
    for _ in 0..300 {
        let g = random_graph(&mut rng, true);
        assert_eq!(traffic(&g), unfused(&g));
    }
}

#[test]
fn fusion_moves_no_more_bytes_than_running_every_op_alone() {
    let mut rng = SplitMix64::new(11);
    for case in 0..2000 {
        let g = random_graph(&mut rng, false);
        let (fused, alone) = (traffic(&g), unfused(&g));
        assert!(fused.iter().sum::<u64>() <= alone.iter().sum::<u64>(), "case {case}: {fused:?} vs {alone:?}");
        // Only kernels and values put in memory are charged: views never are.
        for (i, op) in g.body.ops.iter().enumerate() {
            if op.name == "stablehlo.transpose" {
                assert_eq!(fused[i], 0, "case {case}");
            }
        }
    }
}

fn launches(g: &Graph) -> Vec<bool> {
    fused_kernels(&g.body, &g.returned).launches
}

#[test]
fn a_kernel_is_launched_for_each_value_written_to_memory_and_nothing_else() {
    // An elementwise chain: one kernel, its last op's.
    let mut b = Builder::new();
    let e = b.unary("stablehlo.exponential", ValueRef::Arg(0), t(&[64, 64]));
    let a = b.binary("stablehlo.add", e, ValueRef::Arg(1), t(&[64, 64]));
    assert_eq!(launches(&b.graph(args(2), vec![a])), vec![false, true]);
    // A contraction's operand: its producer's kernel, then the contraction's.
    let mut b = Builder::new();
    let h = b.unary("stablehlo.tanh", ValueRef::Arg(0), t(&[64, 64]));
    let d = b.dot(h, ValueRef::Arg(1), 1, 0, t(&[64, 64]));
    assert_eq!(launches(&b.graph(args(2), vec![d])), vec![true, true]);
    // A reduction with its producer inside it; the init constant is no kernel.
    let mut b = Builder::new();
    let m = b.binary("stablehlo.multiply", ValueRef::Arg(0), ValueRef::Arg(0), t(&[64, 64]));
    let r = b.sum(m);
    assert_eq!(launches(&b.graph(args(1), vec![r])), vec![false, false, true]);
    // Views launch nothing.
    let mut b = Builder::new();
    let r = b.unary("stablehlo.reshape", ValueRef::Arg(0), t(&[64, 64]));
    let tr = b.unary("stablehlo.transpose", r, t(&[64, 64]));
    let d = b.dot(tr, ValueRef::Arg(1), 1, 0, t(&[64, 64]));
    assert_eq!(launches(&b.graph(args(2), vec![d])), vec![false, false, true]);
}

#[test]
fn contractions_and_reductions_are_always_launched_views_never() {
    let mut rng = SplitMix64::new(13);
    for _ in 0..300 {
        let g = random_graph(&mut rng, true);
        assert!(launches(&g).iter().all(|&l| l), "with every op a kernel, each is launched");
    }
    for case in 0..500 {
        let g = random_graph(&mut rng, false);
        for (i, launched) in launches(&g).into_iter().enumerate() {
            match g.body.ops[i].name.as_str() {
                "stablehlo.dot_general" | "stablehlo.reduce" => assert!(launched, "case {case}, op {i}"),
                "stablehlo.transpose" | "stablehlo.constant" => assert!(!launched, "case {case}, op {i}"),
                _ => {}
            }
        }
    }
}
