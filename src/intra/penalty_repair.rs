//! Repairs an over-limit assignment by pricing only the checkpoints that overflow.
//!
//! A plan priced by Lagrangian prices can overflow by half the limit; repaired one node at a
//! time (cheapest cost per byte at the fullest checkpoint) it loses much of what the prices
//! gained, because a single node's switch ignores the reshardings it causes on its edges. Here
//! the prices of the checkpoints still over the limit double round by round (a penalty loop on
//! over-limit time points), and each round re-optimises cost plus priced memory with
//! single-node and tree moves, so memory is cut where it is cheapest together with its
//! neighbours, and checkpoints already within the limit gain no new price.

use super::lagrange::Prices;
use super::lns::{live_at, Rng};
use super::search::Search;
use super::tree::{tree_move, TreeScratch};

/// Rounds of doubling before giving up.
const ROUNDS: usize = 24;
/// Tree moves per round, seeded at nodes live at the fullest checkpoint.
const TREES: usize = 8;
const TREE_SIZE: usize = 400;
/// The first price of an overflowing checkpoint, as a fraction of the plan's cost per byte of
/// the limit: small, so that prices rise from below the cut that fits.
const FIRST_PRICE: f64 = 1e-3;

/// Lowers `s` under the memory limit starting from `prices` (the prices it was optimised
/// under); returns whether it fits. Prices of checkpoints that overflow start at least at a
/// small fraction of the plan's cost per byte and double every round they still overflow.
pub fn penalty_repair(
    s: &mut Search,
    prices: &Prices,
    rng: &mut Rng,
    scratch: &mut TreeScratch,
    stop: &mut dyn FnMut() -> bool,
) -> bool {
    let m = s.m;
    if s.memory_ok() {
        return true;
    }
    // A limit of zero bytes must not make the first price infinite (0 x inf is NaN).
    let floor = FIRST_PRICE * s.total().1.abs().max(1.0) / m.limit.max(1.0);
    let mut prices = prices.clone();
    for _ in 0..ROUNDS {
        if s.memory_ok() || stop() {
            break;
        }
        let loads = s.loads.values();
        for (price, load) in prices.lambda.iter_mut().zip(&loads) {
            if *load > m.limit {
                *price = (2.0 * *price).max(floor);
            }
        }
        let penalties = prices.penalties(m);
        s.descend(false, Some(&penalties), stop);
        if s.memory_ok() {
            break;
        }
        let fullest = s.loads.argmax();
        for &v in live_at(s, fullest, rng).iter().take(TREES) {
            tree_move(s, v, TREE_SIZE, Some(&penalties), rng, scratch);
        }
        s.descend(false, Some(&penalties), stop);
    }
    s.memory_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intra::model::{Model, ModelEdge, Term};

    /// A chain of three nodes, each with a big cheap strategy and a small dear one, all live at
    /// one checkpoint; switching node 1 alone also makes both its edges dear, so the cheapest
    /// way under the limit switches node 0 and node 2 (both free of edge costs).
    fn chain() -> Model {
        let big_small = |dear: f64| vec![0.0, dear];
        // Edge costs: 0 when both ends agree, else 50.
        let agree = vec![0.0, 50.0, 50.0, 0.0];
        Model {
            costs: vec![big_small(30.0), big_small(1.0), big_small(30.0)],
            edges: vec![ModelEdge { u: 0, v: 1, costs: agree.clone() }, ModelEdge { u: 1, v: 2, costs: agree }],
            terms: (0..3).map(|node| Term { node, lo: 0, hi: 1, usage: vec![10.0, 1.0] }).collect(),
            base: vec![0.0],
            limit: 12.0,
        }
    }

    #[test]
    fn repairs_an_overflowing_plan_with_the_neighbours_in_view() {
        let m = chain();
        let mut s = Search::new(&m, vec![0, 0, 0]);
        assert!(!s.memory_ok());
        let mut rng = Rng::new(7);
        let mut scratch = TreeScratch::new(3);
        let fits = penalty_repair(&mut s, &Prices::zero(&m), &mut rng, &mut scratch, &mut || false);
        assert!(fits);
        // Peak 12 admits one big strategy at most: all small (cost 61) beats any plan with a
        // disagreeing edge (at least 100 more); the repair must not stop at a disagreement.
        assert_eq!(s.choice, vec![1, 1, 1]);
        assert_eq!(s.total(), (0, 61.0));
    }

    #[test]
    fn a_limit_of_zero_bytes_is_reached_when_some_plan_uses_none() {
        let mut m = chain();
        m.limit = 0.0;
        for t in &mut m.terms {
            t.usage = vec![10.0, 0.0];
        }
        let mut s = Search::new(&m, vec![0, 0, 0]);
        let mut rng = Rng::new(7);
        let mut scratch = TreeScratch::new(3);
        assert!(penalty_repair(&mut s, &Prices::zero(&m), &mut rng, &mut scratch, &mut || false));
        assert_eq!(s.choice, vec![1, 1, 1]);
    }

    #[test]
    fn leaves_a_plan_that_fits_alone() {
        let m = chain();
        let mut s = Search::new(&m, vec![1, 1, 1]);
        let mut rng = Rng::new(7);
        let mut scratch = TreeScratch::new(3);
        assert!(penalty_repair(&mut s, &Prices::zero(&m), &mut rng, &mut scratch, &mut || false));
        assert_eq!(s.choice, vec![1, 1, 1]);
    }
}
