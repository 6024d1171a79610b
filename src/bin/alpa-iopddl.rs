//! Solves one IOPDDL contest instance: `alpa-iopddl INSTANCE.json[.gz] TIMEOUT_SECONDS
//! [--quiet] [--seed N]`. Progress goes to stderr; the strategy vector is the last line of
//! stdout (the contest's output convention).

use std::process::ExitCode;
use std::time::Instant;

use alpa_mlir::intra::{format_iopddl_solution, read_iopddl, solve, SolveOptions};

fn main() -> ExitCode {
    let start = Instant::now();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let positional: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let (Some(path), Some(timeout)) = (positional.first(), positional.get(1).and_then(|t| t.parse::<f64>().ok())) else {
        eprintln!("usage: alpa-iopddl INSTANCE.json[.gz] TIMEOUT_SECONDS [--quiet] [--seed N]");
        return ExitCode::from(2);
    };
    let seed = args.iter().position(|a| a == "--seed").and_then(|i| args.get(i + 1)).and_then(|s| s.parse().ok()).unwrap_or(1);
    let verbose = !args.iter().any(|a| a == "--quiet");
    let inst = match read_iopddl(std::path::Path::new(path.as_str())) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("alpa-iopddl: {e}");
            return ExitCode::FAILURE;
        }
    };
    let left = timeout - start.elapsed().as_secs_f64() - 1.0;
    let opts = SolveOptions { time_limit: Some(left.max(1.0)), verbose, seed, ..SolveOptions::default() };
    match solve(&inst.problem, &opts) {
        Ok(sol) => {
            eprintln!(
                "alpa-iopddl: cost {:.0}, peak memory {:.0}, {:?}, {:.1} s",
                sol.objective,
                sol.peak_memory,
                sol.status,
                start.elapsed().as_secs_f64()
            );
            print!("{}", format_iopddl_solution(&sol.choice));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("alpa-iopddl: {e}");
            ExitCode::FAILURE
        }
    }
}
