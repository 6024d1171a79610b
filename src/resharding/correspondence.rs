//! Tile correspondence (Alpa §6, first pass): which source tiles a destination slice overlaps
//! and in what box. Computed per dimension (the source parts a range overlaps form an interval),
//! so the work is proportional to the number of pieces, not to elements or tile pairs.

use crate::resharding::layout::{chunk_size, slice_of_tile};
use crate::resharding::slice::Slice;

/// The source tile indices (per dimension) whose tiles overlap `target`, in lexicographic order,
/// each with the overlap; `parts` is the source layout's parts per dimension.
pub(crate) fn overlaps(shape: &[i64], parts: &[usize], target: &Slice) -> Vec<(Vec<usize>, Slice)> {
    if target.is_empty() {
        return Vec::new();
    }
    let ranges: Vec<(usize, usize)> = (0..shape.len())
        .map(|d| {
            let c = chunk_size(shape[d], parts[d]).max(1);
            let first = (target.offset[d] / c) as usize;
            let last = ((target.end(d) - 1) / c) as usize;
            (first, last.min(parts[d].saturating_sub(1)))
        })
        .collect();
    let mut out = Vec::new();
    let mut index: Vec<usize> = ranges.iter().map(|r| r.0).collect();
    loop {
        if let Some(common) = slice_of_tile(shape, parts, &index).intersect(target) {
            out.push((index.clone(), common));
        }
        // Odometer over the per-dimension intervals, last dimension fastest.
        let mut d = index.len();
        loop {
            if d == 0 {
                return out;
            }
            d -= 1;
            if index[d] < ranges[d].1 {
                index[d] += 1;
                break;
            }
            index[d] = ranges[d].0;
        }
    }
}
