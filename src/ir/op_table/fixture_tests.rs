//! Rules and costs for ops exactly as JAX exports them in `lit-tests/inputs/` (the MLP, GPT,
//! MoE and Wide-ResNet train steps): attribute spellings, shapes and dimension numbers copied
//! from those fixtures.

use super::test_util::*;
use super::FactorKind::*;
use crate::ir::cost::op_cost;
use crate::ir::graph::{Attr, Block, OpNode, Region, ValueRef};
use crate::ir::types::{TensorType, ValueType};

fn precision() -> (&'static str, Attr) {
    ("precision_config", Attr::Array(vec![opaque("<precision DEFAULT>"), opaque("<precision DEFAULT>")]))
}

fn dot(dn: &str, out: &[i64]) -> OpNode {
    op("stablehlo.dot_general", &[f32t(out)], &[("dot_dimension_numbers", opaque(dn)), precision()])
}

fn flops(o: &OpNode, operands: &[&TensorType]) -> u64 {
    let operands: Vec<Option<&TensorType>> = operands.iter().map(|t| Some(*t)).collect();
    op_cost(o, &operands).unwrap().flops
}

/// A body `^bb0(%a, %b): %c = name(%a, %b); return %c` on scalars of `element`.
fn body(name: &str, element: &str) -> Region {
    let s = typed(&[], element);
    let inner =
        OpNode { operands: vec![ValueRef::Arg(0), ValueRef::Arg(1)], ..op(name, std::slice::from_ref(&s), &[]) };
    Region {
        blocks: vec![Block {
            args: vec![ValueType::Tensor(s.clone()), ValueType::Tensor(s)],
            ops: vec![inner],
            terminator: None,
        }],
    }
}

/// Convolution attributes as JAX writes them (padding arrives as dense elements).
fn conv(dn: &str, out: &[i64], strides: &[i64], lhs_dilation: &[i64], rhs_dilation: &[i64]) -> OpNode {
    op(
        "stablehlo.convolution",
        &[f32t(out)],
        &[
            ("batch_group_count", Attr::Int(1)),
            ("dimension_numbers", opaque(dn)),
            ("feature_group_count", Attr::Int(1)),
            ("lhs_dilation", ints(lhs_dilation)),
            ("padding", Attr::Elements { ty: typed(&[2, 2], "i64"), splat: false, values: None }),
            precision(),
            ("rhs_dilation", ints(rhs_dilation)),
            ("window_reversal", Attr::BoolArray(vec![false, false])),
            ("window_strides", ints(strides)),
        ],
    )
}

#[test]
fn mlp_forward_and_weight_gradient_dots() {
    // mlp.mlir: x[32, 256] @ w[256, 256].
    let x = f32t(&[32, 256]);
    let w = f32t(&[256, 256]);
    let fwd = dot("dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>", &[32, 256]);
    let r = checked(&fwd, &[&x, &w]);
    assert_eq!(r.factors_of_kind(Reduction).len(), 1);
    assert_eq!(flops(&fwd, &[&x, &w]), 2 * 32 * 256 * 256);
    // dW = x^T @ dy: the batch of 32 is the contracted (all-reduced) factor: data parallelism.
    let grad = dot("dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>", &[256, 256]);
    let r = checked(&grad, &[&x, &x]);
    let k = r.operand_dims[0][0][0];
    assert_eq!((r.factors[k].size, r.factors[k].kind), (32, Reduction));
    assert_eq!(r.operand_dims[1][0], vec![k]);
    // dx = dy @ w^T.
    let dx = dot("dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>", &[32, 256]);
    assert_eq!(checked(&dx, &[&x, &w]).operand_dims[1][1], checked(&dx, &[&x, &w]).operand_dims[0][1]);
}

#[test]
fn gpt_projection_and_attention_dots() {
    // gpt_tiny.mlir: h[4, 16, 256] @ w[64, 256]^T -> [4, 16, 64].
    let o = dot("dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>", &[4, 16, 64]);
    let r = checked(&o, &[&f32t(&[4, 16, 256]), &f32t(&[64, 256])]);
    assert_eq!(r.result_dims[0][2], r.operand_dims[1][0]);
    // probs[B, H, T, S] x v[B, S, H, D] -> [B, H, T, D].
    let o = dot(
        "dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 2], \
         lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [1]>",
        &[8, 4, 16, 16],
    );
    let (p, v) = (f32t(&[8, 4, 16, 16]), f32t(&[8, 16, 4, 16]));
    let r = checked(&o, &[&p, &v]);
    assert_eq!(r.operand_dims[0][1], r.operand_dims[1][2]);
    assert_eq!(r.result_dims[0][1], r.operand_dims[1][2]);
    assert_eq!(r.result_dims[0][3], r.operand_dims[1][3]);
    assert_eq!(kinds(&r, &r.operand_dims[0][3]), vec![Reduction]);
    assert_eq!(flops(&o, &[&p, &v]), 2 * 8 * 4 * 16 * 16 * 16);
}

