//! Solves one IOPDDL contest instance: `alpa-iopddl INSTANCE.json[.gz] TIMEOUT_SECONDS
//! [--quiet] [--seed N] [--threads N] [--prices growth|polyak|growth-then-polyak]` (flags anywhere).
//! `--threads` (default: every core this process may use) is how many searches run side by side. Progress goes to stderr;
//! the strategy vector is the last line of stdout (the contest's output convention). The answer comes within the timeout even when the
//! solver overruns it (a node with a million strategies): see [`solve_by_deadline`].

use std::process::ExitCode;
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use alpa_mlir::intra::{
    all_cores, format_iopddl_solution, read_iopddl, solve, PriceRule, SolveOptions, StrategyProblem, MAX_THREADS,
};

const USAGE: &str =
    "usage: alpa-iopddl INSTANCE.json[.gz] TIMEOUT_SECONDS [--quiet] [--seed N] [--threads N] [--prices growth|polyak|growth-then-polyak]";

/// Time kept back from the timeout for printing the answer and exiting.
const EXIT_MARGIN: Duration = Duration::from_millis(250);

/// The timeout argument: a finite number of seconds above zero.
fn parse_timeout(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 && t < 1e9 => Ok(t),
        _ => Err(format!("TIMEOUT_SECONDS must be a positive number of seconds, got '{text}'")),
    }
}

/// How the strategy vector was found.
enum Answer {
    Solved(alpa_mlir::intra::Solution),
    /// The solver had not returned at the deadline.
    Fallback(Vec<usize>),
}

/// Runs the solver on its own thread and, if it has not returned by `deadline`, answers with
/// [`StrategyProblem::least_memory_choice`] (the solver thread is abandoned: the process exits right after).
fn solve_by_deadline(problem: Arc<StrategyProblem>, opts: SolveOptions, deadline: Instant) -> Result<Answer, String> {
    let solver_problem = Arc::clone(&problem);
    match by_deadline(move || solve(&solver_problem, &opts).map_err(|e| e.to_string()), deadline) {
        Some(result) => result.map(Answer::Solved),
        None => Ok(Answer::Fallback(problem.least_memory_choice())),
    }
}

/// `work`'s result if it returns by `deadline`, else `None` (the work's thread is abandoned).
fn by_deadline<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static, deadline: Instant) -> Option<T> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(work());
    });
    receive.recv_timeout(deadline.saturating_duration_since(Instant::now())).ok()
}

/// The command line.
#[derive(Debug, PartialEq)]
struct Args {
    path: String,
    timeout: f64,
    seed: u64,
    verbose: bool,
    threads: u32,
    price_rule: PriceRule,
}

/// INSTANCE and TIMEOUT in that order, flags anywhere; a flag's value is never taken for a
/// positional argument, and a bad value or an unknown flag is an error, not a default.
fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut positional = Vec::new();
    let (mut seed, mut verbose, mut price_rule, mut threads) = (1, true, PriceRule::default(), all_cores());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--quiet" => verbose = false,
            "--seed" => {
                let v = value()?;
                seed = v.parse().map_err(|_| format!("--seed must be a non-negative integer, got '{v}'"))?;
            }
            "--prices" => price_rule = value()?.parse()?,
            "--threads" => {
                let v = value()?;
                threads = v
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_THREADS).contains(n))
                    .ok_or(format!("--threads must be an integer from 1 to {MAX_THREADS}, got '{v}'"))?;
            }
            flag if flag.starts_with("--") => return Err(format!("unknown flag '{flag}'")),
            _ => positional.push(a.clone()),
        }
    }
    let [path, timeout] = <[String; 2]>::try_from(positional)
        .map_err(|p| format!("expected INSTANCE and TIMEOUT_SECONDS, got {} arguments", p.len()))?;
    Ok(Args { path, timeout: parse_timeout(&timeout)?, seed, verbose, threads, price_rule })
}

