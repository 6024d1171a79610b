//! Splitting a train step's global batch into microbatches: the same graph with every batch
//! dimension divided by B, so that the inter-op pass can cost one microbatch of a step that was
//! exported for the whole batch (`microbatches=auto`, `split-batch=true`).
//!
//! Which dimensions carry the batch: the per-example inputs are the non-donated arguments
//! whose leading dimension is the global batch G (the most common leading dimension among
//! non-donated arguments; donated ones are parameters and optimizer state). From their
//! dimension 0 the batch spreads through the op table's rules: every (value, dimension) whose
//! major factor is a factor shared with a batch dimension is one too. Sharing runs both ways,
//! so tensors an op creates (`iota`, broadcasts of constants) that meet the batch in an
//! elementwise op are split as well. A batch dimension shrinks by B; where the batch is merged
//! with other dims (`[G, S] -> [G*S]`) it must be the major part, and every size must divide.
//!
//! Attributes that spell out sizes of batch dimensions are rewritten (`slice` limits,
//! `dynamic_slice` and `gather` slice sizes, splat constants' types). Anything else that cannot
//! follow (a batch dim inside a merged dim at a minor position, an op the op table does not know
//! on the batch, a non-splat constant or a nested region with batch-sized values, a size that B
//! does not divide) is an error naming the op, and the result is validated by rebuilding every
//! op's rule on the new shapes. FLOPs, bytes and strategies then follow from the shapes.
//!
//! Only costs are meant to be right: scalar constants such as a mean's divisor keep their
//! values.

use super::graph::{Attr, Graph, OpNode, Param, ValueRef};
use super::op_table::op_rule;
use super::types::{TensorType, ValueType};
use std::collections::BTreeMap;

/// Why a graph's batch cannot be split.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BatchSplitError {
    #[error("no per-example input: every argument is donated or a scalar")]
    NoBatch,
    #[error("the global batch {batch} is not divisible by {parts} microbatches")]
    NotDivisible { batch: i64, parts: i64 },
    #[error("op {op} ({name}): {message}")]
    Op { op: usize, name: String, message: String },
    #[error("{0}")]
    Invalid(String),
}

/// The batch dimensions of a graph: the global batch G and, per value, which dims carry it.
#[derive(Clone, Debug, PartialEq)]
pub struct BatchDims {
    /// G, the leading dimension of the per-example inputs.
    pub global_batch: i64,
    /// Arguments split along dim 0.
    pub inputs: Vec<usize>,
    /// Per argument, per dim: carries the batch.
    pub args: Vec<Vec<bool>>,
    /// Per op, per result, per dim: carries the batch.
    pub results: Vec<Vec<Vec<bool>>>,
}

impl BatchDims {
    /// The divisors of G, ascending: the microbatch counts a split may use (as far as G goes;
    /// [`split_batch`] also needs every batch-carrying size to divide).
    pub fn divisors(&self) -> Vec<i64> {
        (1..=self.global_batch).filter(|d| self.global_batch % d == 0).collect()
    }
}

/// Disjoint sets over (value, dim) nodes.
struct Sets(Vec<usize>);

impl Sets {
    fn find(&mut self, mut x: usize) -> usize {
        while self.0[x] != x {
            self.0[x] = self.0[self.0[x]];
            x = self.0[x];
        }
        x
    }
    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.0[a.max(b)] = a.min(b);
        }
    }
}

fn rank(ty: &ValueType) -> usize {
    ty.tensor().map_or(0, TensorType::rank)
}

/// Node numbering: arguments' dims first, then every op result's dims.
struct Nodes {
    arg_base: Vec<usize>,
    result_base: Vec<Vec<usize>>,
    count: usize,
}

impl Nodes {
    fn new(graph: &Graph) -> Nodes {
        let mut count = 0;
        let mut take = |r: usize| {
            let b = count;
            count += r;
            b
        };
        let arg_base = graph.args.iter().map(|a| take(rank(&a.ty))).collect();
        let result_base = graph.ops().iter().map(|op| op.results.iter().map(|t| take(rank(t))).collect()).collect();
        Nodes { arg_base, result_base, count }
    }

