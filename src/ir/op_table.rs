//! The op table: how each op's dimensions relate between its operands and results.
//!
//! Every op is described once, declaratively, in the style of Shardy's op sharding rules: a list
//! of *factors* (einsum-like index variables, each with a size and a kind) and, for every
//! dimension of every operand and result, the factors that make it up, major to minor.
//! `dot_general` `[b, i, k] x [b, k, j] -> [b, i, j]` has four factors; `k` is a reduction factor.
//! Sharding strategies and FLOP counts are derived from these rules by generic code.
//!
//! Conventions every rule keeps (checked by [`OpRule::check`] in the tests):
//! - For every dimension, the product of its factors' sizes equals the dimension's size.
//!   Factors of size 1 are left out, so a size-1 dimension maps to no factor at all.
//! - A factor appears at most once per tensor. Tensors that are not ranked tensors (tokens,
//!   tuples, values whose type is unknown) have no dimensions.
//! - A dimension that is the same data in an operand and a result (same size, same index) shares
//!   one factor. Where the op changes a dimension's size (slicing, padding, windows), operand and
//!   result get separate need-replication factors.
//!
//! An op the table does not know gets `known: false` and a conservative rule where every
//! dimension is its own need-replication factor; that is never an error. Errors are for
//! malformed attributes and for shapes that contradict the op.

use crate::ir::attr_text::AttrError;
use crate::ir::graph::{Attr, OpNode};
use crate::ir::types::TensorType;

mod contraction;
mod control;
mod elementwise;
mod enum_attrs;
mod layout;
mod reduction;
mod slicing;
mod text;

#[cfg(test)]
mod fixture_tests;
#[cfg(test)]
mod robustness_tests;

pub use elementwise::{chlo_of_mhlo_custom_call, elementwise_info, ElementwiseInfo};
pub use text::{factor_name, RuleText};

/// How sharding a factor along a mesh axis affects the op.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FactorKind {
    /// Sharding it shards every tensor that has it; no communication. Batch and free dims of a
    /// dot, every dim of an elementwise op, the kept dims of a reduce, and factors only results
    /// have (broadcast, iota): a result-only factor means each device makes its own slice.
    PassThrough,
    /// A dimension the op sums (or otherwise reduces) over: contracting dims of a dot, reduced
    /// dims of a reduce, the input features of a convolution. Sharding it leaves every result
    /// that lacks the factor partial on each device (an all-reduce makes it whole); results that
    /// have the factor (the output of `batch_norm_training`) stay sharded along it.
    Reduction,
    /// The op needs the whole dimension on every device because its elements move: gathered,
    /// concatenated, sliced, padded or strided dims. Sharding it needs an all-gather first.
    NeedReplication,
    /// The op needs the whole dimension because it combines its elements with each other:
    /// sorts or selects among them (`sort`, `top_k`), transforms them (`fft`, `cholesky`,
    /// `triangular_solve`) or reduces windows of them wider than one (`reduce_window`, a
    /// convolution's spatial dims). Sharded as [`FactorKind::NeedReplication`]; kept apart
    /// because moved elements stay independent of each other and combined ones do not.
    Combined,
    /// The dimension keeps its size but its elements move between positions (`reverse`):
    /// sharding it is possible with a collective permute.
    Permutation,
}

impl FactorKind {
    /// Whether sharding the factor needs the whole dimension on every device first.
    pub fn needs_whole_dimension(self) -> bool {
        matches!(self, FactorKind::NeedReplication | FactorKind::Combined)
    }
}

/// One index variable of an op's rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Factor {
    pub size: i64,
    pub kind: FactorKind,
}

/// How an op's dimensions relate: its factors and, per tensor and dimension, the factor ids
/// that make up that dimension (major to minor).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpRule {
    pub factors: Vec<Factor>,
    /// Per operand, per dimension, the factor ids (major to minor).
    pub operand_dims: Vec<Vec<Vec<usize>>>,
    /// Per result, per dimension, the factor ids (major to minor).
    pub result_dims: Vec<Vec<Vec<usize>>>,
    /// False when the table does not know the op and the rule is the conservative fallback.
    pub known: bool,
}

