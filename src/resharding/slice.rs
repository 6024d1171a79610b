//! Boxes of a tensor in global coordinates, half-open per dimension.

use serde::{Deserialize, Serialize};

/// `[offset[d], offset[d] + sizes[d])` in every dimension `d`; rank 0 is the single element of a
/// scalar.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Slice {
    pub offset: Vec<i64>,
    pub sizes: Vec<i64>,
}

impl Slice {
    pub fn rank(&self) -> usize {
        self.sizes.len()
    }

    pub fn end(&self, dim: usize) -> i64 {
        self.offset[dim] + self.sizes[dim]
    }

    pub fn is_empty(&self) -> bool {
        self.sizes.iter().any(|&s| s <= 0)
    }

    /// Number of elements; `None` when it does not fit a `u64`.
    pub fn volume(&self) -> Option<u64> {
        self.sizes.iter().try_fold(1u64, |acc, &s| acc.checked_mul(u64::try_from(s.max(0)).ok()?))
    }

    /// The common box of two slices of the same rank, `None` when it holds no element.
    pub fn intersect(&self, other: &Slice) -> Option<Slice> {
        let mut offset = Vec::with_capacity(self.rank());
        let mut sizes = Vec::with_capacity(self.rank());
        for d in 0..self.rank() {
            let lo = self.offset[d].max(other.offset[d]);
            let hi = self.end(d).min(other.end(d));
            if hi <= lo {
                return None;
            }
            offset.push(lo);
            sizes.push(hi - lo);
        }
        Some(Slice { offset, sizes })
    }

    /// Whether every element of `inner` lies in `self` (an empty `inner` always does).
    pub fn contains(&self, inner: &Slice) -> bool {
        inner.rank() == self.rank()
            && (inner.is_empty()
                || (0..self.rank()).all(|d| inner.offset[d] >= self.offset[d] && inner.end(d) <= self.end(d)))
    }

    /// Part `part` of `parts` of this slice along `dim`, where the parts are `chunk` wide and
    /// start at this slice's offset; the last parts are clipped to the slice (possibly empty).
    pub(crate) fn chunk_along(&self, dim: usize, chunk: i64, part: usize) -> Slice {
        let mut out = self.clone();
        let end = self.end(dim);
        let lo = self.offset[dim].saturating_add(chunk.saturating_mul(part as i64)).min(end);
        let hi = lo.saturating_add(chunk).min(end);
        out.offset[dim] = lo;
        out.sizes[dim] = hi - lo;
        out
    }
}