#[test]
fn gpt_and_moe_reshapes() {
    // Split heads: [8, 16, 192] -> [8, 16, 3, 4, 16].
    let o = op("stablehlo.reshape", &[f32t(&[8, 16, 3, 4, 16])], &[]);
    let r = checked(&o, &[&f32t(&[8, 16, 192])]);
    assert_eq!(r.operand_dims[0][2], vec![r.result_dims[0][2][0], r.result_dims[0][3][0], r.result_dims[0][4][0]]);
    assert!(r.factors.iter().all(|f| f.kind == PassThrough));
    // MoE regrouping of tokens: [8, 16, 64] -> [4, 32, 64].
    let o = op("stablehlo.reshape", &[f32t(&[4, 32, 64])], &[]);
    let r = checked(&o, &[&f32t(&[8, 16, 64])]);
    assert_eq!(r.operand_dims[0][0].len(), 2);
    assert_eq!(r.result_dims[0][1].len(), 2);
    assert_eq!(r.operand_dims[0][0][1], r.result_dims[0][1][0]);
    // Bias reshape [64] -> [1, 1, 64].
    let o = op("stablehlo.reshape", &[f32t(&[1, 1, 64])], &[]);
    assert_eq!(checked(&o, &[&f32t(&[64])]).result_dims[0], vec![vec![], vec![], vec![0]]);
}

#[test]
fn wresnet_stem_conv_and_its_weight_gradient_have_equal_flops() {
    // Forward 7x7 stride 2, padding 3: [8, 32, 32, 3] * [7, 7, 3, 16] -> [8, 16, 16, 16].
    let fwd = conv("conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>", &[8, 16, 16, 16], &[2, 2], &[1, 1], &[1, 1]);
    let (x, w) = (f32t(&[8, 32, 32, 3]), f32t(&[7, 7, 3, 16]));
    let r = checked(&fwd, &[&x, &w]);
    assert_eq!(r.operand_dims[0][0], r.result_dims[0][0]);
    assert_eq!(kinds(&r, &r.operand_dims[0][3]), vec![Reduction]);
    assert_eq!(kinds(&r, &r.result_dims[0][1]), vec![Combined]);
    let forward_flops = flops(&fwd, &[&x, &w]);
    assert_eq!(forward_flops, 2 * (8 * 16 * 16 * 16) * (7 * 7 * 3));
    // Weight gradient as JAX writes it: the minibatch is the "feature" dim (reduced), the input
    // channels the "batch" dim, the output gradient the kernel (dilated by the stride).
    let wgrad = conv("conv<[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]>", &[7, 7, 3, 16], &[1, 1], &[1, 1], &[2, 2]);
    let dy = f32t(&[8, 16, 16, 16]);
    let r = checked(&wgrad, &[&x, &dy]);
    let minibatch = r.operand_dims[0][0][0];
    assert_eq!((r.factors[minibatch].size, r.factors[minibatch].kind), (8, Reduction));
    assert_eq!(r.operand_dims[1][0], vec![minibatch]);
    assert_eq!(r.operand_dims[0][3], r.result_dims[0][2]);
    assert_eq!(flops(&wgrad, &[&x, &dy]), forward_flops);
}

