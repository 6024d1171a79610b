//! The train-step structure recovered from real JAX exports.

mod common;
use common::fixture_graph as graph;

use alpa_mlir::ir::op_table::is_heavy;
use alpa_mlir::ir::train_step::{analyze, live_ops as live, Phase};

fn heavy_by_phase(
    name: &str,
) -> (usize, usize, usize, alpa_mlir::ir::train_step::TrainStep, alpa_mlir::ir::graph::Graph) {
    let g = graph(name);
    let step = analyze(&g).unwrap();
    let count = |p: Phase| g.ops().iter().zip(&step.phase).filter(|(op, ph)| **ph == p && is_heavy(op)).count();
    (count(Phase::Forward), count(Phase::Backward), count(Phase::Update), step, g)
}

#[test]
fn mlp_step_has_six_forward_and_eleven_backward_matmuls() {
    // 6 Dense layers: 6 forward matmuls; backward: 6 weight gradients + 5 input gradients.
    let (forward, backward, update, step, g) = heavy_by_phase("mlp.mlir");
    assert_eq!((forward, backward, update), (6, 11, 0));
    // Each backward matmul goes with the forward matmul it is the transpose of: layer k's
    // weight gradient and input gradient both read layer k's input or weight.
    let dots: Vec<usize> = (0..g.ops().len()).filter(|&i| is_heavy(&g.ops()[i])).collect();
    let forward_dots: Vec<usize> = dots.iter().copied().filter(|&i| step.phase[i] == Phase::Forward).collect();
    let mut per_forward_dot = vec![0; forward_dots.len()];
    for &d in dots.iter().filter(|&&i| step.phase[i] == Phase::Backward) {
        let k = forward_dots.iter().position(|&f| Some(f) == step.anchor[d]).expect("anchored at a forward matmul");
        per_forward_dot[k] += 1;
    }
    assert_eq!(per_forward_dot, vec![1, 2, 2, 2, 2, 2], "layer 1 needs no input gradient");
    assert_eq!(step.loss, g.results.len() - 1, "JAX returns the loss last");
    // Every live op is placed with a forward op (JAX leaves a few dead ops in).
    let live = live(&g);
    assert!(step.anchor.iter().zip(&live).all(|(a, l)| a.is_some() || !l));
    // Each weight update lands with the forward matmul that reads that weight.
    for (arg, param) in g.args.iter().enumerate() {
        let Some(out) = param.aliased_output() else { continue };
        let alpa_mlir::ir::graph::ValueRef::Op { op, .. } = g.returned[out] else { continue };
        if step.phase[op] != Phase::Update {
            continue;
        }
        let first_use = (0..g.ops().len()).find(|&i| {
            step.phase[i] == Phase::Forward && g.ops()[i].operands.contains(&alpa_mlir::ir::graph::ValueRef::Arg(arg))
        });
        if first_use.is_some() {
            assert_eq!(step.anchor[op], first_use, "update of argument {arg}");
        }
    }
}

#[test]
fn transformer_steps_split_into_forward_backward_update() {
    for name in ["gpt_tiny.mlir", "moe_tiny.mlir", "wresnet_tiny.mlir"] {
        let (forward, backward, _, step, g) = heavy_by_phase(name);
        let live = live(&g);
        assert!(forward > 0 && backward >= forward, "{name}: {forward} forward and {backward} backward heavy ops");
        let updates = step.phase.iter().filter(|p| **p == Phase::Update).count();
        assert!(updates > 0, "{name}: an optimizer update exists");
        // Every live backward op is placed with a forward op.
        for (i, (phase, anchor)) in step.phase.iter().zip(&step.anchor).enumerate() {
            if *phase == Phase::Backward && live[i] {
                assert!(
                    anchor.is_some_and(|a| step.phase[a] == Phase::Forward),
                    "{name}: backward op {i} anchored at {anchor:?}"
                );
            }
        }
    }
}
