//! Property tests over random ops: whatever the shapes and attributes, `op_rule` and `op_cost`
//! never panic, and every rule they accept keeps the table's conventions.

use super::test_util::*;
use super::*;
use crate::ir::cost::op_cost;
use crate::ir::graph::Attr;
use proptest::prelude::*;

const NAMES: &[&str] = &[
    "stablehlo.add",
    "stablehlo.select",
    "stablehlo.clamp",
    "stablehlo.compare",
    "stablehlo.convert",
    "stablehlo.bitcast_convert",
    "stablehlo.map",
    "chlo.erf",
    "chlo.broadcast_add",
    "stablehlo.dot_general",
    "stablehlo.dot",
    "stablehlo.convolution",
    "stablehlo.reshape",
    "stablehlo.transpose",
    "stablehlo.broadcast_in_dim",
    "stablehlo.broadcast",
    "stablehlo.reverse",
    "stablehlo.iota",
    "stablehlo.constant",
    "stablehlo.concatenate",
    "stablehlo.slice",
    "stablehlo.dynamic_slice",
    "stablehlo.dynamic_update_slice",
    "stablehlo.pad",
    "stablehlo.gather",
    "stablehlo.scatter",
    "stablehlo.reduce",
    "stablehlo.reduce_window",
    "stablehlo.select_and_scatter",
    "stablehlo.sort",
    "chlo.top_k",
    "stablehlo.batch_norm_training",
    "stablehlo.batch_norm_inference",
    "stablehlo.batch_norm_grad",
    "stablehlo.while",
    "stablehlo.case",
    "stablehlo.optimization_barrier",
    "stablehlo.custom_call",
    "stablehlo.cholesky",
    "stablehlo.triangular_solve",
    "stablehlo.fft",
    "stablehlo.rng_bit_generator",
    "sdy.sharding_constraint",
    "foo.unknown",
];

fn shape() -> impl Strategy<Value = Vec<i64>> {
    prop::collection::vec(prop::sample::select(vec![0i64, 1, 1, 2, 3, 4, 6, 8]), 0..5)
}

fn small_ints() -> impl Strategy<Value = Vec<i64>> {
    prop::collection::vec(-2i64..6, 0..5)
}

fn list_text(v: &[i64]) -> String {
    let items: Vec<String> = v.iter().map(i64::to_string).collect();
    format!("[{}]", items.join(", "))
}

fn attr_strategy() -> impl Strategy<Value = (String, Attr)> {
    let int_names = prop::sample::select(vec![
        "dimension",
        "feature_index",
        "feature_group_count",
        "batch_group_count",
        "k",
        "iota_dimension",
    ]);
    let array_names = prop::sample::select(vec![
        "dimensions",
        "permutation",
        "broadcast_dimensions",
        "window_dimensions",
        "window_strides",
        "slice_sizes",
        "start_indices",
        "limit_indices",
        "strides",
        "edge_padding_low",
        "edge_padding_high",
        "interior_padding",
        "fft_length",
        "lhs_dilation",
        "base_dilations",
    ]);
    prop_oneof![
        (int_names, -2i64..20).prop_map(|(n, v)| (n.to_string(), Attr::Int(v))),
        (array_names.clone(), small_ints()).prop_map(|(n, v)| (n.to_string(), Attr::I64Array(v))),
        array_names.prop_map(|n| (n.to_string(), Attr::Elements { ty: typed(&[2], "i64"), splat: false, values: None })),
        (small_ints(), small_ints(), small_ints(), small_ints()).prop_map(|(a, b, c, d)| (
            "dot_dimension_numbers".to_string(),
            opaque(&format!(
                "dot<lhs_batching_dimensions = {}, rhs_batching_dimensions = {}, lhs_contracting_dimensions = {}, rhs_contracting_dimensions = {}>",
                list_text(&a[..a.len().min(b.len())]), list_text(&b[..a.len().min(b.len())]),
                list_text(&c[..c.len().min(d.len())]), list_text(&d[..c.len().min(d.len())])
            ))
        )),
        prop::sample::select(vec![
            "conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>", "conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>",
            "conv<[b, f]x[i, o]->[b, f]>", "conv<[b, 0, f]x[0, i, o]->[b, 0, f]>",
            "conv<raw input_batch_dimension = 9, input_feature_dimension = 1, input_spatial_dimensions = [], kernel_input_feature_dimension = 0, kernel_output_feature_dimension = 1, kernel_spatial_dimensions = [], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = []>",
        ]).prop_map(|t| ("dimension_numbers".to_string(), opaque(t))),
        (small_ints(), small_ints(), small_ints(), 0i64..5).prop_map(|(o, c, m, ivd)| (
            "dimension_numbers".to_string(),
            opaque(&format!(
                "gather<offset_dims = {}, collapsed_slice_dims = {}, start_index_map = {}, index_vector_dim = {ivd}>",
                list_text(&o), list_text(&c), list_text(&m)
            ))
        )),
        (small_ints(), small_ints(), small_ints(), 0i64..5).prop_map(|(w, i, m, ivd)| (
            "scatter_dimension_numbers".to_string(),
            opaque(&format!(
                "scatter<update_window_dims = {}, inserted_window_dims = {}, scatter_dims_to_operand_dims = {}, index_vector_dim = {ivd}>",
                list_text(&w), list_text(&i), list_text(&m)
            ))
        )),
        prop::sample::select(vec!["Sharding", "foo", ""]).prop_map(|t| ("call_target_name".to_string(), Attr::Str(t.into()))),
        any::<bool>().prop_map(|b| ("left_side".to_string(), Attr::Bool(b))),
    ]
}

