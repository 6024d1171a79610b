//! Applies a plan to host data, the way the runtime applies it to device buffers: the reference
//! the tests check plans against. Each source device starts with its tile of the tensor; a piece
//! copies a slice out of its sender's source tile into each receiver's destination tile; a
//! gather takes part j from its device j and writes the whole tile on every device of the
//! group. Nothing of the plan is trusted: a sender that does not hold its slice, a slice outside
//! a receiver's tile, gather parts that do not tile the gathered tile, or a destination element
//! nobody delivered is an [`ReshardingError::InvalidPlan`].

use std::collections::BTreeMap;

use crate::resharding::error::ReshardingError;
use crate::resharding::layout::{tile_of, Layout};
use crate::resharding::plan::TransferPlan;
use crate::resharding::slice::Slice;

/// A device's tile: its slice of the tensor and the elements, row-major over the slice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostTile<T> {
    pub slice: Slice,
    pub data: Vec<T>,
}

/// A destination buffer during the run: `None` where nothing arrived yet.
struct Receiving<T> {
    slice: Slice,
    data: Vec<Option<T>>,
}

/// Runs `plan` on `data`, the whole tensor of `shape` flattened row-major, and returns every
/// destination device's tile (keyed by global device id).
pub fn execute_on_host<T: Copy>(
    data: &[T],
    shape: &[i64],
    src: &Layout,
    dst: &Layout,
    plan: &TransferPlan,
) -> Result<BTreeMap<usize, HostTile<T>>, ReshardingError> {
    let whole = Slice { offset: vec![0; shape.len()], sizes: shape.to_vec() };
    let volume = element_count(&whole)?;
    if volume != data.len() {
        return Err(ReshardingError::DataLength { expected: volume as u128, got: data.len() });
    }
    let mut sources = BTreeMap::new();
    for (position, &device) in src.devices.iter().enumerate() {
        let slice = tile_of(src, position, shape)?;
        let tile = copy_box(&whole, data, &slice);
        sources.insert(device, HostTile { slice, data: tile });
    }
    let mut receiving: BTreeMap<usize, Receiving<T>> = BTreeMap::new();
    for (position, &device) in dst.devices.iter().enumerate() {
        let slice = tile_of(dst, position, shape)?;
        let data = vec![None; element_count(&slice)?];
        receiving.insert(device, Receiving { slice, data });
    }
    for piece in &plan.pieces {
        let sender = sources
            .get(&piece.src)
            .filter(|s| s.slice.contains(&piece.slice))
            .ok_or_else(|| invalid(format!("device {} does not hold {:?}", piece.src, piece.slice)))?;
        if piece.dsts.is_empty() {
            return Err(invalid(format!("piece {:?} has no receiver", piece.slice)));
        }
        let values = copy_box(&sender.slice, &sender.data, &piece.slice);
        for d in &piece.dsts {
            let target = receiving
                .get_mut(d)
                .filter(|r| r.slice.contains(&piece.slice))
                .ok_or_else(|| invalid(format!("device {d} has no place for {:?}", piece.slice)))?;
            write_box(target, &piece.slice, &values);
        }
    }
    apply_gathers(plan, &mut receiving)?;
    receiving
        .into_iter()
        .map(|(device, r)| {
            let missing = r.data.iter().filter(|v| v.is_none()).count();
            if missing > 0 {
                return Err(invalid(format!("device {device} lacks {missing} elements of its tile {:?}", r.slice)));
            }
            let data = r.data.into_iter().flatten().collect();
            Ok((device, HostTile { slice: r.slice, data }))
        })
        .collect()
}