/// Where a factor occurs: operand or result `tensor`, dimension `dim`, position `pos` within it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FactorUse {
    pub is_result: bool,
    pub tensor: usize,
    pub dim: usize,
    pub pos: usize,
}

impl OpRule {
    /// Every place factor `factor` occurs.
    pub fn uses(&self, factor: usize) -> Vec<FactorUse> {
        let mut out = Vec::new();
        for (is_result, tensors) in [(false, &self.operand_dims), (true, &self.result_dims)] {
            for (tensor, dims) in tensors.iter().enumerate() {
                for (dim, factors) in dims.iter().enumerate() {
                    for (pos, &f) in factors.iter().enumerate() {
                        if f == factor {
                            out.push(FactorUse { is_result, tensor, dim, pos });
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether any result has factor `factor`.
    pub fn in_results(&self, factor: usize) -> bool {
        self.result_dims.iter().flatten().flatten().any(|&f| f == factor)
    }

    /// Whether any operand has factor `factor`.
    pub fn in_operands(&self, factor: usize) -> bool {
        self.operand_dims.iter().flatten().flatten().any(|&f| f == factor)
    }

    /// Whether result `i` is operand `i`, for every `i` (`optimization_barrier`, a sharding
    /// constraint): each result dim is its operand's dim, one factor that passes through and
    /// occurs nowhere else. Known from the tensors' dims only: a rule without any (every
    /// tensor a scalar, a loop carrying counters) does not say it.
    pub fn carries_operands_through(&self) -> bool {
        let passes_alone = |f: usize| self.factors[f].kind == FactorKind::PassThrough && self.uses(f).len() == 2;
        self.known
            && self.operand_dims.len() == self.result_dims.len()
            && self.result_dims.iter().any(|dims| !dims.is_empty())
            && self.operand_dims.iter().zip(&self.result_dims).all(|(operand, result)| {
                operand == result && result.iter().all(|factors| matches!(factors.as_slice(), [f] if passes_alone(*f)))
            })
    }

    /// Ids of the factors of one kind.
    pub fn factors_of_kind(&self, kind: FactorKind) -> Vec<usize> {
        (0..self.factors.len()).filter(|&f| self.factors[f].kind == kind).collect()
    }

    /// The product of all factor sizes (for a dot: batch * M * N * K).
    pub fn iteration_space(&self) -> u128 {
        self.factors.iter().map(|f| f.size.max(0) as u128).product()
    }

    /// Checks the rule's conventions against the tensor shapes it describes: dims map to factors
    /// whose sizes multiply to the dim's size, no factor repeats within a tensor, every factor
    /// is used, and no factor has size 1.
    pub fn check(&self, operands: &[Option<&TensorType>], results: &[Option<&TensorType>]) -> Result<(), String> {
        if self.operand_dims.len() != operands.len() || self.result_dims.len() != results.len() {
            return Err("tensor count differs from the op's".into());
        }
        for (side, dims, tensors) in [("operand", &self.operand_dims, operands), ("result", &self.result_dims, results)]
        {
            for (t, (tdims, ty)) in dims.iter().zip(tensors.iter()).enumerate() {
                let shape: &[i64] = ty.map_or(&[], |t| &t.shape);
                if tdims.len() != shape.len() {
                    return Err(format!("{side} {t}: {} dims in the rule, rank {}", tdims.len(), shape.len()));
                }
                let mut seen = Vec::new();
                for (d, fs) in tdims.iter().enumerate() {
                    let mut product: i64 = 1;
                    for &f in fs {
                        let factor = self.factors.get(f).ok_or(format!("{side} {t} dim {d}: no factor {f}"))?;
                        product = product.saturating_mul(factor.size);
                        if seen.contains(&f) {
                            return Err(format!("{side} {t}: factor {f} used twice"));
                        }
                        seen.push(f);
                    }
                    if product != shape[d] {
                        return Err(format!("{side} {t} dim {d}: factors multiply to {product}, size is {}", shape[d]));
                    }
                }
            }
        }
        for (f, factor) in self.factors.iter().enumerate() {
            if factor.size == 1 {
                return Err(format!("factor {f} has size 1"));
            }
            if !self.in_operands(f) && !self.in_results(f) {
                return Err(format!("factor {f} is unused"));
            }
        }
        Ok(())
    }
}

/// Why an op's rule could not be built: a malformed attribute or shapes the op cannot have.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OpTableError {
    #[error("{op}: attribute `{attr}`: {source}")]
    Attr { op: String, attr: String, source: AttrError },
    #[error("{op}: attribute `{attr}`: {message}")]
    BadAttr { op: String, attr: String, message: String },
    #[error("{op}: missing attribute `{attr}`")]
    MissingAttr { op: String, attr: String },
    #[error("{op}: {message}")]
    Shape { op: String, message: String },
}

/// The rule for `op`, given its operands' types (`None` for values that are not ranked tensors
/// or whose type is unknown, e.g. captures; results come from `op.results`).
///
/// Where a rule needs an operand's shape that is not given, the result is the conservative
/// all-need-replication rule (still `known: true`).
pub fn op_rule(op: &OpNode, operands: &[Option<&TensorType>]) -> Result<OpRule, OpTableError> {
    let b = RuleBuilder::new(op, operands);
    let shapes = b.operands.iter().chain(b.results.iter()).flatten();
    if let Some(t) = shapes.clone().find(|t| t.shape.iter().any(|&d| d < 0)) {
        return Err(b.shape_err(format!("dynamic shape {t:?} is not supported")));
    }
    enum_attrs::validate(op)?;
    let name = canonical_name(&op.name);
    if let Some(rule) = elementwise::rule(&name, b.clone())? {
        return Ok(rule);
    }
    for family in [contraction::rule, layout::rule, slicing::rule, reduction::rule, control::rule] {
        if let Some(rule) = family(&name, b.clone())? {
            return Ok(rule);
        }
    }
    Ok(b.conservative(false))
}

/// Heavy ops: their work is never replicated across a mesh axis (unless an option allows it).
pub fn is_heavy(op: &OpNode) -> bool {
    matches!(canonical_name(&op.name).as_str(), "dot_general" | "dot" | "convolution")
}

/// Ops that only re-view or re-type their operand (or make a constant): they compute nothing
/// of their own. Merging gives them no depth; the loss's choice follows a gradient through them.
pub fn is_layout_only(op: &OpNode) -> bool {
    matches!(
        canonical_name(&op.name).as_str(),
        "broadcast_in_dim" | "broadcast" | "reshape" | "transpose" | "convert" | "reverse" | "constant" | "iota"
    )
}

/// `stablehlo.add` and `mhlo.add` become `add`; other dialects keep their prefix (`chlo.erf`).
pub fn canonical_name(name: &str) -> String {
    for prefix in ["stablehlo.", "mhlo."] {
        if let Some(rest) = name.strip_prefix(prefix) {
            return rest.to_string();
        }
    }
    name.to_string()
}

/// The text of an opaque StableHLO attribute (`dot<...>`, `<comparison_direction LT>`), also
/// accepting one kept as printed text.
pub fn opaque_text(attr: &Attr) -> Option<&str> {
    match attr {
        Attr::Opaque { dialect, data } if matches!(dialect.as_str(), "stablehlo" | "mhlo" | "chlo") => Some(data),
        Attr::Other(text) | Attr::Str(text) => Some(text),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Attribute helpers shared by the rule families

/// An integer-array attribute: given, absent, or present in a form whose values we cannot read
/// (dense elements keep no payload in the graph view).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Ints {
    Absent,
    Unreadable,
    Values(Vec<i64>),
}

impl Ints {
    /// The values, or `default` repeated `n` times when absent; `None` when unreadable.
    pub(crate) fn or_fill(self, n: usize, default: i64) -> Option<Vec<i64>> {
        match self {
            Ints::Absent => Some(vec![default; n]),
            Ints::Unreadable => None,
            Ints::Values(v) => Some(v),
        }
    }
}

pub(crate) fn shape_err(op: &OpNode, message: impl Into<String>) -> OpTableError {
    OpTableError::Shape { op: op.name.clone(), message: message.into() }
}

pub(crate) fn bad_attr(op: &OpNode, attr: &str, message: impl Into<String>) -> OpTableError {
    OpTableError::BadAttr { op: op.name.clone(), attr: attr.to_string(), message: message.into() }
}

pub(crate) fn ints_attr(op: &OpNode, name: &str) -> Result<Ints, OpTableError> {
    match op.attr(name) {
        None => Ok(Ints::Absent),
        Some(Attr::I64Array(v)) => Ok(Ints::Values(v.clone())),
        Some(Attr::Array(items)) => items
            .iter()
            .map(|a| a.as_int().ok_or_else(|| bad_attr(op, name, "expected integers")))
            .collect::<Result<Vec<_>, _>>()
            .map(Ints::Values),
        Some(Attr::BoolArray(v)) => Ok(Ints::Values(v.iter().map(|&b| b as i64).collect())),
        Some(Attr::Elements { .. } | Attr::IntScalar { .. } | Attr::FloatScalar { .. } | Attr::Other(_)) => {
            Ok(Ints::Unreadable)
        }
        Some(_) => Err(bad_attr(op, name, "expected an integer array")),
    }
}

pub(crate) fn int_attr(op: &OpNode, name: &str) -> Result<Option<i64>, OpTableError> {
    match op.attr(name) {
        None => Ok(None),
        Some(a) => a.as_int().map(Some).ok_or_else(|| bad_attr(op, name, "expected an integer")),
    }
}

pub(crate) fn required_int(op: &OpNode, name: &str) -> Result<i64, OpTableError> {
    int_attr(op, name)?.ok_or_else(|| OpTableError::MissingAttr { op: op.name.clone(), attr: name.into() })
}

/// A required list of dimension numbers, each checked against `rank`.
pub(crate) fn dims_attr(op: &OpNode, name: &str, rank: usize) -> Result<Vec<usize>, OpTableError> {
    match ints_attr(op, name)? {
        Ints::Values(v) => check_dim_list(op, name, &v, rank),
        Ints::Absent => Err(OpTableError::MissingAttr { op: op.name.clone(), attr: name.into() }),
        Ints::Unreadable => Err(bad_attr(op, name, "values cannot be read (expected array<i64: ...>)")),
    }
}

/// Checks that dimension numbers are in `[0, rank)` and distinct.
pub(crate) fn check_dim_list(op: &OpNode, name: &str, dims: &[i64], rank: usize) -> Result<Vec<usize>, OpTableError> {
    let mut out: Vec<usize> = Vec::with_capacity(dims.len());
    for &d in dims {
        if d < 0 || d as usize >= rank {
            return Err(bad_attr(op, name, format!("dimension {d} out of range for rank {rank}")));
        }
        if out.contains(&(d as usize)) {
            return Err(bad_attr(op, name, format!("dimension {d} given twice")));
        }
        out.push(d as usize);
    }
    Ok(out)
}

/// A required dimension number (`dimension = 0 : i64`) checked against `rank`.
pub(crate) fn dim_attr(op: &OpNode, name: &str, rank: usize) -> Result<usize, OpTableError> {
    let d = required_int(op, name)?;
    Ok(check_dim_list(op, name, &[d], rank)?[0])
}

/// The text of a required opaque attribute, parsed with `parse`; errors name the attribute.
pub(crate) fn parsed_attr<T>(
    op: &OpNode,
    name: &str,
    parse: fn(&str) -> Result<T, AttrError>,
) -> Result<T, OpTableError> {
    let attr = op.attr(name).ok_or_else(|| OpTableError::MissingAttr { op: op.name.clone(), attr: name.into() })?;
    let text = opaque_text(attr).ok_or_else(|| bad_attr(op, name, "expected a #stablehlo attribute"))?;
    parse(text).map_err(|source| OpTableError::Attr { op: op.name.clone(), attr: name.into(), source })
}

// ---------------------------------------------------------------------------------------------
// The builder every rule family uses

/// Collects factors and their placement; `finish` drops size-1 factors, gives every dimension
/// nobody mapped its own need-replication factor, and checks the result against the shapes.
#[derive(Clone)]
pub(crate) struct RuleBuilder<'a> {
    pub op: &'a OpNode,
    pub operands: Vec<Option<&'a TensorType>>,
    pub results: Vec<Option<&'a TensorType>>,
    factors: Vec<Factor>,
    operand_dims: Vec<Vec<Vec<usize>>>,
    result_dims: Vec<Vec<Vec<usize>>>,
}

impl<'a> RuleBuilder<'a> {
    pub fn new(op: &'a OpNode, operands: &[Option<&'a TensorType>]) -> Self {
        let results: Vec<Option<&TensorType>> = op.results.iter().map(|r| r.tensor()).collect();
        let dims =
            |ts: &[Option<&TensorType>]| ts.iter().map(|t| vec![Vec::new(); t.map_or(0, |t| t.rank())]).collect();
        RuleBuilder {
            op,
            operand_dims: dims(operands),
            result_dims: dims(&results),
            operands: operands.to_vec(),
            results,
            factors: Vec::new(),
        }
    }

    pub fn shape_err(&self, message: impl Into<String>) -> OpTableError {
        shape_err(self.op, message)
    }

    /// Operand `i`'s type; `Ok(None)` when it is not known (the caller falls back), an error
    /// when the op has fewer operands.
    pub fn operand(&self, i: usize) -> Result<Option<&'a TensorType>, OpTableError> {
        match self.operands.get(i) {
            Some(t) => Ok(*t),
            None => Err(self.shape_err(format!("expects at least {} operands, has {}", i + 1, self.operands.len()))),
        }
    }

    pub fn result(&self, i: usize) -> Result<Option<&'a TensorType>, OpTableError> {
        match self.results.get(i) {
            Some(t) => Ok(*t),
            None => Err(self.shape_err(format!("expects at least {} results, has {}", i + 1, self.results.len()))),
        }
    }

    pub fn expect_operands(&self, n: usize) -> Result<(), OpTableError> {
        if self.operands.len() != n {
            return Err(self.shape_err(format!("expects {n} operands, has {}", self.operands.len())));
        }
        Ok(())
    }

    pub fn expect_results(&self, n: usize) -> Result<(), OpTableError> {
        if self.results.len() != n {
            return Err(self.shape_err(format!("expects {n} results, has {}", self.results.len())));
        }
        Ok(())
    }

    pub fn factor(&mut self, size: i64, kind: FactorKind) -> usize {
        self.factors.push(Factor { size, kind });
        self.factors.len() - 1
    }

    /// Appends factor `f` (as the next, more minor, part) to operand `t`'s dim `d`.
    pub fn map_operand(&mut self, t: usize, d: usize, f: usize) {
        if let Some(dims) = self.operand_dims.get_mut(t).and_then(|ds| ds.get_mut(d)) {
            dims.push(f);
        }
    }

    pub fn map_result(&mut self, t: usize, d: usize, f: usize) {
        if let Some(dims) = self.result_dims.get_mut(t).and_then(|ds| ds.get_mut(d)) {
            dims.push(f);
        }
    }

    pub fn operand_size(&self, t: usize, d: usize) -> Option<i64> {
        self.operands.get(t).copied().flatten().and_then(|ty| ty.shape.get(d).copied())
    }

    pub fn result_size(&self, t: usize, d: usize) -> Option<i64> {
        self.results.get(t).copied().flatten().and_then(|ty| ty.shape.get(d).copied())
    }

    /// A new factor mapped to operand dim `(t, d)` with that dim's size.
    pub fn operand_factor(&mut self, t: usize, d: usize, kind: FactorKind) -> usize {
        let size = self.operand_size(t, d).unwrap_or(1);
        let f = self.factor(size, kind);
        self.map_operand(t, d, f);
        f
    }

    pub fn result_factor(&mut self, t: usize, d: usize, kind: FactorKind) -> usize {
        let size = self.result_size(t, d).unwrap_or(1);
        let f = self.factor(size, kind);
        self.map_result(t, d, f);
        f
    }

    /// Relates operand dim `(t, od)` and result dim `(r, rd)`: one shared factor of `kind` when
    /// their sizes agree, else a factor for each, combined when `kind` is, else need-replication.
    pub fn relate(&mut self, t: usize, od: usize, r: usize, rd: usize, kind: FactorKind) -> Option<usize> {
        if self.operand_size(t, od) == self.result_size(r, rd) {
            let f = self.result_factor(r, rd, kind);
            self.map_operand(t, od, f);
            Some(f)
        } else {
            let apart = if kind == FactorKind::Combined { kind } else { FactorKind::NeedReplication };
            self.operand_factor(t, od, apart);
            self.result_factor(r, rd, apart);
            None
        }
    }

    /// Every dimension its own need-replication factor.
    pub fn conservative(mut self, known: bool) -> OpRule {
        self.factors.clear();
        for dims in self.operand_dims.iter_mut().chain(self.result_dims.iter_mut()) {
            for d in dims.iter_mut() {
                d.clear();
            }
        }
        let mut rule = self.finish_unchecked();
        rule.known = known;
        rule
    }

    fn finish_unchecked(mut self) -> OpRule {
        // Unmapped dimensions get their own need-replication factor.
        for (is_result, t) in (0..self.operand_dims.len())
            .map(|t| (false, t))
            .chain((0..self.result_dims.len()).map(|t| (true, t)))
            .collect::<Vec<_>>()
        {
            let rank = if is_result { self.result_dims[t].len() } else { self.operand_dims[t].len() };
            for d in 0..rank {
                let (dims, size) = if is_result {
                    (&self.result_dims[t][d], self.result_size(t, d))
                } else {
                    (&self.operand_dims[t][d], self.operand_size(t, d))
                };
                if dims.is_empty() {
                    let f = self.factor(size.unwrap_or(1), FactorKind::NeedReplication);
                    if is_result {
                        self.result_dims[t][d].push(f);
                    } else {
                        self.operand_dims[t][d].push(f);
                    }
                }
            }
        }
        // Drop size-1 factors and renumber the rest.
        let mut new_id = vec![usize::MAX; self.factors.len()];
        let mut factors = Vec::new();
        for (i, f) in self.factors.iter().enumerate() {
            if f.size != 1 {
                new_id[i] = factors.len();
                factors.push(*f);
            }
        }
        let renumber = |tensors: Vec<Vec<Vec<usize>>>| -> Vec<Vec<Vec<usize>>> {
            tensors
                .into_iter()
                .map(|dims| {
                    dims.into_iter()
                        .map(|fs| fs.into_iter().filter(|&f| new_id[f] != usize::MAX).map(|f| new_id[f]).collect())
                        .collect()
                })
                .collect()
        };
        let mut rule = OpRule {
            factors,
            operand_dims: renumber(self.operand_dims),
            result_dims: renumber(self.result_dims),
            known: true,
        };
        // Factors nobody uses any more (e.g. after a rule mapped nothing) are removed.
        let used: Vec<bool> = (0..rule.factors.len()).map(|f| rule.in_operands(f) || rule.in_results(f)).collect();
        if used.iter().any(|u| !u) {
            let mut id = vec![usize::MAX; used.len()];
            let mut kept = Vec::new();
            for (i, u) in used.iter().enumerate() {
                if *u {
                    id[i] = kept.len();
                    kept.push(rule.factors[i]);
                }
            }
            let re = |ts: &mut Vec<Vec<Vec<usize>>>| {
                for fs in ts.iter_mut().flatten() {
                    for f in fs.iter_mut() {
                        *f = id[*f];
                    }
                }
            };
            re(&mut rule.operand_dims);
            re(&mut rule.result_dims);
            rule.factors = kept;
        }
        rule
    }

    /// Builds the rule and checks it against the shapes; a mismatch means the shapes contradict
    /// the op (e.g. an elementwise operand of another shape than the result).
    pub fn finish(self) -> Result<OpRule, OpTableError> {
        let op = self.op;
        let operands = self.operands.clone();
        let results = self.results.clone();
        let rule = self.finish_unchecked();
        rule.check(&operands, &results).map_err(|m| shape_err(op, format!("shapes do not fit the op: {m}")))?;
        Ok(rule)
    }
}

#[cfg(test)]
pub(crate) mod test_util {
    use crate::ir::graph::{Attr, Block, OpNode, Region, ValueRef};
    use crate::ir::types::{ElementType, TensorType, ValueType};

    pub fn f32t(shape: &[i64]) -> TensorType {
        TensorType::new(shape.to_vec(), ElementType::f32())
    }

    pub fn typed(shape: &[i64], element: &str) -> TensorType {
        TensorType::new(shape.to_vec(), ElementType::parse(element).unwrap())
    }

    pub fn op(name: &str, results: &[TensorType], attrs: &[(&str, Attr)]) -> OpNode {
        OpNode {
            name: name.to_string(),
            location: String::new(),
            operands: Vec::new(),
            results: results.iter().cloned().map(ValueType::Tensor).collect(),
            attrs: attrs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
            regions: Vec::new(),
        }
    }

    pub fn opaque(data: &str) -> Attr {
        Attr::Opaque { dialect: "stablehlo".into(), data: data.into() }
    }

    pub fn ints(v: &[i64]) -> Attr {
        Attr::I64Array(v.to_vec())
    }

    /// JAX's attention scores, q . k^T per head: `[B, T, H, D] x [B, S, H, D] -> [B, H, T, S]`.
    pub const ATTENTION_SCORES: &str = "dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 2], \
         lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>";

    /// A `dot_general` with dimension numbers `dn` (`dot<...>`) and an f32 result of shape `out`.
    pub fn dot_general(dn: &str, out: &[i64]) -> OpNode {
        op("stablehlo.dot_general", &[f32t(out)], &[("dot_dimension_numbers", opaque(dn))])
    }

    /// A 2-D NHWC convolution (kernel HWIO) with an f32 result of shape `out` and `attrs` besides
    /// its dimension numbers.
    pub fn conv_nhwc(out: &[i64], attrs: &[(&str, Attr)]) -> OpNode {
        let mut all = vec![("dimension_numbers", opaque("conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>"))];
        all.extend(attrs.iter().cloned());
        op("stablehlo.convolution", &[f32t(out)], &all)
    }

    /// The body of a sum: `^bb0(%a: tensor<f32>, %b: tensor<f32>): add(%a, %b)`.
    pub fn add_body() -> Region {
        combiner_body("stablehlo.add")
    }

    /// The body of a reduction by the binary op `name` (`stablehlo.maximum`: a max).
    pub fn combiner_body(name: &str) -> Region {
        let scalar = f32t(&[]);
        let combine = OpNode {
            operands: vec![ValueRef::Arg(0), ValueRef::Arg(1)],
            ..op(name, std::slice::from_ref(&scalar), &[])
        };
        let args = vec![ValueType::Tensor(scalar.clone()), ValueType::Tensor(scalar)];
        Region { blocks: vec![Block { args, ops: vec![combine], terminator: None }] }
    }

    /// Builds the rule and checks its conventions.
    pub fn checked(op: &OpNode, operands: &[&TensorType]) -> super::OpRule {
        let operands: Vec<Option<&TensorType>> = operands.iter().map(|t| Some(*t)).collect();
        let rule = super::op_rule(op, &operands).unwrap_or_else(|e| panic!("{e}"));
        let results: Vec<Option<&TensorType>> = op.results.iter().map(|r| r.tensor()).collect();
        rule.check(&operands, &results).unwrap_or_else(|e| panic!("{}: {e}\n{rule:?}", op.name));
        rule
    }

    pub fn err(op: &OpNode, operands: &[&TensorType]) -> super::OpTableError {
        let operands: Vec<Option<&TensorType>> = operands.iter().map(|t| Some(*t)).collect();
        super::op_rule(op, &operands).expect_err("expected an error")
    }

    /// The kinds of the factors of one tensor dim, e.g. for asserting `[PassThrough]`.
    pub fn kinds(rule: &super::OpRule, dims: &[usize]) -> Vec<super::FactorKind> {
        dims.iter().map(|&f| rule.factors[f].kind).collect()
    }
}
