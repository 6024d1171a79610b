//! `alpa-cluster-layers`: Alpa's operator clustering (Eq. 6) on the entry function.

use super::diagnostics::Diagnostic;
use super::entry::{find_entry, DEFAULT_ENTRY};
use super::mlir;
use super::options::PassOptions;
use super::read_graph::read_function;
use super::PassResult;
use crate::inter::{cluster_operators, AutoLayers, ClusterOptions, InterError, LayerCount, OpNode, Operand, ValueRef};
use crate::intra::merge::is_heavy;
use crate::ir::cost::op_cost;
use crate::ir::graph::{Graph, ValueRef as GraphValue};
use crate::ir::summary::human_bytes;
use mlir_sys::MlirOperation;

const PASS: &str = "alpa-cluster-layers";

/// The clustering's view of the graph: each op's FLOPs and the bytes of each operand.
fn clustering_ops(graph: &Graph, handles: &[MlirOperation]) -> Result<Vec<OpNode>, Vec<Diagnostic>> {
    graph
        .ops()
        .iter()
        .enumerate()
        .map(|(index, op)| {
            let cost = op_cost(op, &graph.operand_tensors(index))
                .map_err(|e| vec![Diagnostic::error(handles[index], e.to_string())])?;
            let operands = op
                .operands
                .iter()
                .filter_map(|value| {
                    let bytes = graph.value_type(*value)?.byte_size();
                    let value = match *value {
                        GraphValue::Arg(i) => ValueRef::GraphInput(i),
                        GraphValue::Op { op, result } => ValueRef::Op { op, result },
                        GraphValue::Outer => return None,
                    };
                    Some(Operand { value, bytes })
                })
                .collect();
            Ok(OpNode { flops: cost.flops as f64, operands })
        })
        .collect()
}

pub fn run(module: MlirOperation, options: &PassOptions) -> PassResult {
    let fail = |message: String| vec![Diagnostic::error(module, format!("{PASS}: {message}"))];
    let entry = find_entry(module, options.string("entry").unwrap_or(DEFAULT_ENTRY)).map_err(|d| vec![d])?;
    let delta: f64 = options.string("delta").unwrap_or("0.5").trim().parse().map_err(|_| fail("delta must be a number".into()))?;
    if !(delta.is_finite() && delta >= 0.0) {
        return Err(fail(format!("delta must be a non-negative number, got {delta}")));
    }
    let devices: usize = options.string("devices").unwrap_or("8").trim().parse().ok().filter(|d| *d > 0)
        .ok_or_else(|| fail("devices must be a positive integer".into()))?;
    let read = read_function(entry)?;
    let graph = &read.graph;
    if graph.ops().is_empty() {
        return Err(fail("the entry function has no ops to cluster".into()));
    }
    let layers = match options.string("layers").unwrap_or("auto").trim() {
        "auto" | "" => {
            let heavy = graph.ops().iter().filter(|op| is_heavy(op)).count();
            LayerCount::Auto(AutoLayers::for_graph(heavy, devices))
        }
        text => match text.parse::<usize>() {
            Ok(n) if n >= 1 && n <= graph.ops().len() => LayerCount::Fixed(n),
            _ => return Err(fail(format!("layers must be auto or a number from 1 to {} (the ops), got '{text}'", graph.ops().len()))),
        },
    };
    let ops = clustering_ops(graph, &read.handles)?;
    let clustering = cluster_operators(&ops, &ClusterOptions { layers, delta, progress: ops.len() > 20_000 })
        .map_err(|e| match e {
            InterError::ClusteringInfeasible { .. } => fail(e.to_string()),
            other => fail(other.to_string()),
        })?;
    for (layer, range) in clustering.boundaries.windows(2).enumerate() {
        for handle in &read.handles[range[0]..range[1]] {
            mlir::set_i64_attr(*handle, "alpa.layer", layer as i64);
        }
    }
    let sizes: Vec<String> = clustering.boundaries.windows(2).map(|w| (w[1] - w[0]).to_string()).collect();
    let flops: Vec<String> = clustering.layer_flops.iter().map(|f| format!("{f:.3e}")).collect();
    Diagnostic::remark(
        entry.op,
        format!(
            "{PASS}: {} layers (delta {delta}); ops per layer [{}]; FLOPs per layer [{}]; the most any layer receives from earlier layers: {}",
            clustering.num_layers(),
            sizes.join(", "),
            flops.join(", "),
            human_bytes(clustering.max_comm)
        ),
    )
    .emit();
    Ok(())
}
