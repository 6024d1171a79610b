//! The MILP of Eq. 1 (paper §4.1) on the internal model, solved with HiGHS through good_lp.
//!
//! Variables: one binary `s_vk` per allowed strategy (finite cost), one continuous `e_uvij` in
//! [0, 1] per allowed pair of an edge (finite entry). With binary `s`, the linearisation rows
//! `sum_j e_uvij = s_ui` and `sum_i e_uvij = s_vj` force `e_uvij = s_ui * s_vj`, so `e` needs no
//! integrality. Forbidden choices get no variable at all.
//!
//! Memory: for every checkpoint, the usage of the chosen strategies of the live terms stays
//! within `limit - base_c` (checkpoints whose live terms and fixed load another adjacent
//! checkpoint covers are skipped). A sparser difference formulation with load variables was
//! tried first; HiGHS's presolve declared some feasible instances of it infeasible.

use std::time::Instant;

use good_lp::solvers::highs::highs;
use good_lp::{
    variable, Expression, ProblemVariables, ResolutionError, Solution, SolutionStatus, SolverModel, Variable,
    WithInitialSolution,
};

use super::model::Model;

/// What to minimise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IlpObjective {
    /// Eq. 1: node plus edge costs under the memory limit.
    Cost,
    /// The peak memory, ignoring costs and the limit (forbidden choices stay forbidden).
    PeakMemory,
}

/// What stops one MILP early: seconds, or HiGHS's branch-and-bound nodes (`mip_max_nodes`),
/// which end alike however busy the machine is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MilpLimit {
    Seconds(f64),
    Nodes(u32),
}

/// Options of one MILP solve.
#[derive(Debug, Clone)]
pub struct IlpOptions<'a> {
    pub objective: IlpObjective,
    pub limit: Option<MilpLimit>,
    pub threads: u32,
    /// A feasible assignment to start from.
    pub initial: Option<&'a [usize]>,
}

impl Default for IlpOptions<'_> {
    fn default() -> Self {
        IlpOptions { objective: IlpObjective::Cost, limit: None, threads: 1, initial: None }
    }
}

/// A MILP answer.
#[derive(Debug, Clone, PartialEq)]
pub struct IlpOutcome {
    pub choice: Vec<usize>,
    /// Proven optimal (relative gap 1e-9).
    pub optimal: bool,
    /// Objective value reported by the solver (cost, or peak memory).
    pub value: f64,
    pub variables: usize,
    pub constraints: usize,
    pub seconds: f64,
}

/// Why no MILP answer came back.
#[derive(Debug, Clone, PartialEq)]
pub enum IlpFailure {
    /// Proven infeasible.
    Infeasible,
    /// Time ran out before the first feasible solution.
    NoSolution,
    Solver(String),
}

struct Built {
    vars: ProblemVariables,
    objective: Expression,
    constraints: Vec<good_lp::Constraint>,
    /// Per node: (strategy, variable) of the allowed strategies.
    s: Vec<Vec<(usize, Variable)>>,
    initial: Vec<(Variable, f64)>,
}

/// Builds and solves the MILP of `m`.
pub fn run_milp(m: &Model, opts: &IlpOptions) -> Result<IlpOutcome, IlpFailure> {
    let start = Instant::now();
    if m.num_nodes() == 0 {
        let value = if opts.objective == IlpObjective::PeakMemory { m.peak(&[]) } else { 0.0 };
        if opts.objective == IlpObjective::Cost && value > m.limit {
            return Err(IlpFailure::Infeasible);
        }
        return Ok(IlpOutcome { choice: Vec::new(), optimal: true, value, variables: 0, constraints: 0, seconds: 0.0 });
    }
    let built = build(m, opts)?;
    let variables = built.vars.len();
    let constraints = built.constraints.len();
    let Built { vars, objective, constraints: rows, s, initial } = built;
    let mut problem = vars.minimise(objective).using(highs);
    for r in rows {
        problem.add_constraint(r);
    }
    let mut problem = problem
        .set_threads(opts.threads.max(1))
        .set_option("mip_rel_gap", 1e-9)
        .set_option("mip_abs_gap", 1e-9)
        .set_option("random_seed", 0)
        .set_option("mip_heuristic_run_feasibility_jump", false)
        .set_option("output_flag", std::env::var_os("ALPA_HIGHS_LOG").is_some())
        .set_option("log_to_console", std::env::var_os("ALPA_HIGHS_LOG").is_some());
    match opts.limit {
        Some(MilpLimit::Seconds(t)) => problem = problem.set_time_limit(t.max(0.01)),
        Some(MilpLimit::Nodes(n)) => problem = problem.set_option("mip_max_nodes", n.clamp(1, i32::MAX as u32) as i32),
        None => {}
    }
    if !initial.is_empty() {
        problem = problem.with_initial_solution(initial);
    }
    let solved = match problem.solve() {
        Ok(sol) => sol,
        Err(ResolutionError::Infeasible) => return Err(IlpFailure::Infeasible),
        Err(ResolutionError::Other("NoSolutionFound")) => return Err(IlpFailure::NoSolution),
        Err(e) => return Err(IlpFailure::Solver(e.to_string())),
    };
    let optimal = matches!(solved.status(), SolutionStatus::Optimal | SolutionStatus::GapLimit);
    let choice: Vec<usize> = s
        .iter()
        .map(|opts| {
            // The allowed strategy with the largest value; ties to the lowest index.
            let mut best = (opts[0].0, f64::NEG_INFINITY);
            for &(k, var) in opts {
                let x = solved.value(var);
                if x > best.1 + 1e-9 {
                    best = (k, x);
                }
            }
            best.0
        })
        .collect();
    let value = match opts.objective {
        IlpObjective::Cost => m.cost(&choice),
        IlpObjective::PeakMemory => m.peak(&choice),
    };
    Ok(IlpOutcome { choice, optimal, value, variables, constraints, seconds: start.elapsed().as_secs_f64() })
}

