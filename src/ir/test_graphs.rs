//! Small hand-built graphs for unit tests of every layer: an op builder and a tanh-MLP train step.

use crate::ir::graph::{Attr, Attrs, Block, Graph, OpNode, Param, ValueRef};
use crate::ir::op_table::test_util::{add_body, combiner_body};
use crate::ir::types::{ElementType, TensorType, ValueType};

pub fn t(shape: &[i64]) -> ValueType {
    ValueType::Tensor(TensorType::new(shape.to_vec(), ElementType::f32()))
}

/// Appends ops and returns their values.
pub struct Builder {
    pub ops: Vec<OpNode>,
}

impl Builder {
    pub fn new() -> Self {
        Builder { ops: Vec::new() }
    }

    pub fn op(&mut self, name: &str, operands: Vec<ValueRef>, result: ValueType, attrs: Attrs) -> ValueRef {
        self.ops_results(name, operands, vec![result], attrs)[0]
    }

    /// An op of several results: their values.
    pub fn ops_results(
        &mut self,
        name: &str,
        operands: Vec<ValueRef>,
        results: Vec<ValueType>,
        attrs: Attrs,
    ) -> Vec<ValueRef> {
        let count = results.len();
        self.ops.push(OpNode { name: name.into(), location: String::new(), operands, results, attrs, regions: vec![] });
        let op = self.ops.len() - 1;
        (0..count).map(|result| ValueRef::Op { op, result }).collect()
    }

    pub fn unary(&mut self, name: &str, x: ValueRef, ty: ValueType) -> ValueRef {
        self.op(name, vec![x], ty, Attrs::new())
    }

    pub fn binary(&mut self, name: &str, a: ValueRef, b: ValueRef, ty: ValueType) -> ValueRef {
        self.op(name, vec![a, b], ty, Attrs::new())
    }

    /// A static f32 `slice` of `x`; the result's shape follows from the bounds and strides.
    pub fn slice(&mut self, x: ValueRef, start: &[i64], limit: &[i64], strides: &[i64]) -> ValueRef {
        let shape: Vec<i64> =
            start.iter().zip(limit).zip(strides).map(|((s, l), stride)| (l - s + stride - 1) / stride).collect();
        let bounds = attrs(&[
            ("start_indices", Attr::I64Array(start.to_vec())),
            ("limit_indices", Attr::I64Array(limit.to_vec())),
            ("strides", Attr::I64Array(strides.to_vec())),
        ]);
        self.op("stablehlo.slice", vec![x], t(&shape), bounds)
    }

    /// `dot_general` contracting `lhs` dim `l` with `rhs` dim `r`.
    pub fn dot(&mut self, a: ValueRef, b: ValueRef, l: i64, r: i64, ty: ValueType) -> ValueRef {
        let mut attrs = Attrs::new();
        attrs.insert(
            "dot_dimension_numbers".into(),
            Attr::Opaque {
                dialect: "stablehlo".into(),
                data: format!("dot<lhs_contracting_dimensions = [{l}], rhs_contracting_dimensions = [{r}]>"),
            },
        );
        self.op("stablehlo.dot_general", vec![a, b], ty, attrs)
    }

    /// A scalar f32 splat constant.
    pub fn scalar_constant(&mut self) -> ValueRef {
        let value = Attr::Elements { ty: TensorType::new(vec![], ElementType::f32()), splat: true, values: None };
        self.op("stablehlo.constant", vec![], t(&[]), attrs(&[("value", value)]))
    }

    /// A constant of type `ty` (f32), every element `value`.
    pub fn splat(&mut self, value: f64, ty: ValueType) -> ValueRef {
        let shape = ty.tensor().map(|t| t.shape.clone()).unwrap_or_default();
        let value = Attr::FloatScalar { ty: TensorType::new(shape, ElementType::f32()), value };
        self.op("stablehlo.constant", vec![], ty, attrs(&[("value", value)]))
    }

