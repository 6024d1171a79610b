//! Fitting timings: `seconds = latency + bytes / bandwidth`, and the plateau of a throughput curve.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §1.

use crate::cluster::LinkSpec;

/// One timing: `seconds` for one operation on `bytes`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub bytes: f64,
    pub seconds: f64,
}

/// Least squares of relative errors, so that the microsecond times of small messages weigh as
/// much as the long ones (a plain fit would see only the large sizes and could give a negative
/// latency). A negative latency is clamped to 0 and the bandwidth refitted. `None` without two
/// distinct sizes or when the times do not grow with the size.
pub fn fit_latency_bandwidth(samples: &[Sample]) -> Option<LinkSpec> {
    let usable: Vec<&Sample> = samples
        .iter()
        .filter(|s| s.bytes.is_finite() && s.bytes >= 0.0 && s.seconds.is_finite() && s.seconds > 0.0)
        .collect();
    let (mut sw, mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for s in &usable {
        let w = 1.0 / (s.seconds * s.seconds);
        sw += w;
        sx += w * s.bytes;
        sy += w * s.seconds;
        sxx += w * s.bytes * s.bytes;
        sxy += w * s.bytes * s.seconds;
    }
    let det = sw * sxx - sx * sx;
    if usable.len() < 2 || det <= 1e-12 * sw * sxx {
        return None;
    }
    let mut latency = (sxx * sy - sx * sxy) / det;
    let mut seconds_per_byte = (sw * sxy - sx * sy) / det;
    if latency < 0.0 {
        latency = 0.0;
        seconds_per_byte = sxy / sxx;
    }
    (seconds_per_byte > 0.0 && seconds_per_byte.is_finite())
        .then(|| LinkSpec { bandwidth_bytes_per_s: 1.0 / seconds_per_byte, latency_s: latency })
}

/// The best rate of a curve and the smallest size from which on every rate is within
/// `tolerance` (a fraction) of it (or, when the largest sizes fall below, from which it is
/// first reached).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plateau {
    pub rate: f64,
    pub reached_at: u64,
}

/// `points` are (size, rate) pairs in any order; non-finite or non-positive rates are ignored.
pub fn plateau(points: &[(u64, f64)], tolerance: f64) -> Option<Plateau> {
    let mut points: Vec<(u64, f64)> = points.iter().copied().filter(|(_, r)| r.is_finite() && *r > 0.0).collect();
    points.sort_by_key(|&(size, _)| size);
    let rate = points.iter().map(|&(_, r)| r).fold(0.0, f64::max);
    let floor = rate * (1.0 - tolerance);
    // The first size of the run of sizes that all stay at the plateau up to the largest; when
    // the largest sizes fall below it (clocks throttled on the longest products), the first size
    // that reaches it.
    let start = points.iter().rposition(|&(_, r)| r < floor).map_or(0, |i| i + 1);
    let start = if start < points.len() { start } else { points.iter().position(|&(_, r)| r >= floor)? };
    points.get(start).map(|&(reached_at, _)| Plateau { rate, reached_at })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples(latency: f64, bandwidth: f64, noise: &[f64]) -> Vec<Sample> {
        (0..noise.len())
            .map(|i| {
                let bytes = 1024.0 * 4f64.powi(i as i32);
                Sample { bytes, seconds: (latency + bytes / bandwidth) * (1.0 + noise[i]) }
            })
            .collect()
    }

    fn rel(a: f64, b: f64) -> f64 {
        (a - b).abs() / b
    }

    #[test]
    fn recovers_exact_parameters() {
        let link = fit_latency_bandwidth(&samples(20e-6, 150e9, &[0.0; 10])).unwrap();
        assert!(rel(link.latency_s, 20e-6) < 1e-9, "{link:?}");
        assert!(rel(link.bandwidth_bytes_per_s, 150e9) < 1e-9, "{link:?}");
    }

    #[test]
    fn noisy_timings_stay_close() {
        let noise = [0.03, -0.02, 0.05, -0.04, 0.01, 0.02, -0.03, 0.04, -0.01, 0.0];
        let link = fit_latency_bandwidth(&samples(8e-6, 40e9, &noise)).unwrap();
        assert!(rel(link.latency_s, 8e-6) < 0.1, "{link:?}");
        assert!(rel(link.bandwidth_bytes_per_s, 40e9) < 0.1, "{link:?}");
    }

    #[test]
    fn negative_latency_is_clamped() {
        // Pure bandwidth with the small sizes a little fast: the free fit would go below zero.
        let mut s = samples(0.0, 1e9, &[0.0; 6]);
        s[0].seconds *= 0.9;
        let link = fit_latency_bandwidth(&s).unwrap();
        assert_eq!(link.latency_s, 0.0);
        assert!(rel(link.bandwidth_bytes_per_s, 1e9) < 0.05, "{link:?}");
    }

    #[test]
    fn degenerate_inputs_give_none() {
        assert_eq!(fit_latency_bandwidth(&[]), None);
        let one = Sample { bytes: 10.0, seconds: 1.0 };
        assert_eq!(fit_latency_bandwidth(&[one, one]), None);
        let flat = [one, Sample { bytes: 1e6, seconds: 1.0 }, Sample { bytes: 1e7, seconds: 0.9 }];
        assert_eq!(fit_latency_bandwidth(&flat), None);
        let bad = [Sample { bytes: 1.0, seconds: f64::NAN }, Sample { bytes: 2.0, seconds: 0.0 }];
        assert_eq!(fit_latency_bandwidth(&bad), None);
    }

    #[test]
    fn plateau_and_where_it_starts() {
        let curve = [(4096, 700e12), (256, 20e12), (1024, 300e12), (2048, 640e12), (8192, 690e12)];
        let p = plateau(&curve, 0.1).unwrap();
        assert_eq!(p, Plateau { rate: 700e12, reached_at: 2048 });
        // A dip at a large size moves the start past it.
        let dip = [(1024, 100.0), (2048, 80.0), (4096, 95.0), (8192, 99.0)];
        assert_eq!(plateau(&dip, 0.1).unwrap().reached_at, 4096);
        // The largest sizes below the plateau (an H200's f16, throttled): from where it is reached.
        let throttled = [(1024, 175.2e12), (2048, 738.2e12), (4096, 828.8e12), (8192, 729.4e12), (16384, 743.2e12)];
        assert_eq!(plateau(&throttled, 0.1).unwrap(), Plateau { rate: 828.8e12, reached_at: 4096 });
        assert_eq!(plateau(&[], 0.1), None);
        assert_eq!(plateau(&[(1, 0.0)], 0.1), None);
    }
}
