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
