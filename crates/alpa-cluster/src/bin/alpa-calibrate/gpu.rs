//! Finding the GPUs and running every measurement of one process.

use std::sync::Arc;

use cudarc::driver::{sys, CudaContext, CudaEvent, CudaStream};

use alpa_cluster::calibrate::Calibration;

use crate::args::Args;
use crate::{collectives, copies, matmul, rendezvous};

/// The number of GPUs, or why there are none. Checks that the driver library loads before
/// calling into it: cudarc panics on a missing library.
pub fn probe() -> Result<usize, String> {
    // SAFETY: only tries to dlopen the driver library by its usual names.
    if !unsafe { sys::is_culib_present() } {
        return Err("the CUDA driver library (libcuda.so) cannot be loaded".into());
    }
    match CudaContext::device_count() {
        Ok(n) if n > 0 => Ok(n as usize),
        Ok(_) => Err("the CUDA driver sees no device".into()),
        Err(e) => Err(format!("the CUDA driver reports {e}")),
    }
}

/// `12.4`: the CUDA version the driver supports.
pub fn driver_version() -> Result<String, String> {
    let mut version = 0;
    // SAFETY: writes one int.
    unsafe { sys::cuDriverGetVersion(&mut version) }.result().map_err(|e| format!("cuDriverGetVersion: {e}"))?;
    Ok(format!("{}.{}", version / 1000, version % 1000 / 10))
}

pub fn err(what: &str) -> impl Fn(cudarc::driver::DriverError) -> String + '_ {
    move |e| format!("{what}: {e}")
}

/// Seconds per run of `run`, timed with events on `stream`: one warm-up run, one timed run to
/// size the repetitions, then `repetitions` runs.
pub fn time_on_stream(
    stream: &Arc<CudaStream>,
    target_s: f64,
    mut run: impl FnMut() -> Result<(), String>,
) -> Result<f64, String> {
    let ctx = stream.context();
    let event = || ctx.new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT)).map_err(err("event"));
    let (start, end): (CudaEvent, CudaEvent) = (event()?, event()?);
    let mut timed = |reps: usize| -> Result<f64, String> {
        start.record(stream).map_err(err("record"))?;
        for _ in 0..reps {
            run()?;
        }
        end.record(stream).map_err(err("record"))?;
        end.synchronize().map_err(err("synchronize"))?;
        let ms = start.elapsed_ms(&end).map_err(err("elapsed"))?;
        Ok(f64::from(ms) / 1e3 / reps as f64)
    };
    timed(1)?;
    let one = timed(1)?;
    let reps = alpa_cluster::calibrate::sizes::repetitions(one, target_s);
    timed(reps)
}

/// Why `lib` (cublas, nccl) could not be loaded and how to point alpa-calibrate at it: cudarc
/// looks only for the names below (CUDA 13's `libcublas.so.13` and NCCL's `libnccl.so.2` are
/// not among them), and the dynamic loader reads LD_LIBRARY_PATH when the process starts.
pub fn missing_library(lib: &str) -> String {
    format!(
        "lib{lib} cannot be loaded under any of the names {}; link one of them to the library \
         (e.g. lib{lib}.so -> lib{lib}.so.N) in a directory on LD_LIBRARY_PATH",
        cudarc::get_lib_name_candidates(lib).join(", ")
    )
}

/// Progress on stderr, one line per measurement.
pub fn progress(line: &str) {
    eprintln!("[alpa-calibrate] {line}");
}

/// Everything this process measures: the local run, or its part of an inter-host run.
pub fn measure(args: &Args, gpus: usize) -> Result<Calibration, String> {
    let first = args.inter_host.as_ref().map_or(0, |i| i.gpu);
    if first >= gpus {
        return Err(format!("--gpu {first}: this machine has {gpus} GPU(s)"));
    }
    let ctx = CudaContext::new(first).map_err(err("opening GPU"))?;
    let gpu_name = ctx.name().map_err(err("GPU name"))?;
    let memory_bytes = ctx.total_mem().map_err(err("GPU memory"))? as u64;
    progress(&format!(
        "{gpus} GPU(s), measuring on {gpu_name} ({:.1} GiB)",
        memory_bytes as f64 / f64::from(1u32 << 30)
    ));
    let mut c = Calibration { gpu_name, driver_version: driver_version()?, memory_bytes, ..Default::default() };
    let matmuls = matmul::measure(&ctx, memory_bytes, args.quick)?;
    c.matmul = matmuls.square;
    c.matmul_shapes = matmuls.shapes;
    let max_bytes = args.max_bytes.min(memory_bytes / 16);
    match &args.inter_host {
        None => {
            c.hosts = 1;
            c.gpus_per_host = gpus;
            copies::measure(&mut c, &ctx, gpus, max_bytes, memory_bytes)?;
            c.collectives = collectives::local(gpus, max_bytes)?;
        }
        Some(inter) => {
            c.hosts = inter.world;
            c.gpus_per_host = 1;
            let id = rendezvous::nccl_id(inter)?;
            c.collectives = collectives::across_processes(&ctx, inter, id, max_bytes)?;
        }
    }
    Ok(c)
}
