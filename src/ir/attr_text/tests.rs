//! Parser tests: examples, malformed inputs, and print/parse round trips.

use super::*;
use proptest::prelude::*;

#[test]
fn parses_dot_with_batch_and_contracting_dims() {
    let d = DotDimensionNumbers::parse(
        "dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], \
         lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>",
    )
    .unwrap();
    assert_eq!(d.lhs_batching_dimensions, vec![0]);
    assert_eq!(d.rhs_batching_dimensions, vec![0]);
    assert_eq!(d.lhs_contracting_dimensions, vec![2]);
    assert_eq!(d.rhs_contracting_dimensions, vec![1]);
}

#[test]
fn dot_accepts_omitted_fields_prefix_and_odd_whitespace() {
    let d = DotDimensionNumbers::parse(
        "#stablehlo.dot<\n  lhs_contracting_dimensions=[1],rhs_contracting_dimensions = [ 0 ]  >",
    )
    .unwrap();
    assert!(d.lhs_batching_dimensions.is_empty());
    assert_eq!(d.lhs_contracting_dimensions, vec![1]);
    assert_eq!(d.to_string(), "dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>");
    assert_eq!(DotDimensionNumbers::parse("dot<>").unwrap(), DotDimensionNumbers::default());
}

#[test]
fn malformed_dots_are_errors_naming_the_attribute() {
    for bad in [
        "",
        "dot",
        "dot<",
        "dot<lhs_contracting_dimensions = [1>",
        "dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = []>",
        "dot<lhs_contracting_dimensions = 1, rhs_contracting_dimensions = 0>",
        "dot<lhs_contracting_dimensions = [1], lhs_contracting_dimensions = [1]>",
        "dot<lhs_contracting_dimensions = [-1], rhs_contracting_dimensions = [0]>",
        "dot<lhs_batching_dimensions = [1], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>",
        "dot<lhs_contracting_dims = [1]>",
        "dot<lhs_contracting_dimensions = [99999999999999999999]>",
        "dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]> extra",
        "conv<lhs_contracting_dimensions = [1]>",
        "dot<lhs_contracting_dimensions = [1]; rhs_contracting_dimensions = [0]>",
    ] {
        let err = DotDimensionNumbers::parse(bad).unwrap_err();
        assert_eq!(err.attr, "dot", "{bad}");
        assert!(err.to_string().contains("#stablehlo.dot"), "{err}");
    }
}

#[test]
fn parses_compact_conv() {
    let d = ConvDimensionNumbers::parse("conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>").unwrap();
    assert_eq!(
        d,
        ConvDimensionNumbers {
            input_batch_dimension: 0,
            input_feature_dimension: 3,
            input_spatial_dimensions: vec![1, 2],
            kernel_input_feature_dimension: 2,
            kernel_output_feature_dimension: 3,
            kernel_spatial_dimensions: vec![0, 1],
            output_batch_dimension: 0,
            output_feature_dimension: 3,
            output_spatial_dimensions: vec![1, 2],
        }
    );
    assert_eq!(d.to_string(), "conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>");
    // NCHW / OIHW, spatial dims out of order.
    let d = ConvDimensionNumbers::parse("#stablehlo.conv<[b,f,1,0]x[o,i,0,1]->[b,f,0,1]>").unwrap();
    assert_eq!(d.input_spatial_dimensions, vec![3, 2]);
    assert_eq!(d.kernel_output_feature_dimension, 0);
    assert_eq!(d.kernel_input_feature_dimension, 1);
    assert_eq!(d.output_spatial_dimensions, vec![2, 3]);
}

#[test]
fn parses_raw_conv() {
    let text = "conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], \
                kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], \
                output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>";
    let raw = ConvDimensionNumbers::parse(text).unwrap();
    let compact = ConvDimensionNumbers::parse("conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>").unwrap();
    assert_eq!(raw, compact);
    assert_eq!(ConvDimensionNumbers::parse(&raw.to_raw_string()).unwrap(), raw);
}

