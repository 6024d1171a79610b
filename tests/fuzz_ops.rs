//! Fuzzing the reader, the verifier, the op table and strategy enumeration: random single-op
//! modules (ops the table knows and ops it does not, random operand and result shapes, element
//! types and attributes, well-formed and garbage) are parsed, read, costed and enumerated on a
//! 2x4 mesh. Anything may be rejected with a diagnostic or an error; nothing may panic, abort
//! or hang (each case runs on a thread with a generous limit, so a hang fails the case).

use alpa_mlir::cluster::DeviceMesh;
use alpa_mlir::intra::options::IntraOptions;
use alpa_mlir::intra::strategy_problem::strategy_problem;
use alpa_mlir::ir::cost::op_cost;
use alpa_mlir::ir::verify::verify_op;
use alpa_mlir::passes::entry::{find_entry, DEFAULT_ENTRY};
use alpa_mlir::passes::read_graph::read_function;
use alpa_mlir::passes::standalone::ParsedModule;
use proptest::prelude::*;
use std::time::Duration;

const OPS: &[&str] = &[
    "add",
    "multiply",
    "negate",
    "maximum",
    "compare",
    "select",
    "clamp",
    "convert",
    "transpose",
    "reshape",
    "broadcast_in_dim",
    "broadcast",
    "dot_general",
    "dot",
    "convolution",
    "reduce",
    "reduce_window",
    "slice",
    "dynamic_slice",
    "dynamic_update_slice",
    "concatenate",
    "pad",
    "gather",
    "scatter",
    "iota",
    "reverse",
    "sort",
    "while",
    "case",
    "constant",
    "custom_call",
    "rng_bit_generator",
    "fft",
    "cholesky",
    "tuple",
    "bitcast_convert",
    "select_and_scatter",
    "batch_norm_training",
    "optimization_barrier",
    "unknown_op",
];

const ELEMENTS: &[&str] = &["f32", "bf16", "f16", "f64", "i1", "i8", "i32", "i64", "ui8", "complex<f32>"];

/// Attributes drawn from what StableHLO ops carry, with wrong and extreme values among them.
const ATTRS: &[&str] = &[
    "permutation = array<i64: 1, 0>",
    "permutation = array<i64: 0, 0>",
    "permutation = array<i64: 5, -1>",
    "broadcast_dimensions = array<i64: 0, 1>",
    "broadcast_dimensions = array<i64: 9>",
    "dimensions = array<i64: 0>",
    "dimensions = array<i64: -3, 7>",
    "dimension = 1 : i64",
    "dimension = -1 : i64",
    "iota_dimension = 0 : i64",
    "iota_dimension = 99 : i64",
    "start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 2>, strides = array<i64: 1, 1>",
    "start_indices = array<i64: 3, 0>, limit_indices = array<i64: 1, 9>, strides = array<i64: 0, -1>",
    "slice_sizes = array<i64: 1, 2>",
    "slice_sizes = array<i64: 100, -2>",
    "edge_padding_low = array<i64: 1, 1>, edge_padding_high = array<i64: 1, 1>, interior_padding = array<i64: 0, 0>",
    "edge_padding_low = array<i64: -9, 1>, edge_padding_high = array<i64: 1>, interior_padding = array<i64: -1, 0>",
    "window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 1>",
    "window_dimensions = array<i64: 0, 99>, window_strides = array<i64: 0, 0>",
    "comparison_direction = #stablehlo<comparison_direction LT>",
    "comparison_direction = #stablehlo<comparison_direction XX>",
    "dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>",
    "dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>",
    "dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [7], rhs_contracting_dimensions = [-1]>",
    "dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>",
    "dimension_numbers = #stablehlo.gather<offset_dims = [5], start_index_map = [3]>",
    "dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, window_strides = array<i64: 1, 1>, feature_group_count = 1 : i64, batch_group_count = 1 : i64",
    "dimension_numbers = #stablehlo.conv<[b, f]x[i, o]->[b, f]>, feature_group_count = 0 : i64, batch_group_count = -2 : i64",
    "dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 9>",
    "dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>",
    "padding = dense<1> : tensor<2x2xi64>, rhs_dilation = array<i64: 2, 1>, lhs_dilation = array<i64: 1, 3>",
    "padding = dense<[[-5, 1], [0, 99]]> : tensor<2x2xi64>, window_reversal = array<i1: true, false>",
    "padding = dense<0> : tensor<3x2xi64>, rhs_dilation = array<i64: 0, -1>, base_dilations = array<i64: 0, 2>",
    "call_target_name = \"Sharding\"",
    "fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 4>",
    "value = dense<1.0> : tensor<2x2xf32>",
    "precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]",
    "epsilon = 1.0e-5 : f32, feature_index = 1 : i64",
    "garbage = #stablehlo.dot<lhs_contracting_dimensions = [1]",
];

