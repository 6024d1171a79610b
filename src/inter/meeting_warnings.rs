//! What the pipeline pass says where the examples meet each other or values of the whole
//! batch (`batch_statistics`, `gradient_meetings`): what meets them there, and what to do
//! instead. One message per kind of meeting, worded here only.

use super::batch_statistics::{Meeting, Met};
use super::output_combine::{BatchClass, BatchClasses};
use crate::ir::graph::Graph;

const PER_EXAMPLE: &str = "normalize per example (layer or group normalization), or plan with microbatches=1";

/// The warning at `meeting`, the first of its kind; `more` such ops follow it.
pub fn meeting_warning(graph: &Graph, classes: &BatchClasses, meeting: Meeting, more: usize) -> String {
    let (what, instead) = match meeting.how {
        Met::BatchNorm => (
            "the examples meet a statistic of the batch here (a batch norm over the examples computes their mean and variance)".to_string(),
            PER_EXAMPLE,
        ),
        Met::EveryOther => (
            "every example meets every other example of the batch here (the batch paired with itself: a contrastive loss's logits `a @ b.T`, or pairwise distances or kernels `a[:, None] - b[None]`, as a triplet loss's hardest negative or an MMD loss computes them)".to_string(),
            "plan with microbatches=1 to pair every example with the whole batch",
        ),
        Met::AlongTheBatch => (
            format!(
                "the examples meet each other here (a {} along the batch's dimension sorts, selects among, transforms or accumulates them together, as hard-example mining's top-k of the losses or a jnp.argmax over the batch does)",
                graph.ops()[meeting.op].short_name()
            ),
            "work along another dimension than the batch's, or plan with microbatches=1",
        ),
        Met::Statistic { at } => (
            format!(
                "the examples meet a statistic of the batch here (a {} over the batch, as batch normalization's mean and variance or a baseline subtracted from every example's value)",
                match classes[at] {
                    BatchClass::Mean => "mean",
                    BatchClass::Sum { .. } => "sum",
                    BatchClass::Extreme { max: true } => "maximum",
                    BatchClass::Extreme { max: false } => "minimum",
                    _ => "contraction",
                }
            ),
            PER_EXAMPLE,
        ),
        Met::Gradients => (
            "the examples meet a value computed from contractions over the batch here (the step's gradients, as weights moved along the gradient by sharpness-aware minimization's perturbation or a lookahead step, or a cross-correlation of the batch's features, as Barlow Twins' loss compares with the identity)".to_string(),
            "plan with microbatches=1",
        ),
    };
    let more = match more {
        0 => String::new(),
        n => format!(" ({n} more such ops follow)"),
    };
    let computed = match meeting.how {
        Met::Gradients => "each microbatch computes it from its own examples' contractions, where the global step uses the whole batch's, so the step differs from the global batch's whatever loss it returns",
        _ => "each microbatch computes it over its own examples only, so the step differs from the global batch's, as under any gradient accumulation",
    };
    format!("{what}{more}: {computed}; {instead}")
}
