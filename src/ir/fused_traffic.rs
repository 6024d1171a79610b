//! Device-memory traffic per op once elementwise chains are fused, as XLA does on GPUs: the
//! bytes the memory term of the stage model prices (docs/cost-model.md §3).
//!
//! Every op is one of:
//! - a **kernel** of its own (contractions, reductions, gathers, sorts, custom calls, collectives,
//!   ops with regions, and any op not listed below): it reads its operands from memory and
//!   writes its results;
//! - **fusible** (the op table's elementwise ops, `elementwise_info`, and data movement:
//!   broadcasts, iotas, slices, concatenations, pads): computed inside the
//!   kernels that consume it. Its result goes to memory only where it must or where that moves
//!   fewer bytes: it is returned, or read by a kernel other than a reduction (XLA fuses a
//!   reduction's producers into it, but a contraction or a custom call takes its operands from
//!   memory), or fusing it into each of several kernels would read its operands more often
//!   than writing its result once and reading that costs;
//! - an **alias** (reshape, transpose, bitcast, barrier): no kernel, its operand's bytes seen
//!   another way (XLA's layout assignment folds transposes into the contractions reading them);
//!   a **constant** is in memory like an argument.
//!
//! A value in memory (an argument, a constant, a kernel's result, a materialized fusible
//! result) is read once by every kernel that uses it, directly or through fused ops and
//! aliases; through a slice only the slice's bytes. Each kernel is charged the bytes it reads
//! and writes; fused ops and aliases are charged nothing (their work runs in their kernels).

use std::collections::BTreeMap;

use super::graph::{Block, OpNode, ValueRef};
use super::op_table::{canonical_name, elementwise_info};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Kernel,
    Fusible,
    Alias,
    Constant,
}

fn role(op: &OpNode) -> Role {
    let name = canonical_name(&op.name);
    match name.as_str() {
        "reshape"
        | "dynamic_reshape"
        | "transpose"
        | "bitcast_convert"
        | "optimization_barrier"
        | "get_tuple_element"
        | "tuple" => Role::Alias,
        "constant" => Role::Constant,
        _ if !op.regions.is_empty() => Role::Kernel,
        "broadcast_in_dim"
        | "dynamic_broadcast_in_dim"
        | "broadcast"
        | "iota"
        | "dynamic_iota"
        | "reverse"
        | "slice"
        | "dynamic_slice"
        | "real_dynamic_slice"
        | "dynamic_update_slice"
        | "concatenate"
        | "pad" => Role::Fusible,
        // The op table's elementwise ops (stablehlo's and chlo's); everything else, unknown ops
        // included, is a kernel reading its operands and writing its results.
        n if elementwise_info(n).is_some() => Role::Fusible,
        _ => Role::Kernel,
    }
}

/// Ops that read only the part of their operand they return.
fn reads_its_result_only(op: &OpNode) -> bool {
    matches!(canonical_name(&op.name).as_str(), "slice" | "dynamic_slice" | "real_dynamic_slice")
}

fn is_reduce(op: &OpNode) -> bool {
    canonical_name(&op.name) == "reduce"
}

fn bytes_of(op: &OpNode) -> u64 {
    op.results.iter().map(|t| t.checked_byte_size().unwrap_or(u64::MAX)).fold(0, u64::saturating_add)
}

/// The kernels of a block once elementwise chains are fused, per op.
#[derive(Clone, Debug, PartialEq)]
pub struct FusedKernels {
    /// The bytes the op's kernel reads from and writes to device memory; 0 for fused ops and
    /// aliases.
    pub traffic: Vec<u64>,
    /// Whether the op is launched as a kernel of its own: it is a kernel, or a fusible op whose
    /// result goes to memory, and it moves bytes.
    pub launches: Vec<bool>,
}

/// Per op of `block`, the bytes its kernel reads from and writes to device memory; 0 for
/// fused ops and aliases. `returned` are the values the block hands on (its function's
/// results), which are in memory.
pub fn fused_traffic(block: &Block, returned: &[ValueRef]) -> Vec<u64> {
    fused_kernels(block, returned).traffic
}

