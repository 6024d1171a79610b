//! Property and integration tests of the solver core: the MILP, the preprocessing and the
//! full pipeline against exhaustive enumeration on random small problems; the IOPDDL reader
//! and writer against the contest's independent evaluator.

use proptest::prelude::*;

use super::brute::solve_brute_force;
use super::error::IntraError;
use super::lns::Pace;
use super::model::Model;
use super::preprocess::{preprocess, PreprocessFailure, PreprocessOptions};
use super::problem::{Alias, Edge, Node, StrategyProblem, FORBIDDEN_COST};
use super::solution::SolveOptions;
use super::solve::{solve, solve_ilp};

/// Raw material of a random problem; turned into a valid problem by `build`.
#[derive(Debug, Clone)]
struct Raw {
    sizes: Vec<usize>,
    values: Vec<u32>,
    edges: Vec<(usize, usize)>,
    memory: bool,
    limit_fraction: f64,
    aliases: Vec<(usize, usize)>,
}

fn raw() -> impl Strategy<Value = Raw> {
    (
        prop::collection::vec(1usize..=4, 1..=7),
        prop::collection::vec(0u32..1000, 400),
        prop::collection::vec((0usize..7, 0usize..7), 0..10),
        any::<bool>(),
        0.0f64..1.2,
        prop::collection::vec((0usize..7, 0usize..7), 0..2),
    )
        .prop_map(|(sizes, values, edges, memory, limit_fraction, aliases)| Raw {
            sizes,
            values,
            edges,
            memory,
            limit_fraction,
            aliases,
        })
}

/// Deterministic problem from raw numbers: costs 0..19, about 6% forbidden node costs and
/// 8% forbidden edge entries; with `memory`, usages 0..9 over intervals in 0..12 and a limit
/// between the smallest and the largest possible peak.
fn build(r: &Raw) -> StrategyProblem {
    let mut it = r.values.iter().cycle().copied();
    let mut next = move || it.next().unwrap();
    let n = r.sizes.len();
    let cost = |x: u32, forbid_per_mille: u32| {
        if x % 1000 < forbid_per_mille {
            FORBIDDEN_COST * 2.0
        } else {
            (x % 20) as f64
        }
    };
    let mut nodes = Vec::new();
    for &k in &r.sizes {
        let costs = (0..k).map(|_| cost(next(), 60)).collect();
        let (usages, interval) = if r.memory {
            let u = (0..k).map(|_| (next() % 10) as f64).collect();
            let a = (next() % 10) as u64;
            let len = (next() % 5) as u64;
            let iv = if next() % 8 == 0 { None } else { Some((a, a + len)) };
            (Some(u), iv)
        } else {
            (None, None)
        };
        nodes.push(Node { costs, usages, interval });
    }
    let mut edges = Vec::new();
    for &(a, b) in &r.edges {
        let (u, v) = (a % n, b % n);
        if u == v {
            continue;
        }
        let m = nodes[u].len() * nodes[v].len();
        edges.push(Edge { u, v, costs: (0..m).map(|_| cost(next(), 80)).collect() });
    }
    let mut aliases = Vec::new();
    for &(a, b) in &r.aliases {
        let (x, y) = (a % n, b % n);
        if x == y {
            continue;
        }
        let allowed = (0..nodes[x].len())
            .flat_map(|i| (0..nodes[y].len()).map(move |j| (i, j)))
            .filter(|_| true)
            .collect::<Vec<_>>();
        // Keep the pairs with the same parity (a partial correspondence).
        let allowed = allowed.into_iter().filter(|(i, j)| (i + j) % 2 == 0).collect();
        aliases.push(Alias { a: x, b: y, allowed });
    }
    let mut p = StrategyProblem { nodes, edges, aliases, usage_limit: None };
    if r.memory {
        let hi: f64 = p.nodes.iter().map(|n| n.usages.as_ref().unwrap().iter().copied().fold(0.0, f64::max)).sum();
        p.usage_limit = Some((hi * r.limit_fraction).floor());
    }
    p
}

