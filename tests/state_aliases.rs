//! A step exported without donation gets the same state as the same step with it: on every
//! committed train-step fixture, the pairs recognised from data flow alone (no names) are
//! exactly the `tf.aliasing_output` pairs JAX wrote.

mod common;

use alpa_mlir::ir::state_aliases::{declared, recognise, resolve, AliasSource, DonationPolicy};

const TRAIN_STEPS: &[&str] = &[
    "mlp.mlir",
    "mlp_dp.mlir",
    "gpt_tiny.mlir",
    "gpt_tiny_remat.mlir",
    "gpt_batch.mlir",
    "gpt_pipeline.mlir",
    "moe_tiny.mlir",
    "wresnet_tiny.mlir",
    "wresnet_pipeline.mlir",
];

#[test]
fn recognised_state_equals_the_declared_donation_on_every_fixture() {
    for name in TRAIN_STEPS {
        let mut graph = common::fixture_graph(name);
        let expected = declared(&graph);
        assert!(!expected.is_empty(), "{name}: the fixture donates its state");
        for arg in &mut graph.args {
            arg.attrs.remove("tf.aliasing_output");
        }
        let unnamed = vec![None; graph.args.len()];
        assert_eq!(recognise(&graph, &unnamed), expected, "{name}");
        let auto = resolve(&graph, &unnamed, &DonationPolicy::Auto).unwrap();
        assert_eq!((auto.pairs, auto.source), (expected, AliasSource::Recognised), "{name}");
    }
}

#[test]
fn the_module_donation_wins_under_auto_and_explicit_pairs_are_checked() {
    let graph = common::fixture_graph("mlp.mlir");
    let unnamed = vec![None; graph.args.len()];
    let auto = resolve(&graph, &unnamed, &DonationPolicy::Auto).unwrap();
    assert_eq!(auto.source, AliasSource::Module);
    assert_eq!(auto.pairs, declared(&graph));
    // Argument 0 (a bias) and result 1 (a kernel) differ in type.
    let err = resolve(&graph, &unnamed, &DonationPolicy::Explicit(vec![(0, 1)])).unwrap_err();
    assert!(err.message.contains("differs") && err.argument == Some(0), "{err}");
    let err = resolve(&graph, &unnamed, &DonationPolicy::Explicit(vec![(0, 10_000)])).unwrap_err();
    assert!(err.message.contains("out of range"), "{err}");
    let err = resolve(&graph, &unnamed, &DonationPolicy::Explicit(vec![(0, 0), (0, 0)])).unwrap_err();
    assert!(err.message.contains("repeats"), "{err}");
}

#[test]
fn the_loss_of_a_step_whose_hyperparameters_are_arguments_stays_the_loss() {
    // torch_xla passes Python scalars as f32 scalar arguments; label smoothing's weight of the
    // smoothed term scales the loss through elementwise ops, as a state reaches its update.
    let mut graph = common::graph_at(std::path::Path::new("python/tests/data/torch_cnn_b4.mlir"));
    let unnamed = vec![None; graph.args.len()];
    let pairs = recognise(&graph, &unnamed);
    let loss = graph.results.len() - 1;
    assert!(pairs.iter().all(|&(_, r)| r != loss), "{pairs:?}");
    // Every other result: 6 parameters and their 6 momentum buffers.
    assert_eq!(pairs.len(), loss, "{pairs:?}");
    let auto = resolve(&graph, &unnamed, &DonationPolicy::Auto).unwrap();
    alpa_mlir::ir::state_aliases::apply(&mut graph, &auto);
    let step = alpa_mlir::ir::train_step::analyze(&graph).expect("a train step");
    assert_eq!(step.loss, loss);
}
