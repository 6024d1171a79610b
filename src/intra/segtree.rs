//! Memory per checkpoint under range updates: a segment tree with range add and range max.

/// Loads over `n` checkpoints; `add(lo, hi, d)` and `max(lo, hi)` on half-open ranges.
#[derive(Debug, Clone)]
pub struct LoadTree {
    n: usize,
    size: usize,
    /// Max of the subtree, including the node's own pending add.
    max: Vec<f64>,
    /// Add applied to the whole subtree.
    add: Vec<f64>,
}

impl LoadTree {
    pub fn new(values: &[f64]) -> LoadTree {
        let n = values.len();
        let size = n.next_power_of_two().max(1);
        let mut max = vec![f64::NEG_INFINITY; 2 * size];
        max[size..size + n].copy_from_slice(values);
        for i in (1..size).rev() {
            max[i] = max[2 * i].max(max[2 * i + 1]);
        }
        LoadTree { n, size, max, add: vec![0.0; 2 * size] }
    }

    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Largest load overall (`-inf` when empty).
    pub fn peak(&self) -> f64 {
        self.max[1]
    }

    pub fn add(&mut self, lo: usize, hi: usize, d: f64) {
        if lo < hi && d != 0.0 {
            self.add_rec(1, 0, self.size, lo, hi, d);
        }
    }

    fn add_rec(&mut self, node: usize, nl: usize, nr: usize, lo: usize, hi: usize, d: f64) {
        if hi <= nl || nr <= lo {
            return;
        }
        if lo <= nl && nr <= hi {
            self.max[node] += d;
            self.add[node] += d;
            return;
        }
        let mid = (nl + nr) / 2;
        self.add_rec(2 * node, nl, mid, lo, hi, d);
        self.add_rec(2 * node + 1, mid, nr, lo, hi, d);
        self.max[node] = self.max[2 * node].max(self.max[2 * node + 1]) + self.add[node];
    }

    /// Largest load over `lo..hi` (`-inf` for an empty range).
    pub fn max(&self, lo: usize, hi: usize) -> f64 {
        if lo >= hi {
            return f64::NEG_INFINITY;
        }
        self.max_rec(1, 0, self.size, lo, hi)
    }

    fn max_rec(&self, node: usize, nl: usize, nr: usize, lo: usize, hi: usize) -> f64 {
        if hi <= nl || nr <= lo {
            return f64::NEG_INFINITY;
        }
        if lo <= nl && nr <= hi {
            return self.max[node];
        }
        let mid = (nl + nr) / 2;
        self.max_rec(2 * node, nl, mid, lo, hi).max(self.max_rec(2 * node + 1, mid, nr, lo, hi)) + self.add[node]
    }

    /// Index of a checkpoint holding the peak (the leftmost one).
    pub fn argmax(&self) -> usize {
        let mut node = 1;
        while node < self.size {
            // A node's own add shifts both children alike.
            node = if self.max[2 * node] >= self.max[2 * node + 1] { 2 * node } else { 2 * node + 1 };
        }
        node - self.size
    }

    /// Every checkpoint's load.
    pub fn values(&self) -> Vec<f64> {
        let mut acc = vec![0.0; 2 * self.size];
        for i in 2..2 * self.size {
            acc[i] = acc[i / 2] + self.add[i / 2];
        }
        (0..self.n).map(|c| self.max[self.size + c] + acc[self.size + c]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_a_plain_array() {
        let mut plain = vec![3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0];
        let mut t = LoadTree::new(&plain);
        let ops = [(0, 3, 2.0), (2, 7, -1.5), (5, 6, -10.0), (1, 2, 7.0), (0, 7, 0.5)];
        for &(lo, hi, d) in &ops {
            t.add(lo, hi, d);
            for x in &mut plain[lo..hi] {
                *x += d;
            }
            for a in 0..plain.len() {
                for b in a + 1..=plain.len() {
                    let want = plain[a..b].iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    assert_eq!(t.max(a, b), want);
                }
            }
            let peak = plain.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            assert_eq!(t.peak(), peak);
            assert_eq!(plain[t.argmax()], peak);
            assert_eq!(t.values(), plain);
        }
    }
}