/// Same result kind and the same optimum (or the same minimal peak when memory fails).
fn agree(
    name: &str,
    got: &Result<super::Solution, IntraError>,
    want: &Result<super::Solution, IntraError>,
    p: &StrategyProblem,
) {
    match (got, want) {
        (Ok(g), Ok(w)) => {
            assert!(
                (g.objective - w.objective).abs() < 1e-6,
                "{name}: objective {} vs brute force {} on {p:?}",
                g.objective,
                w.objective
            );
            let ev = p.evaluate(&g.choice).unwrap();
            assert!(ev.feasible(), "{name}: returned an infeasible assignment");
            assert!((ev.cost - g.objective).abs() < 1e-6, "{name}: reported objective differs from evaluation");
        }
        (Err(IntraError::NoAllowedAssignment), Err(IntraError::NoAllowedAssignment)) => {}
        (
            Err(IntraError::MemoryInfeasible { min_peak_memory: g, min_peak_exact: true, .. }),
            Err(IntraError::MemoryInfeasible { min_peak_memory: w, .. }),
        ) => assert!((g - w).abs() < 1e-6, "{name}: least peak {g} vs brute force {w}"),
        _ => panic!("{name}: {got:?} but brute force says {want:?} on {p:?}"),
    }
}

/// Exhaustive optimum (value and assignment) of an internal model, for checking
/// preprocessing on its own.
fn brute_model(m: &Model) -> Option<(f64, Vec<usize>)> {
    let mut best: Option<(f64, Vec<usize>)> = None;
    for choice in every_assignment(m).into_iter().filter(|c| fits(m, c)) {
        let c = m.cost(&choice);
        if best.as_ref().is_none_or(|b| c < b.0) {
            best = Some((c, choice));
        }
    }
    best
}

/// Every assignment of a small model.
fn every_assignment(m: &Model) -> Vec<Vec<usize>> {
    let mut choice = vec![0usize; m.num_nodes()];
    let mut all = vec![choice.clone()];
    while super::brute::next_assignment(&mut choice, |i| m.costs[i].len()) {
        all.push(choice.clone());
    }
    all
}

/// Allowed and within the memory limit.
fn fits(m: &Model, choice: &[usize]) -> bool {
    m.cost(choice).is_finite() && m.peak(choice) <= m.limit
}

/// `solve` returns a feasible plan no better than brute force's exactly when brute force finds
/// one, and otherwise says the problem has none (never that it ran out of time).
pub(super) fn agrees_with_brute_force(
    p: &StrategyProblem,
    opts: &SolveOptions,
    want: &Result<super::solution::Solution, IntraError>,
) -> Result<(), TestCaseError> {
    match (solve(p, opts), want) {
        (Ok(s), Ok(w)) => {
            prop_assert!(p.evaluate(&s.choice).unwrap().feasible());
            prop_assert!(s.objective >= w.objective - 1e-6);
            prop_assert!(s.stats.first_feasible_seconds.is_some());
        }
        (Err(e), Err(_)) => prop_assert!(!matches!(e, IntraError::NoSolutionInTime { .. }), "{e}"),
        (g, w) => prop_assert!(false, "solve {g:?}, brute force {w:?}"),
    }
    Ok(())
}

