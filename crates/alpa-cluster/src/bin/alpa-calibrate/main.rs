//! alpa-calibrate: measures the GPUs of this machine (cuBLAS matmuls per element type, HBM,
//! host<->device and peer copies, NCCL collectives) and writes a cluster file for `cluster=`;
//! merges the files of several hosts. CUDA is loaded at run time: without it, or without a GPU,
//! it says so and exits with status 2.

mod args;
mod collectives;
mod copies;
mod gpu;
mod matmul;
mod rendezvous;

use std::process::ExitCode;

use alpa_cluster::calibrate::{date, merge, summary, Calibration};
use alpa_cluster::cluster::Cluster;

/// Exit status when there is no GPU to measure.
const NO_GPU: u8 = 2;

fn main() -> ExitCode {
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let args = match args::parse(std::env::args().skip(1)) {
        Ok(a) if a.help => {
            println!("{}", args::USAGE);
            return ExitCode::SUCCESS;
        }
        Ok(a) => a,
        Err(e) => {
            eprintln!("alpa-calibrate: {e}\n{}", args::USAGE);
            return ExitCode::FAILURE;
        }
    };
    if !args.merge.is_empty() {
        return finish(merge_files(&args, &command), &args);
    }
    let gpus = match gpu::probe() {
        Ok(n) => n,
        Err(why) => {
            eprintln!("alpa-calibrate: no GPU found: {why}");
            return ExitCode::from(NO_GPU);
        }
    };
    let measured = measure_guarded(&args, gpus).and_then(|mut c: Calibration| {
        c.command = command.clone();
        c.date = date::today();
        let name = args.name.clone().unwrap_or_else(|| default_name(&c));
        c.to_cluster(&name)
    });
    if args.inter_host.as_ref().is_some_and(|i| i.rank != 0) {
        // Only rank 0 writes: the others took part in the collectives.
        return match measured {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) => finish(Err(e), &args),
        };
    }
    finish(measured, &args)
}

/// cudarc panics when a library it loads lacks a symbol it binds (a CUDA, cuBLAS or NCCL older
/// or newer than its bindings); that becomes an error naming the library instead of a crash.
fn measure_guarded(args: &args::Args, gpus: usize) -> Result<Calibration, String> {
    let quiet_panic = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(|| gpu::measure(args, gpus));
    std::panic::set_hook(quiet_panic);
    result.unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown failure".into());
        Err(format!("a CUDA library could not be used: {what}"))
    })
}

fn default_name(c: &Calibration) -> String {
    let gpu = c.gpu_name.to_lowercase().replace(' ', "-");
    format!("{gpu}-measured-x{}", c.hosts.max(1))
}

fn merge_files(args: &args::Args, command: &str) -> Result<Cluster, String> {
    let files = args
        .merge
        .iter()
        .map(|path| Cluster::from_json_file(std::path::Path::new(path)).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let name = args.name.clone().unwrap_or_else(|| "merged".to_string());
    let mut merged = merge(&files, &name)?;
    if let Some(m) = merged.measured.as_mut() {
        m.command = command.to_string();
    }
    Ok(merged)
}

/// Writes the file (or stdout) and the summary (stderr); the exit status.
fn finish(result: Result<Cluster, String>, args: &args::Args) -> ExitCode {
    let cluster = match result {
        Ok(c) => c,
        Err(e) => {
            eprintln!("alpa-calibrate: {e}");
            return ExitCode::FAILURE;
        }
    };
    let json = cluster.to_json_pretty() + "\n";
    match &args.output {
        Some(path) => {
            if let Err(e) = std::fs::write(path, json) {
                eprintln!("alpa-calibrate: cannot write `{path}`: {e}");
                return ExitCode::FAILURE;
            }
            eprintln!("wrote {path}");
        }
        None => print!("{json}"),
    }
    eprint!("{}", summary(&cluster));
    ExitCode::SUCCESS
}
