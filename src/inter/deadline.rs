//! A stage oracle with a deadline: past it every query answers "no plan" at once and the
//! oracle remembers that it cut the table short. The report's equal-operator baseline plans a
//! whole cost table of its own on layers no cache can share (GPT-39B: 1045 ILPs in 647 s after
//! the plan's 121 in 83 s); with a deadline its table ends soon after, and the baseline is
//! reported as not computed rather than as a plan of a partial table.

use super::stage_cost::{StageCost, StageCostResult, StageFloor};
use super::submesh::SubmeshShape;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub struct Deadline<C> {
    inner: C,
    until: Option<Instant>,
    expired: AtomicBool,
}

impl<C> Deadline<C> {
    /// `limit: None` never expires.
    pub fn new(inner: C, limit: Option<Duration>) -> Self {
        Deadline { inner, until: limit.map(|d| Instant::now() + d), expired: AtomicBool::new(false) }
    }

    /// Whether some query came after the deadline (and so went unanswered).
    pub fn expired(&self) -> bool {
        self.expired.load(Ordering::Relaxed)
    }

    fn past(&self) -> bool {
        let past = self.until.is_some_and(|t| Instant::now() >= t);
        if past {
            self.expired.store(true, Ordering::Relaxed);
        }
        past
    }
}

impl<C: StageCost> StageCost for Deadline<C> {
    fn cost(&self, layers: Range<usize>, submesh: SubmeshShape) -> Option<StageCostResult> {
        if self.past() {
            return None;
        }
        self.inner.cost(layers, submesh)
    }

    fn cost_options(&self, layers: Range<usize>, submesh: SubmeshShape) -> Vec<StageCostResult> {
        if self.past() {
            return Vec::new();
        }
        self.inner.cost_options(layers, submesh)
    }

    fn cost_options_on(&self, layers: Range<usize>, submesh: SubmeshShape, threads: usize) -> Vec<StageCostResult> {
        if self.past() {
            return Vec::new();
        }
        self.inner.cost_options_on(layers, submesh, threads)
    }

    fn floor(&self, layers: Range<usize>, submesh: SubmeshShape) -> Option<StageFloor> {
        self.inner.floor(layers, submesh)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    struct Counting(AtomicUsize);

    impl StageCost for Counting {
        fn cost(&self, layers: Range<usize>, _: SubmeshShape) -> Option<StageCostResult> {
            self.0.fetch_add(1, Ordering::Relaxed);
            Some(StageCostResult { latency: layers.len() as f64, mem_param: 0.0, mem_act: 0.0, logical_mesh: [1, 1] })
        }
    }

    fn shape() -> SubmeshShape {
        SubmeshShape { hosts: 1, devices_per_host: 1 }
    }

    #[test]
    fn without_a_limit_every_query_is_answered() {
        let d = Deadline::new(Counting(AtomicUsize::new(0)), None);
        assert_eq!(d.cost_options(0..3, shape()).len(), 1);
        assert_eq!(d.cost(0..2, shape()).map(|r| r.latency), Some(2.0));
        assert!(!d.expired());
        assert_eq!(d.inner.0.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn past_the_deadline_nothing_is_planned_and_it_says_so() {
        let d = Deadline::new(Counting(AtomicUsize::new(0)), Some(Duration::ZERO));
        assert!(d.cost(0..1, shape()).is_none());
        assert!(d.cost_options(0..1, shape()).is_empty());
        assert!(d.cost_options_on(0..1, shape(), 2).is_empty());
        assert!(d.expired());
        assert_eq!(d.inner.0.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn before_the_deadline_it_has_not_expired() {
        let d = Deadline::new(Counting(AtomicUsize::new(0)), Some(Duration::from_secs(3600)));
        assert!(d.cost(0..1, shape()).is_some());
        assert!(!d.expired());
    }
}