proptest! {
    // PROPTEST_CASES overrides the number of cases.
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300), ..ProptestConfig::default() })]

    #[test]
    fn ilp_matches_brute_force(r in raw()) {
        let p = build(&r);
        agree("ilp", &solve_ilp(&p, &SolveOptions::default()), &solve_brute_force(&p), &p);
    }

    #[test]
    fn pipeline_matches_brute_force(r in raw()) {
        let p = build(&r);
        agree("solve", &solve(&p, &SolveOptions::default()), &solve_brute_force(&p), &p);
    }

    #[test]
    fn preprocessing_keeps_the_optimum(r in raw()) {
        let p = build(&r);
        let m = Model::from_problem(&p);
        let want = solve_brute_force(&p);
        match preprocess(&m, &PreprocessOptions::default()) {
            Err(PreprocessFailure::NoAllowedAssignment) => {
                prop_assert!(matches!(want, Err(IntraError::NoAllowedAssignment)));
            }
            Err(PreprocessFailure::MemoryInfeasible) => {
                prop_assert!(want.is_err(), "preprocessing says memory never fits, brute force found {want:?}");
            }
            Ok(red) => {
                // The reduced model's optimum, expanded, is optimal for the original.
                match (&want, brute_model(&red.model)) {
                    (Ok(w), Some((_, sol))) => {
                        let full = red.expand(&sol).unwrap();
                        let ev = p.evaluate(&full).unwrap();
                        prop_assert!(ev.feasible());
                        prop_assert!((ev.cost - w.objective).abs() < 1e-6, "expanded {} vs optimum {}", ev.cost, w.objective);
                    }
                    (Err(_), None) => {}
                    (w, r) => prop_assert!(false, "brute force {w:?} but reduced optimum {r:?}"),
                }
            }
        }
    }

    #[test]
    fn construction_finds_a_plan_whenever_one_exists(r in raw()) {
        // Feasibility first: without any MILP on the whole problem (every problem goes to the
        // search, one round), a plan comes back exactly when brute force finds one.
        let p = build(&r);
        let opts = SolveOptions { ilp_max_entries: 0, max_search_steps: Some(1), ..SolveOptions::default() };
        agrees_with_brute_force(&p, &opts, &solve_brute_force(&p))?;
    }

    #[test]
    fn relinking_finds_the_cheapest_mix_that_fits(r in raw(), pick in 0usize..1000, other in 0usize..1000) {
        // From a plan that fits and any other plan: the two-strategy crossover reaches the
        // cheapest mix of the two that fits, and the relinking (with every strategy where
        // they differ) the cheapest plan that fits and agrees with the first elsewhere.
        let m = Model::from_problem(&build(&r));
        let all = every_assignment(&m);
        let fitting: Vec<&Vec<usize>> = all.iter().filter(|c| fits(&m, c)).collect();
        if fitting.is_empty() {
            return Ok(());
        }
        let a = fitting[pick % fitting.len()].clone();
        let b = all[other % all.len()].clone();
        let best_of = |free: &dyn Fn(&[usize]) -> bool| {
            all.iter().filter(|c| free(c) && fits(&m, c)).map(|c| m.cost(c)).fold(f64::INFINITY, f64::min)
        };
        let mix = best_of(&|c: &[usize]| c.iter().zip(&a).zip(&b).all(|((x, y), z)| x == y || x == z));
        let around = best_of(&|c: &[usize]| c.iter().zip(&a).zip(&b).all(|((x, y), z)| x == y || y != z));
        let mut local = vec![usize::MAX; m.num_nodes()];

        let mut s = super::search::Search::new(&m, a.clone());
        super::lns::crossover(&mut s, &b, &mut local, Pace::Clock.time(10.0), 1);
        prop_assert!(fits(&m, &s.choice));
        prop_assert!((m.cost(&s.choice) - mix).abs() < 1e-6, "crossover {} vs best mix {mix}", m.cost(&s.choice));

        let mut s = super::search::Search::new(&m, a.clone());
        let done = super::relink::Relinker::default().relink(&mut s, &b, &mut local, Pace::Clock.time(10.0), 1);
        prop_assert!(fits(&m, &s.choice));
        prop_assert_eq!(done.differ, a.iter().zip(&b).filter(|(x, y)| x != y).count());
        prop_assert!((m.cost(&s.choice) - around).abs() < 1e-6, "relink {} vs best around {around}", m.cost(&s.choice));
    }

    #[test]
    fn search_finds_feasible_plans_no_better_than_optimal(r in raw(), rule in 0usize..3, message_passing in any::<bool>()) {
        let p = build(&r);
        let m = Model::from_problem(&p);
        let price_rule = [super::PriceRule::Growth, super::PriceRule::Polyak, super::PriceRule::GrowthThenPolyak][rule];
        let o = super::heuristic::HeuristicOptions { deadline: None, threads: 1, verbose: false, seed: 7, max_rounds: 12, start: None, price_rule, message_passing };
        let out = super::heuristic::heuristic(&m, &o);
        if let Some(c) = out.choice {
            let ev = p.evaluate(&c).unwrap();
            prop_assert!(ev.feasible());
            let w = solve_brute_force(&p);
            prop_assert!(w.as_ref().is_ok_and(|w| ev.cost >= w.objective - 1e-6), "search {} below optimum {w:?}", ev.cost);
        } else if p.usage_limit.is_none() {
            // Without memory, a plan exists exactly when brute force finds one; the search may
            // only miss it when forbidden pairs make it hard.
            let w = solve_brute_force(&p);
            prop_assert!(w.is_err() || p.edges.iter().any(|e| e.costs.iter().any(|&c| c >= FORBIDDEN_COST)) || !p.aliases.is_empty());
        }
    }
}