    /// Scalar `v` broadcast to `shape` (f32).
    pub fn spread(&mut self, v: ValueRef, shape: &[i64]) -> ValueRef {
        let dims = attrs(&[("broadcast_dimensions", Attr::I64Array(vec![]))]);
        self.op("stablehlo.broadcast_in_dim", vec![v], t(shape), dims)
    }

    /// The pieces of index vectors side by side along dimension `dim` (`[batch, width]`).
    pub fn concatenate(&mut self, pieces: Vec<ValueRef>, dim: i64, ty: ValueType) -> ValueRef {
        self.op("stablehlo.concatenate", pieces, ty, attrs(&[("dimension", Attr::Int(dim))]))
    }

    /// `batch_norm_training` of `x` (of `shape`) with `feature` as its features, scale and
    /// offset a constant broadcast to the features.
    pub fn batch_norm_training(&mut self, x: ValueRef, shape: &[i64], feature: usize) -> ValueRef {
        let constant = self.scalar_constant();
        let scale = self.op(
            "stablehlo.broadcast_in_dim",
            vec![constant],
            t(&[shape[feature]]),
            attrs(&[("broadcast_dimensions", Attr::I64Array(vec![]))]),
        );
        self.op(
            "stablehlo.batch_norm_training",
            vec![x, scale, scale],
            t(shape),
            attrs(&[("feature_index", Attr::Int(feature as i64)), ("epsilon", Attr::Float(1e-5))]),
        )
    }

    /// The sum of `x` over `dims`, starting from `init`.
    pub fn reduce_sum(&mut self, x: ValueRef, init: ValueRef, dims: &[i64], ty: ValueType) -> ValueRef {
        self.reduce_by("stablehlo.add", x, init, dims, ty)
    }

    /// The reduction of `x` over `dims` by the binary op `combiner`, starting from `init`.
    pub fn reduce_by(&mut self, combiner: &str, x: ValueRef, init: ValueRef, dims: &[i64], ty: ValueType) -> ValueRef {
        let out =
            self.op("stablehlo.reduce", vec![x, init], ty, attrs(&[("dimensions", Attr::I64Array(dims.to_vec()))]));
        if let Some(last) = self.ops.last_mut() {
            last.regions.push(combiner_body(combiner));
        }
        out
    }

    /// A scatter of `updates` into `operand` at `indices` that adds where they meet.
    pub fn scatter_add(
        &mut self,
        operand: ValueRef,
        indices: ValueRef,
        updates: ValueRef,
        dimension_numbers: Attr,
        ty: ValueType,
    ) -> ValueRef {
        let out = self.op(
            "stablehlo.scatter",
            vec![operand, indices, updates],
            ty,
            attrs(&[("scatter_dimension_numbers", dimension_numbers)]),
        );
        if let Some(last) = self.ops.last_mut() {
            last.regions.push(add_body());
        }
        out
    }

    /// The sum of all elements of a rank-2 value.
    pub fn sum(&mut self, x: ValueRef) -> ValueRef {
        let init = self.scalar_constant();
        self.reduce_sum(x, init, &[0, 1], t(&[]))
    }

    /// The function of the ops built so far over `args`, returning `returned` (result types
    /// are the returned values' types).
    pub fn graph(self, args: Vec<Param>, returned: Vec<ValueRef>) -> Graph {
        let mut graph = Graph {
            func_name: "main".into(),
            body: Block { args: args.iter().map(|p| p.ty.clone()).collect(), ops: self.ops, terminator: None },
            args,
            results: Vec::new(),
            returned,
        };
        graph.results = graph
            .returned
            .iter()
            .map(|v| Param { ty: graph.value_type(*v).cloned().expect("a value of the graph"), attrs: Attrs::new() })
            .collect();
        graph
    }
}

