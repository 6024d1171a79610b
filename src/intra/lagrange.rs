//! Lagrangian prices on memory: a price per checkpoint turns the memory limit into a cost per
//! byte, so that a search without memory constraints trades cost against memory globally.
//! Prices follow projected subgradient steps whose size grows while the priced optimum
//! still overflows and shrinks once it fits (`PriceRule::Growth`), or, once a plan that fits
//! is known, steps sized by Polyak's rule (`PriceRule::Polyak`), or the first until its plans
//! stop improving and then the second (`PriceRule::GrowthThenPolyak`, the default).

use super::model::Model;

/// A non-negative price per checkpoint.
#[derive(Debug, Clone)]
pub struct Prices {
    pub lambda: Vec<f64>,
}

impl Prices {
    pub fn zero(m: &Model) -> Prices {
        Prices { lambda: vec![0.0; m.num_checkpoints()] }
    }

    /// Penalty of every strategy of every node: its usage in each of its terms times the
    /// summed price over the term's checkpoints.
    pub fn penalties(&self, m: &Model) -> Vec<Vec<f64>> {
        let mut prefix = vec![0.0; self.lambda.len() + 1];
        for (c, l) in self.lambda.iter().enumerate() {
            prefix[c + 1] = prefix[c] + l;
        }
        let mut p: Vec<Vec<f64>> = m.costs.iter().map(|c| vec![0.0; c.len()]).collect();
        for t in &m.terms {
            let price = prefix[t.hi] - prefix[t.lo];
            if price == 0.0 {
                continue;
            }
            for (x, u) in p[t.node].iter_mut().zip(&t.usage) {
                *x += u * price;
            }
        }
        p
    }

    /// Multiplies every price by `factor`.
    pub fn scale(&mut self, factor: f64) {
        for l in &mut self.lambda {
            *l *= factor;
        }
    }

    /// One subgradient step: every price moves by `step * (load - limit) / limit`, never
    /// below zero.
    pub fn step(&mut self, loads: &[f64], limit: f64, step: f64) {
        for (l, x) in self.lambda.iter_mut().zip(loads) {
            *l = (*l + step * (x - limit) / limit).max(0.0);
        }
    }
}

/// A first step size: prices at which the penalty of the whole load is about `scale` times
/// the cost.
pub fn initial_step(cost: f64, loads: &[f64], scale: f64) -> f64 {
    let total: f64 = loads.iter().sum();
    if total > 0.0 {
        scale * cost.abs().max(1.0) / total
    } else {
        0.0
    }
}

/// The growth rule's prices after it overshot: prices `reference` fitted, the same prices
/// scaled by `low` overflowed. Later rounds try the geometric midpoint of the scales that are
/// known to fit and to overflow, so the priced plans close in on the limit from both sides
/// instead of the growth rule stepping past it again; short time limits leave few rounds for
/// the rule's oscillation to settle by itself.
#[derive(Debug, Clone)]
pub struct PriceBracket {
    reference: Prices,
    /// Scale known to fit.
    high: f64,
    /// Scale known to overflow.
    low: f64,
}

/// A bracket narrower than this ratio of scales is settled.
const BRACKET_SETTLED: f64 = 1.1;

impl PriceBracket {
    /// `fitted` fitted and `fitted` scaled by `overflowed_scale` (below 1) overflowed.
    pub fn new(fitted: Prices, overflowed_scale: f64) -> Option<PriceBracket> {
        (overflowed_scale > 0.0 && overflowed_scale < 1.0 / BRACKET_SETTLED).then_some(PriceBracket {
            reference: fitted,
            high: 1.0,
            low: overflowed_scale,
        })
    }

    /// The scale of the prices to try next.
    pub fn midpoint(&self) -> f64 {
        (self.high * self.low).sqrt()
    }

    /// The prices to try next.
    pub fn prices(&self) -> Prices {
        let mut p = self.reference.clone();
        p.scale(self.midpoint());
        p
    }

    /// Records whether the priced plan at [`Self::prices`] fitted; `false` once the bracket
    /// is settled (the caller goes back to its rule from the fitting end, [`Self::fitting`]).
    pub fn record(&mut self, fitted: bool) -> bool {
        let mid = self.midpoint();
        if fitted {
            self.high = mid;
        } else {
            self.low = mid;
        }
        self.high / self.low >= BRACKET_SETTLED
    }

    /// The prices at the end of the bracket known to fit.
    pub fn fitting(&self) -> Prices {
        let mut p = self.reference.clone();
        p.scale(self.high);
        p
    }
}