/// A random problem large enough that searches from different seeds end apart: `n` nodes of
/// 2-6 strategies on a chain plus random edges, each live over a random interval, the limit
/// 10% above the peak of the least-usage plan (so some plan fits).
pub(crate) fn random_large(seed: u64, n: usize) -> StrategyProblem {
    let mut rng = crate::rng::SplitMix64::new(seed);
    let nodes: Vec<Node> = (0..n)
        .map(|_| {
            let k = 2 + rng.below(5);
            let start = rng.below(40) as u64;
            Node {
                costs: (0..k).map(|_| rng.below(1000) as f64).collect(),
                usages: Some((0..k).map(|_| (1 + rng.below(100)) as f64).collect()),
                interval: Some((start, start + 1 + rng.below(10) as u64)),
            }
        })
        .collect();
    let mut edges = Vec::new();
    for v in 1..n {
        let u = if rng.chance(0.5) { v - 1 } else { rng.below(v) };
        let entries = nodes[u].len() * nodes[v].len();
        edges.push(Edge { u, v, costs: (0..entries).map(|_| rng.below(500) as f64).collect() });
    }
    let mut p = StrategyProblem { nodes, edges, aliases: vec![], usage_limit: None };
    p.usage_limit = Some(1.1 * p.peak_memory(&p.least_memory_choice()));
    p
}

#[test]
fn searches_side_by_side_give_the_cheapest_single_search() {
    // Three workers against the same three searches run alone: the cheapest plan, the same
    // every time under a work limit, and worker 0 is the search with the given seed. Some of
    // the problems must end apart from seed to seed, or the test would not check the choice.
    let options = |threads: u32, seed: u64| super::heuristic::HeuristicOptions {
        deadline: None,
        threads,
        verbose: false,
        seed,
        max_rounds: 2,
        start: None,
        price_rule: super::PriceRule::default(),
        message_passing: true,
    };
    let worker = |i: usize| super::heuristic::worker_options(&options(3, 7), i);
    let mut apart = 0;
    for problem_seed in 0..3 {
        let m = Model::from_problem(&random_large(problem_seed, 150));
        let cost = |o: super::heuristic::HeuristicOutcome| o.choice.map(|c| m.cost(&c));
        let side_by_side = super::heuristic::heuristic(&m, &options(3, 7)).choice;
        assert_eq!(side_by_side, super::heuristic::heuristic(&m, &options(3, 7)).choice, "not deterministic");
        let alone: Vec<f64> = (0..3).map(|i| cost(super::heuristic::heuristic(&m, &worker(i))).unwrap()).collect();
        assert_eq!(Some(alone[0]), cost(super::heuristic::heuristic(&m, &options(1, 7))), "worker 0 keeps the seed");
        let cheapest = alone.iter().copied().fold(f64::INFINITY, f64::min);
        assert_eq!(side_by_side.map(|c| m.cost(&c)), Some(cheapest), "workers alone: {alone:?}");
        if alone.iter().any(|&c| c != alone[0]) {
            apart += 1;
        }
    }
    assert!(apart > 0, "every search ended at the same cost: the test does not tell the workers apart");
}

#[test]
fn neighbourhoods_too_large_for_their_time_limit_are_not_started() {
    // HiGHS's presolve does not stop at the time limit, so a neighbourhood whose MILP has more
    // nonzeros than its time allows is skipped (no gain, plan unchanged) instead of overrunning;
    // the same neighbourhood with time enough is solved and gains.
    let p = random_large(3, 150);
    let m = Model::from_problem(&p);
    // Without aliases the model keeps the problem's node numbers.
    let least = p.least_memory_choice();
    let nodes: Vec<usize> = (0..m.num_nodes()).collect();
    let mut local = vec![usize::MAX; m.num_nodes()];
    let mut s = super::search::Search::new(&m, least.clone());
    assert!(s.memory_ok());
    let rushed = super::lns::improve(&mut s, &nodes, &mut local, Pace::Clock.time(1e-4), 1);
    assert!(rushed.too_large && rushed.gain == 0.0 && !rushed.optimal, "{rushed:?}");
    assert_eq!(s.choice, least);
    let given_time = super::lns::improve(&mut s, &nodes, &mut local, Pace::Clock.time(30.0), 1);
    assert!(!given_time.too_large && given_time.gain > 0.0 && s.memory_ok(), "{given_time:?}");
}

