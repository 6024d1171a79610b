//! The multiply-adds of a convolution that read an input element, per spatial dim: the pairs
//! (output position, kernel position) whose input position is neither padding nor a hole of
//! the input's (lhs) dilation. XLA's cost analysis counts these (HloCostAnalysis), and the
//! kernels XLA emits skip the rest: the input gradient of a stride-2 convolution is an
//! lhs-dilated convolution with three of every four taps on holes.

/// One spatial dim of a convolution's window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowDim {
    pub input: i64,
    pub window: i64,
    pub output: i64,
    pub stride: i64,
    pub padding_low: i64,
    pub lhs_dilation: i64,
    pub rhs_dilation: i64,
}

/// Rows (of the shorter of output and window) counted one by one; past this many, every
/// `ceil(rows / EXACT_ROWS)`-th row stands for its neighbours.
pub const EXACT_ROWS: i128 = 1 << 20;

/// Pairs (o, k), `o < output`, `k < window`, whose position `o * stride + k * rhs_dilation -
/// padding_low` in the dilated, padded input is a multiple of `lhs_dilation` inside
/// `[0, (input - 1) * lhs_dilation]`. Rows of the shorter of output and window, each
/// closed-form: exact up to [`EXACT_ROWS`] rows (any real convolution), an estimate from evenly
/// spaced rows beyond, so that no shape, however long, takes more than about a million steps.
pub fn valid_taps(d: WindowDim) -> u128 {
    if d.input <= 0 || d.window <= 0 || d.output <= 0 {
        return 0;
    }
    let (stride, rhs, lhs) = (d.stride.max(1) as i128, d.rhs_dilation.max(1) as i128, d.lhs_dilation.max(1) as i128);
    let last = (d.input as i128 - 1) * lhs;
    let low = d.padding_low as i128;
    let (output, window) = (d.output as i128, d.window as i128);
    let row = |i: i128| match output <= window {
        true => in_range_multiples(window, rhs, i * stride - low, last, lhs),
        false => in_range_multiples(output, stride, i * rhs - low, last, lhs),
    };
    let rows = output.min(window);
    let step = (rows + EXACT_ROWS - 1) / EXACT_ROWS;
    (0..(rows + step - 1) / step).map(|n| n * step).map(|i| row(i) * (step.min(rows - i) as u128)).sum()
}

/// `#{x in [0, n) : q = x * step + offset, 0 <= q <= last, q mod m == 0}`, `step, m >= 1`.
fn in_range_multiples(n: i128, step: i128, offset: i128, last: i128, m: i128) -> u128 {
    let lo = div_ceil(-offset, step).max(0);
    let hi = (last - offset).div_euclid(step).min(n - 1);
    if lo > hi {
        return 0;
    }
    // x * step = -offset (mod m): solvable when g = gcd(step, m) divides it, then x is one
    // residue modulo m / g.
    let g = gcd(step, m);
    let target = (-offset).rem_euclid(m);
    if target % g != 0 {
        return 0;
    }
    let period = m / g;
    let residue = (target / g * inverse(step / g, period)).rem_euclid(period);
    let first = lo + (residue - lo).rem_euclid(period);
    if first > hi {
        0
    } else {
        ((hi - first) / period + 1) as u128
    }
}

fn div_ceil(a: i128, b: i128) -> i128 {
    -((-a).div_euclid(b))
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// The inverse of `a` modulo `m` (`gcd(a, m) = 1`); 0 modulo 1.
fn inverse(a: i128, m: i128) -> i128 {
    let (mut r0, mut r1, mut s0, mut s1) = (a.rem_euclid(m), m, 1i128, 0i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (s0, s1) = (s1, s0 - q * s1);
    }
    s0.rem_euclid(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn brute(d: WindowDim) -> u128 {
        let last = (d.input - 1) * d.lhs_dilation;
        let mut n = 0;
        for o in 0..d.output {
            for k in 0..d.window {
                let q = o * d.stride + k * d.rhs_dilation - d.padding_low;
                if (0..=last).contains(&q) && q % d.lhs_dilation == 0 {
                    n += 1;
                }
            }
        }
        n
    }

    fn dim(input: i64, window: i64, output: i64, stride: i64, padding_low: i64, lhs: i64, rhs: i64) -> WindowDim {
        WindowDim { input, window, output, stride, padding_low, lhs_dilation: lhs, rhs_dilation: rhs }
    }

    #[test]
    fn by_hand() {
        // VALID: every tap reads the input.
        assert_eq!(valid_taps(dim(32, 7, 13, 2, 0, 1, 1)), 13 * 7);
        // SAME 3x3 at 32: the first output's first tap and the last output's last tap are padding.
        assert_eq!(valid_taps(dim(32, 3, 32, 1, 1, 1, 1)), 32 * 3 - 2);
        // The input gradient of a stride-2 3-tap convolution over 8 -> 4: input 4 dilated by 2
        // (elements at 0, 2, 4, 6), padded low by 1, 8 outputs: of 24 taps 11 land on elements.
        assert_eq!(valid_taps(dim(4, 3, 8, 1, 1, 2, 1)), 11);
        assert_eq!(valid_taps(dim(4, 3, 8, 1, 1, 2, 1)), brute(dim(4, 3, 8, 1, 1, 2, 1)));
        // Nothing to count.
        assert_eq!(valid_taps(dim(0, 3, 8, 1, 0, 1, 1)), 0);
    }

    #[test]
    fn long_dims_are_counted_in_closed_form() {
        // A filter gradient over a long sequence: output 3, window 10^9 (no O(window) loop here).
        let d = dim(1_000_000_000, 1_000_000_000, 3, 1, 1, 1, 1);
        assert_eq!(valid_taps(d), 3 * 1_000_000_000 - 2);
        // Both long, up to EXACT_ROWS: the loop runs over the shorter one, exactly.
        // Pairs with 3 <= o + k <= 2^21 + 2: all 2^41 but the 6 below 3 and, per o, the
        // max(0, o - 3) above.
        let d = dim(1 << 21, 1 << 21, 1 << 20, 1, 3, 1, 1);
        let above: u128 = (1u128 << 20).saturating_sub(4) * ((1u128 << 20) - 3) / 2;
        assert_eq!(valid_taps(d), (1u128 << 41) - 6 - above);
    }

    #[test]
    fn absurdly_long_dims_are_estimated_in_bounded_time() {
        // 2^40 outputs and window positions (a shape, never data): past EXACT_ROWS the rows are
        // sampled. Every tap reads the input here, so the estimate is exact.
        let n = 1i64 << 40;
        assert_eq!(valid_taps(dim(2 * n, n, n, 1, 0, 1, 1)), 1u128 << 80);
        // Half the positions are dilation holes: within 0.1% of half the dense count.
        let dilated = valid_taps(dim(n, n, n, 1, 0, 2, 1)) as f64;
        let half = (1u128 << 79) as f64;
        assert!((dilated / half - 1.0).abs() < 1e-3, "{dilated} vs {half}");
        // At the largest shapes i64 allows, no overflow.
        assert!(valid_taps(dim(i64::MAX, i64::MAX, i64::MAX, i64::MAX, i64::MIN, i64::MAX, i64::MAX)) < u128::MAX);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn equals_brute_force(input in 1i64..12, window in 1i64..9, output in 1i64..14, stride in 1i64..4,
                              padding_low in -4i64..6, lhs in 1i64..5, rhs in 1i64..4) {
            let d = dim(input, window, output, stride, padding_low, lhs, rhs);
            prop_assert_eq!(valid_taps(d), brute(d));
        }
    }
}