fn apply_gathers<T: Copy>(
    plan: &TransferPlan,
    receiving: &mut BTreeMap<usize, Receiving<T>>,
) -> Result<(), ReshardingError> {
    // Every group reads its parts before any group writes, as concurrent all-gathers do.
    let mut writes = Vec::new();
    for g in &plan.gathers {
        check_parts_tile(&g.tile, g.dim, &g.parts)?;
        if g.devices.len() != g.parts.len() {
            return Err(invalid(format!("gather of {} devices with {} parts", g.devices.len(), g.parts.len())));
        }
        let mut tile = Receiving { slice: g.tile.clone(), data: vec![None; element_count(&g.tile)?] };
        for (d, part) in g.devices.iter().zip(&g.parts) {
            let r = receiving
                .get(d)
                .filter(|r| r.slice == g.tile)
                .ok_or_else(|| invalid(format!("device {d} does not hold the gathered tile {:?}", g.tile)))?;
            let values = copy_box(&r.slice, &r.data, part);
            if values.iter().any(|v| v.is_none()) {
                return Err(invalid(format!("device {d} gathers part {part:?} it did not receive")));
            }
            let values: Vec<T> = values.into_iter().flatten().collect();
            write_box(&mut tile, part, &values);
        }
        writes.push((g.devices.clone(), tile.data));
    }
    for (devices, data) in writes {
        for d in devices {
            if let Some(r) = receiving.get_mut(&d) {
                r.data.clone_from(&data);
            }
        }
    }
    Ok(())
}

/// The parts are `tile` cut along `dim` into consecutive, possibly empty, chunks.
fn check_parts_tile(tile: &Slice, dim: usize, parts: &[Slice]) -> Result<(), ReshardingError> {
    let bad = || invalid(format!("gather parts {parts:?} do not tile {tile:?} along dim {dim}"));
    if dim >= tile.rank() {
        return Err(bad());
    }
    let mut next = tile.offset[dim];
    for part in parts {
        let same_elsewhere = (0..tile.rank())
            .filter(|&d| d != dim)
            .all(|d| part.offset[d] == tile.offset[d] && part.sizes[d] == tile.sizes[d]);
        if part.rank() != tile.rank() || !same_elsewhere || part.offset[dim] != next || part.sizes[dim] < 0 {
            return Err(bad());
        }
        next += part.sizes[dim];
    }
    if next != tile.end(dim) {
        return Err(bad());
    }
    Ok(())
}

fn invalid(message: String) -> ReshardingError {
    ReshardingError::InvalidPlan(message)
}

fn element_count(slice: &Slice) -> Result<usize, ReshardingError> {
    slice.volume().and_then(|v| usize::try_from(v).ok()).ok_or_else(|| {
        ReshardingError::Overflow(format!(
            "{} elements",
            slice.sizes.iter().map(|s| s.to_string()).collect::<Vec<_>>().join("x")
        ))
    })
}

/// Row-major position of global index `index` inside `outer`.
fn flat_in(outer: &Slice, index: &[i64]) -> usize {
    (0..outer.rank()).fold(0usize, |acc, d| acc * outer.sizes[d] as usize + (index[d] - outer.offset[d]) as usize)
}

/// Calls `f` with every global index of `inner`, row-major.
fn for_each_index(inner: &Slice, mut f: impl FnMut(&[i64])) {
    if inner.is_empty() {
        return;
    }
    let mut index = inner.offset.clone();
    loop {
        f(&index);
        let mut d = index.len();
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            index[d] += 1;
            if index[d] < inner.end(d) {
                break;
            }
            index[d] = inner.offset[d];
        }
    }
}

/// The elements of `inner` out of `data` laid out over `outer` (which contains `inner`).
fn copy_box<T: Copy>(outer: &Slice, data: &[T], inner: &Slice) -> Vec<T> {
    let mut out = Vec::new();
    for_each_index(inner, |i| out.push(data[flat_in(outer, i)]));
    out
}

fn write_box<T: Copy>(target: &mut Receiving<T>, inner: &Slice, values: &[T]) {
    let mut k = 0;
    let outer = target.slice.clone();
    for_each_index(inner, |i| {
        target.data[flat_in(&outer, i)] = Some(values[k]);
        k += 1;
    });
}