#[test]
fn at_the_work_pace_steps_are_timed_by_their_size_not_the_clock() {
    // The same neighbourhood solved twice from the same plan at the Work pace: the same plan and
    // the same step, seconds included (modeled from the MILP's size, so nonzero once it ran).
    let p = random_large(3, 150);
    let m = Model::from_problem(&p);
    let least = p.least_memory_choice();
    let nodes: Vec<usize> = (0..40).collect();
    let step = || {
        let mut local = vec![usize::MAX; m.num_nodes()];
        let mut s = super::search::Search::new(&m, least.clone());
        let step = super::lns::improve(&mut s, &nodes, &mut local, Pace::Work.time(5.0), 1);
        (step, s.choice)
    };
    let (first, plan) = step();
    assert!(!first.too_large && first.seconds > 0.0, "{first:?}");
    assert_eq!((first, plan), step());
}

#[test]
fn alias_forces_corresponding_strategies() {
    // Alone, node 0 prefers 0 and node 1 prefers 1; the alias ties them to the same index.
    let p = StrategyProblem {
        nodes: vec![Node::with_costs(vec![0.0, 5.0]), Node::with_costs(vec![3.0, 0.0])],
        edges: vec![],
        aliases: vec![Alias::same_index(0, 1, 2)],
        usage_limit: None,
    };
    let s = solve_ilp(&p, &SolveOptions::default()).unwrap();
    assert_eq!(s.choice[0], s.choice[1]);
    assert_eq!(s.objective, 3.0);
    let s = solve(&p, &SolveOptions::default()).unwrap();
    assert_eq!(s.choice, vec![0, 0]);
}

#[test]
fn memory_infeasible_reports_least_peak() {
    // Two nodes live together; the smallest usages sum to 7 > limit 6.
    let node = |u: Vec<f64>| Node { costs: vec![1.0; u.len()], usages: Some(u), interval: Some((0, 10)) };
    let p = StrategyProblem {
        nodes: vec![node(vec![4.0, 9.0]), node(vec![3.0, 5.0])],
        edges: vec![],
        aliases: vec![],
        usage_limit: Some(6.0),
    };
    for r in [solve_ilp(&p, &SolveOptions::default()), solve(&p, &SolveOptions::default())] {
        match r {
            Err(IntraError::MemoryInfeasible { min_peak_memory, min_peak_exact, .. }) => {
                assert_eq!(min_peak_memory, 7.0);
                assert!(min_peak_exact);
            }
            other => panic!("expected a memory error, got {other:?}"),
        }
    }
}

#[test]
fn forbidden_everywhere_is_reported() {
    let p = StrategyProblem {
        nodes: vec![Node::with_costs(vec![0.0, 1.0]), Node::with_costs(vec![0.0])],
        edges: vec![Edge { u: 0, v: 1, costs: vec![FORBIDDEN_COST, 2e18] }],
        aliases: vec![],
        usage_limit: None,
    };
    assert_eq!(solve_ilp(&p, &SolveOptions::default()), Err(IntraError::NoAllowedAssignment));
    assert_eq!(solve(&p, &SolveOptions::default()), Err(IntraError::NoAllowedAssignment));
}

#[test]
fn invalid_problems_are_errors() {
    let p = StrategyProblem {
        nodes: vec![Node::with_costs(vec![0.0, 1.0])],
        edges: vec![Edge { u: 0, v: 3, costs: vec![0.0] }],
        aliases: vec![],
        usage_limit: None,
    };
    assert!(matches!(solve(&p, &SolveOptions::default()), Err(IntraError::InvalidProblem(_))));
    assert!(matches!(p.evaluate(&[5]), Err(IntraError::InvalidProblem(_))));
}

#[test]
fn unusable_options_are_errors_not_panics() {
    let p = StrategyProblem {
        nodes: vec![Node::with_costs(vec![0.0, 1.0])],
        edges: vec![],
        aliases: vec![],
        usage_limit: None,
    };
    for t in [-1.0, -0.25, f64::NAN, f64::INFINITY] {
        let opts = SolveOptions { time_limit: Some(t), ..SolveOptions::default() };
        assert!(matches!(solve(&p, &opts), Err(IntraError::InvalidOptions(_))), "{t}");
        assert!(matches!(solve_ilp(&p, &opts), Err(IntraError::InvalidOptions(_))), "{t}");
    }
    let zero = SolveOptions { time_limit: Some(0.0), ..SolveOptions::default() };
    assert!(!matches!(solve(&p, &zero), Err(IntraError::InvalidOptions(_))));
    for threads in [0, super::solution::MAX_THREADS + 1] {
        let opts = SolveOptions { threads, ..SolveOptions::default() };
        assert!(matches!(solve(&p, &opts), Err(IntraError::InvalidOptions(_))), "{threads}");
    }
    let most = SolveOptions { threads: super::solution::MAX_THREADS, ..SolveOptions::default() };
    assert!(solve(&p, &most).is_ok());
}