#[test]
fn malformed_convs_are_errors() {
    for bad in [
        "conv<[b, 0, f]x[0, i, o]>",
        "conv<[b, 0, f]x[0, i, o]->[b, 0]>",
        "conv<[b, 0, f]x[0, i, o]->[b, 0, 1, f]>",
        "conv<[b, 0, 0, f]x[0, 1, i, o]->[b, 0, 1, f]>",
        "conv<[b, b, 0, f]x[0, i, o]->[b, 0, f]>",
        "conv<[b, 1, f]x[1, i, o]->[b, 1, f]>",
        "conv<[b, 0, f][0, i, o]->[b, 0, f]>",
        "conv<[b, 0, q]x[0, i, o]->[b, 0, f]>",
        "conv<[b, 0, f]x[0, i, o]->[b, 0, f]",
        "conv<raw input_batch_dimension = 0>",
        "conv<raw input_batch_dimension = [0]>",
        "conv<[b, 0, 70, f]x[0, i, o]->[b, 0, f]>",
        "conv<[b, 0, -1, f]x[0, i, o]->[b, 0, f]>",
    ] {
        let err = ConvDimensionNumbers::parse(bad).unwrap_err();
        assert_eq!(err.attr, "conv", "{bad}");
    }
}

#[test]
fn parses_gather_and_scatter() {
    let g = GatherDimensionNumbers::parse(
        "gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>",
    )
    .unwrap();
    assert_eq!(g.offset_dims, vec![1]);
    assert_eq!(g.collapsed_slice_dims, vec![0]);
    assert_eq!(g.start_index_map, vec![0]);
    assert_eq!(g.index_vector_dim, 1);
    assert!(g.operand_batching_dims.is_empty());
    assert_eq!(GatherDimensionNumbers::parse(&g.to_string()).unwrap(), g);

    let s = ScatterDimensionNumbers::parse(
        "scatter<update_window_dims = [1], inserted_window_dims = [0], input_batching_dims = [2], \
         scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>",
    )
    .unwrap();
    assert_eq!(s.update_window_dims, vec![1]);
    assert_eq!(s.input_batching_dims, vec![2]);
    assert_eq!(s.scatter_indices_batching_dims, vec![0]);
    assert_eq!(s.index_vector_dim, 2);
    // Gather's names for the batching fields are accepted too.
    let alias = ScatterDimensionNumbers::parse(
        "scatter<update_window_dims = [1], inserted_window_dims = [0], operand_batching_dims = [2], \
         start_indices_batching_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>",
    )
    .unwrap();
    assert_eq!(alias, s);
}

#[test]
fn malformed_gathers_and_scatters_are_errors() {
    for bad in [
        "gather<offset_dims = [1, 1], start_index_map = [0], index_vector_dim = 1>",
        "gather<offset_dims = [1], operand_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>",
        "gather<offset_dims = [1], collapsed_slice_dims = [0], operand_batching_dims = [0], start_indices_batching_dims = [0], index_vector_dim = 1>",
        "gather<offset_dims = [1], index_vector_dim = [1]>",
        "scatter<offset_dims = [1], index_vector_dim = 1>",
    ] {
        assert_eq!(GatherDimensionNumbers::parse(bad).unwrap_err().attr, "gather", "{bad}");
    }
    for bad in [
        "scatter<input_batching_dims = [0], operand_batching_dims = [0], scatter_indices_batching_dims = [0], index_vector_dim = 1>",
        "scatter<update_window_dims = [1], index_vector_dim = -1>",
        "scatter<input_batching_dims = [0], scatter_indices_batching_dims = [1], index_vector_dim = 1>",
    ] {
        assert_eq!(ScatterDimensionNumbers::parse(bad).unwrap_err().attr, "scatter", "{bad}");
    }
}

#[test]
fn omitted_integer_fields_are_zero_as_stablehlo_prints_them() {
    // `jnp.take(v, i, axis=0)`: index_vector_dim = 0 is left out by StableHLO's printer.
    let g = GatherDimensionNumbers::parse(
        "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0]>",
    )
    .unwrap();
    assert_eq!(g.index_vector_dim, 0);
    assert_eq!(g.to_string(), "gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0]>");
    assert_eq!(GatherDimensionNumbers::parse("gather<>").unwrap(), GatherDimensionNumbers::default());
    let s = ScatterDimensionNumbers::parse("scatter<update_window_dims = [1]>").unwrap();
    assert_eq!((s.update_window_dims, s.index_vector_dim), (vec![1], 0));
    // The raw conv form: every field optional, integers default to 0.
    let c = ConvDimensionNumbers::parse(
        "conv<raw input_feature_dimension = 1, kernel_output_feature_dimension = 1, output_feature_dimension = 1>",
    )
    .unwrap();
    assert_eq!((c.input_batch_dimension, c.kernel_input_feature_dimension), (0, 0));
    assert_eq!(c.to_string(), "conv<[b, f]x[i, o]->[b, f]>");
    // What is present is still checked: batch and feature both 0.
    assert!(ConvDimensionNumbers::parse("conv<raw>").is_err());
    assert!(ConvDimensionNumbers::parse("conv<raw input_spatial_dimensions = [2]>").is_err());
}

