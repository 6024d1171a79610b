//! `alpa-cluster-layers`: Alpa's operator clustering (Eq. 6) on the entry function.

use super::diagnostics::Diagnostic;
use super::entry::find_entry;
use super::mlir;
use super::options::AlpaClusterLayersOptions;
use super::read_graph::read_function;
use super::PassResult;
use crate::inter::train_step::{analyze, Phase, TrainStep};
use crate::inter::{
    assign_layers, AutoFallback, Clustering, clustered_ops, user_layers, AutoLayers, ClusterOptions, LayerAssignment, LayerAssignmentError, LayerCount,
    USER_LAYER_MARKER,
};
use crate::ir::graph::Graph;
use crate::intra::merge::is_heavy;
use crate::ir::summary::human_bytes;
use mlir_sys::MlirOperation;

const PASS: &str = "alpa-cluster-layers";

/// The clustering's FLOP balance tolerance (option `delta`).
pub(crate) fn check_delta(delta: f64) -> Result<f64, String> {
    match delta {
        delta if delta.is_finite() && delta >= 0.0 => Ok(delta),
        delta => Err(format!("delta must be a non-negative number, got {delta}")),
    }
}

/// The Eq. 6 layers of `graph` from the `layers` option (auto: from the heavy ops and
/// `devices`); an op the clustering cannot price gets the diagnostic at its location.
/// `delta_given`: the user chose delta, which layers=auto then may not raise.
#[allow(clippy::too_many_arguments)]
pub(crate) fn layer_assignment(
    graph: &Graph,
    handles: &[MlirOperation],
    step: Option<&TrainStep>,
    requested: &str,
    delta: f64,
    delta_given: bool,
    devices: usize,
    fail: &dyn Fn(String) -> Vec<Diagnostic>,
) -> Result<LayerAssignment, Vec<Diagnostic>> {
    let selected = clustered_ops(graph, step);
    let to_diagnostics = |e: LayerAssignmentError| match e {
        LayerAssignmentError::Op { op, message } => match handles.get(op) {
            Some(handle) => vec![Diagnostic::error(*handle, message)],
            None => fail(message),
        },
        LayerAssignmentError::Clustering(e) => fail(e.to_string()),
    };
    // Layers the user marked (alpa_layer_<k> scopes) win over `auto`; `user` requires them.
    let requested = requested.trim();
    if matches!(requested, "auto" | "" | "user") {
        if let Some(user) = user_layers(graph, step, delta).map_err(to_diagnostics)? {
            return Ok(user);
        }
        if requested == "user" {
            return Err(fail(format!("layers=user needs ops traced under jax.named_scope(\"{USER_LAYER_MARKER}<k>\") (alpa_mlir.layers.layer(k)); none found")));
        }
    }
    let layers = match requested {
        "auto" | "" => {
            let heavy = graph.ops().iter().filter(|op| is_heavy(op)).count();
            LayerCount::Auto(AutoLayers::for_graph(heavy, devices))
        }
        text => match text.parse::<usize>() {
            Ok(n) if n >= 1 && n <= selected.len() => LayerCount::Fixed(n),
            _ => return Err(fail(format!("layers must be auto, user or a number from 1 to {} (the ops clustered), got '{text}'", selected.len()))),
        },
    };
    let cluster_options = ClusterOptions { layers, delta, progress: selected.len() > 20_000 };
    let assignment = assign_layers(graph, step, &cluster_options).map_err(to_diagnostics)?;
    // layers=auto may raise the default delta, never one the user gave.
    if let (true, Some(AutoFallback::RaisedDelta { .. })) = (delta_given, &assignment.clustering.auto_fallback) {
        return Err(fail(format!(
            "layers=auto found no clustering whose layers stay within delta={delta} you gave; the least delta that admits 2 layers is {:.4} (leave delta unset to let layers=auto raise it)",
            assignment.clustering.delta
        )));
    }
    Ok(assignment)
}

/// How `layers=auto` chose, for the remarks ("" for a fixed count).
pub(crate) fn auto_choice(clustering: &Clustering) -> String {
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

pub fn run(module: MlirOperation, options: &AlpaClusterLayersOptions) -> PassResult {
    let fail = |message: String| vec![Diagnostic::error(module, format!("{PASS}: {message}"))];
    let entry = find_entry(module, &options.entry).map_err(|d| vec![d])?;
    let delta = check_delta(options.delta).map_err(fail)?;
    let devices = usize::try_from(options.devices).ok().filter(|d| *d > 0)
        .ok_or_else(|| fail("devices must be a positive integer".into()))?;
    let mut read = read_function(entry)?;
    super::donation::apply(&mut read, entry, &options.donation, PASS)?;
    let graph = &read.graph;
    if graph.ops().is_empty() {
        return Err(fail("the entry function has no ops to cluster".into()));
    }
    // A train step: cluster its forward ops (paper §5.1) and place backward and update ops with
    // their forward counterparts. Anything else: cluster all ops in order.
    let step = analyze(graph).ok();
    let assignment =
        layer_assignment(graph, &read.handles, step.as_ref(), &options.layers, delta, options.given.delta, devices, &fail)?;
    let clustering = &assignment.clustering;
    let context = mlir::context(module);
    for (index, (handle, &layer)) in read.handles.iter().zip(&assignment.layer_of).enumerate() {
        mlir::set_i64_attr(*handle, "alpa.layer", layer as i64);
        if let Some(step) = &step {
            let phase = match step.phase[index] {
                Phase::Forward => "forward",
                Phase::Backward => "backward",
                Phase::Update => "update",
            };
            mlir::set_attr(*handle, "alpa.phase", mlir::string_attr_value(context, phase));
        }
    }
    let sizes: Vec<String> = clustering.boundaries.windows(2).map(|w| (w[1] - w[0]).to_string()).collect();
    let flops: Vec<String> = clustering.layer_flops.iter().map(|f| format!("{f:.3e}")).collect();
    Diagnostic::remark(
        entry.op,
        format!(
            "{PASS}: {} layers (delta {}){}{}; ops per layer [{}]; FLOPs per layer [{}]; the most any layer receives from earlier layers: {}",
            clustering.num_layers(),
            clustering.delta,
            auto_choice(clustering),
            if step.is_some() { " of the train step's forward ops, backward and update ops placed with their forward counterparts" } else { "" },
            sizes.join(", "),
            flops.join(", "),
            human_bytes(clustering.max_comm)
        ),
    )
    .emit();
    Ok(())
}