    fn of(&self, value: ValueRef, dim: usize) -> Option<usize> {
        match value {
            ValueRef::Arg(a) => self.arg_base.get(a).map(|b| b + dim),
            ValueRef::Op { op, result } => self.result_base.get(op)?.get(result).map(|b| b + dim),
            ValueRef::Outer => None,
        }
    }
}

fn op_error(graph: &Graph, op: usize, message: impl Into<String>) -> BatchSplitError {
    BatchSplitError::Op { op, name: graph.ops()[op].name.clone(), message: message.into() }
}

/// Finds the batch dimensions of `graph` (see the module doc).
pub fn batch_dims(graph: &Graph) -> Result<BatchDims, BatchSplitError> {
    // G: the most common leading dim of non-donated ranked arguments (the larger on ties).
    let mut leading: BTreeMap<i64, usize> = BTreeMap::new();
    for a in graph.args.iter().filter(|a| !a.is_donated()) {
        if let Some(&d) = a.ty.tensor().and_then(|t| t.shape.first()) {
            *leading.entry(d).or_default() += 1;
        }
    }
    let (&global_batch, _) = leading.iter().max_by_key(|(d, n)| (**n, **d)).ok_or(BatchSplitError::NoBatch)?;
    if global_batch < 1 {
        return Err(BatchSplitError::NoBatch);
    }
    let inputs: Vec<usize> = (0..graph.args.len())
        .filter(|&a| {
            !graph.args[a].is_donated()
                && graph.args[a].ty.tensor().and_then(|t| t.shape.first()) == Some(&global_batch)
        })
        .collect();

    let nodes = Nodes::new(graph);
    let mut sets = Sets((0..nodes.count).collect());
    // (op, a major node of a factor that some dim of the op has at a minor position).
    let mut minor_checks: Vec<(usize, usize)> = Vec::new();
    let mut unknown: Vec<usize> = Vec::new();
    for (i, op) in graph.ops().iter().enumerate() {
        let operands = graph.operand_tensors(i);
        let rule = op_rule(op, &operands).map_err(|e| op_error(graph, i, e.to_string()))?;
        if !rule.known {
            unknown.push(i);
            continue;
        }
        let mut major: Vec<Vec<usize>> = vec![Vec::new(); rule.factors.len()];
        let mut minor = vec![false; rule.factors.len()];
        let mut visit = |value: Option<ValueRef>, dims: &[Vec<usize>]| {
            let Some(value) = value else { return };
            for (d, factors) in dims.iter().enumerate() {
                let Some(node) = nodes.of(value, d) else { continue };
                for (pos, &f) in factors.iter().enumerate() {
                    if pos == 0 {
                        major[f].push(node);
                    } else {
                        minor[f] = true;
                    }
                }
            }
        };
        for (t, dims) in rule.operand_dims.iter().enumerate() {
            visit(op.operands.get(t).copied(), dims);
        }
        for (r, dims) in rule.result_dims.iter().enumerate() {
            visit(Some(ValueRef::Op { op: i, result: r }), dims);
        }
        for (f, nodes_f) in major.iter().enumerate() {
            for w in nodes_f.windows(2) {
                sets.union(w[0], w[1]);
            }
            if minor[f] {
                if let Some(&first) = nodes_f.first() {
                    minor_checks.push((i, first));
                }
            }
        }
    }
    let seeds: Vec<usize> = inputs.iter().filter_map(|&a| nodes.of(ValueRef::Arg(a), 0)).collect();
    let roots: Vec<usize> = seeds.iter().map(|&s| sets.find(s)).collect();
    let batched = |sets: &mut Sets, node: usize| roots.contains(&sets.find(node));

    // The batch as a minor part of a merged dim ([S, G] -> [S*G]) cannot be divided.
    for &(op, node) in &minor_checks {
        if batched(&mut sets, node) {
            return Err(op_error(graph, op, "the batch is merged into a dimension below another factor"));
        }
    }
    let args: Vec<Vec<bool>> = graph
        .args
        .iter()
        .enumerate()
        .map(|(a, p)| (0..rank(&p.ty)).map(|d| batched(&mut sets, nodes.arg_base[a] + d)).collect())
        .collect();
    let results: Vec<Vec<Vec<bool>>> = graph
        .ops()
        .iter()
        .enumerate()
        .map(|(i, op)| {
            op.results
                .iter()
                .enumerate()
                .map(|(r, t)| (0..rank(t)).map(|d| batched(&mut sets, nodes.result_base[i][r] + d)).collect())
                .collect()
        })
        .collect();
    let dims = BatchDims { global_batch, inputs, args, results };
    for &i in &unknown {
        if touches_batch(graph, &dims, i) {
            return Err(op_error(graph, i, "the op table does not know this op, so its batch cannot be split"));
        }
    }
    Ok(dims)
}