/// A tensor type; dimensions are small, zero, or past what u64 products hold.
fn tensor_type() -> impl Strategy<Value = String> {
    let dim = prop_oneof![4 => 0u64..6, 1 => Just(0u64), 1 => Just(1u64 << 40), 1 => Just(i64::MAX as u64)];
    (prop::collection::vec(dim, 0..5), prop::sample::select(ELEMENTS)).prop_map(|(dims, element)| {
        let shape: String = dims.iter().map(|d| format!("{d}x")).collect();
        format!("tensor<{shape}{element}>")
    })
}

/// The op's regions: none, or blocks returning their first argument (while, case, reduce).
fn regions() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just(
            r#" ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  })"#
            .to_string()
        ),
        Just(
            r#" ({
    "stablehlo.return"() : () -> ()
  }, {
    "stablehlo.return"() : () -> ()
  })"#
            .to_string()
        ),
    ]
}

fn module() -> impl Strategy<Value = String> {
    (
        prop::sample::select(OPS),
        prop::collection::vec(tensor_type(), 0..4),
        prop::collection::vec(tensor_type(), 0..3),
        prop::collection::vec(prop::sample::select(ATTRS), 0..3),
        regions(),
    )
        .prop_map(|(op, operands, results, attrs, regions)| {
            let args: Vec<String> = operands.iter().enumerate().map(|(i, t)| format!("%a{i}: {t}")).collect();
            let names: Vec<String> = (0..operands.len()).map(|i| format!("%a{i}")).collect();
            let attrs = if attrs.is_empty() { String::new() } else { format!(" {{{}}}", attrs.join(", ")) };
            let result_list = results.join(", ");
            let (bind, returned) = match results.len() {
                0 => (String::new(), String::new()),
                1 => ("%r = ".to_string(), format!("%r : {result_list}")),
                n => (format!("%r:{n} = "), {
                    let values: Vec<String> = (0..n).map(|i| format!("%r#{i}")).collect();
                    format!("{} : {result_list}", values.join(", "))
                }),
            };
            format!(
                "func.func @main({}) -> ({result_list}) {{\n  {bind}\"stablehlo.{op}\"({}){regions}{attrs} : ({}) -> ({result_list})\n  return {returned}\n}}\n",
                args.join(", "),
                names.join(", "),
                operands.join(", "),
            )
        })
}

/// Parses, reads, costs and enumerates `text`; errors are fine, panics are not.
fn exercise(text: &str) {
    let Ok(module) = ParsedModule::parse_text(text) else { return };
    let Ok(entry) = find_entry(module.operation(), DEFAULT_ENTRY) else { return };
    // The reader runs the verifier on every op; an op it lets through must cost without error.
    let Ok(read) = read_function(entry) else { return };
    let graph = &read.graph;
    for (index, op) in graph.ops().iter().enumerate() {
        let operands = graph.operand_tensors(index);
        assert_eq!(verify_op(op, &operands), Ok(()), "the reader let through an op the verifier rejects");
        if let Err(e) = op_cost(op, &operands) {
            panic!("verified op fails to cost: {e}");
        }
    }
    let mesh = DeviceMesh::abstract_units([2, 4], [1.0, 1.0], [1.0, 0.1]).expect("2x4 mesh");
    let options = IntraOptions::on_mesh(mesh);
    let _ = strategy_problem(graph, &options);
}

/// Runs `exercise` on a thread: a panic or a case running past the limit fails the test.
fn exercise_in_time(text: String) -> Result<(), String> {
    let (send, receive) = std::sync::mpsc::channel();
    let case = text.clone();
    std::thread::spawn(move || {
        let outcome = std::panic::catch_unwind(|| exercise(&case));
        let _ = send.send(outcome.is_ok());
    });
    match receive.recv_timeout(Duration::from_secs(60)) {
        Ok(true) => Ok(()),
        Ok(false) => Err(format!("panicked on\n{text}")),
        Err(_) => Err(format!("no answer within 60 s on\n{text}")),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]
    #[test]
    fn random_single_op_modules_never_panic_or_hang(text in module()) {
        if let Err(e) = exercise_in_time(text) {
            prop_assert!(false, "{}", e);
        }
    }
}
