//! The planner: tile correspondence, then pieces and senders per mode, then the cost.
//!
//! Every formula of the cost model, its source and its implementation: docs/cost-model.md §6.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::cluster::Cluster;
use crate::resharding::correspondence::overlaps;
use crate::resharding::cost::{host_of, lower_bound, Traffic};
use crate::resharding::error::ReshardingError;
use crate::resharding::layout::{chunk_size, slice_of_tile, Layout, TensorDesc};
use crate::resharding::local_all_gather::{gather_traffic, split_dim};
use crate::resharding::mode::Mode;
use crate::resharding::senders::{assign, Request, SenderPolicy};
use crate::resharding::slice::Slice;

/// `slice` goes from device `src` to every device of `dsts` (global ids). `dsts` has one entry
/// except in broadcast mode; `dsts == [src]` is a local copy that moves nothing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    pub src: usize,
    pub dsts: Vec<usize>,
    pub slice: Slice,
}

/// One destination replica group of a local all-gather: `devices[j]` received `parts[j]`, the
/// j-th chunk of `tile` along `dim` (chunks of the ceil-sized tile, the last ones clipped, so
/// they may be empty for uneven tiles); an all-gather along `dim` in the group rebuilds `tile`
/// on every device.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gather {
    pub devices: Vec<usize>,
    pub dim: usize,
    pub tile: Slice,
    pub parts: Vec<Slice>,
}

/// How a tensor moves from its source layout to its destination layout, and what it costs
/// (`cost` module doc).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TransferPlan {
    /// The mode the plan follows (never `Auto`; `SendRecv` where local all-gather fell back).
    pub mode: Mode,
    /// Per destination device in mesh order (broadcast: per destination tile), per source tile
    /// in lexicographic tile order.
    pub pieces: Vec<Piece>,
    /// Empty unless `mode` is `LocalAllGather`; one per destination replica group.
    pub gathers: Vec<Gather>,
    /// Seconds: `transfer_seconds + gather_seconds`.
    pub cost: f64,
    pub transfer_seconds: f64,
    pub gather_seconds: f64,
    /// Seconds no plan can beat; `cost >= lower_bound` always.
    pub lower_bound: f64,
    /// Bytes of pieces that cross hosts (each hop counted once).
    pub bytes_across_hosts: u64,
    /// Bytes the local all-gathers move between hosts (groups that span hosts).
    pub gather_bytes_across_hosts: u64,
    /// Bytes per resource while the pieces move.
    pub traffic: Traffic,
    /// Bytes per resource during the local all-gathers.
    pub gather_traffic: Traffic,
    /// Why a requested local all-gather became send/recv.
    pub fallback: Option<String>,
}

/// Knobs beyond the mode; the default is what the compiler uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlanOptions {
    pub senders: SenderPolicy,
}

/// Plans moving `tensor` from `src` to `dst` on `cluster` (balanced senders).
pub fn plan(
    tensor: &TensorDesc,
    src: &Layout,
    dst: &Layout,
    cluster: &Cluster,
    mode: Mode,
) -> Result<TransferPlan, ReshardingError> {
    plan_with(tensor, src, dst, cluster, mode, PlanOptions::default())
}

pub fn plan_with(
    tensor: &TensorDesc,
    src: &Layout,
    dst: &Layout,
    cluster: &Cluster,
    mode: Mode,
    options: PlanOptions,
) -> Result<TransferPlan, ReshardingError> {
    let planner = Planner::new(tensor, src, dst, cluster, options)?;
    match mode {
        Mode::Auto => {
            let mut best: Option<TransferPlan> = None;
            for m in Mode::CONCRETE {
                let candidate = planner.plan(m)?;
                if best.as_ref().is_none_or(|b| candidate.cost < b.cost) {
                    best = Some(candidate);
                }
            }
            best.ok_or_else(|| ReshardingError::InvalidPlan("no mode to choose from".into()))
        }
        m => planner.plan(m),
    }
}

