//! The layer of every op of a function (paper §5.1-§5.2): the ops that are clustered (a train
//! step's forward ops, or all ops of anything else) are cut into layers by Eq. 6; a backward or
//! update op takes the layer of the forward op it is anchored at (train_step.rs), and an op
//! with no anchor (a dead op) the layer of the op before it.
//!
//! Shared by the `alpa-cluster-layers` pass, which writes the layers as attributes, and by the
//! stage cost oracle (graph_oracle.rs), which needs them without MLIR.

use super::cluster_graph::{OpNode, Operand, ValueRef};
use super::clustering::{
    cluster_operators, describe_clustering, equal_operator_boundaries, ClusterOptions, Clustering,
};
use super::error::InterError;
use crate::ir::cost::op_cost_in_block;
use crate::ir::graph::{Graph, ValueRef as GraphValue};
use crate::ir::train_step::{Phase, TrainStep};
use thiserror::Error;

/// Why the layers of a graph could not be assigned.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum LayerAssignmentError {
    /// Op `op` (an index into the graph's ops) has no FLOP count (the op table cannot describe
    /// it); the pass reports this at the op's location.
    #[error("{message}")]
    Op { op: usize, message: String },
    /// Clustering failed (no ops, infeasible FLOP cap, bad options).
    #[error(transparent)]
    Clustering(#[from] InterError),
    /// The layers asked for cannot be had (a bad `layers` option, `layers=user` without marks,
    /// a `delta` the user gave that `layers=auto` would have to raise).
    #[error("{0}")]
    Request(String),
}

crate::typed_index::typed_index!(
    /// A layer of the layering (clustering) of a graph, in program order.
    LayerId
);

/// The layers of every op.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerAssignment {
    /// The Eq. 6 clustering of the clustered ops (its boundaries index into `clustered`).
    pub clustering: Clustering,
    /// The graph ops that were clustered, in program order.
    pub clustered: Vec<usize>,
    /// The layer of every graph op.
    pub layer_of: Vec<LayerId>,
}

impl LayerAssignment {
    pub fn num_layers(&self) -> usize {
        self.clustering.num_layers()
    }
}

/// The ops that are clustered: a train step's forward ops (the paper clusters the forward
/// pass and places the rest with it), or every op when `step` is `None`.
pub fn clustered_ops(graph: &Graph, step: Option<&TrainStep>) -> Vec<usize> {
    match step {
        Some(step) => (0..graph.ops().len()).filter(|&i| step.phase.get(i) == Some(&Phase::Forward)).collect(),
        None => (0..graph.ops().len()).collect(),
    }
}

/// The clustering's view of the ops `selected` (graph op indices, in order): each op's FLOPs
/// and the bytes of each operand. Values from ops outside the selection count as graph inputs
/// (they are not communication between the selected ops' layers).
pub fn clustering_ops(graph: &Graph, selected: &[usize]) -> Result<Vec<OpNode>, LayerAssignmentError> {
    let n = graph.ops().len();
    let mut position = vec![None; n];
    for (p, &op) in selected.iter().enumerate() {
        if op >= n {
            return Err(InterError::InvalidInput(format!("op {op} selected for clustering, the graph has {n}")).into());
        }
        position[op] = Some(p);
    }
    let outside = graph.args.len();
    selected
        .iter()
        .map(|&index| {
            let op = &graph.ops()[index];
            // A counted while loop weighs its body times its trip count, as in ir/cost.rs.
            let cost = op_cost_in_block(&graph.body, index)
                .map_err(|e| LayerAssignmentError::Op { op: index, message: e.to_string() })?;
            let operands = op
                .operands
                .iter()
                .filter_map(|value| {
                    let bytes = graph.value_type(*value)?.byte_size();
                    let value = match *value {
                        GraphValue::Arg(i) => ValueRef::GraphInput(i),
                        GraphValue::Op { op, result } => match position.get(op).copied().flatten() {
                            Some(p) => ValueRef::Op { op: p, result },
                            None => ValueRef::GraphInput(outside + op),
                        },
                        GraphValue::Outer => return None,
                    };
                    Some(Operand { value, bytes })
                })
                .collect();
            Ok(OpNode { flops: cost.flops as f64, operands })
        })
        .collect()
}

