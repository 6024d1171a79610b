//! The operator graph of the clustering (Eq. 6) and the precomputation that makes the layer
//! communication C(i, k) incremental.
//!
//! C(i, k) = bytes of the distinct values produced by ops before i and consumed by some op in
//! i..=k (graph inputs are not counted: they come from no operator). For a fixed k, moving the
//! layer start from i + 1 to i adds the bytes of values op i reads from ops before i whose next
//! reader after i is beyond k (otherwise they are already counted), and subtracts the bytes of
//! values op i produces whose first reader is <= k (they become internal). So a sweep over i for one k costs the degrees of the swept ops, not a set union per pair.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §5.

use super::error::InterError;
use std::collections::{HashMap, HashSet};

/// A value an operand reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueRef {
    /// An argument of the graph (never counted as communication between layers).
    GraphInput(usize),
    /// Result `result` of op `op` (an index into the op list, which must be earlier).
    Op { op: usize, result: usize },
}

/// One operand of an op: the value and its size in bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Operand {
    pub value: ValueRef,
    pub bytes: u64,
}

/// An operator in topological order: its FLOPs and operands.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OpNode {
    pub flops: f64,
    pub operands: Vec<Operand>,
}

const NONE: usize = usize::MAX;

/// Per-op lists for the incremental C(i, k), and FLOP prefix sums.
pub(crate) struct CommGraph {
    /// prefix[p] = FLOPs of ops 0..p.
    pub(crate) prefix: Vec<f64>,
    in_start: Vec<usize>,
    /// (bytes, next reader after this op or NONE) of each distinct value an op reads from an
    /// earlier op.
    ins: Vec<(u64, usize)>,
    out_start: Vec<usize>,
    /// (bytes, first reader) of each value an op produces that somebody reads.
    outs: Vec<(u64, usize)>,
}

impl CommGraph {
    pub(crate) fn new(ops: &[OpNode]) -> Result<Self, InterError> {
        let mut prefix = Vec::with_capacity(ops.len() + 1);
        prefix.push(0.0);
        for (c, op) in ops.iter().enumerate() {
            if !op.flops.is_finite() || op.flops < 0.0 {
                return Err(InterError::InvalidInput(format!("op {c} has FLOPs {}", op.flops)));
            }
            prefix.push(prefix[c] + op.flops);
        }
        // Values: producer, bytes, readers (ascending, distinct).
        let mut id_of: HashMap<(usize, usize), usize> = HashMap::new();
        let mut values: Vec<(usize, u64, Vec<usize>)> = Vec::new();
        for (c, op) in ops.iter().enumerate() {
            for o in &op.operands {
                let ValueRef::Op { op: p, result } = o.value else { continue };
                if p >= c {
                    return Err(InterError::InvalidInput(format!(
                        "op {c} reads result {result} of op {p}: ops must be in topological order"
                    )));
                }
                let v = *id_of.entry((p, result)).or_insert_with(|| {
                    values.push((p, o.bytes, Vec::new()));
                    values.len() - 1
                });
                if values[v].1 != o.bytes {
                    return Err(InterError::InvalidInput(format!(
                        "result {result} of op {p} is read with sizes {} and {} bytes",
                        values[v].1, o.bytes
                    )));
                }
                if values[v].2.last() != Some(&c) {
                    values[v].2.push(c);
                }
            }
        }
        let n = ops.len();
        let mut ins_of: Vec<Vec<(u64, usize)>> = vec![Vec::new(); n];
        let mut outs_of: Vec<Vec<(u64, usize)>> = vec![Vec::new(); n];
        for (p, bytes, readers) in &values {
            outs_of[*p].push((*bytes, readers[0]));
            for (j, &r) in readers.iter().enumerate() {
                ins_of[r].push((*bytes, readers.get(j + 1).copied().unwrap_or(NONE)));
            }
        }
        let (in_start, ins) = flatten(ins_of);
        let (out_start, outs) = flatten(outs_of);
        Ok(CommGraph { prefix, in_start, ins, out_start, outs })
    }

    pub(crate) fn num_ops(&self) -> usize {
        self.prefix.len() - 1
    }

    /// FLOPs of ops i..p (prefix difference: the one formula every check uses).
    pub(crate) fn flops(&self, i: usize, p: usize) -> f64 {
        self.prefix[p] - self.prefix[i]
    }

    /// Calls `f(i, C(i, k))` for i = k, k - 1, ..., lo.
    #[inline]
    pub(crate) fn sweep(&self, k: usize, lo: usize, mut f: impl FnMut(usize, u64)) {
        let mut c: u64 = 0;
        let mut i = k + 1;
        while i > lo {
            i -= 1;
            for &(b, next) in &self.ins[self.in_start[i]..self.in_start[i + 1]] {
                if next == NONE || next > k {
                    c += b;
                }
            }
            for &(b, first) in &self.outs[self.out_start[i]..self.out_start[i + 1]] {
                if first <= k {
                    c -= b;
                }
            }
            f(i, c);
        }
    }
}

fn flatten(lists: Vec<Vec<(u64, usize)>>) -> (Vec<usize>, Vec<(u64, usize)>) {
    let mut start = Vec::with_capacity(lists.len() + 1);
    let mut flat = Vec::new();
    start.push(0);
    for l in lists {
        flat.extend(l);
        start.push(flat.len());
    }
    (start, flat)
}

/// C(i, k) by definition (distinct values from ops before i read by ops i..=k); the reference
/// of the tests and the per-layer figures of a result.
pub fn layer_comm(ops: &[OpNode], i: usize, k: usize) -> u64 {
    let mut seen = HashSet::new();
    let mut total = 0;
    for op in &ops[i..=k] {
        for o in &op.operands {
            if let ValueRef::Op { op: p, result } = o.value {
                if p < i && seen.insert((p, result)) {
                    total += o.bytes;
                }
            }
        }
    }
    total
}
