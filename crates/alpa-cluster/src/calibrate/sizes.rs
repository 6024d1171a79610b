//! What to measure: matrix sizes, message sizes and how many repetitions a timing needs.

/// Square matmul sizes from 256 to 16384 (doubling) whose three operands fit in a quarter of
/// `memory_bytes` at `element_bytes` per element.
pub fn matmul_sizes(memory_bytes: u64, element_bytes: u64) -> Vec<u64> {
    (8..=14).map(|log| 1u64 << log).filter(|&n| 3 * n * n * element_bytes <= memory_bytes / 4).collect()
}

/// Buffer sizes for copies and collectives over `devices` GPUs: from 4 KiB up to `max_bytes`,
/// times 4 each step, each a multiple of `4 * devices` bytes so that every device's share is a
/// whole number of f32 elements.
pub fn message_sizes(devices: usize, max_bytes: u64) -> Vec<u64> {
    let unit = 4 * devices.max(1) as u64;
    let mut sizes = Vec::new();
    let mut bytes = 4096u64;
    while bytes <= max_bytes {
        let rounded = bytes.div_ceil(unit) * unit;
        if sizes.last() != Some(&rounded) {
            sizes.push(rounded);
        }
        bytes *= 4;
    }
    sizes
}

/// Repetitions so that a timing lasts about `target_s` given one run of `one_run_s`: at least 3,
/// at most 1000.
pub fn repetitions(one_run_s: f64, target_s: f64) -> usize {
    if !(one_run_s > 0.0) {
        return 1000;
    }
    (target_s / one_run_s).ceil().clamp(3.0, 1000.0) as usize
}

/// Repetitions of a collective on `bytes`: a fixed function of the size, since every process of
/// a multi-process run must issue the same calls (a count from local timings could differ and
/// hang NCCL). About 256 MiB moved, between 5 and 200 calls.
pub fn collective_repetitions(bytes: u64) -> usize {
    ((1u64 << 28) / bytes.max(1)).clamp(5, 200) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matmul_sizes_fit_in_memory() {
        let h100 = 80u64 << 30;
        assert_eq!(matmul_sizes(h100, 4), vec![256, 512, 1024, 2048, 4096, 8192, 16384]);
        // 1 GiB: 3 * n^2 * 4 <= 256 MiB up to n = 4096.
        assert_eq!(*matmul_sizes(1 << 30, 4).last().unwrap(), 4096);
        assert!(matmul_sizes(1024, 4).is_empty());
    }

    #[test]
    fn message_sizes_are_whole_shares() {
        let s = message_sizes(3, 1 << 20);
        assert_eq!(s.len(), 5);
        assert!(s.iter().all(|b| b % 12 == 0), "{s:?}");
        assert_eq!(s[0], 4104);
        assert_eq!(message_sizes(8, 1 << 20), vec![4096, 16384, 65536, 262144, 1048576]);
        assert!(message_sizes(2, 100).is_empty());
    }

    #[test]
    fn repetitions_are_bounded() {
        assert_eq!(repetitions(1e-3, 0.05), 50);
        assert_eq!(repetitions(1.0, 0.05), 3);
        assert_eq!(repetitions(1e-9, 0.05), 1000);
        assert_eq!(repetitions(0.0, 0.05), 1000);
        assert_eq!(collective_repetitions(4096), 200);
        assert_eq!(collective_repetitions(1 << 24), 16);
        assert_eq!(collective_repetitions(1 << 30), 5);
    }
}