/// Clusters the ops of `graph` into layers and places every other op (see the module doc).
/// `step` is the train step of `graph` (`train_step::analyze`), if it is one.
pub fn assign_layers(
    graph: &Graph,
    step: Option<&TrainStep>,
    options: &ClusterOptions,
) -> Result<LayerAssignment, LayerAssignmentError> {
    let n = graph.ops().len();
    if let Some(step) = step {
        if step.phase.len() != n || step.anchor.len() != n {
            return Err(InterError::InvalidInput(format!(
                "the train step describes {} ops, the graph has {n}",
                step.phase.len()
            ))
            .into());
        }
    }
    let clustered = clustered_ops(graph, step);
    let ops = clustering_ops(graph, &clustered)?;
    let clustering = cluster_operators(&ops, options)?;
    let layer_of = place_all_ops(n, step, &clustered, &clustering);
    Ok(LayerAssignment { clustering, clustered, layer_of })
}

/// The marker of user-given layers in op locations: ops traced under
/// `jax.named_scope("alpa_layer_<k>")` (the bridge's `alpa_mlir.layers.layer(k)`) carry
/// `alpa_layer_<k>` in their location's name.
pub const USER_LAYER_MARKER: &str = "alpa_layer_";

/// The user layer named in a location, if any: the innermost marker, in the op's own
/// location first and, for an op of an inlined function (`callsite(own at caller)`), else in
/// its callers'.
pub fn user_layer_of(location: &str) -> Option<u64> {
    let own = location.split(" at ").next().unwrap_or(location);
    let marked = |text: &str| -> Option<u64> {
        let at = text.rfind(USER_LAYER_MARKER)? + USER_LAYER_MARKER.len();
        let digits: String = text[at..].chars().take_while(|c| c.is_ascii_digit()).collect();
        digits.parse().ok()
    };
    marked(own).or_else(|| marked(location))
}

/// The layers the user marked (see [`USER_LAYER_MARKER`]): clustered ops take their marker's
/// layer, unmarked ones the layer of the op before them (the first marked layer at the start);
/// every other op is placed as in [`assign_layers`]. `Ok(None)` when no op is marked. Marked
/// layers must appear in program order, each as one contiguous run.
pub fn user_layers(
    graph: &Graph,
    step: Option<&TrainStep>,
    delta: f64,
) -> Result<Option<LayerAssignment>, LayerAssignmentError> {
    let clustered = clustered_ops(graph, step);
    let marks: Vec<Option<u64>> = clustered.iter().map(|&op| user_layer_of(&graph.ops()[op].location)).collect();
    let Some(first) = marks.iter().flatten().next().copied() else { return Ok(None) };
    let mut boundaries = vec![0];
    let mut current = first;
    let mut seen = vec![first];
    for (position, mark) in marks.iter().enumerate() {
        let Some(mark) = *mark else { continue };
        if mark == current {
            continue;
        }
        if seen.contains(&mark) {
            return Err(LayerAssignmentError::Op {
                op: clustered[position],
                message: format!("user layer {mark} ({USER_LAYER_MARKER}{mark}) appears again after layer {current}: marked layers must be contiguous and in program order"),
            });
        }
        seen.push(mark);
        current = mark;
        boundaries.push(position);
    }
    boundaries.push(clustered.len());
    let ops = clustering_ops(graph, &clustered)?;
    let clustering = describe_clustering(&ops, &boundaries, delta)?;
    let layer_of = place_all_ops(graph.ops().len(), step, &clustered, &clustering);
    Ok(Some(LayerAssignment { clustering, clustered, layer_of }))
}