fn build(m: &Model, opts: &IlpOptions) -> Result<Built, IlpFailure> {
    let mut vars = ProblemVariables::new();
    let mut objective = Expression::default();
    let mut constraints = Vec::new();
    let mut initial = Vec::new();
    let init = opts.initial;
    let cost_weight = if opts.objective == IlpObjective::Cost { 1.0 } else { 0.0 };
    // Memory no choice can change already over the limit.
    if opts.objective == IlpObjective::Cost && m.base.iter().any(|&b| b > m.limit) {
        return Err(IlpFailure::Infeasible);
    }

    // Node variables: index by strategy for quick lookup.
    let mut s: Vec<Vec<(usize, Variable)>> = Vec::with_capacity(m.num_nodes());
    let mut by_strategy: Vec<Vec<Option<Variable>>> = Vec::with_capacity(m.num_nodes());
    for (v, costs) in m.costs.iter().enumerate() {
        let mut list = Vec::new();
        let mut lookup = vec![None; costs.len()];
        let mut one = Expression::default();
        for (k, &c) in costs.iter().enumerate() {
            if !c.is_finite() {
                continue;
            }
            let x = vars.add(variable().binary());
            if cost_weight != 0.0 && c != 0.0 {
                objective.add_mul(c, x);
            }
            one.add_mul(1.0, x);
            list.push((k, x));
            lookup[k] = Some(x);
            if let Some(a) = init {
                initial.push((x, if a[v] == k { 1.0 } else { 0.0 }));
            }
        }
        if list.is_empty() {
            return Err(IlpFailure::Infeasible);
        }
        constraints.push(one.eq(1.0));
        s.push(list);
        by_strategy.push(lookup);
    }

    // Edge variables and linearisation rows.
    for e in &m.edges {
        let (nu, nv) = (m.costs[e.u].len(), m.costs[e.v].len());
        let (su, sv) = (&by_strategy[e.u], &by_strategy[e.v]);
        // An edge whose allowed entries are all zero and that forbids no allowed pair
        // changes nothing.
        let free = (0..nu).all(|i| (0..nv).all(|j| su[i].is_none() || sv[j].is_none() || e.costs[i * nv + j] == 0.0));
        if free {
            continue;
        }
        let classes = EdgeClasses::of(&e.costs, su, sv);
        let mut rows: Vec<Expression> = vec![Expression::default(); classes.row_members.len()];
        let mut cols: Vec<Expression> = vec![Expression::default(); classes.col_members.len()];
        let init_pair = init.map(|a| (classes.row_of[a[e.u]], classes.col_of[a[e.v]]));
        for (a, row_members) in classes.row_members.iter().enumerate() {
            for (b, col_members) in classes.col_members.iter().enumerate() {
                let c = e.costs[row_members[0] * nv + col_members[0]];
                if !c.is_finite() {
                    continue;
                }
                let y = vars.add(variable().min(0.0).max(1.0));
                if cost_weight != 0.0 && c != 0.0 {
                    objective.add_mul(c, y);
                }
                rows[a].add_mul(1.0, y);
                cols[b].add_mul(1.0, y);
                if let Some(pair) = init_pair {
                    initial.push((y, if pair == (Some(a), Some(b)) { 1.0 } else { 0.0 }));
                }
            }
        }
        for (mut r, members) in rows.into_iter().zip(&classes.row_members) {
            for &i in members {
                r.add_mul(-1.0, su[i].expect("classes hold allowed strategies only"));
            }
            constraints.push(r.eq(0.0));
        }
        for (mut c, members) in cols.into_iter().zip(&classes.col_members) {
            for &j in members {
                c.add_mul(-1.0, sv[j].expect("classes hold allowed strategies only"));
            }
            constraints.push(c.eq(0.0));
        }
    }

    // Memory: one row per checkpoint that no neighbouring checkpoint dominates.
    let with_memory = !m.terms.is_empty() || opts.objective == IlpObjective::PeakMemory;
    if with_memory && m.num_checkpoints() > 0 {
        let t = m.num_checkpoints();
        let peak = if opts.objective == IlpObjective::PeakMemory {
            let p = vars.add(variable().min(0.0));
            objective.add_mul(1.0, p);
            if let Some(a) = init {
                initial.push((p, m.peak(a)));
            }
            Some(p)
        } else {
            None
        };
        let mut starts = vec![false; t + 1];
        let mut ends = vec![false; t + 1];
        let mut live: Vec<Vec<usize>> = vec![Vec::new(); t];
        for (k, term) in m.terms.iter().enumerate() {
            starts[term.lo] = true;
            ends[term.hi] = true;
            for l in &mut live[term.lo..term.hi] {
                l.push(k);
            }
        }
        // Rows implied by another row: a checkpoint whose live terms are all live at the next
        // checkpoint (nothing ends there) and whose fixed load is no larger (right to left
        // chains end in a kept row); then, among those kept, one whose live terms all were
        // live at the previous kept row (nothing started in between) with no larger load.
        let mut keep = vec![true; t];
        for c in 0..t.saturating_sub(1) {
            if !ends[c + 1] && m.base[c] <= m.base[c + 1] {
                keep[c] = false;
            }
        }
        let mut started_before = vec![0usize; t + 1];
        for c in 0..t {
            started_before[c + 1] = started_before[c] + starts[c] as usize;
        }
        let mut prev: Option<usize> = None;
        for c in 0..t {
            if !keep[c] {
                continue;
            }
            if let Some(p) = prev {
                // Terms starting in (p, c].
                if started_before[c + 1] - started_before[p + 1] == 0 && m.base[c] <= m.base[p] {
                    keep[c] = false;
                    continue;
                }
            }
            prev = Some(c);
        }
        for c in 0..t {
            if !keep[c] {
                continue;
            }
            let mut row = Expression::default();
            for &k in &live[c] {
                let term = &m.terms[k];
                for &(st, x) in &s[term.node] {
                    if term.usage[st] != 0.0 {
                        row.add_mul(term.usage[st], x);
                    }
                }
            }
            match peak {
                Some(p) => {
                    row.add_mul(-1.0, p);
                    constraints.push(row.leq(-m.base[c]));
                }
                None => constraints.push(row.leq(m.limit - m.base[c])),
            }
        }
    }
    Ok(Built { vars, objective, constraints, s, initial })
}

