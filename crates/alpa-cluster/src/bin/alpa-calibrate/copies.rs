//! HBM (device-to-device copy), host<->device and peer copy timings.

use std::sync::Arc;

use cudarc::driver::{sys, CudaContext, CudaSlice, CudaStream};

use alpa_cluster::calibrate::fit::{fit_latency_bandwidth, Sample};
use alpa_cluster::calibrate::sizes::{hbm_copy_sizes, message_sizes};
use alpa_cluster::calibrate::Calibration;

use crate::gpu::{err, progress, time_on_stream};

const TARGET_S: f64 = 0.02;

fn report(what: &str, samples: &[Sample]) {
    match fit_latency_bandwidth(samples) {
        Some(l) => progress(&format!(
            "{what}: {:.1} GB/s, latency {:.1} us ({} sizes)",
            l.bandwidth_bytes_per_s / 1e9,
            l.latency_s * 1e6,
            samples.len()
        )),
        None => progress(&format!("{what}: no fit from {} sizes", samples.len())),
    }
}

pub fn measure(
    c: &mut Calibration,
    ctx: &Arc<CudaContext>,
    gpus: usize,
    max_bytes: u64,
    memory_bytes: u64,
) -> Result<(), String> {
    let sizes = message_sizes(1, max_bytes);
    let stream = ctx.new_stream().map_err(err("stream"))?;
    let largest = *sizes.last().ok_or("--max-bytes too small")? as usize;
    hbm(c, ctx, &stream, memory_bytes)?;

    let src: CudaSlice<u8> = stream.alloc_zeros(largest).map_err(err("alloc"))?;
    let mut dst: CudaSlice<u8> = stream.alloc_zeros(largest).map_err(err("alloc"))?;

    // SAFETY: the pinned buffer is written by the copies below before it is read.
    let mut pinned = unsafe { ctx.alloc_pinned_with_flags::<u8>(largest, 0) }.map_err(err("pinned alloc"))?;
    for &bytes in &sizes {
        let b = bytes as usize;
        let host = pinned.as_slice().map_err(err("pinned"))?;
        let s = time_on_stream(&stream, TARGET_S, || {
            stream.memcpy_htod(&host[..b], &mut dst.slice_mut(..b)).map_err(err("copy to GPU"))
        })?;
        c.host_to_device.push(Sample { bytes: bytes as f64, seconds: s });
    }
    report("host -> device", &c.host_to_device);
    for &bytes in &sizes {
        let b = bytes as usize;
        let host = pinned.as_mut_slice().map_err(err("pinned"))?;
        let s = time_on_stream(&stream, TARGET_S, || {
            stream.memcpy_dtoh(&src.slice(..b), &mut host[..b]).map_err(err("copy to host"))
        })?;
        c.device_to_host.push(Sample { bytes: bytes as f64, seconds: s });
    }
    report("device -> host", &c.device_to_host);
    drop((src, dst, pinned));

    if gpus > 1 {
        peers(c, gpus, &sizes)?;
    }
    Ok(())
}

/// Device-to-device copies of buffers well beyond the L2 cache (`hbm_copy_sizes`), one
/// progress line per size.
fn hbm(c: &mut Calibration, ctx: &Arc<CudaContext>, stream: &Arc<CudaStream>, memory_bytes: u64) -> Result<(), String> {
    let l2 = ctx.attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE).map_err(err("L2 size"))?;
    let sizes = hbm_copy_sizes(u64::try_from(l2).unwrap_or(0), memory_bytes);
    let Some(&largest) = sizes.last() else {
        progress("HBM device copy: too little GPU memory for copies beyond the L2 cache");
        return Ok(());
    };
    let src: CudaSlice<u8> = stream.alloc_zeros(largest as usize).map_err(err("alloc"))?;
    let mut dst: CudaSlice<u8> = stream.alloc_zeros(largest as usize).map_err(err("alloc"))?;
    for &bytes in &sizes {
        let b = bytes as usize;
        let s = time_on_stream(stream, TARGET_S, || {
            stream.memcpy_dtod(&src.slice(..b), &mut dst.slice_mut(..b)).map_err(err("copy"))
        })?;
        // A copy reads and writes every byte.
        c.hbm.push(Sample { bytes: 2.0 * bytes as f64, seconds: s });
        progress(&format!("HBM copy {:>5} MiB: {:.1} GB/s (read + write)", bytes >> 20, 2.0 * bytes as f64 / s / 1e9));
    }
    report(&format!("HBM device copy (read + write, L2 {} MiB)", l2 >> 20), &c.hbm);
    Ok(())
}

/// Lets `ctx` read and write `peer`'s memory directly when the hardware can (NVLink or PCIe
/// P2P); otherwise copies go through the host, which is what the measurement then shows.
fn enable_peer_access(ctx: &Arc<CudaContext>, peer: &Arc<CudaContext>) -> Result<(), String> {
    ctx.bind_to_thread().map_err(err("bind"))?;
    // SAFETY: both contexts are alive; the call only changes their mapping.
    let result = unsafe { sys::cuCtxEnablePeerAccess(peer.cu_ctx(), 0) };
    match result {
        sys::CUresult::CUDA_SUCCESS | sys::CUresult::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED => Ok(()),
        sys::CUresult::CUDA_ERROR_PEER_ACCESS_UNSUPPORTED => Ok(()),
        other => other.result().map_err(err("cuCtxEnablePeerAccess")),
    }
}

fn peers(c: &mut Calibration, gpus: usize, sizes: &[u64]) -> Result<(), String> {
    let largest = *sizes.last().unwrap_or(&4096) as usize;
    let ctxs = (0..gpus).map(|i| CudaContext::new(i).map_err(err("opening GPU"))).collect::<Result<Vec<_>, _>>()?;
    for from in 0..gpus {
        for to in (0..gpus).filter(|&to| to != from) {
            enable_peer_access(&ctxs[to], &ctxs[from])?;
            let src_stream = ctxs[from].new_stream().map_err(err("stream"))?;
            let dst_stream = ctxs[to].new_stream().map_err(err("stream"))?;
            let src: CudaSlice<u8> = src_stream.alloc_zeros(largest).map_err(err("alloc"))?;
            let mut dst: CudaSlice<u8> = dst_stream.alloc_zeros(largest).map_err(err("alloc"))?;
            src_stream.synchronize().map_err(err("synchronize"))?;
            let mut samples = Vec::new();
            for &bytes in sizes {
                let b = bytes as usize;
                let s = time_on_stream(&dst_stream, TARGET_S, || {
                    dst_stream.memcpy_dtod(&src.slice(..b), &mut dst.slice_mut(..b)).map_err(err("peer copy"))
                })?;
                samples.push(Sample { bytes: bytes as f64, seconds: s });
            }
            report(&format!("peer GPU {from} -> {to}"), &samples);
            c.peer.push(((from, to), samples));
        }
    }
    Ok(())
}