prop_compose! {
    fn random_op()(
        name in prop::sample::select(NAMES),
        operands in prop::collection::vec(shape(), 0..6),
        results in prop::collection::vec(shape(), 0..4),
        attrs in prop::collection::vec(attr_strategy(), 0..5),
        with_body in any::<bool>(),
    ) -> (OpNode, Vec<TensorType>) {
        let results: Vec<TensorType> = results.iter().map(|s| f32t(s)).collect();
        let mut node = op(name, &results, &[]);
        for (k, v) in attrs {
            node.attrs.insert(k, v);
        }
        if with_body {
            node.regions.push(add_body());
        }
        (node, operands.iter().map(|s| f32t(s)).collect())
    }
}

// Well-formed ops of a few kinds, with shapes derived so that most are accepted.
prop_compose! {
    fn consistent_op()(
        kind in 0usize..9,
        shape in prop::collection::vec(prop::sample::select(vec![1i64, 2, 3, 4, 8]), 1..5),
        seed in any::<u64>(),
    ) -> (OpNode, Vec<TensorType>) {
        let rank = shape.len();
        let x = f32t(&shape);
        let pick = |salt: u64| ((seed >> (salt * 7)) as usize) % rank;
        match kind {
            0 => {
                let mut perm: Vec<i64> = (0..rank as i64).collect();
                perm.rotate_left(pick(1));
                let out: Vec<i64> = perm.iter().map(|&p| shape[p as usize]).collect();
                (op("stablehlo.transpose", &[f32t(&out)], &[("permutation", ints(&perm))]), vec![x])
            }
            1 => {
                let d = pick(2);
                let out: Vec<i64> = shape.iter().enumerate().filter(|(i, _)| *i != d).map(|(_, &s)| s).collect();
                let mut o = op("stablehlo.reduce", &[f32t(&out)], &[("dimensions", ints(&[d as i64]))]);
                o.regions.push(add_body());
                (o, vec![x, f32t(&[])])
            }
            2 => {
                let mut out = shape.clone();
                out.insert(0, 5);
                let dims: Vec<i64> = (1..=rank as i64).collect();
                (op("stablehlo.broadcast_in_dim", &[f32t(&out)], &[("broadcast_dimensions", ints(&dims))]), vec![x])
            }
            3 => {
                let d = pick(3);
                let mut out = shape.clone();
                out[d] *= 2;
                (op("stablehlo.concatenate", &[f32t(&out)], &[("dimension", Attr::Int(d as i64))]), vec![x.clone(), x])
            }
            4 => {
                let k = pick(4);
                let lhs = x.clone();
                let mut rhs_shape = vec![shape[k]];
                rhs_shape.push(7);
                let mut out: Vec<i64> = shape.iter().enumerate().filter(|(i, _)| *i != k).map(|(_, &s)| s).collect();
                out.push(7);
                let dn = format!("dot<lhs_contracting_dimensions = [{k}], rhs_contracting_dimensions = [0]>");
                (op("stablehlo.dot_general", &[f32t(&out)], &[("dot_dimension_numbers", opaque(&dn))]), vec![lhs, f32t(&rhs_shape)])
            }
            5 => {
                // A VALID 1-D convolution, possibly grouped.
                let (n, h, g, ci, co) = (shape[0], 2 + pick(5) as i64, 1 + (seed % 3) as i64, 1 + pick(6) as i64, 1 + pick(7) as i64);
                let k = 1 + (seed >> 40) as i64 % h;
                let o = op(
                    "stablehlo.convolution",
                    &[f32t(&[n, h - k + 1, g * co])],
                    &[("dimension_numbers", opaque("conv<[b, 0, f]x[0, i, o]->[b, 0, f]>")), ("feature_group_count", Attr::Int(g))],
                );
                (o, vec![f32t(&[n, h, g * ci]), f32t(&[k, ci, g * co])])
            }
            6 => {
                // Embedding lookup with a random table and index batch.
                let (vocab, hidden) = (shape[0] + 3, *shape.last().unwrap_or(&2));
                let batch: Vec<i64> = shape[..rank - 1].to_vec();
                let mut idx = batch.clone();
                idx.push(1);
                let mut out = batch.clone();
                out.push(hidden);
                let dn = format!(
                    "gather<offset_dims = [{}], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = {}>",
                    batch.len(), batch.len()
                );
                let o = op("stablehlo.gather", &[f32t(&out)], &[("dimension_numbers", opaque(&dn)), ("slice_sizes", ints(&[1, hidden]))]);
                (o, vec![f32t(&[vocab, hidden]), typed(&idx, "i32")])
            }
            7 => {
                let d = pick(8);
                let mut limit = shape.clone();
                limit[d] = (shape[d] + 1) / 2;
                let start = vec![0; rank];
                let o = op("stablehlo.slice", &[f32t(&limit)], &[("start_indices", ints(&start)), ("limit_indices", ints(&limit)), ("strides", ints(&vec![1; rank]))]);
                (o, vec![x])
            }
            _ => {
                let total: i64 = shape.iter().product();
                (op("stablehlo.reshape", &[f32t(&[total])], &[]), vec![x])
            }
        }
    }
}

