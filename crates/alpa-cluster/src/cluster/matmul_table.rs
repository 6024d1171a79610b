//! Matmul throughput by shape, measured by `alpa-calibrate` over a grid of GEMM shapes: the rate
//! a contraction of a given shape reaches, rather than the square-matrix plateau. Thin
//! contractions (attention's head dimension of 64-128, small batches) run well below the
//! plateau; a model that prices them at the plateau is optimistic exactly where stages differ.
//!
//! The table is a full grid: every combination of its `m`, `n` and `k` values has one point.
//! Between grid values the rate is interpolated linearly in `ln(rate)` over `log2` of each
//! dimension (trilinear); above the largest value of a dimension the rate is the largest's (the
//! plateau holds); below the smallest, the time is the smallest's (rate proportional to the
//! dimension), since a GEMM kernel's tiles and launch cost do not shrink with it.

use serde::{Deserialize, Serialize};

/// One measured GEMM: `(m x k) * (k x n)`, its FLOP/s.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatmulRate {
    pub m: u64,
    pub n: u64,
    pub k: u64,
    pub flops: f64,
}

/// The shape of a contraction: `batch` independent `(m x k) * (k x n)` products.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmShape {
    pub batch: u64,
    pub m: u64,
    pub n: u64,
    pub k: u64,
}

impl GemmShape {
    /// The rows the table is read at: a batched GEMM runs its batch as more output tiles, like
    /// a GEMM of `batch * m` rows.
    fn rows(&self) -> u64 {
        self.batch.max(1).saturating_mul(self.m)
    }
}

/// The distinct values of one dimension, sorted.
fn axis(points: &[MatmulRate], dim: impl Fn(&MatmulRate) -> u64) -> Vec<u64> {
    let mut values: Vec<u64> = points.iter().map(dim).collect();
    values.sort_unstable();
    values.dedup();
    values
}

/// Every problem of a table, for `Cluster::validate`: dimensions of zero, rates that are not
/// positive numbers, and points that do not make up a full grid.
pub fn check_table(at: &str, points: &[MatmulRate], problems: &mut Vec<String>) {
    for (i, p) in points.iter().enumerate() {
        if p.m == 0 || p.n == 0 || p.k == 0 {
            problems.push(format!("{at}[{i}]: m, n and k must be at least 1, got {} x {} x {}", p.m, p.n, p.k));
        }
        if !(p.flops.is_finite() && p.flops > 0.0) {
            problems.push(format!("{at}[{i}].flops must be a positive number, got {}", p.flops));
        }
        if points[..i].iter().any(|q| (q.m, q.n, q.k) == (p.m, p.n, p.k)) {
            problems.push(format!("{at}[{i}]: a second point for {} x {} x {}", p.m, p.n, p.k));
        }
    }
    let cells = axis(points, |p| p.m).len() * axis(points, |p| p.n).len() * axis(points, |p| p.k).len();
    if !points.is_empty() && cells != points.len() {
        problems.push(format!(
            "{at}: {} points do not make a full grid of its m, n and k values ({cells} combinations)",
            points.len()
        ));
    }
}

/// Where `value` lies on `axis` in log2: the two grid indices around it and the weight of the
/// upper one; and the factor below the grid (the rate shrinks with the dimension there).
fn locate(axis: &[u64], value: u64) -> (usize, usize, f64, f64) {
    let value = value.max(1);
    let last = axis.len() - 1;
    if value <= axis[0] {
        return (0, 0, 0.0, value as f64 / axis[0] as f64);
    }
    if value >= axis[last] {
        return (last, last, 0.0, 1.0);
    }
    let upper = axis.partition_point(|&a| a < value);
    let (lo, hi) = ((axis[upper - 1] as f64).log2(), (axis[upper] as f64).log2());
    (upper - 1, upper, ((value as f64).log2() - lo) / (hi - lo), 1.0)
}