fn main() -> ExitCode {
    let start = Instant::now();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Args { path, timeout, seed, verbose, threads, price_rule } = match parse_args(&args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("alpa-iopddl: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let inst = match read_iopddl(std::path::Path::new(&path)) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("alpa-iopddl: {e}");
            return ExitCode::FAILURE;
        }
    };
    let deadline = start + Duration::from_secs_f64(timeout).saturating_sub(EXIT_MARGIN);
    let left = timeout - start.elapsed().as_secs_f64() - 1.0;
    let opts = SolveOptions {
        time_limit: Some(left.max(0.1)),
        verbose,
        seed,
        threads,
        price_rule,
        message_passing: true,
        ..SolveOptions::default()
    };
    let problem = Arc::new(inst.problem);
    let choice = match solve_by_deadline(Arc::clone(&problem), opts, deadline) {
        Ok(Answer::Solved(sol)) => {
            eprintln!(
                "alpa-iopddl: cost {:.0}, peak memory {:.0}, {:?}, {:.1} s",
                sol.objective,
                sol.peak_memory,
                sol.status,
                start.elapsed().as_secs_f64()
            );
            sol.choice
        }
        Ok(Answer::Fallback(choice)) => {
            let feasible = problem.evaluate(&choice).map(|e| (e.cost, e.feasible()));
            eprintln!(
                "alpa-iopddl: the solver did not finish within {timeout} s; answering with each node's least-memory strategy ({}), {:.1} s",
                match &feasible {
                    Ok((cost, true)) => format!("cost {cost:.0}, feasible"),
                    Ok((cost, false)) => format!("cost {cost:.0}, infeasible"),
                    Err(e) => e.to_string(),
                },
                start.elapsed().as_secs_f64()
            );
            if !matches!(feasible, Ok((_, true))) {
                return ExitCode::FAILURE;
            }
            choice
        }
        Err(e) => {
            eprintln!("alpa-iopddl: {e}");
            return ExitCode::FAILURE;
        }
    };
    print!("{}", format_iopddl_solution(&choice));
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(v: &[&str]) -> Result<Args, String> {
        parse_args(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn flags_come_anywhere_and_their_values_are_not_positional() {
        let plain = parse(&["x.json", "60"]).unwrap();
        assert_eq!(
            plain,
            Args {
                path: "x.json".into(),
                timeout: 60.0,
                seed: 1,
                verbose: true,
                threads: all_cores(),
                price_rule: PriceRule::GrowthThenPolyak
            }
        );
        let flags_first =
            parse(&["--seed", "3", "--prices", "growth", "--quiet", "--threads", "2", "x.json", "60"]).unwrap();
        assert_eq!(
            flags_first,
            Args {
                path: "x.json".into(),
                timeout: 60.0,
                seed: 3,
                verbose: false,
                threads: 2,
                price_rule: PriceRule::Growth
            }
        );
        assert_eq!(parse(&["x.json", "--prices", "polyak", "60"]).unwrap().timeout, 60.0);
    }

    #[test]
    fn bad_values_missing_values_and_unknown_flags_are_errors() {
        for bad in [
            &["x.json", "60", "--prices"][..],
            &["x.json", "60", "--prices", "fast"],
            &["x.json", "60", "--seed", "three"],
            &["x.json", "60", "--seed", "-1"],
            &["x.json", "60", "--threads", "0"],
            &["x.json", "60", "--threads", "99"],
            &["x.json", "60", "--threads"],
            &["x.json", "60", "--seeds", "3"],
            &["x.json"],
            &["x.json", "60", "extra"],
            &["x.json", "soon"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn timeouts_that_are_not_positive_seconds_are_rejected() {
        for bad in ["nan", "-1", "0", "inf", "-inf", "", "5s", "1e300"] {
            assert!(parse_timeout(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_timeout("0.5"), Ok(0.5));
        assert_eq!(parse_timeout(" 60 "), Ok(60.0));
    }

    #[test]
    fn least_memory_choice_avoids_forbidden_strategies() {
        use alpa_mlir::intra::{Node, FORBIDDEN_COST};
        let node = |costs: Vec<f64>, usages: Vec<f64>| Node { costs, usages: Some(usages), interval: Some((0, 1)) };
        let problem = StrategyProblem {
            nodes: vec![node(vec![FORBIDDEN_COST, 5.0, 1.0], vec![0.0, 2.0, 2.0]), node(vec![1.0], vec![3.0])],
            edges: Vec::new(),
            aliases: Vec::new(),
            usage_limit: None,
        };
        assert_eq!(problem.least_memory_choice(), vec![2, 0]);
    }

    #[test]
    fn work_that_has_not_returned_by_the_deadline_is_not_waited_for() {
        // Work that never returns (a solver stuck on a node with a million strategies).
        let (_keep_open, never) = mpsc::channel::<()>();
        let stuck = move || never.recv().map(|_| 1).unwrap_or(0);
        assert_eq!(by_deadline(stuck, Instant::now() + Duration::from_millis(50)), None);
        // Work that returns well before the deadline is answered.
        assert_eq!(by_deadline(|| 7, Instant::now() + Duration::from_secs(600)), Some(7));
    }
}
