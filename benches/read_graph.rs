//! Reads, inlines and builds the graph view of a module (default: the GPT-39B-shaped train
//! step that `scripts/bench-read-graph.sh` exports from shapes), printing op counts, time and
//! peak memory.
//!
//! cargo bench --bench read_graph -- [MODULE.mlir]

use alpa_mlir::passes::entry::{find_entry, DEFAULT_ENTRY};
use alpa_mlir::passes::inline::inline_into_entry;
use alpa_mlir::passes::read_graph::read_function;
use alpa_mlir::passes::standalone::ParsedModule;
use std::path::PathBuf;
use std::time::Instant;

fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn count_ops(block: &alpa_mlir::ir::graph::Block) -> usize {
    block.ops.iter().map(|op| 1 + op.regions.iter().flat_map(|r| &r.blocks).map(count_ops).sum::<usize>()).sum()
}

fn main() {
    let path = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/bench/gpt-39b.mlir"));
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let start = Instant::now();
    let module = ParsedModule::parse_file(&path).unwrap_or_else(|e| {
        eprintln!("read_graph: {e}");
        std::process::exit(1)
    });
    let parsed = start.elapsed();
    let entry = find_entry(module.operation(), DEFAULT_ENTRY).unwrap_or_else(|d| {
        d.emit();
        std::process::exit(1)
    });
    let inline_start = Instant::now();
    let stats = inline_into_entry(module.operation(), entry).unwrap_or_else(|ds| {
        ds.iter().for_each(|d| d.emit());
        std::process::exit(1)
    });
    let inlined = inline_start.elapsed();
    let graph_start = Instant::now();
    let read = read_function(entry).unwrap_or_else(|ds| {
        ds.iter().for_each(|d| d.emit());
        std::process::exit(1)
    });
    let graph_time = graph_start.elapsed();
    let total = start.elapsed();
    let graph = &read.graph;
    println!("module          {} ({:.1} MiB)", path.display(), bytes as f64 / 1048576.0);
    println!("calls inlined   {} (private functions erased: {})", stats.calls_inlined, stats.functions_erased);
    println!(
        "graph           {} top-level ops, {} ops with nested bodies, {} arguments ({:.2} GiB)",
        graph.ops().len(),
        count_ops(&graph.body),
        graph.args.len(),
        graph.argument_bytes() as f64 / (1u64 << 30) as f64
    );
    println!(
        "time            parse {:.2} s, inline {:.2} s, graph {:.2} s, total {:.2} s",
        parsed.as_secs_f64(),
        inlined.as_secs_f64(),
        graph_time.as_secs_f64(),
        total.as_secs_f64()
    );
    println!("peak memory     {:.0} MiB", peak_rss_mib());
}
