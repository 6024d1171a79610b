//! Which (range, submesh) pairs a DP over the cost table may still put in its plan, decided
//! before planning them: the plan-floor rule of table_prune.rs (exact with epsilon = 0).
//!
//! A reader is a DP the table is built for: the plan's, and the report's baselines that run the
//! DP on it (inter-op only; equal layer, one DP per stage length). For a reader whose best plan
//! on the pairs planned so far takes T, a pair is not planned when every plan of that reader
//! using it is slower than T on the optimistic table: pairs already planned hold their
//! options, pairs not planned yet one option at their floors (latency, parameter and
//! activation memory, each a lower bound of every option the oracle can return). The least
//! time of the plans using a pair is one DP run (epsilon 0, no time limit) where no other range
//! may overlap the pair's; it ignores placement (the plan's DP runs once per placeable family
//! of shapes), which only lowers the bound. The optimistic table only rises and T only falls as pairs are
//! planned, so a pair ruled out stays ruled out.
//!
//! Why a reader's plan is the full table's (epsilon 0): its optimum P* on the full table takes
//! T(P*) <= T, and every plan using a skipped pair takes more than T, so P* uses none; the DP
//! on the pruned table has the same optimum, and its enumeration, tie-breaks and
//! reconstruction only ever meet plans of that time that use no skipped pair. With epsilon > 0
//! the candidates of skipped pairs would move the DP's epsilon groups, so the rule is off.

use super::baselines::inter_op_only_allows;
use super::pipeline::solve_placeable;
use super::plan::StageDpOptions;
use super::stage_cost::StageCostResult;
use super::stage_dp::solve_stage_dp_filtered;
use super::submesh::{ClusterShape, SubmeshShape};
use super::table::CostTable;
use super::InterError;
use std::ops::Range;

/// A DP that reads the cost table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Reader {
    /// The plan's DP (every pair, one run per placeable family).
    Plan,
    /// The inter-op-only baseline (stages on one device).
    InterOpOnly,
    /// The equal-layer baseline's DP for stages of this many layers.
    EqualLayer(usize),
}

impl Reader {
    /// The plan's DP, and with `baselines` those of the report's baselines on `layers` layers.
    pub(crate) fn all(layers: usize, baselines: bool) -> Vec<Reader> {
        let mut readers = vec![Reader::Plan];
        if baselines {
            readers.push(Reader::InterOpOnly);
            readers.extend(super::baselines::equal_layer_lengths(layers).map(Reader::EqualLayer));
        }
        readers
    }

    fn allows(self, layers: &Range<usize>, shape: SubmeshShape) -> bool {
        match self {
            Reader::Plan => true,
            Reader::InterOpOnly => inter_op_only_allows(shape),
            Reader::EqualLayer(len) => layers.len() == len,
        }
    }

    /// The iteration time of this reader's plan on `table` (infinite when it has none).
    fn best(self, table: &CostTable, cluster: ClusterShape, dp: &StageDpOptions) -> f64 {
        let result = match self {
            Reader::Plan => solve_placeable(table, cluster, dp),
            _ => solve_stage_dp_filtered(table, dp, &|r, s| self.allows(&r, s)),
        };
        result.map_or(f64::INFINITY, |r| r.plan.iteration_time)
    }
}

/// The optimistic table and each reader's best plan so far.
pub(crate) struct PlanFloors {
    readers: Vec<(Reader, f64)>,
    optimistic: CostTable,
    cluster: ClusterShape,
    /// `dp` with epsilon 0, no time limit and no progress lines: the DP's exact optimum.
    exact: StageDpOptions,
}

impl PlanFloors {
    /// `optimistic`: every pair that may be planned at its floor option.
    pub(crate) fn new(optimistic: CostTable, readers: Vec<Reader>, cluster: ClusterShape, dp: &StageDpOptions) -> Self {
        let exact = StageDpOptions { epsilon: 0.0, time_limit: None, progress: false, ..dp.clone() };
        PlanFloors { readers: readers.into_iter().map(|r| (r, f64::INFINITY)).collect(), optimistic, cluster, exact }
    }

    /// Pair (`k..i`, shape `s`) was planned: its options replace its floor.
    pub(crate) fn planned(
        &mut self,
        k: usize,
        i: usize,
        s: usize,
        options: Vec<StageCostResult>,
    ) -> Result<(), InterError> {
        self.optimistic.set(k, i, s, options)
    }

    /// Each reader's best plan on the planned pairs `table`; the plan's time when it improved.
    pub(crate) fn update(&mut self, table: &CostTable) -> Option<f64> {
        let mut improved = None;
        for (reader, best) in &mut self.readers {
            let t = reader.best(table, self.cluster, &self.exact);
            if t < *best {
                *best = t;
                if *reader == Reader::Plan {
                    improved = Some(t);
                }
            }
        }
        improved
    }

    /// Whether some reader may still use `k..i` on shape `s` in its plan.
    pub(crate) fn may_use(&self, k: usize, i: usize, s: usize) -> bool {
        let shape = self.optimistic.shapes()[s];
        self.readers.iter().filter(|(reader, _)| reader.allows(&(k..i), shape)).any(|&(reader, best)| {
            let using = |r: Range<usize>, sh: SubmeshShape| {
                reader.allows(&r, sh) && (r.end <= k || r.start >= i || (r == (k..i) && sh == shape))
            };
            match solve_stage_dp_filtered(&self.optimistic, &self.exact, &using) {
                Ok(r) => !(r.plan.iteration_time > best * (1.0 + super::table_prune::SLACK)),
                Err(_) => false,
            }
        })
    }
}