fn value_batched(dims: &BatchDims, value: ValueRef) -> &[bool] {
    match value {
        ValueRef::Arg(a) => dims.args.get(a).map_or(&[], Vec::as_slice),
        ValueRef::Op { op, result } => dims.results.get(op).and_then(|r| r.get(result)).map_or(&[], Vec::as_slice),
        ValueRef::Outer => &[],
    }
}

fn touches_batch(graph: &Graph, dims: &BatchDims, op: usize) -> bool {
    let operands = graph.ops()[op].operands.iter().any(|v| value_batched(dims, *v).contains(&true));
    operands || dims.results[op].iter().any(|r| r.contains(&true))
}

fn scaled(ty: &ValueType, batched: &[bool], parts: i64) -> Result<ValueType, String> {
    let Some(t) = ty.tensor() else { return Ok(ty.clone()) };
    let mut shape = t.shape.clone();
    for (d, size) in shape.iter_mut().enumerate() {
        if batched.get(d) == Some(&true) {
            if *size % parts != 0 {
                return Err(format!("batch dimension {d} of {t} is not divisible by {parts}"));
            }
            *size /= parts;
        }
    }
    Ok(ValueType::Tensor(TensorType::new(shape, t.element.clone())))
}

/// `graph` with its batch split into `parts` microbatches: the graph of one microbatch.
/// `parts == 1` returns the graph unchanged.
pub fn split_batch(graph: &Graph, parts: i64) -> Result<Graph, BatchSplitError> {
    let dims = batch_dims(graph)?;
    split_with(graph, &dims, parts)
}

/// [`split_batch`] with batch dimensions found before (by [`batch_dims`] on `graph`).
pub fn split_with(graph: &Graph, dims: &BatchDims, parts: i64) -> Result<Graph, BatchSplitError> {
    if parts < 1 || dims.global_batch % parts != 0 {
        return Err(BatchSplitError::NotDivisible { batch: dims.global_batch, parts });
    }
    if dims.args.len() != graph.args.len() || dims.results.len() != graph.ops().len() {
        return Err(BatchSplitError::Invalid("batch dimensions of another graph".into()));
    }
    if parts == 1 {
        return Ok(graph.clone());
    }
    let mut out = graph.clone();
    for (a, param) in out.args.iter_mut().enumerate() {
        param.ty = scaled(&param.ty, &dims.args[a], parts)
            .map_err(|m| BatchSplitError::Invalid(format!("argument {a}: {m}")))?;
        out.body.args[a] = param.ty.clone();
    }
    for i in 0..out.body.ops.len() {
        let original = &graph.ops()[i];
        if !touches_batch(graph, dims, i) {
            continue;
        }
        let mut op = original.clone();
        for (r, ty) in op.results.iter_mut().enumerate() {
            *ty = scaled(ty, &dims.results[i][r], parts).map_err(|m| op_error(graph, i, m))?;
        }
        rewrite_attrs(graph, dims, i, &mut op, parts)?;
        if has_shaped_region_values(&op) {
            return Err(op_error(graph, i, "a nested region works on batch-sized values"));
        }
        out.body.ops[i] = op;
    }
    for (r, value) in out.returned.clone().iter().enumerate() {
        if let Some(ty) = out.value_type(*value).cloned() {
            if let Some(p) = out.results.get_mut(r) {
                *p = Param { ty, attrs: p.attrs.clone() };
            }
        }
    }
    // Every op's rule must hold on the new shapes.
    for i in 0..out.ops().len() {
        if !touches_batch(graph, dims, i) {
            continue;
        }
        let operands = out.operand_tensors(i);
        let results: Vec<Option<&TensorType>> = out.ops()[i].results.iter().map(ValueType::tensor).collect();
        let rule =
            op_rule(&out.ops()[i], &operands).map_err(|e| op_error(graph, i, format!("after the split: {e}")))?;
        rule.check(&operands, &results).map_err(|e| op_error(graph, i, format!("after the split: {e}")))?;
    }
    Ok(out)
}

