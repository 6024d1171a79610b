//! Cross-stage communication in the stage DP (`cross-stage-cost=on`; beyond the paper, which
//! leaves it out of the DP as "typically small", §7).
//!
//! Boundary `b` (0 < b < L) lies between layers b - 1 and b. Per microbatch, the values produced
//! in layers < b and read in layers >= b (forward activations) go forward across it, and the
//! values produced in layers >= b and read in layers < b (gradients) come back. Each direction
//! is charged to the stage that sends it, as alpha + bytes / bandwidth of the inter-stage link:
//!
//!   t'(k..i) = t_intra(k..i) + forward[i] + backward[k]
//!
//! with forward[i] the stage's send to the next stage (0 when i = L) and backward[k] its send
//! of gradients to the previous stage (0 when k = 0). The extra term depends on the layer range
//! only, so the DP's recurrence, its t_max enumeration and its bounds stay exact with t' in
//! place of t_intra; the sum and the bottleneck of T = sum t' + (B - 1) max t' both see it.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §5.

use super::error::InterError;
use serde::Serialize;
use std::ops::Range;

/// Per-boundary transfer seconds (index b = 0..=L; entries 0 and L are never charged).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StageTransfer {
    /// forward[b]: seconds for the stage ending at boundary b to send its activations on.
    pub forward: Vec<f64>,
    /// backward[b]: seconds for the stage starting at boundary b to send gradients back.
    pub backward: Vec<f64>,
}

impl StageTransfer {
    /// Transfer times from bytes crossing each boundary, over a link of `latency` seconds per
    /// message and `bandwidth` bytes per second; a boundary nothing crosses costs nothing.
    pub fn from_bytes(forward_bytes: &[f64], backward_bytes: &[f64], latency: f64, bandwidth: f64) -> StageTransfer {
        let time = |bytes: &f64| if *bytes > 0.0 { latency + bytes / bandwidth } else { 0.0 };
        StageTransfer { forward: forward_bytes.iter().map(time).collect(), backward: backward_bytes.iter().map(time).collect() }
    }

    /// The transfer seconds charged to a stage of `layers` (0 < start and end < L only).
    pub fn seconds(&self, layers: &Range<usize>) -> f64 {
        let last = self.forward.len().saturating_sub(1);
        let send_on = if layers.end < last { self.forward.get(layers.end).copied().unwrap_or(0.0) } else { 0.0 };
        let send_back = if layers.start > 0 { self.backward.get(layers.start).copied().unwrap_or(0.0) } else { 0.0 };
        send_on + send_back
    }

    /// Both vectors hold L + 1 finite, non-negative numbers.
    pub fn validate(&self, layers: usize) -> Result<(), InterError> {
        if self.forward.len() != layers + 1 || self.backward.len() != layers + 1 {
            return Err(InterError::InvalidInput(format!(
                "cross-stage transfer times for {} / {} boundaries, {layers} layers need {}",
                self.forward.len(),
                self.backward.len(),
                layers + 1
            )));
        }
        if self.forward.iter().chain(&self.backward).any(|t| !t.is_finite() || *t < 0.0) {
            return Err(InterError::InvalidInput("cross-stage transfer times must be finite and >= 0".into()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_inner_boundaries_are_charged_to_their_sender() {
        let t = StageTransfer::from_bytes(&[9.0, 10.0, 0.0, 30.0, 9.0], &[9.0, 1.0, 2.0, 0.0, 9.0], 0.5, 10.0);
        assert_eq!(t.forward, vec![1.4, 1.5, 0.0, 3.5, 1.4]);
        // Layers 0..1 send 10 bytes on (1.5 s); nothing back from the first stage.
        assert_eq!(t.seconds(&(0..1)), 1.5);
        // Layers 1..3 send 30 bytes on and 1 byte back.
        assert_eq!(t.seconds(&(1..3)), 3.5 + 0.6);
        // The whole model and the last stage send nothing on.
        assert_eq!(t.seconds(&(0..4)), 0.0);
        assert_eq!(t.seconds(&(3..4)), 0.0);
        assert!(t.validate(4).is_ok());
        assert!(t.validate(3).is_err());
        let bad = StageTransfer { forward: vec![0.0, f64::NAN], backward: vec![0.0, 0.0] };
        assert!(bad.validate(1).is_err());
    }
}