#[test]
fn wresnet_pointwise_strided_and_input_gradient_convs() {
    // 1x1 conv: spatial dims pass through.
    let o = conv("conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>", &[8, 8, 8, 32], &[1, 1], &[1, 1], &[1, 1]);
    let r = checked(&o, &[&f32t(&[8, 8, 8, 16]), &f32t(&[1, 1, 16, 32])]);
    assert_eq!(r.result_dims[0][1], r.operand_dims[0][1]);
    assert_eq!(kinds(&r, &r.result_dims[0][2]), vec![PassThrough]);
    // Strided 1x1 shortcut: [8, 8, 8, 64] -> [8, 4, 4, 128].
    let o = conv("conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>", &[8, 4, 4, 128], &[2, 2], &[1, 1], &[1, 1]);
    let r = checked(&o, &[&f32t(&[8, 8, 8, 64]), &f32t(&[1, 1, 64, 128])]);
    assert_eq!(kinds(&r, &r.result_dims[0][1]), vec![NeedReplication]);
    // Input gradient of a strided 3x3 conv: lhs_dilation 2, kernel [0, 1, o, i].
    let o = conv("conv<[b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f]>", &[8, 8, 8, 64], &[1, 1], &[2, 2], &[1, 1]);
    let (dy, w) = (f32t(&[8, 4, 4, 64]), f32t(&[3, 3, 64, 64]));
    let r = checked(&o, &[&dy, &w]);
    assert_eq!(r.operand_dims[1][3], r.operand_dims[0][3]);
    assert_eq!(r.operand_dims[1][2], r.result_dims[0][3]);
    assert_eq!(flops(&o, &[&dy, &w]), 2 * (8 * 8 * 8 * 64) * (3 * 3 * 64));
    // lhs-dilated 1x1 (input gradient of the strided shortcut) is not pointwise.
    let o = conv("conv<[b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f]>", &[8, 8, 8, 64], &[1, 1], &[2, 2], &[1, 1]);
    let r = checked(&o, &[&f32t(&[8, 4, 4, 128]), &f32t(&[1, 1, 64, 128])]);
    assert_eq!(kinds(&r, &r.result_dims[0][1]), vec![NeedReplication]);
}

#[test]
fn wresnet_max_pool_and_its_gradient() {
    let pool = {
        let mut o = op(
            "stablehlo.reduce_window",
            &[f32t(&[8, 8, 8, 16])],
            &[
                ("base_dilations", ints(&[1, 1, 1, 1])),
                ("padding", Attr::Elements { ty: typed(&[4, 2], "i64"), splat: false, values: None }),
                ("window_dilations", ints(&[1, 1, 1, 1])),
                ("window_dimensions", ints(&[1, 3, 3, 1])),
                ("window_strides", ints(&[1, 2, 2, 1])),
            ],
        );
        o.regions.push(body("stablehlo.maximum", "f32"));
        o
    };
    let (x, init) = (f32t(&[8, 16, 16, 16]), f32t(&[]));
    let r = checked(&pool, &[&x, &init]);
    assert_eq!(r.operand_dims[0][0], r.result_dims[0][0]);
    assert_eq!(r.operand_dims[0][3], r.result_dims[0][3]);
    assert_eq!(kinds(&r, &r.result_dims[0][2]), vec![Combined]);
    assert_eq!(flops(&pool, &[&x, &init]), 8 * 8 * 8 * 16 * 9);
    let mut grad = op(
        "stablehlo.select_and_scatter",
        &[f32t(&[8, 16, 16, 16])],
        &[
            ("padding", Attr::Elements { ty: typed(&[4, 2], "i64"), splat: true, values: None }),
            ("window_dimensions", ints(&[1, 3, 3, 1])),
            ("window_strides", ints(&[1, 2, 2, 1])),
        ],
    );
    grad.regions = vec![body("stablehlo.compare", "f32"), body("stablehlo.add", "f32")];
    let source = f32t(&[8, 8, 8, 16]);
    let r = checked(&grad, &[&x, &source, &init]);
    assert_eq!(r.operand_dims[1][3], r.result_dims[0][3]);
    assert_eq!(kinds(&r, &r.operand_dims[1][1]), vec![Combined]);
    assert_eq!(flops(&grad, &[&x, &source, &init]), 8 * 8 * 8 * 16 * (9 + 1));
}

#[test]
fn cumsum_reduce_window_combines_along_the_scan() {
    // moe_tiny.mlir: jnp.cumsum over 32 positions is a reduce_window of 32 with padding [31, 0].
    let mut o = op(
        "stablehlo.reduce_window",
        &[f32t(&[4, 32, 8])],
        &[
            ("base_dilations", ints(&[1, 1, 1])),
            ("padding", Attr::Elements { ty: typed(&[3, 2], "i64"), splat: false, values: None }),
            ("window_dilations", ints(&[1, 1, 1])),
            ("window_dimensions", ints(&[1, 32, 1])),
            ("window_strides", ints(&[1, 1, 1])),
        ],
    );
    o.regions.push(body("stablehlo.add", "f32"));
    let r = checked(&o, &[&f32t(&[4, 32, 8]), &f32t(&[])]);
    assert_eq!(kinds(&r, &r.operand_dims[0][1]), vec![Combined]);
    assert_eq!(r.operand_dims[0][0], r.result_dims[0][0]);
    assert_eq!(r.operand_dims[0][2], r.result_dims[0][2]);
}

