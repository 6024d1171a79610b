//! Returned metrics computed once, from the microbatches' combined sums, means and extremes: a
//! perplexity `exp(loss)`, a norm `sqrt(sum(x * x))`, a ratio of two means, a masked accuracy
//! `sum(c * m) / max(sum(m), 1)`, the norm of a Gram matrix of activations. Per microbatch such a
//! value is no sum or mean over the batch, so the microbatches' values do not combine into the
//! global batch's; computed on the combined values (in an apply function) it is the global
//! batch's, as the global step computes it from the global batch's sums.
//!
//! One thing differs: the step was exported at the microbatch's size, so a constant it reads
//! may be a count of the microbatch's examples (`sqrt(sum(x * x)) / sqrt(x.size)`), right per
//! microbatch and wrong once on the whole batch. An op reading a constant that is, or is the
//! reciprocal or square root of, such a count (or one less, Bessel's correction) stays per
//! microbatch, and so does one reading a number computed from constants that is not folded.

use super::output_combine::{is_close, BatchClass};
use crate::ir::batch_inputs::{examples_counts, reads_only};
use crate::ir::constant_fold::{folded_constants, Folded};
use crate::ir::constant_values::constant_ops;
use crate::ir::graph::{Graph, OpNode, ValueRef};

/// What an op computed once on combined values may read.
pub struct CombinedReads {
    /// The microbatch's counts: of its examples, of each batch input's elements, and of the
    /// elements every sum over the batch adds up.
    counts: Vec<f64>,
    folded: Vec<Option<Folded>>,
    constant: Vec<bool>,
    /// Per op: a sum over the batch of forward values (`gradient_seeds::ForwardValueAggregates`: a
    /// contraction of activations, counts per class), which adds up.
    forward_sum: Vec<bool>,
}

impl CombinedReads {
    pub fn new(graph: &Graph, batch_dims: &[Option<usize>], classes: &[BatchClass], forward_sum: &[bool]) -> Self {
        let mut counts = examples_counts(graph, batch_dims);
        counts.extend(classes.iter().filter_map(|c| match c {
            BatchClass::Sum { count } if *count > 1.0 => Some(*count),
            _ => None,
        }));
        CombinedReads {
            counts,
            folded: folded_constants(graph),
            constant: constant_ops(graph),
            forward_sum: forward_sum.to_vec(),
        }
    }

    /// Whether `op`, whose class is `class`, computes a value of combined ones only: it is no
    /// sum, mean or extreme itself (those combine as they are), reads one, and reads nothing but
    /// such values, values `once` says are computed once, the loss (its combination is exact,
    /// or warned about) and batch-independent values that cannot be counts of the microbatch.
    pub fn combines_once(
        &self,
        op: &OpNode,
        class: BatchClass,
        classes: &[BatchClass],
        batch_dims: &[Option<usize>],
        once: &[bool],
        loss: Option<usize>,
    ) -> bool {
        let aggregate = |p: usize| {
            once[p]
                || Some(p) == loss
                || self.forward_sum[p]
                || matches!(classes[p], BatchClass::Sum { .. } | BatchClass::Mean | BatchClass::Extreme { .. })
        };
        class == BatchClass::Other
            && op.operands.iter().any(|v| matches!(*v, ValueRef::Op { op: p, .. } if aggregate(p)))
            && reads_only(op, batch_dims, |p| match classes[p] {
                BatchClass::Independent => self.no_count(p),
                _ => aggregate(p),
            })
    }

    /// Whether batch-independent op `p` computes no count of the microbatch: it reads an
    /// argument (a parameter), is folded to a number no count is related to, or is a tensor of
    /// several numbers (class weights); a scalar computed from constants and not folded may be
    /// a count (Keras computes them from the shape).
    fn no_count(&self, p: usize) -> bool {
        if !self.constant[p] {
            return true;
        }
        match self.folded[p] {
            Some(Folded::Uniform(c)) => !self.counts.iter().any(|&n| relates_to_count(c, n)),
            Some(Folded::UniformUnfolded) => false,
            Some(Folded::Listed(_) | Folded::Repeated { .. }) | None => true,
        }
    }
}

/// Whether `c` is `n`, `n - 1`, their square roots, or the reciprocals of those (one is no
/// count: it is every guard's `max(sum, 1)`).
fn relates_to_count(c: f64, n: f64) -> bool {
    let c = c.abs();
    [n, n - 1.0]
        .into_iter()
        .filter(|&m| m > 1.0)
        .flat_map(|m| [m, m.sqrt()])
        .any(|m| is_close(c, m) || is_close(c * m, 1.0))
}

#[cfg(test)]
mod tests {
    use super::relates_to_count;

    #[test]
    fn counts_their_reciprocals_and_square_roots_relate_and_other_numbers_do_not() {
        for c in [32.0, 1.0 / 32.0, 32f64.sqrt(), -1.0 / 32f64.sqrt(), 31.0, 1.0 / 31.0] {
            assert!(relates_to_count(c, 32.0), "{c}");
        }
        for c in [1.0, 0.0, 2.0, 0.5, 1e-6, 64.0, std::f64::consts::LN_2] {
            assert!(!relates_to_count(c, 32.0), "{c}");
        }
        assert!(!relates_to_count(1.0, 2.0), "one is no count");
    }
}
