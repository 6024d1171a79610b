//! What the integration tests share: the graph view of a committed JAX fixture.

use alpa_mlir::ir::graph::Graph;
use alpa_mlir::passes::entry::{find_entry, DEFAULT_ENTRY};
use alpa_mlir::passes::inline::inline_into_entry;
use alpa_mlir::passes::read_graph::read_function;
use alpa_mlir::passes::standalone::ParsedModule;
use std::path::Path;

/// `lit-tests/inputs/<name>`, parsed, its calls inlined into `@main`, read into the graph view.
pub fn fixture_graph(name: &str) -> Graph {
    graph_at(&Path::new(env!("CARGO_MANIFEST_DIR")).join("lit-tests/inputs").join(name))
}

/// The inlined entry of the module at `path` (relative to the repository or absolute).
pub fn graph_at(path: &Path) -> Graph {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let name = path.display().to_string();
    let module = ParsedModule::parse_file(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let entry = find_entry(module.operation(), DEFAULT_ENTRY).unwrap_or_else(|_| panic!("{name}: no entry"));
    inline_into_entry(module.operation(), entry).unwrap_or_else(|_| panic!("{name}: inlining failed"));
    read_function(entry).unwrap_or_else(|_| panic!("{name}: reading failed")).graph
}
