use super::{value_fits, verify_op};
use crate::ir::graph::{Attr, Block, OpNode, Region, ValueRef};
use crate::ir::op_table::test_util::{f32t, ints, op, opaque, typed};
use crate::ir::types::{TensorType, ValueType};

fn check(o: &OpNode, operands: &[&TensorType]) -> Result<(), String> {
    let operands: Vec<Option<&TensorType>> = operands.iter().map(|t| Some(*t)).collect();
    verify_op(o, &operands).map_err(|e| e.to_string())
}

fn conv(out: &[i64], attrs: &[(&str, Attr)]) -> OpNode {
    let mut all = vec![("dimension_numbers", opaque("conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>"))];
    all.extend(attrs.iter().cloned());
    op("stablehlo.convolution", &[f32t(out)], &all)
}

#[test]
fn convolution_result_follows_strides_padding_and_dilation() {
    let (x, k) = (f32t(&[8, 32, 32, 3]), f32t(&[7, 7, 3, 16]));
    let strided = [("window_strides", ints(&[2, 2])), ("padding", ints(&[3, 3, 3, 3]))];
    assert_eq!(check(&conv(&[8, 16, 16, 16], &strided), &[&x, &k]), Ok(()));
    let err = check(&conv(&[8, 32, 32, 16], &strided), &[&x, &k]).unwrap_err();
    assert!(err.contains("spatial dim 0: the window gives 16 outputs, the result has 32"), "{err}");
    // No padding: a 7-wide window over 32 gives 26.
    assert!(check(&conv(&[8, 32, 32, 16], &[]), &[&x, &k]).unwrap_err().contains("gives 26"));
    assert_eq!(check(&conv(&[8, 26, 26, 16], &[]), &[&x, &k]), Ok(()));
    // rhs_dilation 2 spans 13 elements: 32 - 13 + 1 = 20.
    assert_eq!(check(&conv(&[8, 20, 20, 16], &[("rhs_dilation", ints(&[2, 2]))]), &[&x, &k]), Ok(()));
    // lhs_dilation 2 makes the input 63 wide: 63 - 7 + 1 = 57.
    assert_eq!(check(&conv(&[8, 57, 57, 16], &[("lhs_dilation", ints(&[2, 2]))]), &[&x, &k]), Ok(()));
}

#[test]
fn convolution_window_attributes_are_checked() {
    let (x, k) = (f32t(&[8, 32, 32, 3]), f32t(&[1, 1, 3, 16]));
    let out = [8, 32, 32, 16];
    for (attr, value, message) in [
        ("window_strides", ints(&[0, 1]), "window_strides`: 0 is below 1"),
        ("window_strides", ints(&[1]), "window_strides`: 1 entries, expected 2"),
        ("padding", ints(&[1, 1]), "padding`: 2 values, expected 2 (low, high) pairs"),
        (
            "padding",
            Attr::Elements { ty: typed(&[3, 2], "i64"), splat: false, values: None },
            "has shape [3, 2], expected [2, 2]",
        ),
        ("lhs_dilation", ints(&[1, -1]), "lhs_dilation`: -1 is below 1"),
        ("rhs_dilation", ints(&[0, 1]), "rhs_dilation`: 0 is below 1"),
        ("feature_group_count", Attr::Int(0), "feature_group_count`: 0 is not positive"),
        ("batch_group_count", Attr::Int(-1), "batch_group_count`: -1 is not positive"),
    ] {
        let err = check(&conv(&out, &[(attr, value)]), &[&x, &k]).unwrap_err();
        assert!(err.contains(message), "{attr}: {err}");
    }
    let err = check(&conv(&out, &[("feature_group_count", Attr::Int(3))]), &[&x, &k]).unwrap_err();
    assert!(err.contains("feature_group_count 3"), "{err}");
}

