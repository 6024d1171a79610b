//! Bytes crossing each layer boundary of a graph, per microbatch: what `cross-stage-cost=on`
//! charges (transfer.rs).
//!
//! Boundary b (0 <= b <= L) separates layers < b from layers >= b. A value produced in layer p
//! and read by ops in layers lo..=hi crosses boundaries p + 1..=hi forward (activations sent to
//! later stages) and lo + 1..=p backward (gradients sent to earlier stages). A value read
//! several layers later counts at every boundary it crosses, as if relayed stage to stage.
//! Function arguments are not transfers: each stage holds its own parameters and inputs.
//! Values only the function returns are not read by a stage and do not count either.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §5.

use super::error::InterError;
use crate::ir::graph::{Graph, ValueRef};
use crate::ir::types::ValueType;

/// Bytes crossing every boundary, forward and backward (index b = 0..=L).
#[derive(Clone, Debug, PartialEq)]
pub struct BoundaryBytes {
    pub forward: Vec<f64>,
    pub backward: Vec<f64>,
}

/// The bytes crossing each boundary of `graph` cut into layers by `layer_of` (one id per op).
pub fn boundary_bytes(graph: &Graph, layer_of: &[usize]) -> Result<BoundaryBytes, InterError> {
    let n = graph.ops().len();
    if layer_of.len() != n {
        return Err(InterError::InvalidInput(format!("{} layer ids for {n} ops", layer_of.len())));
    }
    let layers = layer_of.iter().max().map_or(0, |m| m + 1);
    // Reader layer span of every op result.
    let mut span: Vec<Vec<Option<(usize, usize)>>> = graph.ops().iter().map(|op| vec![None; op.results.len()]).collect();
    for (user, op) in graph.ops().iter().enumerate() {
        for operand in &op.operands {
            if let ValueRef::Op { op: p, result } = *operand {
                let slot = span.get_mut(p).and_then(|r| r.get_mut(result)).ok_or_else(|| {
                    InterError::InvalidInput(format!("op {user} reads result {result} of op {p}, which does not exist"))
                })?;
                let l = layer_of[user];
                *slot = Some(slot.map_or((l, l), |(lo, hi)| (lo.min(l), hi.max(l))));
            }
        }
    }
    // Difference arrays: +bytes at the first boundary crossed, -bytes after the last.
    let mut fwd = vec![0.0f64; layers + 2];
    let mut bwd = vec![0.0f64; layers + 2];
    for (p, results) in span.iter().enumerate() {
        let lp = layer_of[p];
        for (r, s) in results.iter().enumerate() {
            let Some((lo, hi)) = *s else { continue };
            let bytes = graph.ops()[p].results.get(r).map_or(0, ValueType::byte_size) as f64;
            if hi > lp {
                fwd[lp + 1] += bytes;
                fwd[hi + 1] -= bytes;
            }
            if lo < lp {
                bwd[lo + 1] += bytes;
                bwd[lp + 1] -= bytes;
            }
        }
    }
    let prefix = |d: &[f64]| {
        let mut acc = 0.0;
        // Rounding of the running sum cannot leave a negative residue behind.
        d[..=layers].iter().map(|x| { acc += x; acc.max(0.0) }).collect::<Vec<f64>>()
    };
    Ok(BoundaryBytes { forward: prefix(&fwd), backward: prefix(&bwd) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inter::clustering::{ClusterOptions, LayerCount};
    use crate::inter::layer_assignment::assign_layers;
    use crate::inter::tests::graphs::tanh_mlp_step;
    use crate::inter::train_step::analyze;
    use std::collections::BTreeSet;

    /// Bytes crossing boundary b by definition: distinct values with a producer on one side and
    /// a reader on the other.
    fn naive(graph: &Graph, layer_of: &[usize], b: usize) -> (f64, f64) {
        let mut fwd = BTreeSet::new();
        let mut bwd = BTreeSet::new();
        for (user, op) in graph.ops().iter().enumerate() {
            for operand in &op.operands {
                if let ValueRef::Op { op: p, result } = *operand {
                    if layer_of[p] < b && layer_of[user] >= b {
                        fwd.insert((p, result));
                    }
                    if layer_of[p] >= b && layer_of[user] < b {
                        bwd.insert((p, result));
                    }
                }
            }
        }
        let bytes = |set: &BTreeSet<(usize, usize)>| {
            set.iter().map(|&(p, r)| graph.ops()[p].results[r].byte_size() as f64).sum::<f64>()
        };
        (bytes(&fwd), bytes(&bwd))
    }

    #[test]
    fn matches_the_definition_on_a_train_step() {
        let graph = tanh_mlp_step(4, 8, 16);
        let step = analyze(&graph).unwrap();
        let options = ClusterOptions { layers: LayerCount::Fixed(4), delta: 1.0, progress: false };
        let layer_of = assign_layers(&graph, Some(&step), &options).unwrap().layer_of;
        let b = boundary_bytes(&graph, &layer_of).unwrap();
        assert_eq!(b.forward.len(), 5);
        for k in 0..=4 {
            assert_eq!((b.forward[k], b.backward[k]), naive(&graph, &layer_of, k), "boundary {k}");
        }
        // Activations (8x16 f32) go forward, gradients come back, at every inner boundary.
        for k in 1..4 {
            assert!(b.forward[k] >= 512.0 && b.backward[k] >= 512.0, "{b:?}");
        }
        assert_eq!((b.forward[0], b.backward[0]), (0.0, 0.0));
        assert!(boundary_bytes(&graph, &layer_of[1..]).is_err());
    }
}
