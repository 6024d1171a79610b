//! How to undo the eliminations of preprocessing: a log of records, replayed backwards.
//!
//! Every strategy of every node carries an id that never changes: ids below the node's original
//! strategy count are the original strategies; a product merge gives the merged node fresh
//! ids, each standing for a pair (old id of the node, id of the absorbed node). A record
//! refers to ids, so later renumbering (removed strategies) does not disturb it. Replaying the
//! log backwards from the assignment of the surviving nodes assigns every node an id valid at
//! the time of each record, and finally an original strategy.

use super::error::IntraError;

/// One elimination step.
#[derive(Debug, Clone)]
pub enum Record {
    /// Leaf `v` was folded into `parent`: when `parent` has id `parent_ids[p]`, `v` takes
    /// id `pick[p]`.
    Leaf { v: usize, parent: usize, parent_ids: Vec<u32>, pick: Vec<u32> },
    /// `v` between `a` and `b` was replaced by an edge `a`-`b`: `v` takes
    /// `pick[pa * b_ids.len() + pb]`.
    Chain { v: usize, a: usize, b: usize, a_ids: Vec<u32>, b_ids: Vec<u32>, pick: Vec<u32> },
    /// `v` was absorbed into `u`: `u`'s id `first_new + p` stands for `u` having id
    /// `pairs[p].0` and `v` having id `pairs[p].1`.
    Product { u: usize, v: usize, first_new: u32, pairs: Vec<(u32, u32)> },
    /// An isolated node was settled with id `id`.
    Fixed { v: usize, id: u32 },
}

fn position(ids: &[u32], id: u32) -> Option<usize> {
    ids.binary_search(&id).ok()
}

/// Replays `records` backwards. `assign` holds the ids of the surviving nodes (others
/// `None`); on return every node holds an original strategy index.
pub fn replay(
    records: &[Record],
    mut assign: Vec<Option<u32>>,
    original_counts: &[usize],
) -> Result<Vec<usize>, IntraError> {
    let lost = |what: &str| IntraError::Solver(format!("reconstruction after preprocessing failed: {what}"));
    for r in records.iter().rev() {
        match r {
            Record::Leaf { v, parent, parent_ids, pick } => {
                let id = assign[*parent].ok_or_else(|| lost("leaf parent unassigned"))?;
                let p = position(parent_ids, id).ok_or_else(|| lost("leaf parent id unknown"))?;
                assign[*v] = Some(pick[p]);
            }
            Record::Chain { v, a, b, a_ids, b_ids, pick } => {
                let ia = assign[*a].ok_or_else(|| lost("chain end unassigned"))?;
                let ib = assign[*b].ok_or_else(|| lost("chain end unassigned"))?;
                let pa = position(a_ids, ia).ok_or_else(|| lost("chain end id unknown"))?;
                let pb = position(b_ids, ib).ok_or_else(|| lost("chain end id unknown"))?;
                assign[*v] = Some(pick[pa * b_ids.len() + pb]);
            }
            Record::Product { u, v, first_new, pairs } => {
                let id = assign[*u].ok_or_else(|| lost("product node unassigned"))?;
                let p = id.checked_sub(*first_new).map(|p| p as usize).filter(|&p| p < pairs.len());
                let p = p.ok_or_else(|| lost("product id out of range"))?;
                assign[*u] = Some(pairs[p].0);
                assign[*v] = Some(pairs[p].1);
            }
            Record::Fixed { v, id } => assign[*v] = Some(*id),
        }
    }
    assign
        .into_iter()
        .zip(original_counts)
        .map(|(a, &n)| match a {
            Some(id) if (id as usize) < n => Ok(id as usize),
            _ => Err(lost("a node has no original strategy")),
        })
        .collect()
}
