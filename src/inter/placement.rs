//! Physical placement: the device ids of each stage's submesh (paper §5.2): larger submeshes
//! first; stages with the same shape in pipeline order on consecutive devices; every device
//! used exactly once.
//!
//! With the power-of-two shapes on a cluster whose M is a power of two, first-fit in
//! decreasing size always succeeds (Appendix A: full-host submeshes take whole hosts; then
//! every host's free count stays a multiple of the next, smaller, power of two). For other
//! shapes a first-fit attempt is followed by an exhaustive search over host choices (hosts
//! with the same free count are interchangeable), bounded by a node budget.

use super::error::InterError;
use super::submesh::{ClusterShape, SubmeshShape};

const SEARCH_BUDGET: usize = 1_000_000;

/// Device ids (host-major, ascending) of each submesh, in the order given.
pub fn place_stages(cluster: ClusterShape, submeshes: &[SubmeshShape]) -> Result<Vec<Vec<usize>>, InterError> {
    let order = validate(cluster, submeshes)?;
    if let Some(p) = place_first_fit(cluster, submeshes, &order) {
        return Ok(p);
    }
    let hosts = search(cluster, submeshes, &order).ok_or_else(|| {
        InterError::Placement(format!(
            "submeshes {} cannot be laid out on {} hosts of {} devices",
            submeshes.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", "),
            cluster.hosts,
            cluster.devices_per_host
        ))
    })?;
    Ok(assign(cluster, submeshes, &order, &hosts))
}

/// Checks shapes and device count; the placement order (devices desc, hosts desc, stage asc).
fn validate(cluster: ClusterShape, submeshes: &[SubmeshShape]) -> Result<Vec<usize>, InterError> {
    for s in submeshes {
        if s.devices() == 0 || s.hosts > cluster.hosts || s.devices_per_host > cluster.devices_per_host {
            return Err(InterError::Placement(format!(
                "submesh {s} does not fit in a {}x{} cluster",
                cluster.hosts, cluster.devices_per_host
            )));
        }
    }
    let total: usize = submeshes.iter().map(|s| s.devices()).sum();
    if total != cluster.devices() {
        return Err(InterError::Placement(format!(
            "the submeshes use {total} devices, the cluster has {}",
            cluster.devices()
        )));
    }
    let mut order: Vec<usize> = (0..submeshes.len()).collect();
    order.sort_by_key(|&j| (std::cmp::Reverse(submeshes[j].devices()), std::cmp::Reverse(submeshes[j].hosts), j));
    Ok(order)
}

/// First fit: each submesh on the lowest-index hosts with room (a run of free hosts for
/// full-host submeshes when there is one), lowest free devices on each. `None` if it gets stuck.
pub(crate) fn place_first_fit(
    cluster: ClusterShape,
    submeshes: &[SubmeshShape],
    order: &[usize],
) -> Option<Vec<Vec<usize>>> {
    let m_total = cluster.devices_per_host;
    let mut free = vec![m_total; cluster.hosts];
    let mut hosts_of = vec![Vec::new(); submeshes.len()];
    for &j in order {
        let s = submeshes[j];
        let fitting: Vec<usize> = (0..cluster.hosts).filter(|&h| free[h] >= s.devices_per_host).collect();
        if fitting.len() < s.hosts {
            return None;
        }
        let run = if s.devices_per_host == m_total {
            fitting.windows(s.hosts).find(|w| w[w.len() - 1] - w[0] + 1 == s.hosts).map(|w| w.to_vec())
        } else {
            None
        };
        let chosen = run.unwrap_or_else(|| fitting[..s.hosts].to_vec());
        for &h in &chosen {
            free[h] -= s.devices_per_host;
        }
        hosts_of[j] = chosen;
    }
    Some(assign(cluster, submeshes, order, &hosts_of))
}

/// Devices for given host choices: in placement order, the lowest free devices of each host.
fn assign(
    cluster: ClusterShape,
    submeshes: &[SubmeshShape],
    order: &[usize],
    hosts_of: &[Vec<usize>],
) -> Vec<Vec<usize>> {
    let m = cluster.devices_per_host;
    let mut next = vec![0usize; cluster.hosts];
    let mut out = vec![Vec::new(); submeshes.len()];
    for &j in order {
        let mut hs = hosts_of[j].clone();
        hs.sort_unstable();
        for h in hs {
            for _ in 0..submeshes[j].devices_per_host {
                out[j].push(h * m + next[h]);
                next[h] += 1;
            }
        }
    }
    out
}

/// Exhaustive search over host choices; hosts with equal free counts are interchangeable, so
/// a choice is how many hosts to take from each free-count class (lowest indices first).
fn search(cluster: ClusterShape, submeshes: &[SubmeshShape], order: &[usize]) -> Option<Vec<Vec<usize>>> {
    let mut free = vec![cluster.devices_per_host; cluster.hosts];
    let mut hosts_of = vec![Vec::new(); submeshes.len()];
    let mut budget = SEARCH_BUDGET;
    if dfs(submeshes, order, 0, &mut free, &mut hosts_of, &mut budget) {
        Some(hosts_of)
    } else {
        None
    }
}

fn dfs(
    submeshes: &[SubmeshShape],
    order: &[usize],
    pos: usize,
    free: &mut Vec<usize>,
    hosts_of: &mut Vec<Vec<usize>>,
    budget: &mut usize,
) -> bool {
    if pos == order.len() {
        return true;
    }
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let j = order[pos];
    let s = submeshes[j];
    // Free-count classes with room, each with its hosts in index order.
    let mut classes: Vec<(usize, Vec<usize>)> = Vec::new();
    for (h, &f) in free.iter().enumerate() {
        if f >= s.devices_per_host {
            match classes.iter_mut().find(|c| c.0 == f) {
                Some(c) => c.1.push(h),
                None => classes.push((f, vec![h])),
            }
        }
    }
    classes.sort_by_key(|c| c.0);
    let mut take = vec![0usize; classes.len()];
    choose(&classes, &mut take, 0, s.hosts, &mut |take| {
        let chosen: Vec<usize> = classes.iter().zip(take).flat_map(|(c, &t)| c.1[..t].iter().copied()).collect();
        for &h in &chosen {
            free[h] -= s.devices_per_host;
        }
        hosts_of[j] = chosen.clone();
        let ok = dfs(submeshes, order, pos + 1, free, hosts_of, budget);
        for &h in &chosen {
            free[h] += s.devices_per_host;
        }
        ok
    })
}

/// Calls `f` on every way to take `left` hosts from the classes (stops at the first `true`).
fn choose(
    classes: &[(usize, Vec<usize>)],
    take: &mut Vec<usize>,
    c: usize,
    left: usize,
    f: &mut dyn FnMut(&[usize]) -> bool,
) -> bool {
    if c == classes.len() {
        return left == 0 && f(take);
    }
    for t in (0..=left.min(classes[c].1.len())).rev() {
        take[c] = t;
        if choose(classes, take, c + 1, left - t, f) {
            return true;
        }
    }
    take[c] = 0;
    false
}
