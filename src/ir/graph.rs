//! The graph view of an entry function: plain data that the algorithms read.
//!
//! `passes/` builds it from MLIR; nothing here depends on MLIR. Tensor constants keep only their
//! type (never their payload), so the view of a paper-sized model stays small.

use super::types::{TensorType, ValueType};
use std::collections::BTreeMap;

crate::typed_index::typed_index!(
    /// An op of a block (the entry body, for the graph view), by its position in program order.
    OpId
);

/// Where a value comes from, relative to the block that uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ValueRef {
    /// Argument `i` of the enclosing block (for the entry block: the function's arguments).
    Arg(usize),
    /// Result `result` of op `op` of the same block.
    Op { op: usize, result: usize },
    /// A value defined outside the enclosing region (a capture); the graph does not track it.
    Outer,
}

/// An attribute, as much as the algorithms need of it.
#[derive(Clone, Debug, PartialEq)]
pub enum Attr {
    Unit,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    I64Array(Vec<i64>),
    BoolArray(Vec<bool>),
    Array(Vec<Attr>),
    Dict(BTreeMap<String, Attr>),
    /// Dense or resource elements: only the type is kept, never the payload, but for the
    /// finite numbers of a splat (its one number: a count or scale of any element type) or of a
    /// constant of a few elements (a shape), row-major.
    Elements {
        ty: TensorType,
        splat: bool,
        values: Option<Vec<f64>>,
    },
    /// A rank-0 integer constant keeps its value: loop counters, trip bounds and indices are
    /// read from these (src/ir/loops.rs).
    IntScalar {
        ty: TensorType,
        value: i64,
    },
    /// A rank-0 f32 or f64 constant keeps its value: the divisor of a mean, a scale.
    FloatScalar {
        ty: TensorType,
        value: f64,
    },
    /// `#dialect.name<...>` attributes of unregistered dialects: the dialect and the raw text
    /// after it (e.g. `stablehlo` and `dot<lhs_contracting_dimensions = [1], ...>`).
    Opaque {
        dialect: String,
        data: String,
    },
    Type(ValueType),
    SymbolRef(String),
    /// Any other attribute, by its printed text.
    Other(String),
}

impl Attr {
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Attr::Int(v) => Some(*v),
            Attr::Bool(b) => Some(*b as i64),
            _ => None,
        }
    }

    /// The value of a rank-0 integer elements attribute.
    pub fn as_int_scalar(&self) -> Option<i64> {
        match self {
            Attr::IntScalar { value, .. } => Some(*value),
            _ => None,
        }
    }

    /// The value of a rank-0 integer or float elements attribute.
    pub fn as_f64_scalar(&self) -> Option<f64> {
        match self {
            Attr::IntScalar { value, .. } => Some(*value as f64),
            Attr::FloatScalar { value, .. } => Some(*value),
            _ => None,
        }
    }

    /// The value every element of a constant has: a rank-0 integer or float, or a splat.
    pub fn uniform_value(&self) -> Option<f64> {
        match self {
            Attr::Elements { splat: true, values: Some(values), .. } => values.first().copied(),
            Attr::Elements { .. } => None,
            other => other.as_f64_scalar(),
        }
    }

    pub fn as_i64_array(&self) -> Option<&[i64]> {
        match self {
            Attr::I64Array(v) => Some(v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Attr::Str(s) | Attr::SymbolRef(s) => Some(s),
            _ => None,
        }
    }
}

pub type Attrs = BTreeMap<String, Attr>;

/// One operation with its operands, result types, attributes and nested regions.
#[derive(Clone, Debug, PartialEq)]
pub struct OpNode {
    /// Full op name, e.g. `stablehlo.dot_general`.
    pub name: String,
    /// The op's location, printed (`loc("jit(f)/dot_general"("x.py":3:4))`).
    pub location: String,
    pub operands: Vec<ValueRef>,
    pub results: Vec<ValueType>,
    pub attrs: Attrs,
    /// Bodies of reduce, scatter, sort, while, case, ... in order.
    pub regions: Vec<Region>,
}

impl OpNode {
    pub fn attr(&self, name: &str) -> Option<&Attr> {
        self.attrs.get(name)
    }

