//! Layer signatures: a structural hash per layer (op names, phases, attributes, types, nested
//! bodies; operands by relative position, never locations or SSA numbers), so that the cost
//! cache can reuse the plans of structurally identical layers (e.g. transformer blocks).

use super::error::InterError;
use super::layer_assignment::LayerId;
use crate::ir::graph::{Graph, Param, ValueRef};
use crate::ir::structural_hash::{hash_attrs, hash_region, Fnv};
use crate::ir::train_step::{Phase, TrainStep};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// A hash of every layer's structure, equal for layers that are copies of each other: over the
/// layer's ops in program order, their names, phases, attributes (not locations), result types,
/// nested bodies, and operands by relative position: an operand produced in the layer by its
/// distance back and result index; one from outside (an argument or another layer's value) by
/// its type, whether it is a donated argument, and its first-use number within the layer; and
/// per result whether anything outside the layer reads it. SSA numbering never enters, so the
/// identical transformer blocks of a model hash alike.
pub fn layer_signatures(graph: &Graph, layer_of: &[LayerId], step: Option<&TrainStep>) -> Result<Vec<u64>, InterError> {
    let layer_of: Vec<usize> = layer_of.iter().map(|l| l.index()).collect();
    let n = graph.ops().len();
    if layer_of.len() != n {
        return Err(InterError::InvalidInput(format!("{} layer ids for {n} ops", layer_of.len())));
    }
    let phase = match step {
        Some(s) if s.phase.len() != n => {
            return Err(InterError::InvalidInput(format!(
                "the train step describes {} ops, the graph has {n}",
                s.phase.len()
            )))
        }
        Some(s) => Some(s.phase.as_slice()),
        None => None,
    };
    let layers = layer_of.iter().max().map_or(0, |m| m + 1);
    Ok(signatures(graph, &layer_of, layers, phase))
}

pub(super) fn signatures(graph: &Graph, layer_of: &[usize], layers: usize, phase: Option<&[Phase]>) -> Vec<u64> {
    let n = graph.ops().len();
    // Position of each op within its layer, and whether each result is read outside it.
    let mut position = vec![0usize; n];
    let mut count = vec![0usize; layers];
    for i in 0..n {
        position[i] = count[layer_of[i]];
        count[layer_of[i]] += 1;
    }
    let mut read_outside: Vec<Vec<bool>> = graph.ops().iter().map(|op| vec![false; op.results.len()]).collect();
    for (user, op) in graph.ops().iter().enumerate() {
        for operand in &op.operands {
            if let ValueRef::Op { op, result } = *operand {
                if layer_of.get(op) != Some(&layer_of[user]) {
                    if let Some(flag) = read_outside.get_mut(op).and_then(|r| r.get_mut(result)) {
                        *flag = true;
                    }
                }
            }
        }
    }
    for value in &graph.returned {
        if let ValueRef::Op { op, result } = *value {
            if let Some(flag) = read_outside.get_mut(op).and_then(|r| r.get_mut(result)) {
                *flag = true;
            }
        }
    }

    let mut hashers: Vec<Fnv> = (0..layers).map(|_| Fnv::new()).collect();
    let mut external: Vec<HashMap<ValueRef, usize>> = vec![HashMap::new(); layers];
    for (index, op) in graph.ops().iter().enumerate() {
        let layer = layer_of[index];
        let h = &mut hashers[layer];
        op.name.hash(h);
        phase.map(|p| p[index] as u8).hash(h);
        hash_attrs(&op.attrs, h);
        op.results.hash(h);
        read_outside[index].hash(h);
        op.operands.len().hash(h);
        for operand in &op.operands {
            match *operand {
                ValueRef::Op { op: producer, result } if producer < n && layer_of[producer] == layer => {
                    0u8.hash(h);
                    // Producers come first in a well-formed graph; the sign keeps a malformed
                    // one from colliding with it rather than underflowing.
                    (producer < index).hash(h);
                    position[index].abs_diff(position[producer]).hash(h);
                    result.hash(h);
                }
                ValueRef::Outer => 2u8.hash(h),
                value => {
                    1u8.hash(h);
                    let seen = external[layer].len();
                    let number = *external[layer].entry(value).or_insert(seen);
                    number.hash(h);
                    graph.value_type(value).hash(h);
                    let donated = matches!(value, ValueRef::Arg(a) if graph.args.get(a).is_some_and(Param::is_donated));
                    donated.hash(h);
                }
            }
        }
        op.regions.len().hash(h);
        op.regions.iter().for_each(|r| hash_region(r, h));
    }
    hashers
        .iter()
        .zip(&count)
        .map(|(h, c)| {
            let mut h = Fnv(h.finish());
            c.hash(&mut h);
            h.finish()
        })
        .collect()
}