/// The equal-operator baseline's layers: the clustered ops cut into `layers` runs of equal
/// op count (not by Eq. 6), every other op placed as in [`assign_layers`].
pub fn equal_operator_layers(
    graph: &Graph,
    step: Option<&TrainStep>,
    layers: usize,
    delta: f64,
) -> Result<LayerAssignment, LayerAssignmentError> {
    let clustered = clustered_ops(graph, step);
    let ops = clustering_ops(graph, &clustered)?;
    let boundaries = equal_operator_boundaries(ops.len(), layers.clamp(1, ops.len().max(1)));
    let clustering = describe_clustering(&ops, &boundaries, delta)?;
    let layer_of = place_all_ops(graph.ops().len(), step, &clustered, &clustering);
    Ok(LayerAssignment { clustering, clustered, layer_of })
}

/// The layer of every op given the clustering of `clustered`.
fn place_all_ops(n: usize, step: Option<&TrainStep>, clustered: &[usize], clustering: &Clustering) -> Vec<LayerId> {
    let mut clustered_layer = vec![None; n];
    for (layer, range) in clustering.layers().into_iter().enumerate() {
        for &op in &clustered[range] {
            clustered_layer[op] = Some(layer);
        }
    }
    let mut layer_of = Vec::with_capacity(n);
    let mut previous = 0;
    for index in 0..n {
        let layer = match (step, clustered_layer[index]) {
            (_, Some(layer)) => layer,
            (Some(step), None) => {
                step.anchor[index].and_then(|a| clustered_layer.get(a).copied().flatten()).unwrap_or(previous)
            }
            (None, None) => previous,
        };
        previous = layer;
        layer_of.push(LayerId::new(layer));
    }
    layer_of
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::inter::clustering::LayerCount;
    use crate::ir::test_graphs::tanh_mlp_step;
    use crate::ir::train_step::analyze;

    fn fixed(layers: usize) -> ClusterOptions {
        ClusterOptions { layers: LayerCount::Fixed(layers), delta: 1.0, progress: false }
    }

    #[test]
    fn forward_ops_are_clustered_and_the_rest_follow_their_anchors() {
        let graph = tanh_mlp_step(3, 8, 16);
        let step = analyze(&graph).unwrap();
        let a = assign_layers(&graph, Some(&step), &fixed(3)).unwrap();
        let forward: Vec<usize> = (0..graph.ops().len()).filter(|&i| step.phase[i] == Phase::Forward).collect();
        assert_eq!(a.clustered, forward);
        assert_eq!(a.num_layers(), 3);
        assert_eq!(a.layer_of.len(), graph.ops().len());
        for (i, &layer) in a.layer_of.iter().enumerate() {
            if let Some(anchor) = step.anchor[i] {
                assert_eq!(layer, a.layer_of[anchor], "op {i} goes with its anchor {anchor}");
            }
        }
        // One matmul per layer, and each weight update lands with the matmul reading it.
        let dots: Vec<usize> =
            forward.iter().copied().filter(|&i| graph.ops()[i].short_name() == "dot_general").collect();
        assert_eq!(dots.iter().map(|&d| a.layer_of[d].index()).collect::<Vec<_>>(), vec![0, 1, 2]);
    }

    #[test]
    fn without_a_train_step_every_op_is_clustered() {
        let graph = tanh_mlp_step(2, 8, 16);
        let a = assign_layers(&graph, None, &fixed(3)).unwrap();
        assert_eq!(a.clustered, (0..graph.ops().len()).collect::<Vec<_>>());
        assert_eq!(a.layer_of, a.clustering.layer_of_ops().into_iter().map(LayerId::new).collect::<Vec<_>>());
    }

    #[test]
    fn user_markers_set_the_layers() {
        let mut graph = tanh_mlp_step(4, 8, 16);
        let step = analyze(&graph).unwrap();
        assert!(user_layers(&graph, Some(&step), 1.0).unwrap().is_none(), "no markers, no user layers");
        // Mark the first two forward matmuls layer 7, the last two layer 9.
        let dots: Vec<usize> = (0..graph.ops().len())
            .filter(|&i| step.phase[i] == Phase::Forward && graph.ops()[i].short_name() == "dot_general")
            .collect();
        for (k, &d) in dots.iter().enumerate() {
            graph.body.ops[d].location =
                format!("loc(\"jit(step)/jvp(alpa_layer_{})/dot_general\")", if k < 2 { 7 } else { 9 });
        }
        let a = user_layers(&graph, Some(&step), 1.0).unwrap().unwrap();
        assert_eq!(a.num_layers(), 2);
        assert_eq!(dots.iter().map(|&d| a.layer_of[d].index()).collect::<Vec<_>>(), vec![0, 0, 1, 1]);
        // A layer that comes back after another is refused at the op where it does.
        graph.body.ops[dots[3]].location = "loc(\"alpa_layer_7\")".into();
        match user_layers(&graph, Some(&step), 1.0) {
            Err(LayerAssignmentError::Op { op, .. }) => assert_eq!(op, dots[3]),
            other => panic!("{other:?}"),
        }
        assert_eq!(user_layer_of("loc(\"a/alpa_layer_3/b/alpa_layer_12/c\")"), Some(12));
        assert_eq!(user_layer_of("loc(\"alpa_layer_x\")"), None);
        // An inlined op: its own mark, else its caller's.
        let inlined =
            |own: &str| format!("loc(callsite(\"{own}\"(\"m.py\":3:4) at \"alpa_layer_2/call\"(\"m.py\":9:1)))");
        assert_eq!(user_layer_of(&inlined("f/alpa_layer_5/dot")), Some(5));
        assert_eq!(user_layer_of(&inlined("f/dot")), Some(2));
    }

    /// The 3-trip scan of ir/loops/tests.rs as a function: its arguments, the loop's result.
    pub(crate) fn scan_function() -> Graph {
        use crate::ir::graph::Param;
        let body = crate::ir::loops::tests::scan(crate::ir::loops::tests::lt_three(), 0, vec![]);
        let results = vec![Param { ty: body.ops[1].results[2].clone(), attrs: Default::default() }];
        Graph {
            func_name: "main".into(),
            args: body.args.iter().map(|ty| Param { ty: ty.clone(), attrs: Default::default() }).collect(),
            results,
            returned: vec![GraphValue::Op { op: 1, result: 2 }],
            body,
        }
    }

    #[test]
    fn a_counted_loop_weighs_its_body_times_its_trips() {
        let graph = scan_function();
        let ops = clustering_ops(&graph, &[0, 1]).unwrap();
        let counted = op_cost_in_block(&graph.body, 1).unwrap().flops as f64;
        let once = crate::ir::cost::op_cost(&graph.ops()[1], &graph.operand_tensors(1)).unwrap().flops as f64;
        assert_eq!(ops[1].flops, counted);
        assert!(counted > 2.0 * once, "3 trips: {counted} vs one body {once}");
    }

    #[test]
    fn bad_input_is_an_error() {
        let graph = tanh_mlp_step(2, 8, 16);
        assert!(assign_layers(&graph, None, &fixed(graph.ops().len() + 1)).is_err(), "more layers than ops");
        let step = analyze(&graph).unwrap();
        let mut shorter = graph.clone();
        shorter.body.ops.pop();
        assert!(assign_layers(&shorter, Some(&step), &fixed(2)).is_err(), "the step of another graph");
        // An op the op table cannot describe is reported with its index.
        let mut broken = graph.clone();
        broken.body.ops[0].operands.truncate(1);
        match assign_layers(&broken, None, &fixed(2)) {
            Err(LayerAssignmentError::Op { op, .. }) => assert_eq!(op, 0),
            other => panic!("{other:?}"),
        }
    }
}