/// Checked inputs and what every mode shares.
struct Planner<'a> {
    tensor: &'a TensorDesc,
    dst: &'a Layout,
    cluster: &'a Cluster,
    options: PlanOptions,
    src_parts: Vec<usize>,
    dst_parts: Vec<usize>,
    /// Source tile index -> the devices holding it, in source mesh order.
    src_holders: BTreeMap<Vec<usize>, Vec<usize>>,
    /// Destination tile index -> the devices that must hold it, in destination mesh order.
    dst_groups: BTreeMap<Vec<usize>, Vec<usize>>,
    lower_bound: f64,
}

impl<'a> Planner<'a> {
    fn new(
        tensor: &'a TensorDesc,
        src: &'a Layout,
        dst: &'a Layout,
        cluster: &'a Cluster,
        options: PlanOptions,
    ) -> Result<Planner<'a>, ReshardingError> {
        cluster.validate()?;
        tensor.check()?;
        src.check("source", tensor, cluster)?;
        dst.check("destination", tensor, cluster)?;
        // Every resource carries at most one tile per destination device per phase, so this
        // bound keeps all byte sums exact.
        let total = tensor.total_bytes()?;
        total.checked_mul(dst.devices.len() as u64 + 1).ok_or_else(|| {
            ReshardingError::Overflow(format!("{total} bytes delivered to {} devices", dst.devices.len()))
        })?;
        let ids = |layout: &Layout| -> BTreeMap<Vec<usize>, Vec<usize>> {
            layout
                .replica_groups()
                .into_iter()
                .map(|(tile, positions)| (tile, positions.iter().map(|&p| layout.devices[p]).collect()))
                .collect()
        };
        let mut planner = Planner {
            tensor,
            dst,
            cluster,
            options,
            src_parts: src.parts_per_dim(),
            dst_parts: dst.parts_per_dim(),
            src_holders: ids(src),
            dst_groups: ids(dst),
            lower_bound: 0.0,
        };
        planner.lower_bound = lower_bound(cluster, &planner.missing_per_host()?);
        Ok(planner)
    }

    fn dst_tile(&self, index: &[usize]) -> Slice {
        slice_of_tile(&self.tensor.shape, &self.dst_parts, index)
    }

    /// Requests for `target` (part of a destination tile) to reach `receivers`.
    fn requests_for(&self, target: &Slice, receivers: &[usize], out: &mut Vec<Request>) -> Result<(), ReshardingError> {
        for (src_tile, slice) in overlaps(&self.tensor.shape, &self.src_parts, target) {
            let holders = self
                .src_holders
                .get(&src_tile)
                .ok_or_else(|| ReshardingError::InvalidPlan(format!("no source device holds tile {src_tile:?}")))?;
            out.push(Request {
                bytes: self.tensor.bytes_of(&slice)?,
                slice,
                holders: holders.clone(),
                receivers: receivers.to_vec(),
            });
        }
        Ok(())
    }

    fn plan(&self, mode: Mode) -> Result<TransferPlan, ReshardingError> {
        match mode {
            // `plan_with` resolves Auto before it gets here.
            Mode::SendRecv | Mode::Auto => self.send_recv(None),
            Mode::LocalAllGather => self.local_all_gather(),
            Mode::Broadcast => self.broadcast(),
        }
    }

    fn send_recv(&self, fallback: Option<String>) -> Result<TransferPlan, ReshardingError> {
        let mut requests = Vec::new();
        for (position, &device) in self.dst.devices.iter().enumerate() {
            let tile = self.dst_tile(&self.dst.tile_index(position));
            self.requests_for(&tile, &[device], &mut requests)?;
        }
        let (pieces, traffic) = assign(&requests, self.cluster, self.options.senders);
        Ok(self.finish(Mode::SendRecv, pieces, traffic, Vec::new(), fallback))
    }

    fn local_all_gather(&self) -> Result<TransferPlan, ReshardingError> {
        let k = self.dst.spec.num_replicas(self.dst.mesh);
        if k <= 1 {
            return self.send_recv(Some("the destination layout replicates nothing; plain send/recv".into()));
        }
        let Some(dim) = split_dim(&self.tensor.shape, &self.dst_parts, k) else {
            return self.send_recv(Some(format!(
                "no dimension of the destination tile (shape {:?} over {:?} parts) divides by \
                 its {k} replicas; plain send/recv",
                self.tensor.shape, self.dst_parts
            )));
        };
        let chunk = chunk_size(self.tensor.shape[dim], self.dst_parts[dim]) / k as i64;
        let mut requests = Vec::new();
        let mut gathers = Vec::new();
        for (index, devices) in &self.dst_groups {
            let tile = self.dst_tile(index);
            let parts: Vec<Slice> = (0..devices.len()).map(|j| tile.chunk_along(dim, chunk, j)).collect();
            for (part, &device) in parts.iter().zip(devices) {
                self.requests_for(part, &[device], &mut requests)?;
            }
            gathers.push(Gather { devices: devices.clone(), dim, tile, parts });
        }
        let (pieces, traffic) = assign(&requests, self.cluster, self.options.senders);
        let plan = self.finish(Mode::LocalAllGather, pieces, traffic, gathers, None);
        Ok(plan)
    }

    fn broadcast(&self) -> Result<TransferPlan, ReshardingError> {
        let mut requests = Vec::new();
        for (index, devices) in &self.dst_groups {
            self.requests_for(&self.dst_tile(index), devices, &mut requests)?;
        }
        let (pieces, traffic) = assign(&requests, self.cluster, self.options.senders);
        Ok(self.finish(Mode::Broadcast, pieces, traffic, Vec::new(), None))
    }

    fn finish(
        &self,
        mode: Mode,
        pieces: Vec<Piece>,
        traffic: Traffic,
        gathers: Vec<Gather>,
        fallback: Option<String>,
    ) -> TransferPlan {
        let gather_traffic = gather_traffic(&gathers, self.tensor, self.cluster);
        let transfer_seconds = traffic.seconds(self.cluster);
        let gather_seconds = gather_traffic.seconds(self.cluster);
        TransferPlan {
            mode,
            pieces,
            gathers,
            cost: transfer_seconds + gather_seconds,
            transfer_seconds,
            gather_seconds,
            lower_bound: self.lower_bound,
            bytes_across_hosts: traffic.bytes_across_hosts(),
            gather_bytes_across_hosts: gather_traffic.bytes_across_hosts(),
            traffic,
            gather_traffic,
            fallback,
        }
    }

    /// Per destination host, the bytes of its distinct destination tiles that no device on the
    /// host holds in the source layout. Distinct tiles of one layout are disjoint, so this is a
    /// sum of overlaps.
    fn missing_per_host(&self) -> Result<BTreeMap<usize, u64>, ReshardingError> {
        let host = |d: &usize| host_of(self.cluster, *d);
        let mut held: BTreeMap<usize, BTreeSet<&Vec<usize>>> = BTreeMap::new();
        for (tile, devices) in &self.src_holders {
            for h in devices.iter().map(host) {
                held.entry(h).or_default().insert(tile);
            }
        }
        let mut missing = BTreeMap::new();
        for (index, devices) in &self.dst_groups {
            let tile = self.dst_tile(index);
            let hosts: BTreeSet<usize> = devices.iter().map(host).collect();
            for (src_tile, slice) in overlaps(&self.tensor.shape, &self.src_parts, &tile) {
                let bytes = self.tensor.bytes_of(&slice)?;
                for &h in &hosts {
                    if !held.get(&h).is_some_and(|tiles| tiles.contains(&src_tile)) {
                        *missing.entry(h).or_insert(0u64) += bytes;
                    }
                }
            }
        }
        Ok(missing)
    }
}
