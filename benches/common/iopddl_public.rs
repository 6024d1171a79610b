//! The public IOPDDL contest instances: where they are and their contest timeouts; and the
//! command-line checks the IOPDDL benches share.

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

/// The value after flag `name`, parsed: a missing or bad value, or one `accept` refuses, ends
/// the bench with status 2 instead of falling back to a default (a number measured under
/// another setting than the one asked for would be wrong).
#[allow(dead_code)] // each bench uses what it needs
pub fn flag_value<T: std::str::FromStr>(name: &str, value: Option<String>, accept: impl Fn(&T) -> bool) -> T
where
    T::Err: std::fmt::Display,
{
    let text = value.unwrap_or_else(|| bad_command_line(&format!("{name} needs a value")));
    match text.parse::<T>() {
        Ok(v) if accept(&v) => v,
        Ok(_) => bad_command_line(&format!("{name}: value '{text}' is not allowed here")),
        Err(e) => bad_command_line(&format!("{name} '{text}': {e}")),
    }
}

/// Says what is wrong with the command line and exits with status 2.
pub fn bad_command_line(why: &str) -> ! {
    eprintln!("bench: {why}");
    std::process::exit(2)
}
