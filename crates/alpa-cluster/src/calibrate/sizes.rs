//! What to measure: matrix sizes, message sizes and how many repetitions a timing needs.

/// Square matmul sizes from 256 to 16384 (doubling) whose three operands fit in a quarter of
/// `memory_bytes` at `element_bytes` per element.
pub fn matmul_sizes(memory_bytes: u64, element_bytes: u64) -> Vec<u64> {
    (8..=14).map(|log| 1u64 << log).filter(|&n| 3 * n * n * element_bytes <= memory_bytes / 4).collect()
}

/// The values of `m`, `n` and `k` of the GEMM shape grid: 64 to 16384, times 4 each step, at
/// most `largest` (the largest square size measured, whose buffers the grid reuses). They span
/// attention's head dimension (64-128) up to the widest layers; between them the cost model
/// interpolates (`cluster::matmul_table`).
pub fn matmul_shape_dims(largest: u64) -> Vec<u64> {
    (3..=7).map(|k| 1u64 << (2 * k)).filter(|&d| d <= largest).collect()
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

/// Buffer sizes for the HBM copy: each buffer at least 4 times the GPU's L2 cache (`l2_bytes`)
/// and 16 MiB, doubling 4 times, at most an eighth of `memory_bytes` (source and destination
/// together a quarter). Smaller copies stay in L2 and time the cache, not HBM: on an H200 the
/// copies of 4 KiB to 256 MiB fitted to 6.96 TB/s of reads and writes, above the 4.8 TB/s the
/// datasheet gives for HBM. Empty when memory is too small for two such buffers.
pub fn hbm_copy_sizes(l2_bytes: u64, memory_bytes: u64) -> Vec<u64> {
    const MIB: u64 = 1 << 20;
    let first = (4 * l2_bytes).max(16 * MIB).div_ceil(MIB) * MIB;
    (0..4).map(|k| first << k).filter(|&b| b <= memory_bytes / 8).collect()
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
    fn shape_grid_fits_the_largest_square_buffers() {
        assert_eq!(matmul_shape_dims(16384), vec![64, 256, 1024, 4096, 16384]);
        assert_eq!(matmul_shape_dims(8192), vec![64, 256, 1024, 4096]);
        assert!(matmul_shape_dims(32).is_empty());
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
    fn hbm_copies_are_larger_than_the_l2_cache() {
        const MIB: u64 = 1 << 20;
        // H200: 60 MiB of L2, 141 GB: 240 MiB to 1.875 GiB.
        assert_eq!(hbm_copy_sizes(60 * MIB, 141 << 30), vec![240 * MIB, 480 * MIB, 960 * MIB, 1920 * MIB]);
        // No L2 reported (0): 16 MiB upwards. Odd L2 sizes round up to whole MiB.
        assert_eq!(hbm_copy_sizes(0, 1 << 40)[0], 16 * MIB);
        assert_eq!(hbm_copy_sizes(5 * MIB + 1, 1 << 40)[0], 21 * MIB);
        // A small GPU keeps the sizes that fit; a tiny one gets none.
        assert_eq!(hbm_copy_sizes(40 * MIB, 8 << 30), vec![160 * MIB, 320 * MIB, 640 * MIB]);
        assert!(hbm_copy_sizes(40 * MIB, 1 << 30).is_empty());
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
