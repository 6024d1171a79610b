//! IOPDDL benchmark: solves the public contest instances within their contest timeouts and
//! compares with the best published costs. Run with
//! `cargo bench --bench iopddl -- [INSTANCE...] [--time-limit SECONDS] [--runs N] [--out DIR] [--quiet]
//! [--prices growth|polyak|growth-then-polyak] [--threads N]`
//! (default: A, G, M, S from `../shared/data/iopddl`, one run each; with `--runs N` every run is
//! listed and a last table gives each instance's best run against the 1st-place solver; `--threads`,
//! default every core, is how many searches run side by side in each run). Each solution is checked with the
//! contest's independent evaluator (`../shared/tools/iopddl_eval.py`) when python3 is there.

use std::path::{Path, PathBuf};
use std::time::Instant;

use alpa_mlir::intra::{all_cores, format_iopddl_solution, read_iopddl, solve, PriceRule, SolveOptions, MAX_THREADS};

#[path = "common/iopddl_public.rs"]
mod iopddl_public;
use iopddl_public::{bad_command_line, flag_value, instance_path, shared_dir, INSTANCES};

/// The contest's 1st-place solver run on this project's 2-core machine, each instance within its
/// contest timeout (issue 9's bar): (instance letter, cost).
const FIRST_PLACE_HERE: [(&str, f64); 4] =
    [("A", 6_570_852_282.0), ("G", 217_039.0), ("M", 49_928_188_574.0), ("S", 1_543_794_273.0)];

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
    let mut runs = 1usize;
    let mut price_rule = PriceRule::default();
    let mut threads = all_cores();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--time-limit" => time_limit = Some(flag_value(&a, args.next(), |t: &f64| t.is_finite() && *t > 0.0)),
            "--out" => out_dir = PathBuf::from(flag_value(&a, args.next(), |s: &String| !s.starts_with("--"))),
            "--runs" => runs = flag_value(&a, args.next(), |n: &usize| *n > 0),
            "--quiet" => verbose = false,
            "--prices" => price_rule = flag_value(&a, args.next(), |_: &PriceRule| true),
            "--threads" => threads = flag_value(&a, args.next(), |n: &u32| (1..=MAX_THREADS).contains(n)),
            "--bench" => {} // passed by `cargo bench`
            flag if flag.starts_with("--") => bad_command_line(&format!("unknown flag '{flag}'")),
            other => paths.push(PathBuf::from(other)),
        }
    }
    if paths.is_empty() {
        paths = INSTANCES.iter().map(|(l, _, _)| instance_path(l)).collect();
    }
    std::fs::create_dir_all(&out_dir).expect("output directory");
    let mut rows = Vec::new();
    let mut best_runs: Vec<(String, Option<&'static str>, Vec<Option<f64>>)> = Vec::new();
    for path in &paths {
        let info = letter(path).and_then(|l| INSTANCES.iter().find(|i| i.0 == l));
        let limit = time_limit.or(info.map(|i| i.1)).unwrap_or(60.0);
        let mut costs = Vec::new();
        let mut name = path.display().to_string();
        for run in 1..=runs {
            let start = Instant::now();
            let inst = match read_iopddl(path) {
                Ok(i) => i,
                Err(e) => {
                    eprintln!("{}: {e}", path.display());
                    break;
                }
            };
            let read = start.elapsed().as_secs_f64();
            // The contest timeout covers the whole run: reading, solving and writing (1 s margin).
            let opts = SolveOptions {
                time_limit: Some((limit - read - 1.0).max(1.0)),
                verbose,
                price_rule,
                threads,
                message_passing: true,
                ..SolveOptions::default()
            };
            name = inst.name.clone().unwrap_or_else(|| path.display().to_string());
            let label = if runs > 1 { format!("{name} (run {run})") } else { name.clone() };
            let result = solve(&inst.problem, &opts);
            let seconds = start.elapsed().as_secs_f64();
            match result {
                Ok(sol) => {
                    let file = out_dir.join(format!("{name}.txt"));
                    std::fs::write(&file, format_iopddl_solution(&sol.choice)).expect("write solution");
                    let checked = evaluate(path, &file);
                    let feasible = sol.peak_memory <= inst.problem.usage_limit.unwrap_or(f64::INFINITY);
                    costs.push(feasible.then_some(sol.objective));
                    let gap = info.map(|i| gap_percent(sol.objective, i.2)).unwrap_or("-".into());
                    rows.push(format!(
                        "| {label} | {}/{} | {}/{} | {:.0} | {} | {:.1} | {} | {} | {} | {:?} |",
                        sol.stats.nodes_before,
                        sol.stats.edges_before,
                        sol.stats.nodes_after,
                        sol.stats.edges_after,
                        sol.objective,
                        feasible,
                        seconds,
                        sol.stats
                            .first_feasible_seconds
                            .map_or("-".into(), |f| format!("{f:.2} ({:.1}% of the limit)", 100.0 * f / limit)),
                        gap,
                        checked.map_or("not run".into(), |(c, f)| format!("cost {c}, feasible {f}")),
                        sol.status,
                    ));
                }
                Err(e) => {
                    costs.push(None);
                    rows.push(format!("| {label} | - | - | - | false | {seconds:.1} | - | - | {e} | - |"))
                }
            }
            eprintln!("{}", rows.last().unwrap());
        }
        best_runs.push((name, info.map(|i| i.0), costs));
    }
    println!("| instance | nodes/edges | after preprocessing | cost | feasible | seconds | first feasible s | vs best published | evaluator | status |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for r in rows {
        println!("{r}");
    }
    if runs > 1 {
        println!();
        println!("| instance | best of {runs} | every run | 1st-place solver on this machine | best vs 1st place |");
        println!("| --- | --- | --- | --- | --- |");
        for (name, letter, costs) in best_runs {
            let best = costs.iter().flatten().copied().fold(None, |b: Option<f64>, c| Some(b.map_or(c, |b| b.min(c))));
            let every: Vec<String> =
                costs.iter().map(|c| c.map_or("infeasible".into(), |c| format!("{c:.0}"))).collect();
            let first = letter.and_then(|l| FIRST_PLACE_HERE.iter().find(|f| f.0 == l)).map(|f| f.1);
            println!(
                "| {name} | {} | {} | {} | {} |",
                best.map_or("none feasible".into(), |b| format!("{b:.0}")),
                every.join(", "),
                first.map_or("-".into(), |f| format!("{f:.0}")),
                match (best, first) {
                    (Some(b), Some(f)) => gap_percent(b, f),
                    _ => "-".into(),
                }
            );
        }
    }
}

fn gap_percent(cost: f64, reference: f64) -> String {
    format!("{:+.2}%", 100.0 * (cost - reference) / reference)
}