/// How the Lagrangian prices move between rounds once a plan that fits is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PriceRule {
    /// Steps that grow by half while the priced optimum overflows; prices fall by 2, 4, 8, ...
    /// in rounds in a row where it fits.
    Growth,
    /// Polyak's rule (`PolyakSteps`) once a plan that fits is known: the priced plans stay near
    /// the limit.
    Polyak,
    /// The growth rule until its repaired plans stop improving, then Polyak's rule: the growth
    /// rule's first rounds, which overflow far, choose the region of the plan; Polyak's steps
    /// then refine it without overshooting.
    #[default]
    GrowthThenPolyak,
}

/// Rounds without a better plan after which `PriceRule::GrowthThenPolyak` switches rules.
const SWITCH_STALE: usize = 3;

impl PriceRule {
    /// Whether Polyak's rule sizes the steps from this round on: `already` whether it did in
    /// the last round, `rounds_found` whether the rounds have found a plan that fits
    /// themselves, `stale` the rounds since they last found a better one.
    pub(crate) fn polyak_from_now(self, already: bool, rounds_found: bool, stale: usize) -> bool {
        match self {
            PriceRule::Growth => false,
            PriceRule::Polyak => true,
            PriceRule::GrowthThenPolyak => already || (rounds_found && stale >= SWITCH_STALE),
        }
    }
}

impl std::str::FromStr for PriceRule {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "growth" => Ok(PriceRule::Growth),
            "polyak" => Ok(PriceRule::Polyak),
            "growth-then-polyak" => Ok(PriceRule::GrowthThenPolyak),
            _ => Err(format!("price rule must be 'growth', 'polyak' or 'growth-then-polyak', got '{text}'")),
        }
    }
}

/// Rounds without a better Lagrangian value after which Polyak's factor halves.
const THETA_PATIENCE: usize = 8;

/// Step sizes by Polyak's rule, `theta * (upper - dual) / |g|^2`, with `g` the subgradient
/// (load minus limit per checkpoint, those at price zero and within the limit left out), `dual`
/// the Lagrangian value of the priced plan and `upper` the cost of the best plan that fits.
/// Unlike steps that grow by a fixed factor, the step shrinks by itself as the priced plan's
/// overflow does (the overflow is squared below the gap), so prices settle near the threshold.
#[derive(Debug, Clone)]
pub struct PolyakSteps {
    pub theta: f64,
    best_dual: f64,
    rounds_without_better: usize,
}

impl Default for PolyakSteps {
    fn default() -> Self {
        PolyakSteps { theta: 1.0, best_dual: f64::NEG_INFINITY, rounds_without_better: 0 }
    }
}

