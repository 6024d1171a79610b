//! The solver on instances generated from the public IOPDDL ones (`intra::generate`): memory
//! limits at +2%, +5%, +10% of the least peak the construction reaches, perturbed costs,
//! dropped nodes, two copies in sequence. Run with
//! `cargo bench --bench iopddl_generated -- [LETTER...] [--time-limit SECONDS] [--only NAME-PART]
//! [--ilp-max-entries N] [--threads N] [--quiet]`
//! (default: A, G, M, S, each variant within its source's contest timeout, as many searches side by
//! side as there are cores). Prints cost,
//! feasibility, time to the first feasible assignment and how far the limit is above the
//! least reachable peak and its trivial lower bound.

use std::time::Instant;

use alpa_mlir::intra::generate::{least_peak, variants};
use alpa_mlir::intra::{all_cores, read_iopddl, solve, SolveOptions, MAX_THREADS};

#[path = "common/iopddl_public.rs"]
mod iopddl_public;
use iopddl_public::{bad_command_line, flag_value, instance_path, INSTANCES};

fn main() {
    let mut letters: Vec<String> = Vec::new();
    let mut time_limit: Option<f64> = None;
    let mut verbose = true;
    let mut ilp_max_entries = SolveOptions::default().ilp_max_entries;
    let mut only: Option<String> = None;
    let mut threads = all_cores();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            // The solver gets the limit less one second (kept for reading and checking).
            "--time-limit" => time_limit = Some(flag_value(&a, args.next(), |t: &f64| t.is_finite() && *t > 1.0)),
            "--quiet" => verbose = false,
            "--ilp-max-entries" => ilp_max_entries = flag_value(&a, args.next(), |_: &usize| true),
            "--threads" => threads = flag_value(&a, args.next(), |n: &u32| (1..=MAX_THREADS).contains(n)),
            "--only" => only = Some(flag_value(&a, args.next(), |s: &String| !s.starts_with("--"))),
            "--bench" => {}
            flag if flag.starts_with("--") => bad_command_line(&format!("unknown flag '{flag}'")),
            other => letters.push(other.to_string()),
        }
    }
    if letters.is_empty() {
        letters = INSTANCES.iter().map(|i| i.0.to_string()).collect();
    }
    let mut rows = Vec::new();
    for letter in &letters {
        let Some(&(_, timeout, _)) = INSTANCES.iter().find(|i| i.0 == letter) else {
            eprintln!("unknown instance {letter} (use A, G, M or S)");
            continue;
        };
        let inst = match read_iopddl(&instance_path(letter)) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("{letter}: {e}");
                continue;
            }
        };
        let limit = time_limit.unwrap_or(timeout);
        for v in variants(letter, &inst.problem, 1) {
            if only.as_ref().is_some_and(|o| !v.name.contains(o.as_str())) {
                continue;
            }
            let (reached, lower, _) = least_peak(&v.problem);
            let usage_limit = v.problem.usage_limit.unwrap_or(f64::INFINITY);
            let start = Instant::now();
            let opts = SolveOptions {
                time_limit: Some(limit - 1.0),
                verbose,
                ilp_max_entries,
                threads,
                message_passing: true,
                ..SolveOptions::default()
            };
            let result = solve(&v.problem, &opts);
            let seconds = start.elapsed().as_secs_f64();
            let head = format!(
                "| {} | {} | {:.4} | {:.4} |",
                v.name,
                v.problem.nodes.len(),
                usage_limit / reached,
                usage_limit / lower,
            );
            let row = match result {
                Ok(sol) => {
                    let ev = v.problem.evaluate(&sol.choice).expect("a solution of the right size");
                    let first = sol
                        .stats
                        .first_feasible_seconds
                        .map_or("-".into(), |f| format!("{f:.2} ({:.1}%)", 100.0 * f / limit));
                    format!(
                        "{head} {} | {:.0} | {:?} | {first} | {seconds:.1} / {limit:.0} |",
                        ev.feasible(),
                        sol.objective,
                        sol.status
                    )
                }
                Err(e) => format!("{head} false | - | {e} | - | {seconds:.1} / {limit:.0} |"),
            };
            eprintln!("{row}");
            rows.push(row);
        }
    }
    println!("| instance | nodes | limit / least reached peak | limit / peak lower bound | feasible | cost | status | first feasible s (% of limit) | seconds / limit |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for r in rows {
        println!("{r}");
    }
}