/// The fields of `text` read as attribute `attr`, in the corpus's JSON spelling.
fn read_fields(attr: &str, text: &str) -> Result<serde_json::Value, AttrError> {
    use serde_json::json;
    let enum_value = |v: &str| json!({ "value": v });
    Ok(match attr {
        "dot" => {
            let d = DotDimensionNumbers::parse(text)?;
            json!({
                "lhs_batching_dimensions": d.lhs_batching_dimensions,
                "rhs_batching_dimensions": d.rhs_batching_dimensions,
                "lhs_contracting_dimensions": d.lhs_contracting_dimensions,
                "rhs_contracting_dimensions": d.rhs_contracting_dimensions,
            })
        }
        "gather" => {
            let d = GatherDimensionNumbers::parse(text)?;
            json!({
                "offset_dims": d.offset_dims,
                "collapsed_slice_dims": d.collapsed_slice_dims,
                "operand_batching_dims": d.operand_batching_dims,
                "start_indices_batching_dims": d.start_indices_batching_dims,
                "start_index_map": d.start_index_map,
                "index_vector_dim": d.index_vector_dim,
            })
        }
        "scatter" => {
            let d = ScatterDimensionNumbers::parse(text)?;
            json!({
                "update_window_dims": d.update_window_dims,
                "inserted_window_dims": d.inserted_window_dims,
                "input_batching_dims": d.input_batching_dims,
                "scatter_indices_batching_dims": d.scatter_indices_batching_dims,
                "scatter_dims_to_operand_dims": d.scatter_dims_to_operand_dims,
                "index_vector_dim": d.index_vector_dim,
            })
        }
        "conv" => {
            let d = ConvDimensionNumbers::parse(text)?;
            json!({
                "input_batch_dimension": d.input_batch_dimension,
                "input_feature_dimension": d.input_feature_dimension,
                "input_spatial_dimensions": d.input_spatial_dimensions,
                "kernel_input_feature_dimension": d.kernel_input_feature_dimension,
                "kernel_output_feature_dimension": d.kernel_output_feature_dimension,
                "kernel_spatial_dimensions": d.kernel_spatial_dimensions,
                "output_batch_dimension": d.output_batch_dimension,
                "output_feature_dimension": d.output_feature_dimension,
                "output_spatial_dimensions": d.output_spatial_dimensions,
            })
        }
        "comparison_direction" => enum_value(ComparisonDirection::parse(text)?.as_str()),
        "comparison_type" => enum_value(ComparisonType::parse(text)?.as_str()),
        "precision" => enum_value(Precision::parse(text)?.as_str()),
        "rng_algorithm" => enum_value(RngAlgorithm::parse(text)?.as_str()),
        "rng_distribution" => enum_value(RngDistribution::parse(text)?.as_str()),
        "fft_type" => enum_value(FftType::parse(text)?.as_str()),
        "transpose" => enum_value(Transpose::parse(text)?.as_str()),
        other => panic!("the corpus names an attribute this test does not know: {other}"),
    })
}

/// Every attribute jaxlib 0.10.2's StableHLO printer wrote for random field values (defaults
/// left out included; python/alpa_mlir/attr_corpus.py, checked fresh by
/// python/tests/test_attr_corpus.py) reads back to the same fields.
#[test]
fn reads_every_form_jaxlib_prints() {
    let corpus = include_str!("jaxlib_printed.jsonl");
    let mut seen = std::collections::BTreeSet::new();
    let mut omitted_zero = 0;
    for (n, line) in corpus.lines().enumerate() {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        let (attr, text) = (row["attr"].as_str().unwrap(), row["text"].as_str().unwrap());
        let got = read_fields(attr, text).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        assert_eq!(got, row["fields"], "line {}: {text}", n + 1);
        seen.insert(attr.to_string());
        omitted_zero += usize::from(row["fields"]["index_vector_dim"] == 0 && !text.contains("index_vector_dim"));
    }
    assert_eq!(seen.len(), 11, "{seen:?}");
    assert!(omitted_zero > 0, "the corpus has no gather/scatter with index_vector_dim = 0 left out");
}