    /// A static slice's start, limit and strides (strides 1 where omitted).
    pub fn slice_indices(&self) -> Option<(Vec<i64>, Vec<i64>, Vec<i64>)> {
        let array = |name: &str| self.attr(name).and_then(|a| a.as_i64_array()).map(<[i64]>::to_vec);
        let (start, limit) = (array("start_indices")?, array("limit_indices")?);
        let strides = array("strides").unwrap_or_else(|| vec![1; start.len()]);
        Some((start, limit, strides))
    }

    /// The op name without its dialect prefix (`dot_general` for `stablehlo.dot_general`).
    pub fn short_name(&self) -> &str {
        self.name.split_once('.').map_or(self.name.as_str(), |(_, rest)| rest)
    }

    pub fn dialect(&self) -> &str {
        self.name.split_once('.').map_or("", |(d, _)| d)
    }
}

/// A region: a list of blocks (StableHLO bodies have exactly one).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Region {
    pub blocks: Vec<Block>,
}

/// A block: its arguments, its ops in order, and what its terminator yields.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Block {
    pub args: Vec<ValueType>,
    /// All ops but the terminator.
    pub ops: Vec<OpNode>,
    /// The terminator (`func.return`, `stablehlo.return`, ...), if any.
    pub terminator: Option<OpNode>,
}

impl Block {
    /// The type of a value referenced from inside this block.
    pub fn value_type(&self, value: ValueRef) -> Option<&ValueType> {
        match value {
            ValueRef::Arg(i) => self.args.get(i),
            ValueRef::Op { op, result } => self.ops.get(op)?.results.get(result),
            ValueRef::Outer => None,
        }
    }

    /// For every op, the (op index, operand index) pairs that use each of its results.
    pub fn users(&self) -> Vec<Vec<Vec<(usize, usize)>>> {
        let mut users: Vec<Vec<Vec<(usize, usize)>>> =
            self.ops.iter().map(|op| vec![Vec::new(); op.results.len()]).collect();
        for (user, op) in self.ops.iter().enumerate() {
            for (pos, operand) in op.operands.iter().enumerate() {
                if let ValueRef::Op { op, result } = *operand {
                    users[op][result].push((user, pos));
                }
            }
        }
        users
    }
}

/// A function argument or result with its attributes (`tf.aliasing_output`, `jax.buffer_donor`,
/// `mhlo.sharding`, `jax.result_info`, ...).
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub ty: ValueType,
    pub attrs: Attrs,
}

impl Param {
    /// The result index this argument's buffer is aliased to (`tf.aliasing_output`), if any.
    pub fn aliased_output(&self) -> Option<usize> {
        self.attrs.get("tf.aliasing_output").and_then(Attr::as_int).map(|i| i as usize)
    }

    /// Whether JAX marked this argument as donated (aliased or `jax.buffer_donor`).
    pub fn is_donated(&self) -> bool {
        self.aliased_output().is_some()
            || matches!(self.attrs.get("jax.buffer_donor"), Some(Attr::Bool(true)) | Some(Attr::Unit))
    }
}

/// The graph view of one function.
#[derive(Clone, Debug, PartialEq)]
pub struct Graph {
    pub func_name: String,
    pub args: Vec<Param>,
    pub results: Vec<Param>,
    /// The function body; `body.args` mirrors `args`' types.
    pub body: Block,
    /// What the body returns, one per function result.
    pub returned: Vec<ValueRef>,
}

impl Graph {
    pub fn ops(&self) -> &[OpNode] {
        &self.body.ops
    }

    pub fn value_type(&self, value: ValueRef) -> Option<&ValueType> {
        self.body.value_type(value)
    }

    /// Operand types of op `index`, in order (`None` for captures or non-tensor values).
    pub fn operand_tensors(&self, index: usize) -> Vec<Option<&TensorType>> {
        self.body.ops[index].operands.iter().map(|v| self.value_type(*v).and_then(ValueType::tensor)).collect()
    }

    /// Bytes of all function arguments (the parameters, optimizer state and inputs of a step);
    /// `None` past u64 (the graph reader rejects such a function).
    pub fn checked_argument_bytes(&self) -> Option<u64> {
        self.args.iter().try_fold(0u64, |acc, a| acc.checked_add(a.ty.checked_byte_size()?))
    }

    /// Bytes of all function arguments, saturating: exact for every graph the reader accepts.
    pub fn argument_bytes(&self) -> u64 {
        self.checked_argument_bytes().unwrap_or(u64::MAX)
    }
}
