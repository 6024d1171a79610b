//! Structural hashes of ops (names, attributes, result types, nested bodies; never locations),
//! and value numbers: ops that compute the same thing from the same operands share one.

use crate::ir::effects::may_have_effects;
use crate::ir::graph::{Attr, Graph, Region, ValueRef};
use crate::ir::op_table::canonical_name;
use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};

impl Fnv {
    /// FNV-1a's offset basis.
    pub fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Default for Fnv {
    fn default() -> Self {
        Fnv::new()
    }
}

/// A deterministic 64-bit FNV-1a hasher (the std hasher's output may change between Rust
/// releases; signatures only need to be stable within a run, but reproducible is better).
pub struct Fnv(pub u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
    }
}

pub fn hash_attr(attr: &Attr, h: &mut Fnv) {
    std::mem::discriminant(attr).hash(h);
    match attr {
        Attr::Unit => {}
        Attr::Bool(b) => b.hash(h),
        Attr::Int(v) => v.hash(h),
        Attr::Float(f) => f.to_bits().hash(h),
        Attr::Str(s) | Attr::SymbolRef(s) | Attr::Other(s) => s.hash(h),
        Attr::I64Array(v) => v.hash(h),
        Attr::BoolArray(v) => v.hash(h),
        Attr::Array(items) => {
            items.len().hash(h);
            items.iter().for_each(|a| hash_attr(a, h));
        }
        Attr::Dict(map) => hash_attrs(map, h),
        Attr::Elements { ty, splat, .. } => {
            ty.hash(h);
            splat.hash(h);
        }
        Attr::IntScalar { ty, value } => {
            ty.hash(h);
            value.hash(h);
        }
        Attr::FloatScalar { ty, value } => {
            ty.hash(h);
            value.to_bits().hash(h);
        }
        Attr::Opaque { dialect, data } => {
            dialect.hash(h);
            data.hash(h);
        }
        Attr::Type(ty) => ty.hash(h),
    }
}

pub fn hash_attrs(attrs: &BTreeMap<String, Attr>, h: &mut Fnv) {
    attrs.len().hash(h);
    for (name, attr) in attrs {
        name.hash(h);
        hash_attr(attr, h);
    }
}

/// Nested bodies: their ops, types and attributes, with values by their local position.
pub fn hash_region(region: &Region, h: &mut Fnv) {
    region.blocks.len().hash(h);
    for block in &region.blocks {
        block.args.hash(h);
        for op in block.ops.iter().chain(&block.terminator) {
            op.name.hash(h);
            op.operands.hash(h);
            op.results.hash(h);
            hash_attrs(&op.attrs, h);
            op.regions.iter().for_each(|r| hash_region(r, h));
        }
    }
}

/// Per op, a value number: ops with one number compute the same results (one name, attributes,
/// result types and nested body, operands of equal numbers: the same arguments, or results of
/// ops with one number), as two `jnp.sum(mask)` of one step do; effectful ops (a custom call,
/// an RNG) only their own.
pub fn value_numbers(graph: &Graph) -> Vec<usize> {
    let ops = graph.ops();
    let mut numbers: Vec<usize> = Vec::with_capacity(ops.len());
    let mut first_of: HashMap<u64, Vec<usize>> = HashMap::new();
    let operand_key = |numbers: &[usize], v: &ValueRef| match *v {
        ValueRef::Arg(a) => (0usize, a, 0usize),
        ValueRef::Op { op, result } => (1, numbers[op], result),
        ValueRef::Outer => (2, 0, 0),
    };
    for (index, op) in ops.iter().enumerate() {
        let pure = !may_have_effects(&op.name) && canonical_name(&op.name) != "rng";
        let mut h = Fnv::new();
        op.name.hash(&mut h);
        op.results.hash(&mut h);
        hash_attrs(&op.attrs, &mut h);
        op.regions.iter().for_each(|r| hash_region(r, &mut h));
        let keys: Vec<(usize, usize, usize)> = op.operands.iter().map(|v| operand_key(&numbers, v)).collect();
        keys.hash(&mut h);
        let same = |other: &usize| {
            let o = &ops[*other];
            o.name == op.name
                && o.results == op.results
                && o.attrs == op.attrs
                && o.operands.iter().map(|v| operand_key(&numbers, v)).eq(keys.iter().copied())
        };
        let candidates = first_of.entry(h.finish()).or_default();
        let number = match candidates.iter().find(|other| pure && same(other)) {
            Some(&other) => numbers[other],
            None => {
                candidates.push(index);
                index
            }
        };
        numbers.push(number);
    }
    numbers
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::graph::{Attrs, Param};
    use crate::ir::test_graphs::{attrs, t, Builder};

    #[test]
    fn ops_computing_the_same_from_the_same_operands_share_a_number() {
        // x: [8, 4], y: [8, 4]. sum(x) twice, sum(y), tanh(sum(x)) of both sums of x, a
        // transpose of x in two permutations, and two custom calls of x.
        let mut b = Builder::new();
        let (x, y) = (ValueRef::Arg(0), ValueRef::Arg(1));
        let first = b.sum(x);
        let again = b.sum(x);
        let other = b.sum(y);
        let t1 = b.unary("stablehlo.tanh", first, t(&[]));
        let t2 = b.unary("stablehlo.tanh", again, t(&[]));
        let swap = |p: Vec<i64>| attrs(&[("permutation", Attr::I64Array(p))]);
        let p1 = b.op("stablehlo.transpose", vec![x], t(&[8, 4]), swap(vec![0, 1]));
        let p2 = b.op("stablehlo.transpose", vec![x], t(&[8, 4]), swap(vec![1, 0]));
        let c1 = b.op("stablehlo.custom_call", vec![x], t(&[8, 4]), Attrs::new());
        let c2 = b.op("stablehlo.custom_call", vec![x], t(&[8, 4]), Attrs::new());
        let returned = vec![t1, t2, other, p1, p2, c1, c2];
        let g = b.graph(vec![Param { ty: t(&[8, 4]), attrs: Attrs::new() }; 2], returned.clone());
        let numbers = value_numbers(&g);
        let number = |v: ValueRef| match v {
            ValueRef::Op { op, .. } => numbers[op],
            _ => unreachable!(),
        };
        assert_eq!(number(first), number(again));
        assert_eq!(number(t1), number(t2));
        assert_ne!(number(first), number(other));
        assert_ne!(number(p1), number(p2));
        assert_ne!(number(c1), number(c2), "effects are their own");
    }
}