#[test]
fn parses_enum_attributes_in_every_spelling() {
    for text in [
        "<comparison_direction LT>",
        "#stablehlo<comparison_direction LT>",
        "comparison_direction<LT>",
        "LT",
        " < comparison_direction  LT > ",
        "#stablehlo.comparison_direction<LT>",
    ] {
        assert_eq!(ComparisonDirection::parse(text).unwrap(), ComparisonDirection::Lt, "{text}");
    }
    assert_eq!(ComparisonType::parse("<comparison_type FLOAT>").unwrap(), ComparisonType::Float);
    assert_eq!(ComparisonType::parse("<comparison_type TOTALORDER>").unwrap(), ComparisonType::TotalOrder);
    assert_eq!(Precision::parse("<precision DEFAULT>").unwrap(), Precision::Default);
    assert_eq!(Precision::parse("<precision HIGHEST>").unwrap(), Precision::Highest);
    assert_eq!(RngAlgorithm::parse("<rng_algorithm THREE_FRY>").unwrap(), RngAlgorithm::ThreeFry);
    assert_eq!(RngDistribution::parse("<rng_distribution NORMAL>").unwrap(), RngDistribution::Normal);
    assert_eq!(FftType::parse("<fft_type IRFFT>").unwrap(), FftType::Irfft);
    assert_eq!(Transpose::parse("<transpose ADJOINT>").unwrap(), Transpose::Adjoint);
    for v in ComparisonDirection::ALL {
        assert_eq!(ComparisonDirection::parse(&v.to_string()).unwrap(), *v);
    }
    for v in FftType::ALL {
        assert_eq!(FftType::parse(&v.to_string()).unwrap(), *v);
    }
}

#[test]
fn malformed_enums_are_errors_naming_the_attribute() {
    for bad in [
        "<comparison_direction>",
        "<comparison_direction XX>",
        "<comparison_direction LT",
        "comparison_direction<LT",
        "<comparison_direction LT GT>",
        "",
        "<precision LT>",
    ] {
        let err = ComparisonDirection::parse(bad).unwrap_err();
        assert_eq!(err.attr, "comparison_direction", "{bad}");
        assert!(err.to_string().contains("comparison_direction"));
    }
    assert_eq!(Precision::parse("<precision FAST>").unwrap_err().attr, "precision");
}

#[test]
fn long_texts_are_shortened_in_errors() {
    let long = format!("dot<lhs_contracting_dimensions = [{}]>", "1, ".repeat(200));
    let err = DotDimensionNumbers::parse(&long).unwrap_err();
    assert!(err.text.len() < 200);
    assert!(err.text.ends_with("..."));
}

fn dims(max_rank: i64, n: usize) -> impl Strategy<Value = Vec<i64>> {
    proptest::sample::subsequence((0..max_rank).collect::<Vec<_>>(), 0..=n).prop_shuffle()
}

prop_compose! {
    fn dot_numbers()(nb in 0usize..3, nc in 0usize..3)
        (lhs in Just((0..8i64).collect::<Vec<_>>()).prop_shuffle(),
         rhs in Just((0..8i64).collect::<Vec<_>>()).prop_shuffle(),
         nb in Just(nb), nc in Just(nc)) -> DotDimensionNumbers {
        DotDimensionNumbers {
            lhs_batching_dimensions: lhs[..nb].to_vec(),
            rhs_batching_dimensions: rhs[..nb].to_vec(),
            lhs_contracting_dimensions: lhs[nb..nb + nc].to_vec(),
            rhs_contracting_dimensions: rhs[nb..nb + nc].to_vec(),
        }
    }
}

prop_compose! {
    fn conv_layout_perm(n: usize)(perm in Just((0..n as i64 + 2).collect::<Vec<_>>()).prop_shuffle()) -> (i64, i64, Vec<i64>) {
        (perm[0], perm[1], perm[2..].to_vec())
    }
}