#[test]
fn slice_limits_and_strides() {
    let x = f32t(&[8, 4]);
    let slice = |limit: &[i64], strides: &[i64], out: &[i64]| {
        op(
            "stablehlo.slice",
            &[f32t(out)],
            &[("start_indices", ints(&[2, 0])), ("limit_indices", ints(limit)), ("strides", ints(strides))],
        )
    };
    assert_eq!(check(&slice(&[8, 4], &[2, 1], &[3, 4]), &[&x]), Ok(()));
    assert!(check(&slice(&[9, 4], &[1, 1], &[7, 4]), &[&x]).unwrap_err().contains("limit 9 exceeds the size 8"));
    assert!(check(&slice(&[1, 4], &[1, 1], &[0, 4]), &[&x]).unwrap_err().contains("limit 1 is below start 2"));
    assert!(check(&slice(&[8, 4], &[0, 1], &[6, 4]), &[&x]).unwrap_err().contains("strides`: 0 is below 1"));
    let no_limit = op("stablehlo.slice", &[f32t(&[6, 4])], &[("start_indices", ints(&[2, 0]))]);
    assert!(check(&no_limit, &[&x]).unwrap_err().contains("missing attribute `limit_indices`"));
}

#[test]
fn dynamic_slice_sizes_and_indices() {
    let (x, i) = (f32t(&[8, 4]), typed(&[], "i32"));
    let ds = |sizes: &[i64], out: &[i64]| op("stablehlo.dynamic_slice", &[f32t(out)], &[("slice_sizes", ints(sizes))]);
    assert_eq!(check(&ds(&[2, 4], &[2, 4]), &[&x, &i, &i]), Ok(()));
    assert!(check(&ds(&[9, 4], &[9, 4]), &[&x, &i, &i]).unwrap_err().contains("dim 0: 9 exceeds the size 8"));
    assert!(check(&ds(&[2, 4], &[2, 4]), &[&x, &i]).unwrap_err().contains("2 start indices, has 2 operands"));
    let none = op("stablehlo.dynamic_slice", &[f32t(&[2, 4])], &[]);
    assert!(check(&none, &[&x, &i, &i]).unwrap_err().contains("missing attribute `slice_sizes`"));
}

#[test]
fn iota_dimension_is_required_and_in_range() {
    let out = [f32t(&[4, 8])];
    assert_eq!(check(&op("stablehlo.iota", &out, &[("iota_dimension", Attr::Int(1))]), &[]), Ok(()));
    let err = check(&op("stablehlo.iota", &out, &[("iota_dimension", Attr::Int(2))]), &[]).unwrap_err();
    assert!(err.contains("2 is out of range for rank 2"), "{err}");
    assert!(check(&op("stablehlo.iota", &out, &[]), &[]).unwrap_err().contains("missing attribute `iota_dimension`"));
}

#[test]
fn reduce_window_result_follows_the_window() {
    let (x, init) = (f32t(&[8, 32]), f32t(&[]));
    let rw = |out: &[i64], attrs: &[(&str, Attr)]| op("stablehlo.reduce_window", &[f32t(out)], attrs);
    let pool = [("window_dimensions", ints(&[1, 2])), ("window_strides", ints(&[1, 2]))];
    assert_eq!(check(&rw(&[8, 16], &pool), &[&x, &init]), Ok(()));
    let err = check(&rw(&[8, 32], &pool), &[&x, &init]).unwrap_err();
    assert!(err.contains("result 0 has shape [8, 32], the window gives [8, 16]"), "{err}");
    // cumsum: window 32 with padding [31, 0] keeps the size.
    let cumsum = [("window_dimensions", ints(&[1, 32])), ("padding", ints(&[0, 0, 31, 0]))];
    assert_eq!(check(&rw(&[8, 32], &cumsum), &[&x, &init]), Ok(()));
    let zero = [("window_dimensions", ints(&[0, 2]))];
    assert!(check(&rw(&[8, 16], &zero), &[&x, &init]).unwrap_err().contains("window_dimensions`: 0 is below 1"));
    assert!(check(&rw(&[8, 32], &[]), &[&x, &init]).unwrap_err().contains("missing attribute `window_dimensions`"));
}

#[test]
fn compare_and_gather_need_their_attributes() {
    let x = f32t(&[4]);
    let cmp = op("stablehlo.compare", &[typed(&[4], "i1")], &[]);
    assert!(check(&cmp, &[&x, &x]).unwrap_err().contains("missing attribute `comparison_direction`"));
    let dn =
        opaque("gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>");
    let gather = op("stablehlo.gather", &[f32t(&[3, 16])], &[("dimension_numbers", dn)]);
    let err = check(&gather, &[&f32t(&[100, 16]), &typed(&[3, 1], "i32")]).unwrap_err();
    assert!(err.contains("missing attribute `slice_sizes`"), "{err}");
}

