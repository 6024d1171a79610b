//! Lagrangian prices on memory: a price per checkpoint turns the memory limit into a cost per
//! byte, so that a search without memory constraints trades cost against memory globally.
//! Prices follow projected subgradient steps whose size grows while the priced optimum
//! still overflows and shrinks once it fits.

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

/// Steers the prices toward the lowest level at which the priced optimum still fits. Until
/// the first fit, overflowing rounds take growing subgradient steps; fitting rounds scale every
/// price down by `shrink`. Once a fitting and an overflowing level are known, the level
/// bisects between them (in log scale), so the rounds spend their time near the threshold,
/// where the repaired copies are cheapest, rather than halving down from far above it.
#[derive(Debug, Clone)]
pub struct PriceLevel {
    shrink: f64,
    /// Log of the current level relative to the first prices.
    at: f64,
    /// Highest level seen overflow, lowest level seen fit (logs), since the last reopening.
    overflow: Option<f64>,
    fit: Option<f64>,
}

/// A bracket narrower than this (log scale, about 5%) reopens below its fitting end.
const NARROWEST: f64 = 0.05;

impl PriceLevel {
    pub fn new(shrink: f64) -> PriceLevel {
        PriceLevel { shrink, at: 0.0, overflow: None, fit: None }
    }

    /// Moves `prices` after a round whose priced optimum had `loads` (and `fits` the limit).
    /// `step` is the subgradient step size, grown while no level has fit yet, up to `max_step`.
    pub fn update(
        &mut self,
        prices: &mut Prices,
        step: &mut f64,
        max_step: f64,
        fits: bool,
        loads: &[f64],
        limit: f64,
    ) {
        // The search moves between rounds, so the newest outcome overrules an older one that
        // contradicts it.
        if fits {
            self.overflow = self.overflow.filter(|&o| o < self.at);
            self.fit = Some(self.fit.map_or(self.at, |f| f.min(self.at)));
        } else {
            self.fit = self.fit.filter(|&f| f > self.at);
            self.overflow = Some(self.overflow.map_or(self.at, |o| o.max(self.at)));
        }
        let next = match (self.overflow, self.fit) {
            (Some(lo), Some(hi)) if lo < hi => {
                if hi - lo < NARROWEST {
                    self.overflow = None;
                    hi + self.shrink.ln()
                } else {
                    0.5 * (lo + hi)
                }
            }
            // Only fits seen.
            _ if fits => self.at + self.shrink.ln(),
            _ => {
                // Still overflowing with no fit below: raise the prices where the load is over.
                *step = (*step * 1.5).min(max_step);
                prices.step(loads, limit, *step);
                return;
            }
        };
        let factor = (next - self.at).exp();
        prices.scale(factor);
        *step *= factor;
        self.at = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The priced optimum fits exactly when the level is at least `threshold` (log scale).
    fn fits_at(level: &PriceLevel, threshold: f64) -> bool {
        level.at >= threshold
    }

    #[test]
    fn the_level_falls_quickly_then_brackets_the_threshold() {
        let mut prices = Prices { lambda: vec![1.0, 2.0] };
        let mut level = PriceLevel::new(0.25);
        let mut step = 1.0;
        let threshold = -5.0;
        let mut visited = Vec::new();
        for _ in 0..20 {
            let fits = fits_at(&level, threshold);
            level.update(&mut prices, &mut step, 1e6, fits, &[0.0, 0.0], 1.0);
            visited.push(level.at);
        }
        // Four quarterings pass the threshold (4 ln 4 > 5): the descent is not 1/2 per round.
        assert!(visited[3] < threshold, "{visited:?}");
        // From then on the level stays within a factor of 4 of the threshold.
        for &at in &visited[4..] {
            assert!((at - threshold).abs() <= 4f64.ln() + 1e-9, "{visited:?}");
        }
        // The prices moved with the level.
        let ratio = prices.lambda[0];
        assert!((ratio - level.at.exp()).abs() < 1e-9 * ratio.max(1.0), "{ratio} vs {}", level.at.exp());
        assert!((prices.lambda[1] - 2.0 * ratio).abs() < 1e-9);
    }

    #[test]
    fn overflow_before_any_fit_raises_the_prices_where_the_load_is_over() {
        let mut prices = Prices { lambda: vec![0.0, 0.0] };
        let mut level = PriceLevel::new(0.25);
        let mut step = 1.0;
        level.update(&mut prices, &mut step, 1e6, false, &[3.0, 0.5], 1.0);
        assert_eq!(step, 1.5);
        assert_eq!(prices.lambda, vec![3.0, 0.0]);
    }
}