impl PolyakSteps {
    /// One step of `prices` from the priced plan's `loads` and `cost`, towards a Lagrangian
    /// value of `upper`. Returns the priced plan's Lagrangian value.
    pub fn step(&mut self, prices: &mut Prices, loads: &[f64], limit: f64, cost: f64, upper: f64) -> f64 {
        let dual = cost + prices.lambda.iter().zip(loads).map(|(l, x)| l * (x - limit)).sum::<f64>();
        if dual > self.best_dual + 1e-9 * dual.abs() {
            self.best_dual = dual;
            self.rounds_without_better = 0;
        } else {
            self.rounds_without_better += 1;
            if self.rounds_without_better >= THETA_PATIENCE {
                self.theta *= 0.5;
                self.rounds_without_better = 0;
            }
        }
        let norm2: f64 = prices
            .lambda
            .iter()
            .zip(loads)
            .filter(|&(&l, &x)| l > 0.0 || x > limit)
            .map(|(_, x)| (x - limit) * (x - limit))
            .sum();
        if norm2 > 0.0 {
            // The priced plan comes from a local search, so its value can exceed the true
            // Lagrangian value and even `upper`: a floor keeps the step from vanishing.
            let gap = (upper - dual).max(0.01 * upper.abs());
            let t = self.theta * gap / norm2;
            for (l, x) in prices.lambda.iter_mut().zip(loads) {
                *l = (*l + t * (x - limit)).max(0.0);
            }
        }
        dual
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plan fits when the price scale is at least the threshold: the bracket closes in on
    /// it from both sides, and settles.
    #[test]
    fn the_bracket_bisects_the_scale_between_fitting_and_overflowing() {
        for threshold in [0.011, 0.3, 0.5, 0.97] {
            let mut b = PriceBracket::new(Prices { lambda: vec![2.0, 4.0] }, 0.01).unwrap();
            let mut rounds = 0;
            loop {
                let scale = b.prices().lambda[0] / 2.0;
                assert!((scale - b.midpoint()).abs() < 1e-12);
                rounds += 1;
                if !b.record(scale >= threshold) {
                    break;
                }
                assert!(rounds < 20, "the bracket never settles");
            }
            assert!(b.high >= threshold && b.low < threshold, "threshold {threshold} left the bracket");
            assert!(b.high / b.low < BRACKET_SETTLED);
            assert!((b.fitting().lambda[1] / 4.0 - b.high).abs() < 1e-12);
            // log2(log(100) / log(1.1)) rounds halve the log-width from 100 to below 1.1.
            assert!(rounds <= 6, "{rounds} rounds");
        }
        assert!(PriceBracket::new(Prices { lambda: vec![1.0] }, 0.95).is_none());
        assert!(PriceBracket::new(Prices { lambda: vec![1.0] }, 0.0).is_none());
    }

    #[test]
    fn polyak_step_reaches_the_target_value_on_a_linear_dual() {
        // One checkpoint 10 bytes over a limit of 100, price zero, cost 50, target 70: the
        // price becomes gap / overflow^2 times the overflow, 20 / 100 * 10, so the Lagrangian
        // value of the same plan at the new price is exactly the target.
        let mut prices = Prices { lambda: vec![0.0, 0.0] };
        let mut rule = PolyakSteps::default();
        let loads = [110.0, 80.0];
        let dual = rule.step(&mut prices, &loads, 100.0, 50.0, 70.0);
        assert_eq!(dual, 50.0);
        assert!((prices.lambda[0] - 2.0).abs() < 1e-12, "{:?}", prices.lambda);
        // The checkpoint within the limit at price zero stays at zero (projection).
        assert_eq!(prices.lambda[1], 0.0);
        let again = 50.0 + prices.lambda[0] * (loads[0] - 100.0);
        assert!((again - 70.0).abs() < 1e-9);
    }

    #[test]
    fn prices_of_checkpoints_with_slack_fall_but_never_below_zero() {
        let mut prices = Prices { lambda: vec![1.0, 0.01] };
        let mut rule = PolyakSteps::default();
        rule.step(&mut prices, &[90.0, 50.0], 100.0, 10.0, 30.0);
        assert!(prices.lambda[0] < 1.0 && prices.lambda[0] >= 0.0, "{:?}", prices.lambda);
        assert_eq!(prices.lambda[1], 0.0);
    }

    #[test]
    fn theta_halves_after_rounds_without_a_better_value() {
        let mut rule = PolyakSteps::default();
        let mut prices = Prices { lambda: vec![0.0] };
        // Load at the limit: no subgradient, prices stay, the value repeats.
        rule.step(&mut prices, &[100.0], 100.0, 5.0, 10.0);
        for _ in 0..THETA_PATIENCE - 1 {
            rule.step(&mut prices, &[100.0], 100.0, 5.0, 10.0);
            assert_eq!(rule.theta, 1.0);
        }
        rule.step(&mut prices, &[100.0], 100.0, 5.0, 10.0);
        assert_eq!(rule.theta, 0.5);
        // A better value resets the count.
        rule.step(&mut prices, &[100.0], 100.0, 6.0, 10.0);
        for _ in 0..THETA_PATIENCE - 1 {
            rule.step(&mut prices, &[100.0], 100.0, 6.0, 10.0);
        }
        assert_eq!(rule.theta, 0.5);
    }

    #[test]
    fn growth_then_polyak_switches_once_the_rounds_stop_improving_and_stays() {
        let rule = PriceRule::GrowthThenPolyak;
        assert!(!rule.polyak_from_now(false, false, 10), "no plan of the rounds' own yet");
        assert!(!rule.polyak_from_now(false, true, SWITCH_STALE - 1));
        assert!(rule.polyak_from_now(false, true, SWITCH_STALE));
        assert!(rule.polyak_from_now(true, true, 0), "once on, it stays on");
        for (already, found, stale) in [(false, false, 0), (true, true, 9), (false, true, 3)] {
            assert!(!PriceRule::Growth.polyak_from_now(already, found, stale));
            assert!(PriceRule::Polyak.polyak_from_now(already, found, stale));
        }
    }

    #[test]
    fn price_rules_parse_by_name() {
        assert_eq!("growth".parse(), Ok(PriceRule::Growth));
        assert_eq!("polyak".parse(), Ok(PriceRule::Polyak));
        assert_eq!("growth-then-polyak".parse(), Ok(PriceRule::GrowthThenPolyak));
        assert!("Polyak".parse::<PriceRule>().is_err());
    }
}