prop_compose! {
    fn conv_numbers()(n in 0usize..4)
        (i in conv_layout_perm(n), k in conv_layout_perm(n), o in conv_layout_perm(n),
         raw_input_batch in 0i64..9, use_raw in proptest::bool::weighted(0.2)) -> ConvDimensionNumbers {
        let mut d = ConvDimensionNumbers {
            input_batch_dimension: i.0, input_feature_dimension: i.1, input_spatial_dimensions: i.2,
            kernel_input_feature_dimension: k.0, kernel_output_feature_dimension: k.1, kernel_spatial_dimensions: k.2,
            output_batch_dimension: o.0, output_feature_dimension: o.1, output_spatial_dimensions: o.2,
        };
        // Sometimes a numbering only the raw form can spell (a gap in the input layout).
        if use_raw && raw_input_batch > d.input_spatial_dimensions.len() as i64 + 1 {
            d.input_batch_dimension = raw_input_batch + 10;
        }
        d
    }
}

prop_compose! {
    fn gather_numbers()(offset in dims(6, 3), collapsed in dims(6, 3), map in dims(6, 3), ivd in 0i64..5,
                        nb in 0usize..2)
        (ob in dims(6, nb).prop_filter("disjoint", {
            let collapsed = collapsed.clone();
            move |ob: &Vec<i64>| ob.iter().all(|d| !collapsed.contains(d))
        }),
         offset in Just(offset.clone()), collapsed in Just(collapsed.clone()), map in Just(map.clone()),
         ivd in Just(ivd), sb in Just((10..20i64).collect::<Vec<_>>()).prop_shuffle()) -> GatherDimensionNumbers {
        let n = ob.len();
        GatherDimensionNumbers {
            offset_dims: offset, collapsed_slice_dims: collapsed, operand_batching_dims: ob,
            start_indices_batching_dims: sb[..n].to_vec(), start_index_map: map, index_vector_dim: ivd,
        }
    }
}

proptest! {
    #[test]
    fn dot_numbers_round_trip(d in dot_numbers()) {
        prop_assert_eq!(DotDimensionNumbers::parse(&d.to_string()).unwrap(), d.clone());
        prop_assert_eq!(DotDimensionNumbers::parse(&format!("#stablehlo.{d}")).unwrap(), d);
    }

    #[test]
    fn conv_numbers_round_trip(d in conv_numbers()) {
        prop_assert_eq!(ConvDimensionNumbers::parse(&d.to_string()).unwrap(), d.clone());
        prop_assert_eq!(ConvDimensionNumbers::parse(&d.to_raw_string()).unwrap(), d);
    }

    #[test]
    fn gather_numbers_round_trip(d in gather_numbers()) {
        prop_assert_eq!(GatherDimensionNumbers::parse(&d.to_string()).unwrap(), d);
    }

    #[test]
    fn scatter_numbers_round_trip(g in gather_numbers()) {
        let s = ScatterDimensionNumbers {
            update_window_dims: g.offset_dims, inserted_window_dims: g.collapsed_slice_dims,
            input_batching_dims: g.operand_batching_dims, scatter_indices_batching_dims: g.start_indices_batching_dims,
            scatter_dims_to_operand_dims: g.start_index_map, index_vector_dim: g.index_vector_dim,
        };
        prop_assert_eq!(ScatterDimensionNumbers::parse(&s.to_string()).unwrap(), s);
    }

    #[test]
    fn garbage_never_panics(text in ".{0,80}") {
        let _ = DotDimensionNumbers::parse(&text);
        let _ = ConvDimensionNumbers::parse(&text);
        let _ = GatherDimensionNumbers::parse(&text);
        let _ = ScatterDimensionNumbers::parse(&text);
        let _ = ComparisonDirection::parse(&text);
        let _ = Precision::parse(&text);
    }

    #[test]
    fn near_miss_garbage_never_panics(
        mnemonic in prop::sample::select(vec!["dot", "conv", "gather", "scatter", "raw", ""]),
        body in prop::collection::vec(prop::sample::select(vec![
            "[", "]", "<", ">", ",", "=", "x", "->", "-", "b", "f", "i", "o", "0", "1", "7", "-3",
            "lhs_contracting_dimensions", "index_vector_dim", "offset_dims", "raw", "input_batch_dimension",
            "99999999999999999999", " ", "#", "é"]), 0..30)) {
        let text = format!("{mnemonic}<{}>", body.concat());
        let _ = DotDimensionNumbers::parse(&text);
        let _ = ConvDimensionNumbers::parse(&text);
        let _ = GatherDimensionNumbers::parse(&text);
        let _ = ScatterDimensionNumbers::parse(&text);
        let _ = ComparisonDirection::parse(&text);
    }
}