/// The FLOP/s a GEMM of `shape` reaches according to `points` (a table that passed
/// [`check_table`]); `None` for an empty table.
pub fn interpolated_rate(points: &[MatmulRate], shape: GemmShape) -> Option<f64> {
    if points.is_empty() {
        return None;
    }
    let (ms, ns, ks) = (axis(points, |p| p.m), axis(points, |p| p.n), axis(points, |p| p.k));
    let rate_at = |i: usize, j: usize, l: usize| {
        points.iter().find(|p| (p.m, p.n, p.k) == (ms[i], ns[j], ks[l])).map(|p| p.flops.ln())
    };
    let (m0, m1, wm, below_m) = locate(&ms, shape.rows());
    let (n0, n1, wn, below_n) = locate(&ns, shape.n);
    let (k0, k1, wk, below_k) = locate(&ks, shape.k);
    let mut log_rate = 0.0;
    for (i, a) in [(m0, 1.0 - wm), (m1, wm)] {
        for (j, b) in [(n0, 1.0 - wn), (n1, wn)] {
            for (l, c) in [(k0, 1.0 - wk), (k1, wk)] {
                let weight = a * b * c;
                if weight > 0.0 {
                    log_rate += weight * rate_at(i, j, l)?;
                }
            }
        }
    }
    Some(log_rate.exp() * below_m * below_n * below_k)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIMS: [u64; 3] = [64, 256, 1024];

    /// A grid whose rate is a known function of the shape.
    fn grid(rate: impl Fn(u64, u64, u64) -> f64) -> Vec<MatmulRate> {
        let mut points = Vec::new();
        for m in DIMS {
            for n in DIMS {
                for k in DIMS {
                    points.push(MatmulRate { m, n, k, flops: rate(m, n, k) });
                }
            }
        }
        points
    }

    fn shape(batch: u64, m: u64, n: u64, k: u64) -> GemmShape {
        GemmShape { batch, m, n, k }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs()
    }

    #[test]
    fn grid_points_give_their_own_rate() {
        let points = grid(|m, n, k| (m * 3 + n * 5 + k * 7) as f64 * 1e9);
        for p in &points {
            assert!(close(interpolated_rate(&points, shape(1, p.m, p.n, p.k)).unwrap(), p.flops), "{p:?}");
        }
    }

    #[test]
    fn power_laws_are_interpolated_exactly() {
        // ln(rate) linear in log2 of each dimension: the interpolation reproduces it anywhere.
        let law = |m: u64, n: u64, k: u64| 1e12 * (m as f64).powf(0.3) * (n as f64).powf(0.2) * (k as f64).powf(0.5);
        let points = grid(law);
        for (m, n, k) in [(80, 100, 700), (65, 1000, 129), (500, 64, 1024)] {
            let got = interpolated_rate(&points, shape(1, m, n, k)).unwrap();
            assert!(close(got, law(m, n, k)), "{m}x{n}x{k}: {got} vs {}", law(m, n, k));
        }
    }

    #[test]
    fn outside_the_grid_the_plateau_holds_above_and_the_time_holds_below() {
        let points = grid(|m, n, k| (m + n + k) as f64 * 1e9);
        let top = interpolated_rate(&points, shape(1, 1024, 1024, 1024)).unwrap();
        assert_eq!(interpolated_rate(&points, shape(1, 1 << 20, 4096, 1 << 14)).unwrap(), top);
        // Half the smallest k: half the rate, the same time as at k = 64.
        let at_min = interpolated_rate(&points, shape(1, 256, 256, 64)).unwrap();
        assert!(close(interpolated_rate(&points, shape(1, 256, 256, 32)).unwrap(), at_min / 2.0));
        let tiny = interpolated_rate(&points, shape(1, 1, 1, 1)).unwrap();
        let smallest = interpolated_rate(&points, shape(1, 64, 64, 64)).unwrap();
        assert!(close(tiny, smallest / 64f64.powi(3)));
    }

    #[test]
    fn a_batch_counts_as_more_rows() {
        let points = grid(|m, n, k| (m * 2 + n + k) as f64 * 1e9);
        let batched = interpolated_rate(&points, shape(4, 64, 256, 64)).unwrap();
        assert!(close(batched, interpolated_rate(&points, shape(1, 256, 256, 64)).unwrap()));
    }

    #[test]
    fn rates_grow_with_every_dimension_when_the_table_does() {
        let points = grid(|m, n, k| 1e11 * ((m * n * k) as f64).ln());
        let mut last = 0.0;
        for d in [1, 8, 64, 100, 256, 300, 1024, 5000] {
            let r = interpolated_rate(&points, shape(1, d, d, d)).unwrap();
            assert!(r >= last, "{d}: {r} after {last}");
            last = r;
        }
    }

    #[test]
    fn check_reports_gaps_duplicates_and_bad_rates() {
        let mut problems = Vec::new();
        check_table("t", &grid(|_, _, _| 1e12), &mut problems);
        assert!(problems.is_empty(), "{problems:?}");
        let mut points = grid(|_, _, _| 1e12);
        points.pop();
        points[0].flops = f64::NAN;
        points[1].k = 0;
        points.push(points[2]);
        check_table("t", &points, &mut problems);
        assert!(problems.iter().any(|p| p.contains("t[0].flops")), "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("t[1]: m, n and k")), "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("a second point")), "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("full grid")), "{problems:?}");
        assert_eq!(interpolated_rate(&[], shape(1, 1, 1, 1)), None);
    }
}
