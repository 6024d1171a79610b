//! alpa-calibrate as a user runs it: without a GPU it says so and exits with 2; `--merge` builds
//! a multi-host cluster file that `cluster=` accepts.

use std::path::PathBuf;
use std::process::Command;

use alpa_cluster::cluster::Cluster;

fn calibrate() -> Command {
    Command::new(env!("CARGO_BIN_EXE_alpa-calibrate"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("alpa-calibrate-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn without_a_gpu_it_says_so_and_exits_2() {
    // No CUDA library here; on a GPU machine, hiding every device has the same effect.
    let out = calibrate().env("CUDA_VISIBLE_DEVICES", "").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("no GPU found"), "{stderr}");
    assert!(out.stdout.is_empty());
}

/// GPU hosts have CUDA but rarely LLVM 22: the binary must need nothing beyond the C runtime
/// (CUDA itself is loaded with dlopen).
#[test]
fn needs_no_mlir_llvm_or_cuda_library_to_start() {
    let out = Command::new("ldd").arg(env!("CARGO_BIN_EXE_alpa-calibrate")).output().unwrap();
    let listing = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{listing}");
    let needed: Vec<&str> = listing.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert!(needed.iter().any(|lib| lib.starts_with("libc.so")), "{listing}");
    for lib in &needed {
        let system =
            ["linux-vdso", "libc.so", "libm.so", "libgcc_s.so", "libpthread.so", "libdl.so", "/lib64/ld-linux"];
        assert!(system.iter().any(|s| lib.starts_with(s)), "alpa-calibrate needs {lib}:\n{listing}");
    }
}

#[test]
fn bad_arguments_exit_1_with_usage() {
    let out = calibrate().arg("--frobnicate").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("unknown argument `--frobnicate`") && stderr.contains("usage:"), "{stderr}");
}

const HOST: &str = r#"{
  "name": "HOST", "hosts": 1, "devices_per_host": 2,
  "device": { "name": "GPU", "memory_bytes": 1000, "peak_flops": { "bf16": BF16 } },
  "intra_host": { "bandwidth_bytes_per_s": 100e9, "latency_s": 1e-5 },
  "measured": {
    "gpu_name": "GPU", "driver_version": "12.4",
    "matmul": { "bf16": { "flops": BF16, "reached_at_size": 4096 } },
    "intra_host": { "all-reduce": [ { "devices": 2, "latency_s": 1e-5, "bandwidth_bytes_per_s": 100e9 } ] }
  }
}"#;

const CROSS: &str = r#"{
  "name": "cross", "hosts": 2, "devices_per_host": 1,
  "device": { "name": "GPU", "memory_bytes": 1000, "peak_flops": { "bf16": 5e14 } },
  "intra_host": { "bandwidth_bytes_per_s": 3e12, "latency_s": 1e-6 },
  "inter_host": { "bandwidth_bytes_per_s": 20e9, "latency_s": 3e-5 },
  "measured": {
    "gpu_name": "GPU", "driver_version": "12.4",
    "inter_host": { "all-reduce": [ { "devices": 2, "latency_s": 3e-5, "bandwidth_bytes_per_s": 20e9 } ] }
  }
}"#;

#[test]
fn merge_builds_a_multi_host_cluster_file() {
    let dir = scratch("merge");
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let a = write("a.json", HOST.replace("HOST", "a").replace("BF16", "6e14"));
    let b = write("b.json", HOST.replace("HOST", "b").replace("BF16", "5.5e14"));
    let cross = write("cross.json", CROSS.to_string());
    let merged = dir.join("two.json");
    let out = calibrate().args(["--merge", &a, &b, &cross, "--name", "two-hosts", "-o"]).arg(&merged).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("cluster `two-hosts`: 2 host(s) x 2 x GPU"), "{stderr}");
    let c = Cluster::load(merged.to_str().unwrap()).unwrap();
    assert_eq!((c.hosts, c.devices_per_host), (2, 2));
    assert_eq!(c.peak_flops("bf16"), 5.5e14, "the slower host");
    assert_eq!(c.inter_host.unwrap().bandwidth_bytes_per_s, 20e9);
    assert!(c.measured.unwrap().command.contains("--merge"));

    // Two hosts but nothing measured between them: an error, not a guess.
    let out = calibrate().args(["--merge", &a, &b]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("no cross-host file"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}
