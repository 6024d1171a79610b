//! The public IOPDDL contest instances: where they are and their contest timeouts.

use std::path::{Path, PathBuf};

/// (instance letter, contest timeout in seconds, best published cost).
pub const INSTANCES: [(&str, f64, f64); 4] = [
    ("A", 60.0, 6_548_641_531.0),
    ("G", 120.0, 217_039.0),
    ("M", 180.0, 49_928_460_991.0),
    ("S", 240.0, 1_534_613_444.0),
];

/// The shared folder with the instances and the contest's evaluator.
pub fn shared_dir() -> PathBuf {
    let beside = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if beside.join("data/iopddl").exists() {
        beside
    } else {
        PathBuf::from("/work/shared")
    }
}

/// The file of public instance `letter`.
pub fn instance_path(letter: &str) -> PathBuf {
    shared_dir().join(format!("data/iopddl/asplos-2025-iopddl-{letter}.json.gz"))
}