/// [`fused_traffic`] and which ops launch a kernel.
pub fn fused_kernels(block: &Block, returned: &[ValueRef]) -> FusedKernels {
    let n = block.ops.len();
    let roles: Vec<Role> = block.ops.iter().map(role).collect();
    let users = block.users();
    let mut in_memory: Vec<bool> = roles.iter().map(|r| matches!(r, Role::Kernel | Role::Constant)).collect();
    let mut returned_op = vec![false; n];
    for value in returned {
        if let ValueRef::Op { op, .. } = *value {
            if op < n {
                returned_op[op] = true;
            }
        }
    }
    // Aliases of values that must be in memory pass the need on to their operand.
    let mut alias_needs_memory = vec![false; n];
    // kernels[op]: the kernels that run op's work (itself, or those it is fused into).
    let mut kernels: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in (0..n).rev() {
        let readers = || users[i].iter().flatten().map(|&(u, _)| u);
        let read_from_memory = returned_op[i]
            || readers().any(|u| match roles[u] {
                Role::Kernel => !is_reduce(&block.ops[u]),
                Role::Alias => alias_needs_memory[u],
                Role::Fusible | Role::Constant => false,
            });
        let mut fused_into: Vec<usize> = readers().flat_map(|u| kernels[u].iter().copied()).collect();
        fused_into.sort_unstable();
        fused_into.dedup();
        match roles[i] {
            Role::Kernel => kernels[i] = vec![i],
            Role::Constant => {}
            Role::Alias => {
                alias_needs_memory[i] = read_from_memory;
                kernels[i] = fused_into;
            }
            Role::Fusible => {
                let copies = fused_into.len() as u64;
                let operand_bytes = operand_bytes(block, i);
                let result_bytes = bytes_of(&block.ops[i]);
                let cheaper_once = copies > 1
                    && copies.saturating_mul(operand_bytes)
                        > operand_bytes.saturating_add(result_bytes.saturating_mul(copies + 1));
                if read_from_memory || cheaper_once {
                    in_memory[i] = true;
                    kernels[i] = vec![i];
                } else {
                    kernels[i] = fused_into;
                }
            }
        }
    }
    let mut traffic = vec![0u64; n];
    // Each value in memory: written by its kernel, read by every kernel of its users.
    let charge_reads = |traffic: &mut Vec<u64>, source: Option<usize>, bytes: u64, readers: &[(usize, usize)]| {
        let mut read: BTreeMap<usize, u64> = BTreeMap::new();
        for &(u, _) in readers {
            let through = if reads_its_result_only(&block.ops[u]) { bytes.min(bytes_of(&block.ops[u])) } else { bytes };
            for &k in &kernels[u] {
                if Some(k) != source {
                    let entry = read.entry(k).or_default();
                    *entry = (*entry).max(through);
                }
            }
        }
        for (k, b) in read {
            traffic[k] = traffic[k].saturating_add(b);
        }
    };
    let mut arg_users: Vec<Vec<(usize, usize)>> = vec![Vec::new(); block.args.len()];
    for (u, op) in block.ops.iter().enumerate() {
        for (pos, operand) in op.operands.iter().enumerate() {
            if let ValueRef::Arg(a) = *operand {
                if let Some(list) = arg_users.get_mut(a) {
                    list.push((u, pos));
                }
            }
        }
    }
    for (a, readers) in arg_users.iter().enumerate() {
        let bytes = block.args[a].checked_byte_size().unwrap_or(u64::MAX);
        charge_reads(&mut traffic, None, bytes, readers);
    }
    for i in 0..n {
        if !in_memory[i] {
            continue;
        }
        for (result, ty) in block.ops[i].results.iter().enumerate() {
            let bytes = ty.checked_byte_size().unwrap_or(u64::MAX);
            if roles[i] != Role::Constant {
                traffic[i] = traffic[i].saturating_add(bytes);
            }
            charge_reads(&mut traffic, Some(i), bytes, &users[i][result]);
        }
    }
    let launches = (0..n).map(|i| in_memory[i] && roles[i] != Role::Constant && traffic[i] > 0).collect();
    FusedKernels { traffic, launches }
}

fn operand_bytes(block: &Block, op: usize) -> u64 {
    block.ops[op]
        .operands
        .iter()
        .map(|v| block.value_type(*v).and_then(|t| t.checked_byte_size()).unwrap_or(0))
        .fold(0, u64::saturating_add)
}

#[cfg(test)]
mod tests;
