//! The graph view built from real MLIR: types, donation attributes, regions, constants.

use alpa_mlir::ir::graph::{Attr, ValueRef};
use alpa_mlir::ir::types::{ElementType, ValueType};
use alpa_mlir::passes::entry::{find_entry, DEFAULT_ENTRY};
use alpa_mlir::passes::inline::inline_into_entry;
use alpa_mlir::passes::read_graph::read_function;
use alpa_mlir::passes::standalone::ParsedModule;
use std::path::Path;

const ELEMENT_TYPES: &str = r#"
func.func @main(%a: tensor<2xi1>, %b: tensor<2xi4>, %c: tensor<2xi8>, %d: tensor<2xi16>, %e: tensor<2xi32>,
                %f: tensor<2xi64>, %g: tensor<2xui4>, %h: tensor<2xui8>, %i: tensor<2xui16>, %j: tensor<2xui32>,
                %k: tensor<2xui64>, %l: tensor<2xf8E4M3FN>, %m: tensor<2xf8E5M2>, %n: tensor<2xf8E4M3FNUZ>,
                %o: tensor<2xf8E5M2FNUZ>, %p: tensor<2xf8E4M3B11FNUZ>, %q: tensor<2xbf16>, %r: tensor<2xf16>,
                %s: tensor<2xf32>, %t: tensor<2xf64>, %u: tensor<2xcomplex<f32>>, %v: tensor<2xcomplex<f64>>,
                %w: tensor<2xf4E2M1FN>, %x: tensor<2xf8E8M0FNU>, %y: !stablehlo.token) -> tensor<2xf32> {
  return %s : tensor<2xf32>
}
"#;

/// The graph view of the entry of a module in MLIR text.
fn graph_of(text: &str) -> alpa_mlir::ir::graph::Graph {
    let module = ParsedModule::parse_text(text).expect("parses");
    let entry = find_entry(module.operation(), DEFAULT_ENTRY).expect("entry");
    read_function(entry).expect("reads").graph
}

#[test]
fn every_stablehlo_element_type_is_read() {
    let graph = graph_of(ELEMENT_TYPES);
    let read: Vec<(String, u32)> =
        graph.args.iter().filter_map(|a| a.ty.tensor().map(|t| (t.element.to_string(), t.element.bits()))).collect();
    let expected = [
        ("i1", 8),
        ("i4", 4),
        ("i8", 8),
        ("i16", 16),
        ("i32", 32),
        ("i64", 64),
        ("ui4", 4),
        ("ui8", 8),
        ("ui16", 16),
        ("ui32", 32),
        ("ui64", 64),
        ("f8E4M3FN", 8),
        ("f8E5M2", 8),
        ("f8E4M3FNUZ", 8),
        ("f8E5M2FNUZ", 8),
        ("f8E4M3B11FNUZ", 8),
        ("bf16", 16),
        ("f16", 16),
        ("f32", 32),
        ("f64", 64),
        ("complex<f32>", 64),
        ("complex<f64>", 128),
        ("f4E2M1FN", 4),
        ("f8E8M0FNU", 8),
    ];
    let expected: Vec<(String, u32)> = expected.iter().map(|(n, b)| (n.to_string(), *b)).collect();
    assert_eq!(read, expected);
    assert_eq!(graph.args.last().unwrap().ty, ValueType::Token);
    assert!(graph
        .args
        .iter()
        .all(|a| !matches!(&a.ty, ValueType::Tensor(t) if matches!(t.element, ElementType::Other { .. }))));
}

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("lit-tests/inputs").join(name)
}

