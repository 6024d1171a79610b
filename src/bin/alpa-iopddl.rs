//! Solves one IOPDDL contest instance: `alpa-iopddl INSTANCE.json[.gz] TIMEOUT_SECONDS
//! [--quiet] [--seed N] [--prices growth|polyak]`. Progress goes to stderr; the strategy vector is the last line of
//! stdout (the contest's output convention). The answer comes within the timeout even when the
//! solver overruns it (a node with a million strategies): see [`solve_by_deadline`].

use std::process::ExitCode;
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use alpa_mlir::intra::{
    format_iopddl_solution, is_forbidden, read_iopddl, solve, PriceRule, SolveOptions, StrategyProblem,
};

const USAGE: &str =
    "usage: alpa-iopddl INSTANCE.json[.gz] TIMEOUT_SECONDS [--quiet] [--seed N] [--prices growth|polyak]";

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
/// [`least_memory_choice`] (the solver thread is abandoned: the process exits right after).
fn solve_by_deadline(problem: Arc<StrategyProblem>, opts: SolveOptions, deadline: Instant) -> Result<Answer, String> {
    let solver_problem = Arc::clone(&problem);
    match by_deadline(move || solve(&solver_problem, &opts).map_err(|e| e.to_string()), deadline) {
        Some(result) => result.map(Answer::Solved),
        None => Ok(Answer::Fallback(least_memory_choice(&problem))),
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

/// One pass over the strategies: per node the least memory among those not forbidden, ties to
/// the lower cost (the choice most likely to fit the usage limit; edges are ignored).
fn least_memory_choice(problem: &StrategyProblem) -> Vec<usize> {
    problem
        .nodes
        .iter()
        .map(|node| {
            let key = |s: usize| (is_forbidden(node.costs[s]), node.usage(s), node.costs[s]);
            (0..node.len())
                .min_by(|&a, &b| key(a).partial_cmp(&key(b)).unwrap_or(std::cmp::Ordering::Equal))
                .unwrap_or(0)
        })
        .collect()
}

/// The rule after `--prices`, the default without it.
fn parse_price_rule(args: &[String]) -> Result<PriceRule, String> {
    match args.iter().position(|a| a == "--prices") {
        None => Ok(PriceRule::default()),
        Some(i) => args.get(i + 1).ok_or("--prices needs a rule")?.parse(),
    }
}

fn main() -> ExitCode {
    let start = Instant::now();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let positional: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let (Some(path), Some(timeout_text)) = (positional.first(), positional.get(1)) else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let timeout = match parse_timeout(timeout_text) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("alpa-iopddl: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let seed =
        args.iter().position(|a| a == "--seed").and_then(|i| args.get(i + 1)).and_then(|s| s.parse().ok()).unwrap_or(1);
    let verbose = !args.iter().any(|a| a == "--quiet");
    let price_rule = match parse_price_rule(&args) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("alpa-iopddl: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let inst = match read_iopddl(std::path::Path::new(path.as_str())) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("alpa-iopddl: {e}");
            return ExitCode::FAILURE;
        }
    };
    let deadline = start + Duration::from_secs_f64(timeout).saturating_sub(EXIT_MARGIN);
    let left = timeout - start.elapsed().as_secs_f64() - 1.0;
    let opts = SolveOptions { time_limit: Some(left.max(0.1)), verbose, seed, price_rule, ..SolveOptions::default() };
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

    #[test]
    fn price_rules_come_from_their_flag() {
        let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(parse_price_rule(&args(&["x.json", "60"])), Ok(PriceRule::Growth));
        assert_eq!(parse_price_rule(&args(&["x.json", "60", "--prices", "polyak"])), Ok(PriceRule::Polyak));
        assert!(parse_price_rule(&args(&["x.json", "60", "--prices"])).is_err());
        assert!(parse_price_rule(&args(&["x.json", "60", "--prices", "fast"])).is_err());
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
        assert_eq!(least_memory_choice(&problem), vec![2, 0]);
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