#[test]
fn embedding_gather_and_take_along_axis_gather() {
    let o = op(
        "stablehlo.gather",
        &[f32t(&[8, 16, 64])],
        &[
            (
                "dimension_numbers",
                opaque("gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>"),
            ),
            ("indices_are_sorted", Attr::Bool(false)),
            ("slice_sizes", ints(&[1, 64])),
        ],
    );
    let r = checked(&o, &[&f32t(&[256, 64]), &typed(&[8, 16, 1], "i32")]);
    assert_eq!(r.operand_dims[0][1], r.result_dims[0][2]);
    assert_eq!(r.operand_dims[1][0], r.result_dims[0][0]);
    assert_eq!(kinds(&r, &r.operand_dims[0][0]), vec![NeedReplication]);
    // Cross-entropy's take_along_axis: batching dims 0 and 1.
    let o = op(
        "stablehlo.gather",
        &[f32t(&[8, 16, 1])],
        &[
            (
                "dimension_numbers",
                opaque(
                    "gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], \
                     start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>",
                ),
            ),
            ("indices_are_sorted", Attr::Bool(false)),
            ("slice_sizes", ints(&[1, 1, 1])),
        ],
    );
    let r = checked(&o, &[&f32t(&[8, 16, 256]), &typed(&[8, 16, 1, 1], "i32")]);
    assert_eq!(r.operand_dims[0][0], r.result_dims[0][0]);
    assert_eq!(r.operand_dims[1][1], r.result_dims[0][1]);
    assert_eq!(r.operand_dims[0][1], r.operand_dims[1][1]);
    assert_eq!(kinds(&r, &r.operand_dims[0][2]), vec![NeedReplication]);
}

#[test]
fn embedding_gradient_and_batched_scatter_adds() {
    let mut o = op(
        "stablehlo.scatter",
        &[f32t(&[256, 64])],
        &[
            ("indices_are_sorted", Attr::Bool(false)),
            (
                "scatter_dimension_numbers",
                opaque("scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>"),
            ),
            ("unique_indices", Attr::Bool(false)),
        ],
    );
    o.regions.push(body("stablehlo.add", "f32"));
    let (table, idx, upd) = (f32t(&[256, 64]), typed(&[8, 16, 1], "i32"), f32t(&[8, 16, 64]));
    let r = checked(&o, &[&table, &idx, &upd]);
    assert_eq!(kinds(&r, &r.operand_dims[2][0]), vec![Reduction]);
    assert_eq!(r.operand_dims[2][2], r.result_dims[0][1]);
    assert_eq!(flops(&o, &[&table, &idx, &upd]), 8 * 16 * 64);
    // The gradient of take_along_axis: batching dims pass through, the class dim is scattered.
    let mut o = op(
        "stablehlo.scatter",
        &[f32t(&[8, 16, 256])],
        &[(
            "scatter_dimension_numbers",
            opaque(
                "scatter<inserted_window_dims = [2], input_batching_dims = [0, 1], scatter_indices_batching_dims = [0, 1], \
                 scatter_dims_to_operand_dims = [2], index_vector_dim = 3>",
            ),
        )],
    );
    o.regions.push(body("stablehlo.add", "f32"));
    let r = checked(&o, &[&f32t(&[8, 16, 256]), &typed(&[8, 16, 1, 1], "i32"), &f32t(&[8, 16, 1])]);
    assert_eq!(r.operand_dims[0][0], r.operand_dims[1][0]);
    assert_eq!(r.operand_dims[2][1], r.result_dims[0][1]);
    assert_eq!(kinds(&r, &r.result_dims[0][0]), vec![PassThrough]);
    assert_eq!(kinds(&r, &r.result_dims[0][2]), vec![NeedReplication]);
}

