//! IOPDDL benchmark: solves the public contest instances within their contest timeouts and
//! compares with the best published costs. Run with
//! `cargo bench --bench iopddl -- [INSTANCE...] [--time-limit SECONDS] [--out DIR] [--quiet]`
//! (default: A, G, M, S from `../shared/data/iopddl`). Each solution is checked with the
//! contest's independent evaluator (`../shared/tools/iopddl_eval.py`) when python3 is there.

use std::path::{Path, PathBuf};
use std::time::Instant;

use alpa_mlir::intra::{format_iopddl_solution, read_iopddl, solve, SolveOptions};

#[path = "common/iopddl_public.rs"]
mod iopddl_public;
use iopddl_public::{instance_path, shared_dir, INSTANCES};

fn letter(path: &Path) -> Option<&'static str> {
    let name = path.file_name()?.to_string_lossy().to_string();
    INSTANCES.iter().map(|i| i.0).find(|l| name.contains(&format!("-{l}.json")))
}

/// Runs the contest evaluator: Some((cost, feasible)) or None when it cannot run.
fn evaluate(instance: &Path, solution: &Path) -> Option<(String, bool)> {
    let tool = shared_dir().join("tools/iopddl_eval.py");
    let out = std::process::Command::new("python3").arg(tool).arg(instance).arg(solution).output().ok()?;
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    Some((v["cost"].to_string(), v["feasible"].as_bool()?))
}

fn main() {
    let mut paths: Vec<PathBuf> = Vec::new();
    let mut time_limit: Option<f64> = None;
    let mut out_dir = std::env::temp_dir().join("iopddl-solutions");
    let mut verbose = true;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--time-limit" => time_limit = args.next().and_then(|x| x.parse().ok()),
            "--out" => out_dir = args.next().map(PathBuf::from).unwrap_or(out_dir),
            "--quiet" => verbose = false,
            "--bench" => {} // passed by `cargo bench`
            other => paths.push(PathBuf::from(other)),
        }
    }
    if paths.is_empty() {
        paths = INSTANCES.iter().map(|(l, _, _)| instance_path(l)).collect();
    }
    std::fs::create_dir_all(&out_dir).expect("output directory");
    let mut rows = Vec::new();
    for path in &paths {
        let info = letter(path).and_then(|l| INSTANCES.iter().find(|i| i.0 == l));
        let limit = time_limit.or(info.map(|i| i.1)).unwrap_or(60.0);
        let start = Instant::now();
        let inst = match read_iopddl(path) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                continue;
            }
        };
        let read = start.elapsed().as_secs_f64();
        // The contest timeout covers the whole run: reading, solving and writing (1 s margin).
        let opts = SolveOptions { time_limit: Some((limit - read - 1.0).max(1.0)), verbose, ..SolveOptions::default() };
        let name = inst.name.clone().unwrap_or_else(|| path.display().to_string());
        let result = solve(&inst.problem, &opts);
        let seconds = start.elapsed().as_secs_f64();
        match result {
            Ok(sol) => {
                let file = out_dir.join(format!("{name}.txt"));
                std::fs::write(&file, format_iopddl_solution(&sol.choice)).expect("write solution");
                let checked = evaluate(path, &file);
                let gap = info.map(|i| format!("{:+.2}%", 100.0 * (sol.objective - i.2) / i.2)).unwrap_or("-".into());
                rows.push(format!(
                    "| {name} | {}/{} | {}/{} | {:.0} | {} | {:.1} | {} | {} | {} | {:?} |",
                    sol.stats.nodes_before,
                    sol.stats.edges_before,
                    sol.stats.nodes_after,
                    sol.stats.edges_after,
                    sol.objective,
                    sol.peak_memory <= inst.problem.usage_limit.unwrap_or(f64::INFINITY),
                    seconds,
                    sol.stats
                        .first_feasible_seconds
                        .map_or("-".into(), |f| format!("{f:.2} ({:.1}% of the limit)", 100.0 * f / limit)),
                    gap,
                    checked.map_or("not run".into(), |(c, f)| format!("cost {c}, feasible {f}")),
                    sol.status,
                ));
            }
            Err(e) => rows.push(format!("| {name} | - | - | - | false | {seconds:.1} | - | - | {e} | - |")),
        }
        eprintln!("{}", rows.last().unwrap());
    }
    println!("| instance | nodes/edges | after preprocessing | cost | feasible | seconds | first feasible s | vs best published | evaluator | status |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for r in rows {
        println!("{r}");
    }
}
