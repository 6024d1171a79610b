//! NCCL collectives timed over groups of GPUs: 2..n GPUs of this process, or one GPU in each of
//! several processes (hosts). Buffer sizes follow the module table of `cluster::collective`.

use std::sync::Arc;
use std::time::Instant;

use cudarc::driver::{CudaContext, CudaSlice, CudaStream};
use cudarc::nccl::{group_end, group_start, Comm, Id, ReduceOp};

use alpa_cluster::calibrate::fit::{fit_latency_bandwidth, Sample};
use alpa_cluster::calibrate::sizes::{collective_repetitions, message_sizes};
use alpa_cluster::calibrate::CollectiveSamples;
use alpa_cluster::cluster::measured::MEASURED_COLLECTIVES;
use alpa_cluster::cluster::Collective;

use crate::args::InterHost;
use crate::gpu::{err, missing_library, progress};

fn nccl(what: &'static str) -> impl Fn(cudarc::nccl::result::NcclError) -> String {
    move |e| format!("{what}: {e:?}")
}

/// The comms this process drives, with a send and a receive buffer of `max_bytes` each.
struct Ranks {
    comms: Vec<Comm>,
    send: Vec<CudaSlice<f32>>,
    recv: Vec<CudaSlice<f32>>,
    world: usize,
}

impl Ranks {
    fn new(comms: Vec<Comm>, max_bytes: u64) -> Result<Self, String> {
        let elements = (max_bytes / 4) as usize;
        let world = comms.first().map_or(0, |c| c.world_size());
        let mut send = Vec::new();
        let mut recv = Vec::new();
        for comm in &comms {
            let stream = comm.stream();
            send.push(stream.alloc_zeros::<f32>(elements).map_err(err("alloc"))?);
            recv.push(stream.alloc_zeros::<f32>(elements).map_err(err("alloc"))?);
        }
        Ok(Ranks { comms, send, recv, world })
    }

    /// Issues one `kind` on `bytes` from every local rank, grouped.
    fn issue(&mut self, kind: Collective, bytes: u64) -> Result<(), String> {
        let n = self.world;
        let all = (bytes / 4) as usize;
        let share = all / n;
        group_start().map_err(nccl("ncclGroupStart"))?;
        for (i, comm) in self.comms.iter().enumerate() {
            let (send, recv) = (&self.send[i], &mut self.recv[i]);
            let rank = comm.rank();
            match kind {
                Collective::AllReduce => {
                    comm.all_reduce(&send.slice(..all), &mut recv.slice_mut(..all), &ReduceOp::Sum).map(drop)
                }
                Collective::AllGather => comm.all_gather(&send.slice(..share), &mut recv.slice_mut(..all)).map(drop),
                Collective::ReduceScatter => {
                    comm.reduce_scatter(&send.slice(..all), &mut recv.slice_mut(..share), &ReduceOp::Sum).map(drop)
                }
                // As XLA lowers it on GPUs: one send and one receive per peer, grouped.
                Collective::AllToAll => (0..n).filter(|&p| p != rank).try_for_each(|p| {
                    comm.send(&send.slice(p * share..(p + 1) * share), p as i32)?;
                    comm.recv(&mut recv.slice_mut(p * share..(p + 1) * share), p as i32).map(drop)
                }),
                Collective::PointToPoint => match rank {
                    0 => comm.send(&send.slice(..all), 1),
                    1 => comm.recv(&mut recv.slice_mut(..all), 0).map(drop),
                    _ => Ok(()),
                },
            }
            .map_err(|e| format!("NCCL {}: {e:?}", kind.name()))?;
        }
        group_end().map_err(nccl("ncclGroupEnd"))?;
        Ok(())
    }

    fn synchronize(&self) -> Result<(), String> {
        self.comms.iter().try_for_each(|c| c.stream().synchronize().map_err(err("synchronize")))
    }

    /// Seconds per call, wall clock over the streams of every local rank. The number of calls is
    /// a function of the size only, so that all processes issue the same calls.
    fn time(&mut self, kind: Collective, bytes: u64) -> Result<f64, String> {
        self.issue(kind, bytes)?;
        self.synchronize()?;
        let reps = collective_repetitions(bytes);
        let start = Instant::now();
        for _ in 0..reps {
            self.issue(kind, bytes)?;
        }
        self.synchronize()?;
        Ok(start.elapsed().as_secs_f64() / reps as f64)
    }

    fn measure_all(&mut self, max_bytes: u64, inter_host: bool) -> Result<Vec<CollectiveSamples>, String> {
        let n = self.world;
        let sizes = message_sizes(n, max_bytes);
        let mut out = Vec::new();
        for (kind, name) in MEASURED_COLLECTIVES {
            // Send/recv is between two ranks; over more it would be the same pair again.
            if kind == Collective::PointToPoint && n != 2 && !inter_host {
                continue;
            }
            let mut samples = Vec::new();
            for &bytes in &sizes {
                let seconds = self.time(kind, bytes)?;
                samples.push(Sample { bytes: bytes as f64, seconds });
            }
            let place = if inter_host { "hosts" } else { "GPUs" };
            match fit_latency_bandwidth(&samples) {
                Some(l) => progress(&format!(
                    "nccl {name:<14} {n} {place}: {:.1} GB/s, latency {:.1} us ({} sizes)",
                    l.bandwidth_bytes_per_s / 1e9,
                    l.latency_s * 1e6,
                    samples.len()
                )),
                None => progress(&format!("nccl {name:<14} {n} {place}: no fit")),
            }
            out.push(CollectiveSamples { kind, devices: n, inter_host, samples });
        }
        Ok(out)
    }
}

/// Every collective over GPUs 0..k for k = 2..=gpus.
pub fn local(gpus: usize, max_bytes: u64) -> Result<Vec<CollectiveSamples>, String> {
    let mut out = Vec::new();
    if gpus < 2 {
        return Ok(out);
    }
    // SAFETY: only tries to dlopen NCCL.
    if !unsafe { cudarc::nccl::sys::is_culib_present() } {
        progress(&format!("no collective measurements: {}", missing_library("nccl")));
        return Ok(out);
    }
    for k in 2..=gpus {
        let streams: Vec<Arc<CudaStream>> = (0..k)
            .map(|i| CudaContext::new(i).and_then(|ctx| ctx.new_stream()).map_err(err("stream")))
            .collect::<Result<_, _>>()?;
        let comms = Comm::from_devices(streams).map_err(nccl("ncclCommInitAll"))?;
        out.extend(Ranks::new(comms, max_bytes)?.measure_all(max_bytes, false)?);
    }
    Ok(out)
}

/// Every collective over one GPU per process, the processes started on every host at once.
pub fn across_processes(
    ctx: &Arc<CudaContext>,
    inter: &InterHost,
    id: Id,
    max_bytes: u64,
) -> Result<Vec<CollectiveSamples>, String> {
    // SAFETY: only tries to dlopen NCCL.
    if !unsafe { cudarc::nccl::sys::is_culib_present() } {
        return Err(format!("the inter-host run needs NCCL: {}", missing_library("nccl")));
    }
    let stream = ctx.new_stream().map_err(err("stream"))?;
    let comm = Comm::from_rank(stream, inter.rank, inter.world, id).map_err(nccl("ncclCommInitRank"))?;
    progress(&format!("rank {} of {} joined", inter.rank, inter.world));
    Ranks::new(vec![comm], max_bytes)?.measure_all(max_bytes, true)
}
