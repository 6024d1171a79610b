//! A transfer plan as per-partition programs that XLA runs (the data `alpa-lower-transfers`
//! prints as StableHLO):
//! - the send program runs on the union of the source and destination devices (sources first,
//!   then the destination devices not among them); each partition holds its source tile (or
//!   nothing) and fills its destination buffer. Pieces go in rounds: a round moves pieces of one
//!   shape, each partition sends at most one and receives at most one (one
//!   `collective_permute`); a piece whose sender is its receiver is a local copy in a round.
//! - the gather program (local all-gather only) runs on the destination devices: one
//!   `all_gather` inside each replica group turns the received part into the whole tile.
//!
//! A broadcast piece goes as a two-level tree of point-to-point moves, so that it crosses into
//! each destination host once (what the cost model charges): the sender sends it to one device
//! per destination host (or straight to the receivers on its own host), which relays it from
//! its destination buffer to the other receivers of its host in a later round. XLA's CPU backend
//! has no collective-broadcast; rounds keep every backend on the same program.

use std::collections::BTreeMap;

use crate::resharding::{tile_of, Gather, Layout, Mode, Piece, Slice};

/// One partition's part in a round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoundRow {
    /// Where the piece it sends (or copies locally) starts in its source tile.
    pub src_offset: Vec<i64>,
    /// Where the piece it receives lands in its destination buffer.
    pub dst_offset: Vec<i64>,
    pub receives: bool,
    /// Its received piece is its own (no permute).
    pub local: bool,
    /// It sends out of its destination buffer (a piece it received in an earlier round), at
    /// `src_offset` in that buffer.
    pub relay: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub piece_shape: Vec<i64>,
    /// (sending partition, receiving partition) of the `collective_permute`, sorted.
    pub pairs: Vec<(usize, usize)>,
    /// One row per partition.
    pub rows: Vec<RoundRow>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SendProgram {
    /// Global device of each partition.
    pub devices: Vec<usize>,
    pub src_tile: Vec<i64>,
    /// The destination tile, or the received part of it under local all-gather.
    pub dst_buffer: Vec<i64>,
    pub rounds: Vec<Round>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GatherProgram {
    /// The destination devices, in their mesh order.
    pub devices: Vec<usize>,
    pub part: Vec<i64>,
    pub tile: Vec<i64>,
    pub dim: usize,
    /// Replica groups as partition indices, each ordered by part.
    pub groups: Vec<Vec<usize>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransferPrograms {
    pub send: SendProgram,
    pub gather: Option<GatherProgram>,
}

/// The shape every device's tile is stored in (XLA pads uneven tiles to the largest).
fn padded_tile(layout: &Layout, shape: &[i64]) -> Result<Vec<i64>, String> {
    let mut tile = vec![0; shape.len()];
    for position in 0..layout.devices.len() {
        for (t, s) in tile.iter_mut().zip(tile_of(layout, position, shape).map_err(|e| e.to_string())?.sizes) {
            *t = (*t).max(s);
        }
    }
    Ok(tile)
}

fn relative(inner: &Slice, origin: &Slice) -> Vec<i64> {
    inner.offset.iter().zip(&origin.offset).map(|(a, b)| a - b).collect()
}

/// One point-to-point move of the plan in partition terms.
struct Move {
    from: usize,
    to: usize,
    shape: Vec<i64>,
    src_offset: Vec<i64>,
    dst_offset: Vec<i64>,
    /// A relay: sent out of the sender's destination buffer, after move `after` delivered it.
    after: Option<usize>,
}

/// Who sends a broadcast piece to each of its receivers: a two-level tree in which the piece
/// enters each destination host once (what the cost model charges). The source sends to the
/// receivers on its own host and to one receiver on every other host, which relays it to the
/// rest of its host; of a host's receivers, the one that has relayed the fewest bytes so far
/// leads, so relays spread over the devices. Device d is on host d / devices_per_host.
pub fn broadcast_routes(pieces: &[Piece], devices_per_host: usize) -> Vec<Vec<usize>> {
    let host = |device: usize| device / devices_per_host.max(1);
    let mut relayed: BTreeMap<usize, u64> = BTreeMap::new();
    pieces
        .iter()
        .map(|piece| {
            let mut by_host: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
            for &to in &piece.dsts {
                by_host.entry(host(to)).or_default().push(to);
            }
            let mut leader_of: BTreeMap<usize, usize> = BTreeMap::new();
            for (h, receivers) in by_host {
                if h == host(piece.src) {
                    continue;
                }
                let leader = *receivers
                    .iter()
                    .min_by_key(|&&d| (relayed.get(&d).copied().unwrap_or(0), d))
                    .unwrap_or(&receivers[0]);
                *relayed.entry(leader).or_insert(0) += piece.slice.volume().unwrap_or(0) * (receivers.len() as u64 - 1);
                leader_of.insert(h, leader);
            }
            piece
                .dsts
                .iter()
                .map(|&to| match leader_of.get(&host(to)) {
                    Some(&leader) if leader != to => leader,
                    _ => piece.src,
                })
                .collect()
        })
        .collect()
}

/// The programs that carry out `pieces` (and, under local all-gather, `gathers`) for a tensor
/// of `shape` laid out as `src`, arriving as `dst`.
/// `routes[i][j]` is the device that sends piece i to its receiver j (its source, or a receiver
/// that got it earlier: see [`broadcast_routes`]); an empty or missing route sends straight
/// from the source.
pub fn lower(
    mode: Mode,
    pieces: &[Piece],
    routes: &[Vec<usize>],
    gathers: &[Gather],
    shape: &[i64],
    src: &Layout,
    dst: &Layout,
) -> Result<TransferPrograms, String> {
    let mut union: Vec<usize> = src.devices.clone();
    union.extend(dst.devices.iter().filter(|d| !src.devices.contains(d)));
    let partition = |device: usize| {
        union.iter().position(|&u| u == device).ok_or_else(|| format!("device {device} is in neither mesh"))
    };
    let src_position = |device: usize| {
        src.devices.iter().position(|&d| d == device).ok_or_else(|| format!("device {device} holds no source tile"))
    };
    let dst_position = |device: usize| {
        dst.devices.iter().position(|&d| d == device).ok_or_else(|| format!("device {device} is not a destination"))
    };

    // Under local all-gather a destination device's buffer is its part of the tile.
    let mut part_of: BTreeMap<usize, Slice> = BTreeMap::new();
    if mode == Mode::LocalAllGather {
        for gather in gathers {
            if gather.parts.len() != gather.devices.len() {
                return Err("a gather names a different number of devices and parts".into());
            }
            for (&device, part) in gather.devices.iter().zip(&gather.parts) {
                part_of.insert(device, part.clone());
            }
        }
    }
    let dst_buffer_origin = |device: usize| -> Result<Slice, String> {
        match part_of.get(&device) {
            Some(part) => Ok(part.clone()),
            None => tile_of(dst, dst_position(device)?, shape).map_err(|e| e.to_string()),
        }
    };

    let mut moves: Vec<Move> = Vec::new();
    for (index, piece) in pieces.iter().enumerate() {
        let src_tile = tile_of(src, src_position(piece.src)?, shape).map_err(|e| e.to_string())?;
        if !src_tile.contains(&piece.slice) {
            return Err(format!(
                "a piece at {:?} of sizes {:?} lies outside device {}'s source tile",
                piece.slice.offset, piece.slice.sizes, piece.src
            ));
        }
        let senders: Vec<usize> = match routes.get(index) {
            Some(route) if !route.is_empty() => route.clone(),
            _ => vec![piece.src; piece.dsts.len()],
        };
        if senders.len() != piece.dsts.len() {
            return Err(format!("a piece names {} senders for {} receivers", senders.len(), piece.dsts.len()));
        }
        // Receivers in an order where every relay comes after the move that fed its sender.
        let mut delivered: BTreeMap<usize, usize> = BTreeMap::new(); // device -> its move
        let mut pending: Vec<usize> = (0..piece.dsts.len()).collect();
        while !pending.is_empty() {
            let before = pending.len();
            let mut waiting = Vec::new();
            for i in pending {
                let (from, to) = (senders[i], piece.dsts[i]);
                let origin = dst_buffer_origin(to)?;
                if !origin.contains(&piece.slice) {
                    return Err(format!(
                        "a piece at {:?} of sizes {:?} lies outside device {to}'s destination buffer",
                        piece.slice.offset, piece.slice.sizes
                    ));
                }
                let (src_offset, after) = if from == piece.src {
                    (relative(&piece.slice, &src_tile), None)
                } else if let Some(&feeding) = delivered.get(&from) {
                    (relative(&piece.slice, &dst_buffer_origin(from)?), Some(feeding))
                } else {
                    waiting.push(i);
                    continue;
                };
                delivered.insert(to, moves.len());
                moves.push(Move {
                    from: partition(from)?,
                    to: partition(to)?,
                    shape: piece.slice.sizes.clone(),
                    src_offset,
                    dst_offset: relative(&piece.slice, &origin),
                    after,
                });
            }
            if waiting.len() == before {
                return Err(format!("a piece is relayed by device {}, which never receives it", senders[waiting[0]]));
            }
            pending = waiting;
        }
    }

    let n = union.len();
    let rank = shape.len();
    let mut rounds: Vec<Round> = Vec::new();
    let mut busy: Vec<(Vec<bool>, Vec<bool>)> = Vec::new(); // per round: (sending, receiving)
    let mut round_of: Vec<usize> = Vec::with_capacity(moves.len());
    for m in moves {
        let earliest = m.after.map_or(0, |k| round_of[k] + 1);
        let fits = |r: usize| rounds[r].piece_shape == m.shape && !busy[r].0[m.from] && !busy[r].1[m.to];
        let r = match (earliest..rounds.len()).find(|&r| fits(r)) {
            Some(r) => r,
            None => {
                let blank = RoundRow {
                    src_offset: vec![0; rank],
                    dst_offset: vec![0; rank],
                    receives: false,
                    local: false,
                    relay: false,
                };
                rounds.push(Round { piece_shape: m.shape.clone(), pairs: Vec::new(), rows: vec![blank; n] });
                busy.push((vec![false; n], vec![false; n]));
                rounds.len() - 1
            }
        };
        round_of.push(r);
        busy[r].0[m.from] = true;
        busy[r].1[m.to] = true;
        let round = &mut rounds[r];
        round.rows[m.from].relay = m.after.is_some();
        round.rows[m.from].src_offset = m.src_offset;
        round.rows[m.to].dst_offset = m.dst_offset;
        round.rows[m.to].receives = true;
        if m.from == m.to {
            round.rows[m.to].local = true;
        } else {
            round.pairs.push((m.from, m.to));
        }
    }
    for round in &mut rounds {
        round.pairs.sort();
    }

    let dst_tile = padded_tile(dst, shape)?;
    let gather = match mode {
        Mode::LocalAllGather if !gathers.is_empty() => {
            let dim = gathers[0].dim;
            if gathers.iter().any(|g| g.dim != dim || g.devices.len() != gathers[0].devices.len()) {
                return Err("local all-gather groups differ in size or dimension".into());
            }
            let groups = gathers
                .iter()
                .map(|g| g.devices.iter().map(|&d| dst_position(d)).collect::<Result<Vec<_>, _>>())
                .collect::<Result<Vec<_>, _>>()?;
            let mut covered: Vec<usize> = groups.iter().flatten().copied().collect();
            covered.sort();
            if covered != (0..dst.devices.len()).collect::<Vec<_>>() {
                return Err("local all-gather groups do not cover the destination devices once each".into());
            }
            let k = gathers[0].devices.len() as i64;
            if dim >= dst_tile.len() || k == 0 || dst_tile[dim] % k != 0 {
                return Err(format!("a local all-gather along dimension {dim} in groups of {k} does not split the destination tile {dst_tile:?} evenly"));
            }
            let mut part = dst_tile.clone();
            part[dim] /= k;
            // Each device's part is its even share of the tile: what the all-gather rebuilds.
            for gather in gathers {
                for (j, received) in gather.parts.iter().enumerate() {
                    let fits = received.rank() == part.len()
                        && (0..part.len()).all(|d| {
                            let start = gather.tile.offset.get(d).copied().unwrap_or(0)
                                + if d == dim { j as i64 * part[d] } else { 0 };
                            received.offset[d] == start && received.sizes[d] <= part[d]
                        });
                    if !fits {
                        return Err(format!(
                            "gather part {j} at {:?} of sizes {:?} is not its even share of the tile",
                            received.offset, received.sizes
                        ));
                    }
                }
            }
            Some(GatherProgram { devices: dst.devices.clone(), part, tile: dst_tile.clone(), dim, groups })
        }
        _ => None,
    };
    let dst_buffer = gather.as_ref().map_or_else(|| dst_tile.clone(), |g| g.part.clone());
    Ok(TransferPrograms {
        send: SendProgram { devices: union, src_tile: padded_tile(src, shape)?, dst_buffer, rounds },
        gather,
    })
}

#[cfg(test)]
mod tests {
    //! The lowered programs, run partition by partition on host data, deliver exactly the
    //! destination layout: the check of the lowering that does not need XLA (the XLA runs are
    //! in python/tests/test_pipeline_runtime.py).
    use super::*;
    use crate::cluster::Cluster;
    use crate::resharding::plan;
    use crate::resharding::TensorDesc;
    use crate::sharding::{DimSharding, ShardingSpec};

    /// Element value = its row-major index in the global tensor; `i64::MIN` = padding.
    fn tile_data(slice: &Slice, shape: &[i64], buffer: &[i64]) -> Vec<i64> {
        let mut out = vec![i64::MIN; buffer.iter().product::<i64>().max(1) as usize];
        let rank = shape.len();
        let count: i64 = slice.sizes.iter().product();
        for flat in 0..count.max(0) {
            let mut rem = flat;
            let mut local = vec![0; rank];
            for d in (0..rank).rev() {
                local[d] = rem % slice.sizes[d];
                rem /= slice.sizes[d];
            }
            let global: i64 = (0..rank).fold(0, |acc, d| acc * shape[d] + slice.offset[d] + local[d]);
            let at: i64 = (0..rank).fold(0, |acc, d| acc * buffer[d] + local[d]);
            out[at as usize] = global;
        }
        if rank == 0 {
            out[0] = 0;
        }
        out
    }

    fn index(coord: &[i64], shape: &[i64]) -> usize {
        coord.iter().zip(shape).fold(0, |acc, (c, s)| acc * s + c) as usize
    }

    fn for_each_coord(shape: &[i64], mut f: impl FnMut(&[i64])) {
        let count: i64 = shape.iter().product();
        let mut coord = vec![0; shape.len()];
        for flat in 0..count {
            let mut rem = flat;
            for d in (0..shape.len()).rev() {
                coord[d] = rem % shape[d];
                rem /= shape[d];
            }
            f(&coord);
        }
    }

    fn run(programs: &TransferPrograms, shape: &[i64], src: &Layout) -> Vec<Vec<i64>> {
        let send = &programs.send;
        let src_tile = if send.src_tile.is_empty() { vec![1] } else { send.src_tile.clone() };
        let buffer = if send.dst_buffer.is_empty() { vec![1] } else { send.dst_buffer.clone() };
        let sources: Vec<Option<Vec<i64>>> = send
            .devices
            .iter()
            .map(|d| {
                src.devices
                    .iter()
                    .position(|s| s == d)
                    .map(|p| tile_data(&tile_of(src, p, shape).unwrap(), shape, &src_tile))
            })
            .collect();
        let mut dst: Vec<Vec<i64>> = vec![vec![i64::MIN; buffer.iter().product::<i64>() as usize]; send.devices.len()];
        for round in &send.rounds {
            let piece_shape = if round.piece_shape.is_empty() { vec![1] } else { round.piece_shape.clone() };
            let before = dst.clone();
            let cut = |p: usize| -> Vec<i64> {
                let mut out = Vec::new();
                let offset =
                    if round.rows[p].src_offset.is_empty() { vec![0] } else { round.rows[p].src_offset.clone() };
                for_each_coord(&piece_shape, |c| {
                    let at: Vec<i64> = c.iter().zip(&offset).map(|(a, b)| a + b).collect();
                    out.push(if round.rows[p].relay {
                        before[p][index(&at, &buffer)]
                    } else {
                        sources[p].as_ref().map_or(0, |s| s[index(&at, &src_tile)])
                    });
                });
                out
            };
            let mut arriving: Vec<Option<Vec<i64>>> = vec![None; send.devices.len()];
            for &(from, to) in &round.pairs {
                arriving[to] = Some(cut(from));
            }
            for (p, row) in round.rows.iter().enumerate() {
                if !row.receives {
                    continue;
                }
                let data = if row.local { cut(p) } else { arriving[p].clone().expect("a receiver with no sender") };
                let offset = if row.dst_offset.is_empty() { vec![0] } else { row.dst_offset.clone() };
                let mut k = 0;
                for_each_coord(&piece_shape, |c| {
                    let at: Vec<i64> = c.iter().zip(&offset).map(|(a, b)| a + b).collect();
                    dst[p][index(&at, &buffer)] = data[k];
                    k += 1;
                });
            }
        }
        match &programs.gather {
            None => dst,
            Some(g) => {
                let position_in_union = |q: usize| send.devices.iter().position(|&d| d == g.devices[q]).unwrap();
                let mut out = vec![Vec::new(); g.devices.len()];
                for group in &g.groups {
                    let mut whole = vec![i64::MIN; g.tile.iter().product::<i64>() as usize];
                    for (j, &q) in group.iter().enumerate() {
                        let part = &dst[position_in_union(q)];
                        for_each_coord(&g.part, |c| {
                            let mut at = c.to_vec();
                            at[g.dim] += j as i64 * g.part[g.dim];
                            whole[index(&at, &g.tile)] = part[index(c, &g.part)];
                        });
                    }
                    for &q in group {
                        out[q] = whole.clone();
                    }
                }
                // Reorder into union positions for the caller.
                let mut by_union = vec![Vec::new(); send.devices.len()];
                for (q, data) in out.into_iter().enumerate() {
                    by_union[position_in_union(q)] = data;
                }
                by_union
            }
        }
    }

    fn spec(dims: &[DimSharding]) -> ShardingSpec {
        ShardingSpec::new(dims.to_vec()).unwrap()
    }

    #[test]
    fn lowered_programs_deliver_the_destination_layout_in_every_mode() {
        use DimSharding::*;
        let cluster = Cluster::load("p3.16xlarge-x2").unwrap();
        let shape = vec![8, 12];
        let layouts = [
            Layout { devices: vec![0, 1, 2, 3], mesh: [2, 2], spec: spec(&[S0, S1]) },
            Layout { devices: vec![0, 1, 2, 3], mesh: [1, 4], spec: spec(&[R, R]) },
            Layout { devices: vec![4, 5, 6, 7], mesh: [4, 1], spec: spec(&[S0, R]) },
            Layout { devices: vec![8, 9, 10, 11, 12, 13, 14, 15], mesh: [2, 4], spec: spec(&[R, S1]) },
            Layout { devices: vec![8, 9, 10, 11], mesh: [2, 2], spec: spec(&[R, R]) },
            Layout { devices: vec![2, 3, 8, 9], mesh: [2, 2], spec: spec(&[S10, R]) },
            Layout { devices: vec![1, 0, 3, 2], mesh: [2, 2], spec: spec(&[S1, S0]) },
        ];
        let mut checked = 0;
        for src in &layouts {
            for dst in &layouts {
                for mode in [Mode::SendRecv, Mode::LocalAllGather, Mode::Broadcast] {
                    let tensor = TensorDesc { shape: shape.clone(), element_bytes: 4 };
                    let plan = plan(&tensor, src, dst, &cluster, mode).unwrap();
                    let routes = if plan.mode == Mode::Broadcast {
                        broadcast_routes(&plan.pieces, cluster.devices_per_host)
                    } else {
                        Vec::new()
                    };
                    let programs = lower(plan.mode, &plan.pieces, &routes, &plan.gathers, &shape, src, dst).unwrap();
                    let delivered = run(&programs, &shape, src);
                    let dst_tile =
                        programs.gather.as_ref().map_or(programs.send.dst_buffer.clone(), |g| g.tile.clone());
                    for (p, &device) in dst.devices.iter().enumerate() {
                        let u = programs.send.devices.iter().position(|&d| d == device).unwrap();
                        let want = tile_data(&tile_of(dst, p, &shape).unwrap(), &shape, &dst_tile);
                        assert_eq!(delivered[u], want, "{src:?} -> {dst:?} in {mode:?}: device {device}");
                    }
                    if mode == Mode::Broadcast {
                        // Each piece crosses into each destination host once.
                        let host = |p: usize| programs.send.devices[p] / cluster.devices_per_host;
                        let crossing: usize = programs
                            .send
                            .rounds
                            .iter()
                            .map(|r| r.pairs.iter().filter(|&&(a, b)| host(a) != host(b)).count())
                            .sum();
                        let expected: usize = plan
                            .pieces
                            .iter()
                            .map(|p| {
                                let mut hosts: Vec<usize> = p
                                    .dsts
                                    .iter()
                                    .map(|d| d / cluster.devices_per_host)
                                    .filter(|&h| h != p.src / cluster.devices_per_host)
                                    .collect();
                                hosts.sort();
                                hosts.dedup();
                                hosts.len()
                            })
                            .sum();
                        assert_eq!(crossing, expected, "{src:?} -> {dst:?}: cross-host moves of the broadcast");
                    }
                    for round in &programs.send.rounds {
                        let mut senders: Vec<usize> = round.pairs.iter().map(|p| p.0).collect();
                        let mut receivers: Vec<usize> = round.pairs.iter().map(|p| p.1).collect();
                        senders.sort();
                        senders.dedup();
                        receivers.sort();
                        receivers.dedup();
                        assert_eq!(
                            (senders.len(), receivers.len()),
                            (round.pairs.len(), round.pairs.len()),
                            "a round sends or receives twice"
                        );
                    }
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, layouts.len() * layouts.len() * 3);
    }
}