/// Attributes from (name, value) pairs.
/// The index of the op that computes `v` (a value the test built with an op).
pub fn op_index(v: ValueRef) -> usize {
    let ValueRef::Op { op, .. } = v else { panic!("{v:?} is not an op's result") };
    op
}

pub fn attrs(pairs: &[(&str, Attr)]) -> Attrs {
    pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
}

/// A donated argument updated by result `result` (its type to be set: `Param { ty, ..donated(r) }`).
pub fn donated(result: usize) -> Param {
    let mut attrs = Attrs::new();
    attrs.insert("tf.aliasing_output".into(), Attr::Int(result as i64));
    Param { ty: t(&[0]), attrs }
}

/// A train step of `depth` tanh layers of width `width` on a batch of `batch`:
/// a_{k+1} = tanh(a_k @ w_k), loss = sum(a_depth * a_depth); a backward pass of the same
/// shape as the real one (g = 2 a_depth; per layer: g = g * (g - a_{k+1}^2) standing in for
/// the tanh derivative, dw_k = a_k^T g, g = g w_k^T); SGD update w_k' = w_k - dw_k. Arguments: w_0..w_{depth-1} (donated, aliased to results 0..depth), x.
/// Results: the new weights, then the loss.
pub fn tanh_mlp_step(depth: usize, batch: i64, width: i64) -> Graph {
    let weight = t(&[width, width]);
    let mut b = Builder::new();
    let (grads, loss) = tanh_mlp_gradients(&mut b, depth, batch, width, |b, a, g| b.dot(a, g, 0, 0, weight.clone()));
    let mut returned: Vec<ValueRef> = grads
        .iter()
        .enumerate()
        .map(|(k, grad)| b.binary("stablehlo.subtract", ValueRef::Arg(k), *grad, weight.clone()))
        .collect();
    returned.push(loss);
    b.graph(tanh_mlp_args(depth, batch, width), returned)
}

/// `tanh_mlp_step`'s forward and backward on `b`, each layer's weight gradient made by
/// `layer_gradient(b, a_k, g_k)`: the gradients (by layer) and the loss.
pub fn tanh_mlp_gradients(
    b: &mut Builder,
    depth: usize,
    batch: i64,
    width: i64,
    layer_gradient: impl Fn(&mut Builder, ValueRef, ValueRef) -> ValueRef,
) -> (Vec<ValueRef>, ValueRef) {
    let act = t(&[batch, width]);
    let mut acts = vec![ValueRef::Arg(depth)];
    for k in 0..depth {
        let h = b.dot(acts[k], ValueRef::Arg(k), 1, 0, act.clone());
        acts.push(b.unary("stablehlo.tanh", h, act.clone()));
    }
    let sq = b.binary("stablehlo.multiply", acts[depth], acts[depth], act.clone());
    let loss = b.sum(sq);
    // The loss's cotangent seed 1, times d(a^2)/da.
    let two = b.splat(2.0, act.clone());
    let mut g = b.binary("stablehlo.multiply", acts[depth], two, act.clone());
    let mut grads = vec![ValueRef::Outer; depth];
    for k in (0..depth).rev() {
        let a2 = b.binary("stablehlo.multiply", acts[k + 1], acts[k + 1], act.clone());
        let one_minus = b.binary("stablehlo.subtract", g, a2, act.clone());
        g = b.binary("stablehlo.multiply", g, one_minus, act.clone());
        grads[k] = layer_gradient(b, acts[k], g);
        if k > 0 {
            g = b.dot(g, ValueRef::Arg(k), 1, 1, act.clone());
        }
    }
    (grads, loss)
}

/// `tanh_mlp_step`'s arguments: the donated weights, then the batch.
pub fn tanh_mlp_args(depth: usize, batch: i64, width: i64) -> Vec<Param> {
    let mut args: Vec<Param> = (0..depth).map(|k| Param { ty: t(&[width, width]), ..donated(k) }).collect();
    args.push(Param { ty: t(&[batch, width]), attrs: Attrs::new() });
    args
}
