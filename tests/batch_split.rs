//! Splitting the real train steps' global batch into microbatches (`microbatches=auto`,
//! `split-batch=true`).
//!
//! When this was written, each split below was compared op by op with a fresh JAX export of
//! the same model at the smaller batch (`python -m alpa_mlir.export gpt --preset tiny --batch 2`,
//! ...): every live value had the same type; only a few broadcasts nothing reads kept the old
//! batch (the split cannot see a batch in a value no op uses). The checks here are what holds
//! without the second export.

mod common;
use common::fixture_graph as graph;

use alpa_mlir::ir::batch_split::{batch_dims, split_batch, split_with, BatchSplitError};
use alpa_mlir::ir::cost::op_cost;
use alpa_mlir::ir::graph::Graph;
use alpa_mlir::ir::train_step::analyze;

fn total_flops(g: &Graph, phase_ok: impl Fn(usize) -> bool) -> f64 {
    (0..g.ops().len())
        .filter(|&i| phase_ok(i))
        .map(|i| op_cost(&g.ops()[i], &g.operand_tensors(i)).unwrap().flops as f64)
        .sum()
}

#[test]
fn the_fixtures_split_into_microbatches() {
    // (file, global batch, every B that must split)
    for (name, batch, parts) in [
        ("gpt_tiny.mlir", 4, vec![2, 4]),
        ("mlp.mlir", 32, vec![2, 4, 32]),
        ("wresnet_tiny.mlir", 8, vec![2, 8]),
        // 8 x 16 tokens in gating groups of 32: at most 4 microbatches keep whole groups.
        ("moe_tiny.mlir", 8, vec![2, 4]),
    ] {
        let g = graph(name);
        let dims = batch_dims(&g).unwrap();
        assert_eq!(dims.global_batch, batch, "{name}");
        assert!(!dims.inputs.is_empty());
        let step = analyze(&g).unwrap();
        let forward = |i: usize| step.phase[i] == alpa_mlir::ir::train_step::Phase::Forward;
        let full = total_flops(&g, forward);
        for &b in &parts {
            let s = split_with(&g, &dims, b).unwrap_or_else(|e| panic!("{name} into {b}: {e}"));
            assert_eq!(s.ops().len(), g.ops().len());
            for (a, (x, y)) in g.args.iter().zip(&s.args).enumerate() {
                if dims.inputs.contains(&a) {
                    let (x, y) = (x.ty.tensor().unwrap(), y.ty.tensor().unwrap());
                    assert_eq!(y.shape[0] * b, x.shape[0], "{name}: input {a}");
                    assert_eq!(y.shape[1..], x.shape[1..]);
                } else {
                    assert_eq!(x, y, "{name}: argument {a} (parameters and optimizer state) stays");
                }
            }
            // The forward pass works on the examples: its FLOPs shrink by about B (a few ops
            // on parameters alone, e.g. casts, do not).
            let ratio = full / total_flops(&s, forward);
            assert!(ratio > 0.9 * b as f64 && ratio <= b as f64 * 1.0001, "{name} into {b}: forward FLOPs / {ratio}");
            // The train step is still one: the same phases.
            assert_eq!(analyze(&s).unwrap().phase, step.phase, "{name}");
        }
    }
    assert!(matches!(
        split_batch(&graph("gpt_tiny.mlir"), 3),
        Err(BatchSplitError::NotDivisible { batch: 4, parts: 3 })
    ));
    // MoE: 8 microbatches of one example (16 tokens) cannot fill a gating group of 32.
    let err = split_batch(&graph("moe_tiny.mlir"), 8).unwrap_err();
    assert!(matches!(err, BatchSplitError::Op { .. } | BatchSplitError::Invalid(_)), "{err}");
}