/// A one-block region with `args` that yields `yielded` (block arguments by index).
fn region(args: &[TensorType], yielded: &[usize]) -> Region {
    let terminator =
        OpNode { operands: yielded.iter().map(|&i| ValueRef::Arg(i)).collect(), ..op("stablehlo.return", &[], &[]) };
    let args = args.iter().cloned().map(ValueType::Tensor).collect();
    Region { blocks: vec![Block { args, ops: Vec::new(), terminator: Some(terminator) }] }
}

#[test]
fn while_and_case_regions_are_counted_and_typed() {
    let (x, pred, index) = (f32t(&[4]), typed(&[], "i1"), typed(&[], "i32"));
    let while_op =
        |regions: Vec<Region>, result: TensorType| OpNode { regions, ..op("stablehlo.while", &[result], &[]) };
    let cond = || region(&[pred.clone(), x.clone()], &[0]);
    let body = || region(&[pred.clone(), x.clone()], &[0, 1]);
    let mut ok = while_op(vec![cond(), body()], pred.clone());
    ok.results.push(ValueType::Tensor(x.clone()));
    assert_eq!(check(&ok, &[&pred, &x]), Ok(()));
    let one = OpNode { regions: vec![cond()], ..ok.clone() };
    assert!(check(&one, &[&pred, &x]).unwrap_err().contains("expects 2 regions, has 1"));
    let bad_body = OpNode { regions: vec![cond(), region(&[pred.clone(), x.clone()], &[1, 1])], ..ok.clone() };
    assert!(check(&bad_body, &[&pred, &x])
        .unwrap_err()
        .contains("the body region must yield (tensor<i1>, tensor<4xf32>)"));
    let bad_cond = OpNode { regions: vec![region(&[pred.clone(), x.clone()], &[1]), body()], ..ok.clone() };
    assert!(check(&bad_cond, &[&pred, &x]).unwrap_err().contains("the condition region must yield (tensor<i1>)"));
    let mut bad_result = ok.clone();
    bad_result.results[1] = ValueType::Tensor(f32t(&[5]));
    assert!(check(&bad_result, &[&pred, &x]).unwrap_err().contains("results must have the operands' types"));

    let branch = || region(&[], &[]);
    let case = |regions: Vec<Region>| OpNode { regions, ..op("stablehlo.case", &[], &[]) };
    assert_eq!(check(&case(vec![branch(), branch()]), &[&index]), Ok(()));
    assert!(check(&case(vec![]), &[&index]).unwrap_err().contains("expects at least 1 regions, has 0"));
    assert!(check(&case(vec![branch()]), &[&pred])
        .unwrap_err()
        .contains("the branch index is tensor<i1>, expected tensor<i32>"));
    let typed_case = OpNode { regions: vec![branch()], ..op("stablehlo.case", std::slice::from_ref(&x), &[]) };
    assert!(check(&typed_case, &[&index]).unwrap_err().contains("the branch 0 region must yield (tensor<4xf32>)"));
}

#[test]
fn sizes_past_u64_are_errors() {
    // 2^62 f32 elements are 2^64 bytes: one byte too many.
    assert_eq!(value_fits(&ValueType::Tensor(f32t(&[1 << 61]))), Ok(()));
    let err = value_fits(&ValueType::Tensor(f32t(&[1 << 62]))).unwrap_err();
    assert!(err.contains("tensor<4611686018427387904xf32> has more than 2^64 bytes"), "{err}");
    // 2^96 elements: the product itself overflows u64.
    assert!(value_fits(&ValueType::Tensor(typed(&[1 << 48, 1 << 48], "i8"))).is_err());
    let half = ValueType::Tensor(typed(&[1 << 62], "i8"));
    assert_eq!(value_fits(&ValueType::Tuple(vec![half.clone(); 3])), Ok(()));
    assert!(value_fits(&ValueType::Tuple(vec![half; 5])).is_err());
    let huge = op("stablehlo.abs", &[typed(&[1 << 48, 1 << 48], "i8")], &[]);
    let operand = typed(&[1 << 48, 1 << 48], "i8");
    assert!(check(&huge, &[&operand])
        .unwrap_err()
        .contains("result #0: tensor<281474976710656x281474976710656xi8> has more than 2^64 bytes"));
}