fn check_rule(node: &OpNode, operands: &[TensorType]) -> Result<(), TestCaseError> {
    let refs: Vec<Option<&TensorType>> = operands.iter().map(Some).collect();
    let results: Vec<Option<&TensorType>> = node.results.iter().map(|r| r.tensor()).collect();
    if let Ok(rule) = op_rule(node, &refs) {
        prop_assert!(rule.check(&refs, &results).is_ok(), "{}: {:?}\n{rule:?}", node.name, rule.check(&refs, &results));
        let cost = op_cost(node, &refs);
        prop_assert!(cost.is_ok(), "{}: rule accepted but cost failed: {cost:?}", node.name);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_ops_never_panic_and_accepted_rules_keep_conventions((node, operands) in random_op()) {
        check_rule(&node, &operands)?;
        // Operands whose type is unknown never panic either.
        let unknown: Vec<Option<&TensorType>> = operands.iter().enumerate().map(|(i, t)| (i % 2 == 0).then_some(t)).collect();
        let _ = op_rule(&node, &unknown);
        let _ = op_cost(&node, &unknown);
    }

    #[test]
    fn consistent_ops_are_accepted((node, operands) in consistent_op()) {
        let refs: Vec<Option<&TensorType>> = operands.iter().map(Some).collect();
        let rule = op_rule(&node, &refs);
        prop_assert!(rule.is_ok(), "{}: {rule:?}", node.name);
        check_rule(&node, &operands)?;
    }
}
