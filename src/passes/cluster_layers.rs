//! `alpa-cluster-layers`: Alpa's operator clustering (Eq. 6) on the entry function; the layers
//! come from inter/layer_policy.rs, this pass writes them as `alpa.layer` / `alpa.phase`.

use super::diagnostics::Diagnostic;
use super::entry::find_entry;
use super::mlir;
use super::options::AlpaClusterLayersOptions;
use super::read_graph::read_function;
use super::PassResult;
use crate::inter::layer_policy::{auto_choice, check_delta, choose_layers};
use crate::inter::LayerAssignmentError;
use crate::ir::summary::human_bytes;
use crate::ir::train_step::{analyze, Phase};
use mlir_sys::MlirOperation;

const PASS: &str = "alpa-cluster-layers";

/// A layering error as diagnostics: at its op when it names one, else through `fail`.
pub(crate) fn at_op(
    error: LayerAssignmentError,
    handles: &[MlirOperation],
    fail: &dyn Fn(String) -> Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    match error {
        LayerAssignmentError::Op { op, message } => match handles.get(op) {
            Some(handle) => vec![Diagnostic::error(*handle, message)],
            None => fail(message),
        },
        other => fail(other.to_string()),
    }
}

pub fn run(module: MlirOperation, options: &AlpaClusterLayersOptions) -> PassResult {
    let fail = |message: String| vec![Diagnostic::error(module, format!("{PASS}: {message}"))];
    let entry = find_entry(module, &options.entry).map_err(|d| vec![d])?;
    let delta = check_delta(options.delta).map_err(fail)?;
    let devices = usize::try_from(options.devices)
        .ok()
        .filter(|d| *d > 0)
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
    let assignment = choose_layers(graph, step.as_ref(), &options.layers, delta, options.given.delta, devices)
        .map_err(|e| at_op(e, &read.handles, &fail))?;
    let clustering = &assignment.clustering;
    let context = mlir::context(module);
    for (index, (handle, &layer)) in read.handles.iter().zip(&assignment.layer_of).enumerate() {
        mlir::set_i64_attr(*handle, "alpa.layer", layer.index() as i64);
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
