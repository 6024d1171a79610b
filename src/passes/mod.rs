//! The MLIR passes: thin adapters between IR and the algorithms.
//!
//! Each pass is declared in C++ (cpp/include/alpa/Passes.td) so that it takes real MLIR pass
//! options; its `runOnOperation` hands the module and the option values to `run_guarded`, which
//! dispatches here. A Rust panic never crosses back into C++: it becomes an error diagnostic and
//! a failed pass.

pub mod annotate_costs;
pub mod captured_constants;
pub mod case_to_select;
pub mod cluster_layers;
pub mod cross_mesh_resharding;
pub mod dead_ops;
pub mod diagnostics;
pub mod donation;
pub mod entry;
pub mod ffi;
pub mod inline;
pub mod inter_op_stage;
pub mod intra_op_shard;
pub mod lower_transfers;
pub mod mhlo_custom_calls;
pub mod mlir;
pub mod trivial_meshes;
pub use crate::pass_options as options;
pub mod plugin;
pub mod read_graph;
pub mod stage_shardings;
pub mod stage_slicing;
pub mod standalone;
pub mod test_print_op_rules;
pub mod transfer_ops;
pub mod transfer_text;
pub mod unroll_loops;
pub mod write_shardings;

use diagnostics::Diagnostic;
use ffi::bridge::PassOption;
use mlir_sys::MlirOperation;
use options::{AlpaInterOpStageOptions, AlpaTestPanicOptions, PassOptionSet};
use std::panic::{self, AssertUnwindSafe};

/// What a pass returns when it fails: the diagnostics to emit (at least one error).
pub type PassResult = Result<(), Vec<Diagnostic>>;

/// Runs the Rust side of `pass` with the option values its C++ class forwarded, parsed into the
/// pass's options struct (generated from its .td declaration).
fn dispatch(pass: &str, module: MlirOperation, values: &[PassOption]) -> PassResult {
    match pass {
        "alpa-inline" => inline::run(module, &parsed(pass, module, values)?),
        "alpa-unroll-loops" => unroll_loops::run(module, &parsed(pass, module, values)?),
        "alpa-annotate-costs" => annotate_costs::run(module, &parsed(pass, module, values)?),
        "alpa-intra-op-shard" => intra_op_shard::run(module, &parsed(pass, module, values)?),
        "alpa-cluster-layers" => cluster_layers::run(module, &parsed(pass, module, values)?),
        "alpa-inter-op-stage" => inter_op_stage::run(module, &parsed(pass, module, values)?),
        "alpa-auto-shard" => auto_shard(module, &parsed(pass, module, values)?),
        "alpa-cross-mesh-resharding" => cross_mesh_resharding::run(module, &parsed(pass, module, values)?),
        "alpa-lower-transfers" => {
            let _: options::AlpaLowerTransfersOptions = parsed(pass, module, values)?;
            lower_transfers::run(module, pass)
        }

        "alpa-test-print-op-rules" => test_print_op_rules::run(module, &parsed(pass, module, values)?),
        "alpa-test-panic" => panic!("{}", parsed::<AlpaTestPanicOptions>(pass, module, values)?.message),
        other => Err(vec![Diagnostic::error(module, format!("no Rust implementation for pass '{other}'"))]),
    }
}

fn parsed<T: PassOptionSet>(pass: &str, module: MlirOperation, values: &[PassOption]) -> Result<T, Vec<Diagnostic>> {
    T::parse(pass, values.iter().map(|o| (o.name.as_str(), o.value.as_str(), o.given)))
        .map_err(|message| vec![Diagnostic::error(module, message)])
}

/// alpa-inline, alpa-inter-op-stage (which unrolls loops first unless `unroll-loops=false`),
/// then (unless `lower-transfers=false`, for people who bring their own runtime)
/// alpa-cross-mesh-resharding and alpa-lower-transfers.
fn auto_shard(module: MlirOperation, options: &AlpaInterOpStageOptions) -> PassResult {
    let pass = options.pass();
    if options.transfers && options.lower_transfers && !options.shardings {
        return Err(vec![Diagnostic::error(
            module,
            format!(
                "{pass}: shardings=false leaves the stages without the layouts their transfers are planned from; \
                 add lower-transfers=false to stop at the alpa.transfer markers, or transfers=false for plain values"
            ),
        )]);
    }
    inline::inline_entry(module, &options.entry)?;
    inter_op_stage::run(module, options)?;
    if !options.transfers || !options.lower_transfers {
        return Ok(());
    }
    let fail = |e: String| vec![Diagnostic::error(module, format!("{pass}: {e}"))];
    let cluster = cross_mesh_resharding::cluster(&options.cluster).map_err(fail)?;
    let mode = cross_mesh_resharding::transfer_mode(&options.transfer_mode).map_err(fail)?;
    cross_mesh_resharding::plan_transfers(module, &cluster, mode, pass)?;
    lower_transfers::run(module, pass)
}

pub(crate) fn run_guarded(pass: &str, module_op: usize, options: &[PassOption]) -> bool {
    let module = MlirOperation { ptr: module_op as *mut std::ffi::c_void };
    diagnostics::install_quiet_panic_hook();
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| dispatch(pass, module, options)));
    match outcome {
        Ok(Ok(())) => true,
        Ok(Err(diagnostics)) => {
            let mut failed = false;
            for diagnostic in &diagnostics {
                failed |= diagnostic.is_error();
                diagnostic.emit();
            }
            // A failing pass must say why; make sure at least one error reaches the user.
            if !failed {
                Diagnostic::error(module, format!("{pass} failed")).emit();
            }
            false
        }
        Err(payload) => {
            let message = diagnostics::panic_message(payload.as_ref());
            Diagnostic::error(module, format!("internal error in {pass}: {message}")).emit();
            false
        }
    }
}