#[test]
fn pad_slice_reverse_and_mask_ops() {
    // Pad one position on each side of a unit dim: [8, 16, 1, 4, 16] -> [8, 16, 3, 4, 16].
    let o = op(
        "stablehlo.pad",
        &[f32t(&[8, 16, 3, 4, 16])],
        &[
            ("edge_padding_high", ints(&[0, 0, 1, 0, 0])),
            ("edge_padding_low", ints(&[0, 0, 1, 0, 0])),
            ("interior_padding", ints(&[0, 0, 0, 0, 0])),
        ],
    );
    let r = checked(&o, &[&f32t(&[8, 16, 1, 4, 16]), &f32t(&[])]);
    assert_eq!(r.operand_dims[0][3], r.result_dims[0][3]);
    assert_eq!(kinds(&r, &r.result_dims[0][2]), vec![NeedReplication]);
    let o = op(
        "stablehlo.slice",
        &[f32t(&[8, 16, 1, 4, 16])],
        &[
            ("limit_indices", ints(&[8, 16, 3, 4, 16])),
            ("start_indices", ints(&[0, 0, 2, 0, 0])),
            ("strides", ints(&[1, 1, 1, 1, 1])),
        ],
    );
    let r = checked(&o, &[&f32t(&[8, 16, 3, 4, 16])]);
    assert_eq!(r.operand_dims[0][0], r.result_dims[0][0]);
    assert!(r.result_dims[0][2].is_empty());
    // Kernel flip in the conv input gradient.
    let o = op("stablehlo.reverse", &[f32t(&[3, 3, 64, 64])], &[("dimensions", ints(&[0, 1]))]);
    let r = checked(&o, &[&f32t(&[3, 3, 64, 64])]);
    assert_eq!(kinds(&r, &r.result_dims[0][0]), vec![Permutation]);
    assert_eq!(kinds(&r, &r.result_dims[0][2]), vec![PassThrough]);
    // Causal mask: iota, compare with compare_type, convert i1 -> f32, broadcasts.
    let i = typed(&[16, 16], "i32");
    let r = checked(&op("stablehlo.iota", std::slice::from_ref(&i), &[("iota_dimension", Attr::Int(1))]), &[]);
    assert_eq!(r.factors.len(), 2);
    let cmp = op(
        "stablehlo.compare",
        &[typed(&[16, 16], "i1")],
        &[
            ("compare_type", opaque("<comparison_type SIGNED>")),
            ("comparison_direction", opaque("<comparison_direction GE>")),
        ],
    );
    checked(&cmp, &[&i, &i]);
    checked(&op("stablehlo.convert", &[f32t(&[4, 32, 8])], &[]), &[&typed(&[4, 32, 8], "i1")]);
    let b = op(
        "stablehlo.broadcast_in_dim",
        &[typed(&[4, 4, 16, 16], "i1")],
        &[("broadcast_dimensions", ints(&[0, 1, 2, 3]))],
    );
    let r = checked(&b, &[&typed(&[1, 1, 16, 16], "i1")]);
    assert_eq!(r.operand_dims[0][2], r.result_dims[0][2]);
    assert!(r.operand_dims[0][0].is_empty());
    let b = op("stablehlo.broadcast_in_dim", &[f32t(&[64])], &[("broadcast_dimensions", ints(&[]))]);
    assert_eq!(checked(&b, &[&f32t(&[])]).factors.len(), 1);
    // Layer norm statistics: reduce over the hidden dim with an add body.
    let mut red = op("stablehlo.reduce", &[f32t(&[4, 16])], &[("dimensions", ints(&[2]))]);
    red.regions.push(body("stablehlo.add", "f32"));
    let r = checked(&red, &[&f32t(&[4, 16, 64]), &f32t(&[])]);
    assert_eq!(kinds(&r, &r.operand_dims[0][2]), vec![Reduction]);
    assert_eq!(flops(&red, &[&f32t(&[4, 16, 64]), &f32t(&[])]), 4 * 16 * 64);
    // chlo.square and the optimizer's sqrt / power.
    let t = f32t(&[256, 256]);
    for name in ["chlo.square", "stablehlo.sqrt", "stablehlo.rsqrt"] {
        checked(&op(name, std::slice::from_ref(&t), &[]), &[&t]);
    }
    let s = f32t(&[]);
    checked(&op("stablehlo.power", std::slice::from_ref(&s), &[]), &[&s, &s]);
}

#[test]
fn unresolved_calls_are_unknown_not_errors() {
    // Before `alpa-inline`, the exports call private helpers.
    let mut call = op("func.call", &[f32t(&[8, 16, 256])], &[("callee", Attr::SymbolRef("log_softmax".into()))]);
    call.operands = vec![ValueRef::Arg(0)];
    let r = checked(&call, &[&f32t(&[8, 16, 256])]);
    assert!(!r.known);
    let c = op_cost(&call, &[Some(&f32t(&[8, 16, 256]))]).unwrap();
    assert!(!c.known);
}
