//! Applies the `donation` option to a read step: the module's donation, the state recognised
//! from the step (src/ir/state_aliases.rs), or the user's pairs, with a remark saying which.

use super::diagnostics::Diagnostic;
use super::entry::Function;
use super::mlir;
use super::read_graph::ReadGraph;
use crate::ir::graph::Attr;
use crate::ir::state_aliases::{self, AliasSource, DonationPolicy, StateAliases};
use mlir_sys::*;

/// The tree-path name of every argument: `jax.arg_info`, or the argument's name location
/// (`loc("params['dense_0']['kernel']")`, what jax.jit's lowering writes).
fn argument_names(read: &ReadGraph, entry: Function) -> Vec<Option<String>> {
    let args = mlir::body_block(entry.op).map(mlir::block_args).unwrap_or_default();
    (0..read.graph.args.len())
        .map(|a| {
            if let Some(Attr::Str(info)) = read.graph.args[a].attrs.get("jax.arg_info") {
                return Some(info.clone());
            }
            let location = unsafe { mlirValueGetLocation(*args.get(a)?) };
            unsafe { mlirLocationIsAName(location) }
                .then(|| mlir::to_string(unsafe { mlirIdentifierStr(mlirLocationNameGetName(location)) }))
        })
        .collect()
}

/// Resolves the step's state under the pass's `donation` option and makes the graph say it.
/// Returns the pairs; remarks when they were recognised rather than declared.
pub fn apply(
    read: &mut ReadGraph,
    entry: Function,
    donation: &str,
    pass: &str,
) -> Result<StateAliases, Vec<Diagnostic>> {
    let policy: DonationPolicy =
        donation.parse().map_err(|e| vec![Diagnostic::error(entry.op, format!("{pass}: {e}"))])?;
    let names = argument_names(read, entry);
    let aliases = state_aliases::resolve(&read.graph, &names, &policy)
        .map_err(|e| vec![Diagnostic::error(entry.op, format!("{pass}: {e}")).at_argument(e.argument)])?;
    if aliases.source == AliasSource::Recognised && !aliases.pairs.is_empty() {
        Diagnostic::remark(
            entry.op,
            format!(
                "{pass}: the step donates no argument; {} results update an argument of the same type and are treated as donated (donation={aliases}); pass donation=module to plan without them",
                aliases.pairs.len()
            ),
        )
        .emit();
    }
    state_aliases::apply(&mut read.graph, &aliases);
    Ok(aliases)
}