/// The allowed strategies of an edge's two ends grouped by identical cost rows (resp. columns).
/// Resharding costs depend only on the produced and the required sharding, so many strategies
/// share a row; one edge variable per pair of classes, with the class marginals tied to the
/// sums of their strategies' variables, is exact and as tight as one variable per pair.
struct EdgeClasses {
    row_members: Vec<Vec<usize>>,
    col_members: Vec<Vec<usize>>,
    row_of: Vec<Option<usize>>,
    col_of: Vec<Option<usize>>,
}

impl EdgeClasses {
    fn of(costs: &[f64], su: &[Option<Variable>], sv: &[Option<Variable>]) -> Self {
        let (nu, nv) = (su.len(), sv.len());
        let allowed_cols: Vec<usize> = (0..nv).filter(|&j| sv[j].is_some()).collect();
        let allowed_rows: Vec<usize> = (0..nu).filter(|&i| su[i].is_some()).collect();
        let (row_members, row_of) =
            group_identical(nu, &allowed_rows, |i| allowed_cols.iter().map(move |&j| costs[i * nv + j].to_bits()));
        let (col_members, col_of) =
            group_identical(nv, &allowed_cols, |j| allowed_rows.iter().map(move |&i| costs[i * nv + j].to_bits()));
        EdgeClasses { row_members, col_members, row_of, col_of }
    }
}

/// Groups `members` by the key sequence `key` yields, classes in order of first member.
fn group_identical<K: Iterator<Item = u64>>(
    n: usize,
    members: &[usize],
    key: impl Fn(usize) -> K,
) -> (Vec<Vec<usize>>, Vec<Option<usize>>) {
    let mut index: std::collections::HashMap<Vec<u64>, usize> = std::collections::HashMap::new();
    let mut classes: Vec<Vec<usize>> = Vec::new();
    let mut class_of = vec![None; n];
    for &m in members {
        let k: Vec<u64> = key(m).collect();
        let c = *index.entry(k).or_insert_with(|| {
            classes.push(Vec::new());
            classes.len() - 1
        });
        classes[c].push(m);
        class_of[m] = Some(c);
    }
    (classes, class_of)
}
