//! Errors of the inter-op core. Every failure is a value, never a panic.

use thiserror::Error;

/// Why clustering, the stage DP or the placement could not produce a result.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum InterError {
    /// The input is inconsistent (bad index, non-topological edge, NaN cost, ...).
    #[error("invalid input: {0}")]
    InvalidInput(String),

    /// No partition into `layers` contiguous layers keeps every layer's FLOPs within
    /// (1 + delta) x FLOP_total / layers. `needed_delta` is the smallest delta that admits one.
    #[error(
        "no clustering into {layers} layers keeps every layer within (1 + delta) x FLOP_total / L \
         with delta = {delta}; the smallest delta that admits one is {needed_delta:.6}"
    )]
    ClusteringInfeasible { layers: usize, delta: f64, needed_delta: f64 },

    /// No stage plan covers every layer and exactly all devices of the cluster.
    /// `bottleneck_layer` / `bottleneck_memory`: the layer whose cheapest covering stage needs
    /// the most memory per device, and that amount (when the cost table had any entry for it).
    #[error("no stage plan: {detail}")]
    NoStagePlan { detail: String, mem_device: f64, bottleneck_layer: Option<usize>, bottleneck_memory: Option<f64> },

    /// The submesh shapes of a plan cannot be laid out on the cluster's devices.
    #[error("placement failed: {0}")]
    Placement(String),
}