#[test]
fn gpt_train_step_reads_as_one_function_with_donation_and_regions() {
    let module = ParsedModule::parse_file(&fixture("gpt_tiny.mlir")).expect("parses");
    let entry = find_entry(module.operation(), DEFAULT_ENTRY).expect("entry");
    let stats = inline_into_entry(module.operation(), entry).expect("inlines");
    assert!(stats.calls_inlined > 0 && stats.functions_erased > 0);
    let graph = read_function(entry).expect("reads").graph;

    // (params, Adam state..., batch) -> (new state..., loss): state is donated to the outputs.
    assert_eq!(graph.args.len(), 87);
    let donated: Vec<usize> = graph.args.iter().filter_map(|a| a.aliased_output()).collect();
    assert_eq!(donated.len(), 85);
    for (index, arg) in graph.args.iter().enumerate() {
        if let Some(aliased) = arg.aliased_output() {
            assert_eq!(graph.results[aliased].ty, arg.ty, "argument {index} aliases a result of its own type");
        }
    }
    assert_eq!(graph.returned.len(), graph.results.len());

    // Every operand refers to an earlier op or an argument (topological order, no dangling refs).
    for (index, op) in graph.ops().iter().enumerate() {
        assert!(op.name != "func.call", "no call is left after inlining");
        for operand in &op.operands {
            match *operand {
                ValueRef::Op { op: producer, result } => {
                    assert!(producer < index);
                    assert!(result < graph.ops()[producer].results.len());
                }
                ValueRef::Arg(i) => assert!(i < graph.args.len()),
                ValueRef::Outer => panic!("top-level op {} captures a value", op.name),
            }
        }
    }

    // Reduce bodies are kept with their op, with typed block arguments and a terminator.
    let reduce = graph.ops().iter().find(|op| op.name == "stablehlo.reduce").expect("a reduce");
    let body = &reduce.regions[0].blocks[0];
    assert_eq!(body.args.len(), 2 * (reduce.operands.len() / 2));
    assert_eq!(body.terminator.as_ref().unwrap().name, "stablehlo.return");

    // Constants keep their type, never their payload, but for rank-0 integers (loop counters,
    // bounds, indices) and finite rank-0 floats (a mean's divisor), which keep their value;
    // opaque attributes keep their text.
    let constants: Vec<_> = graph.ops().iter().filter(|op| op.name == "stablehlo.constant").collect();
    assert!(constants.iter().any(|c| matches!(c.attr("value"), Some(Attr::Elements { .. }))));
    for c in &constants {
        match c.attr("value") {
            Some(Attr::IntScalar { ty, .. }) => assert!(ty.shape.is_empty()),
            Some(Attr::FloatScalar { ty, value }) => assert!(ty.shape.is_empty() && value.is_finite()),
            Some(Attr::Elements { ty, .. }) => assert!(!ty.shape.is_empty() || ty.element.is_float(), "{ty}"),
            other => panic!("constant value {other:?}"),
        }
    }
    let dot = graph.ops().iter().find(|op| op.name == "stablehlo.dot_general").unwrap();
    match dot.attr("dot_dimension_numbers") {
        Some(Attr::Opaque { dialect, data }) => {
            assert_eq!(dialect, "stablehlo");
            assert!(data.starts_with("dot<"), "{data}");
        }
        other => panic!("dot_dimension_numbers read as {other:?}"),
    }
}

const CONSTANTS: &str = r#"
func.func @main() -> (tensor<2xbf16>, tensor<3xi1>, tensor<2xui8>, tensor<2xi32>, tensor<3xi8>, tensor<2xf32>,
                      tensor<17xi32>, tensor<2xf32>, tensor<2xcomplex<f32>>, tensor<2xf16>, tensor<i1>) {
  %0 = "stablehlo.constant"() <{value = dense<2.5> : tensor<2xbf16>}> : () -> tensor<2xbf16>
  %1 = "stablehlo.constant"() <{value = dense<true> : tensor<3xi1>}> : () -> tensor<3xi1>
  %2 = "stablehlo.constant"() <{value = dense<200> : tensor<2xui8>}> : () -> tensor<2xui8>
  %3 = "stablehlo.constant"() <{value = dense<[2, 8]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %4 = "stablehlo.constant"() <{value = dense<[-1, 0, 7]> : tensor<3xi8>}> : () -> tensor<3xi8>
  %5 = "stablehlo.constant"() <{value = dense<[0.5, 4.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %6 = "stablehlo.constant"() <{value = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]> : tensor<17xi32>}> : () -> tensor<17xi32>
  %7 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<2xf32>}> : () -> tensor<2xf32>
  %8 = "stablehlo.constant"() <{value = dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>}> : () -> tensor<2xcomplex<f32>>
  %9 = "stablehlo.constant"() <{value = dense<[1.0, 2.0]> : tensor<2xf16>}> : () -> tensor<2xf16>
  %10 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<2xbf16>, tensor<3xi1>, tensor<2xui8>, tensor<2xi32>, tensor<3xi8>, tensor<2xf32>, tensor<17xi32>, tensor<2xf32>, tensor<2xcomplex<f32>>, tensor<2xf16>, tensor<i1>
}
"#;

#[test]
fn constants_keep_the_numbers_of_a_splat_of_any_type_or_of_a_few_elements() {
    let graph = graph_of(CONSTANTS);
    let values: Vec<Option<Vec<f64>>> = graph
        .ops()
        .iter()
        .map(|op| match op.attr("value") {
            Some(Attr::Elements { values, .. }) => values.clone(),
            Some(Attr::IntScalar { value, .. }) => Some(vec![*value as f64]),
            other => panic!("{other:?}"),
        })
        .collect();
    let expected = [
        Some(vec![2.5]),
        Some(vec![1.0]),
        Some(vec![200.0]),
        Some(vec![2.0, 8.0]),
        Some(vec![-1.0, 0.0, 7.0]),
        Some(vec![0.5, 4.0]),
        // More than 16 elements, a non-finite splat, complex and f16 lists keep no numbers.
        None,
        None,
        None,
        None,
        Some(vec![1.0]),
    ];
    assert_eq!(values, expected);
}