#[test]
fn same_input_same_choice() {
    let r = Raw {
        sizes: vec![3, 3, 2, 4, 3, 2],
        values: (0..400).map(|i| (i * 7919 % 1000) as u32).collect(),
        edges: vec![(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0), (1, 4)],
        memory: true,
        limit_fraction: 0.8,
        aliases: vec![],
    };
    let p = build(&r);
    let a = solve(&p, &SolveOptions::default());
    let b = solve(&p, &SolveOptions::default());
    assert_eq!(a.map(|s| s.choice), b.map(|s| s.choice));
}

/// The IOPDDL instances and the contest's evaluator, beside the repository (`../shared`).
fn shared_dir() -> std::path::PathBuf {
    let beside = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    let dir =
        if beside.join("tools/iopddl_eval.py").exists() { beside } else { std::path::PathBuf::from("/work/shared") };
    assert!(
        dir.join("tools/iopddl_eval.py").exists(),
        "IOPDDL data not found beside the repository ({})",
        dir.display()
    );
    dir
}

/// Runs the contest evaluator on a solution text: (cost, feasible).
fn contest_evaluate(instance: &std::path::Path, solution: &str) -> (f64, bool) {
    let dir = std::env::temp_dir().join(format!("intra-iopddl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{}.sol", instance.file_name().unwrap().to_string_lossy()));
    std::fs::write(&file, solution).unwrap();
    let out = std::process::Command::new("python3")
        .arg(shared_dir().join("tools/iopddl_eval.py"))
        .arg(instance)
        .arg(&file)
        .output()
        .expect("python3 runs the evaluator");
    assert!(out.status.success(), "evaluator failed: {}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("evaluator prints JSON");
    assert!(v["error"].is_null(), "evaluator error: {}", v["error"]);
    (v["cost"].as_f64().expect("a cost"), v["feasible"].as_bool().unwrap())
}

#[test]
fn iopddl_example_passes_the_contest_evaluator() {
    let path = shared_dir().join("data/iopddl/example.json");
    let inst = super::read_iopddl(&path).unwrap();
    let want = solve_brute_force(&inst.problem).unwrap();
    for sol in [
        solve(&inst.problem, &SolveOptions::default()).unwrap(),
        solve_ilp(&inst.problem, &SolveOptions::default()).unwrap(),
    ] {
        assert_eq!(sol.objective, want.objective);
        let (cost, feasible) = contest_evaluate(&path, &super::format_iopddl_solution(&sol.choice));
        assert!(feasible);
        assert_eq!(cost, sol.objective);
    }
}

#[test]
fn iopddl_g_is_solved_to_optimality() {
    let path = shared_dir().join("data/iopddl/asplos-2025-iopddl-G.json.gz");
    let inst = super::read_iopddl(&path).unwrap();
    let opts = SolveOptions { time_limit: Some(120.0), ..SolveOptions::default() };
    let plain = solve_ilp(&inst.problem, &opts).unwrap();
    let reduced = solve(&inst.problem, &opts).unwrap();
    assert_eq!(plain.status, super::SolveStatus::Optimal);
    assert_eq!(reduced.status, super::SolveStatus::Optimal);
    // Preprocessing is exact: both proven optima agree.
    assert_eq!(plain.objective, reduced.objective);
    assert!(reduced.stats.nodes_after < reduced.stats.nodes_before);
    let (cost, feasible) = contest_evaluate(&path, &super::format_iopddl_solution(&reduced.choice));
    assert!(feasible);
    assert_eq!(cost, reduced.objective);
}

#[test]
fn ilp_handles_a_checkpoint_with_only_fixed_memory() {
    // Node 1's usage is the same for its only strategy (a constant load of 4 at time 1).
    let p = StrategyProblem {
        nodes: vec![
            Node { costs: vec![2e18, 0.0, 0.0, 0.0], usages: Some(vec![0.0, 8.0, 1.0, 6.0]), interval: Some((0, 1)) },
            Node { costs: vec![0.0], usages: Some(vec![4.0]), interval: Some((1, 2)) },
        ],
        edges: vec![],
        aliases: vec![],
        usage_limit: Some(4.0),
    };
    let want = solve_brute_force(&p);
    agree("ilp", &solve_ilp(&p, &SolveOptions::default()), &want, &p);
}
