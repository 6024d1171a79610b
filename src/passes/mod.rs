//! The MLIR passes: thin adapters between IR and the algorithms.
//!
//! Each pass is declared in C++ (cpp/include/alpa/Passes.td) so that it takes real MLIR pass
//! options; its `runOnOperation` hands the module and the option values to `run_guarded`, which
//! dispatches here. A Rust panic never crosses back into C++: it becomes an error diagnostic and
//! a failed pass.


pub mod annotate_costs;
pub mod cluster_layers;
pub mod cross_mesh_resharding;
pub mod diagnostics;
pub mod donation;
pub mod entry;
pub mod ffi;
pub mod inline;
pub mod inter_op_stage;
pub mod intra_op_shard;
pub mod lower_transfers;
pub mod mlir;
pub mod options;
pub mod plugin;
pub mod read_graph;
pub mod stage_shardings;
pub mod stage_slicing;
pub mod transfer_ops;
pub mod transfer_text;
pub mod unroll_loops;
pub mod standalone;
pub mod test_print_op_rules;
pub mod write_shardings;

use diagnostics::Diagnostic;
use mlir_sys::MlirOperation;
use options::PassOptions;
use std::panic::{self, AssertUnwindSafe};

/// What a pass returns when it fails: the diagnostics to emit (at least one error).
pub type PassResult = Result<(), Vec<Diagnostic>>;

fn dispatch(pass: &str, module: MlirOperation, options: &PassOptions) -> PassResult {
    match pass {
        "alpa-inline" => inline::run(module, options),
        "alpa-unroll-loops" => unroll_loops::run(module, options),
        "alpa-annotate-costs" => annotate_costs::run(module, options),
        "alpa-intra-op-shard" => intra_op_shard::run(module, options),
        "alpa-cluster-layers" => cluster_layers::run(module, options),
        "alpa-inter-op-stage" => inter_op_stage::run(module, options),
        "alpa-auto-shard" => auto_shard(module, options),
        "alpa-cross-mesh-resharding" => cross_mesh_resharding::run(module, options),
        "alpa-lower-transfers" => lower_transfers::run(module, options),

        "alpa-test-print-op-rules" => test_print_op_rules::run(module, options),
        "alpa-test-panic" => panic!("{}", options.string("message").unwrap_or("test panic")),
        other => Err(vec![Diagnostic::error(module, format!("no Rust implementation for pass '{other}'"))]),
    }
}

/// alpa-inline, alpa-inter-op-stage (which unrolls loops first unless `unroll-loops=false`),
/// then (unless `lower-transfers=false`, for people who bring their own runtime)
/// alpa-cross-mesh-resharding and alpa-lower-transfers.
fn auto_shard(module: MlirOperation, options: &PassOptions) -> PassResult {
    inline::run(module, options)?;
    inter_op_stage::run(module, options)?;
    let transfers = options.flag("transfers", true).map_err(|e| vec![Diagnostic::error(module, e)])?;
    if !transfers || !options.flag("lower-transfers", true).map_err(|e| vec![Diagnostic::error(module, e)])? {
        return Ok(());
    }
    let cluster = cross_mesh_resharding::cluster(options).map_err(|e| vec![Diagnostic::error(module, format!("{}: {e}", options.pass()))])?;
    let mode = cross_mesh_resharding::transfer_mode(options).map_err(|e| vec![Diagnostic::error(module, format!("{}: {e}", options.pass()))])?;
    cross_mesh_resharding::plan_transfers(module, &cluster, mode, options.pass())?;
    lower_transfers::run(module, options)
}

pub(crate) fn run_guarded(pass: &str, module_op: usize, options: &Vec<ffi::bridge::PassOption>) -> bool {
    let module = MlirOperation { ptr: module_op as *mut std::ffi::c_void };
    diagnostics::install_quiet_panic_hook();
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        let options = PassOptions::from_bridge(pass, options).map_err(|message| {
            vec![Diagnostic::error(module, message)]
        })?;
        dispatch(pass, module, &options)
    }));
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
