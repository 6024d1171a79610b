//! How the passes choose the layers of a step from their options `layers` and `delta`: the
//! user's `alpa_layer_<k>` marks when present (`auto`, `user`), else Eq. 6 with a fixed count
//! or with `auto`'s count from the heavy ops and the devices. Shared by alpa-cluster-layers and
//! alpa-inter-op-stage.

use super::layer_assignment::{
    assign_layers, clustered_ops, user_layers, LayerAssignment, LayerAssignmentError, USER_LAYER_MARKER,
};
use super::{AutoFallback, AutoLayers, ClusterOptions, Clustering, LayerCount};
use crate::ir::graph::Graph;
use crate::ir::op_table::is_heavy;
use crate::ir::train_step::TrainStep;

/// The Eq. 6 layers of `graph` for option `layers` (a count, `auto`: from the heavy ops and
/// `devices`, or `user`); `delta_given`: the user chose `delta`, which `auto` may then not raise.
pub fn choose_layers(
    graph: &Graph,
    step: Option<&TrainStep>,
    requested: &str,
    delta: f64,
    delta_given: bool,
    devices: usize,
) -> Result<LayerAssignment, LayerAssignmentError> {
    let selected = clustered_ops(graph, step);
    // Layers the user marked (alpa_layer_<k> scopes) win over `auto`; `user` requires them.
    let requested = requested.trim();
    if matches!(requested, "auto" | "" | "user") {
        if let Some(user) = user_layers(graph, step, delta)? {
            return Ok(user);
        }
        if requested == "user" {
            return Err(LayerAssignmentError::Request(format!(
                "layers=user needs ops traced under jax.named_scope(\"{USER_LAYER_MARKER}<k>\") (alpa_mlir.layers.layer(k)); none found"
            )));
        }
    }
    let layers = match requested {
        "auto" | "" => {
            let heavy = graph.ops().iter().filter(|op| is_heavy(op)).count();
            LayerCount::Auto(AutoLayers::for_graph(heavy, devices))
        }
        text => match text.parse::<usize>() {
            Ok(n) if n >= 1 && n <= selected.len() => LayerCount::Fixed(n),
            _ => {
                return Err(LayerAssignmentError::Request(format!(
                    "layers must be auto, user or a number from 1 to {} (the ops clustered), got '{text}'",
                    selected.len()
                )))
            }
        },
    };
    let cluster_options = ClusterOptions { layers, delta, progress: selected.len() > 20_000 };
    let assignment = assign_layers(graph, step, &cluster_options)?;
    // layers=auto may raise the default delta, never one the user gave.
    if let (true, Some(AutoFallback::RaisedDelta { .. })) = (delta_given, &assignment.clustering.auto_fallback) {
        return Err(LayerAssignmentError::Request(format!(
            "layers=auto found no clustering whose layers stay within delta={delta} you gave; the least delta that admits 2 layers is {:.4} (leave delta unset to let layers=auto raise it)",
            assignment.clustering.delta
        )));
    }
    Ok(assignment)
}

/// The clustering's FLOP balance tolerance (option `delta`).
pub fn check_delta(delta: f64) -> Result<f64, String> {
    match delta {
        delta if delta.is_finite() && delta >= 0.0 => Ok(delta),
        delta => Err(format!("delta must be a non-negative number, got {delta}")),
    }
}

/// How `layers=auto` chose, for the remarks ("" for a fixed count).
pub fn auto_choice(clustering: &Clustering) -> String {
    if clustering.auto.is_empty() {
        return String::new();
    }
    let (l, delta) = (clustering.num_layers(), clustering.delta);
    // The count and delta are in the remark already; this says how auto came to them.
    match &clustering.auto_fallback {
        None => " chosen by layers=auto".to_string(),
        Some(AutoFallback::FewerLayers { tried }) => format!(
            " chosen by layers=auto: no count in {}..={} keeps every layer within the FLOP cap",
            tried.start(),
            tried.end()
        ),
        Some(AutoFallback::RaisedDelta { from }) => format!(
            " chosen by layers=auto: no count of layers meets delta {from}, and {delta:.4} is the least that admits {l}"
        ),
    }
}