/// Size attributes of batch dimensions: full-size slices and slice sizes shrink with the
/// batch; anything else cannot be split.
fn rewrite_attrs(
    graph: &Graph,
    dims: &BatchDims,
    i: usize,
    op: &mut OpNode,
    parts: i64,
) -> Result<(), BatchSplitError> {
    let input = op.operands.first().map(|v| value_batched(dims, *v).to_vec()).unwrap_or_default();
    let input_shape: Vec<i64> = op
        .operands
        .first()
        .and_then(|v| graph.value_type(*v))
        .and_then(ValueType::tensor)
        .map(|t| t.shape.clone())
        .unwrap_or_default();
    let name = op.short_name().to_string();
    let shrink_full = |attr: &str, op: &mut OpNode, allow_one: bool| -> Result<(), BatchSplitError> {
        let Some(Attr::I64Array(values)) = op.attrs.get_mut(attr) else { return Ok(()) };
        for (d, v) in values.iter_mut().enumerate() {
            if input.get(d) != Some(&true) {
                continue;
            }
            let full = input_shape.get(d).copied().unwrap_or(-1);
            if *v == full {
                *v /= parts;
            } else if !(allow_one && *v == 1) {
                return Err(op_error(graph, i, format!("`{attr}` takes {v} of the {full} batch entries of dim {d}")));
            }
        }
        Ok(())
    };
    match name.as_str() {
        "slice" => {
            if let Some(Attr::I64Array(start)) = op.attrs.get("start_indices") {
                let strides = op.attrs.get("strides").and_then(Attr::as_i64_array).map(<[i64]>::to_vec);
                for (d, s) in start.iter().enumerate() {
                    let stride = strides.as_ref().and_then(|v| v.get(d)).copied().unwrap_or(1);
                    if input.get(d) == Some(&true) && (*s != 0 || stride != 1) {
                        return Err(op_error(graph, i, format!("the slice cuts batch dimension {d}")));
                    }
                }
            }
            shrink_full("limit_indices", op, false)?;
        }
        "dynamic_slice" => shrink_full("slice_sizes", op, false)?,
        "gather" => shrink_full("slice_sizes", op, true)?,
        "constant" => {
            let ty = op.results.first().and_then(ValueType::tensor).cloned();
            match (op.attrs.get_mut("value"), ty) {
                (Some(Attr::Elements { ty: t, splat: true, .. }), Some(new)) => *t = new,
                (Some(Attr::Elements { splat: false, .. }), _) => {
                    return Err(op_error(graph, i, "a constant with batch-sized contents"));
                }
                _ => {}
            }
        }
        _ => {}
    }
    Ok(())
}

/// Whether a nested region has block arguments or values of rank >= 1 (reduction bodies work
/// on scalars and need no rewrite).
fn has_shaped_region_values(op: &OpNode) -> bool {
    op.regions
        .iter()
        .flat_map(|r| &r.blocks)
        .any(|b| b.args.iter().any(|t| rank(t) > 0) || b.ops.iter().any(|o| o.results.iter().any(|t| rank(t) > 0)))
}

#[cfg(test)]
mod tests;
