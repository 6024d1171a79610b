//! The intra-op planner is optimal: on random small graphs of real ops, with the strategy sets the
//! pass really builds (merging included), its objective equals exhaustive enumeration.

use crate::cluster::mesh::DeviceMesh;
use crate::intra::options::IntraOptions;
use crate::intra::planner::plan_intra_op;
use crate::intra::strategy_problem::strategy_problem;
use crate::intra::{solve, solve_brute_force, SolveOptions, StrategyProblem};
use crate::ir::graph::{Attrs, Param, ValueRef};
use crate::ir::op_table::test_util::ints;
use crate::ir::test_graphs::{attrs, t as tensor, Builder};
use proptest::prelude::*;

/// One step of a random program over square `n x n` matrices.
#[derive(Clone, Debug)]
enum Step {
    Dot(usize, usize),
    Add(usize, usize),
    Relu(usize),
    Transpose(usize),
    RowSumBroadcast(usize),
    Exp(usize),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Step::Dot(a, b)),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Step::Add(a, b)),
        1 => any::<usize>().prop_map(Step::Relu),
        1 => any::<usize>().prop_map(Step::Transpose),
        1 => any::<usize>().prop_map(Step::RowSumBroadcast),
        1 => any::<usize>().prop_map(Step::Exp),
    ]
}

fn program(n: i64, args: usize, steps: &[Step]) -> crate::ir::graph::Graph {
    let matrix = tensor(&[n, n]);
    let mut b = Builder::new();
    let mut values: Vec<ValueRef> = (0..args).map(ValueRef::Arg).collect();
    let pick = |values: &Vec<ValueRef>, i: usize| values[i % values.len()];
    for s in steps {
        let v = match *s {
            Step::Dot(x, y) => b.dot(pick(&values, x), pick(&values, y), 1, 0, matrix.clone()),
            Step::Add(x, y) => b.binary("stablehlo.add", pick(&values, x), pick(&values, y), matrix.clone()),
            Step::Relu(x) => {
                let zero = b.scalar_constant();
                let zeros = b.op(
                    "stablehlo.broadcast_in_dim",
                    vec![zero],
                    matrix.clone(),
                    attrs(&[("broadcast_dimensions", ints(&[]))]),
                );
                b.binary("stablehlo.maximum", pick(&values, x), zeros, matrix.clone())
            }
            Step::Transpose(x) => b.op(
                "stablehlo.transpose",
                vec![pick(&values, x)],
                matrix.clone(),
                attrs(&[("permutation", ints(&[1, 0]))]),
            ),
            Step::RowSumBroadcast(x) => {
                let zero = b.scalar_constant();
                let sums = b.reduce_sum(pick(&values, x), zero, &[1], tensor(&[n]));
                b.op(
                    "stablehlo.broadcast_in_dim",
                    vec![sums],
                    matrix.clone(),
                    attrs(&[("broadcast_dimensions", ints(&[0]))]),
                )
            }
            Step::Exp(x) => b.unary("stablehlo.exponential", pick(&values, x), matrix.clone()),
        };
        values.push(v);
    }
    let last = *values.last().unwrap();
    b.graph(vec![Param { ty: matrix, attrs: Attrs::new() }; args], vec![last])
}

fn options(mesh: DeviceMesh, merge: bool, budget: Option<u64>) -> IntraOptions {
    IntraOptions { memory_budget: budget, merge_trivial_ops: merge, ..IntraOptions::on_mesh(mesh) }
}

fn search_space(problem: &StrategyProblem) -> f64 {
    problem.nodes.iter().map(|n| n.costs.len() as f64).product()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn ilp_objective_equals_brute_force(
        steps in prop::collection::vec(step(), 1..7),
        args in 1usize..3,
        mesh_kind in 0usize..3,
        merge in any::<bool>(),
        budget_kb in prop::option::of(1u64..6),
    ) {
        let mesh = match mesh_kind {
            0 => DeviceMesh::alpa_test([4, 1]).unwrap(),
            1 => DeviceMesh::alpa_test([2, 2]).unwrap(),
            _ => DeviceMesh::alpa_test([1, 2]).unwrap(),
        };
        let graph = program(8, args, &steps);
        let options = options(mesh, merge, budget_kb.map(|kb| kb * 1024));
        let problem = strategy_problem(&graph, &options).expect("the graph is well formed");
        prop_assume!(search_space(&problem) <= 2e5);
        let exhaustive = solve_brute_force(&problem);
        let ilp = solve(&problem, &SolveOptions::default());
        match (exhaustive, ilp) {
            (Ok(best), Ok(found)) => {
                let tolerance = 1e-6 * best.objective.abs().max(1.0);
                prop_assert!((found.objective - best.objective).abs() <= tolerance,
                    "ILP {} vs brute force {} on {:?}", found.objective, best.objective, steps);
                // The plan the pass reads back costs what the solver said.
                let plan = plan_intra_op(&graph, &options).unwrap();
                prop_assert!((plan.ilp_objective - best.objective).abs() <= tolerance);
                // Corrected to what runs: a move shared across consumer groups once.
                prop_assert!(plan.objective <= plan.ilp_objective + tolerance);
            }
            (Err(_), Err(_)) => {}
            (best, found) => prop_assert!(false, "feasibility differs: brute force {:?}, ILP {:?}", best.map(|s| s.objective), found.map(|s| s.objective)),
        }
    }
}

#[test]
fn a_gram_matrix_chain_has_a_nonzero_optimum_that_the_ilp_finds() {
    // x^T x contracts over the rows that the other dots want split: it cannot be free.
    let steps = [Step::Dot(0, 1), Step::Exp(2), Step::Transpose(3), Step::Dot(4, 3)];
    for mesh in [DeviceMesh::alpa_test([2, 2]).unwrap(), DeviceMesh::alpa_test([4, 1]).unwrap()] {
        for merge in [true] {
            for budget in [None, Some(1024)] {
                let graph = program(8, 2, &steps);
                let options = options(mesh.clone(), merge, budget);
                let problem = strategy_problem(&graph, &options).unwrap();
                let best = solve_brute_force(&problem).unwrap();
                let found = solve(&problem, &SolveOptions::default()).unwrap();
                assert!(best.objective > 0.0, "heavy ops on a mesh communicate");
                assert!(
                    (found.objective - best.objective).abs() <= 1e-6 * best.objective,
                    "{} vs {}",
                    found.objective,
                    best.objective
                );
            }
        }
    }
}
