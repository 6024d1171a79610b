//! The intra-op ILP is optimal: on random small graphs of real ops, with the strategy sets the
//! pass really builds (merging included), its objective equals exhaustive enumeration.

use alpa_mlir::cluster::mesh::DeviceMesh;
use alpa_mlir::intra::options::IntraOptions;
use alpa_mlir::intra::planner::plan_intra_op;
use alpa_mlir::intra::strategy_problem::strategy_problem;
use alpa_mlir::intra::{solve, solve_brute_force, SolveOptions};
use alpa_mlir::ir::graph::{Attr, Attrs, Block, Graph, OpNode, Param, Region, ValueRef};
use alpa_mlir::ir::types::{ElementType, TensorType, ValueType};
use proptest::prelude::*;

fn tensor(shape: &[i64]) -> ValueType {
    ValueType::Tensor(TensorType::new(shape.to_vec(), ElementType::f32()))
}

/// Builds a function body op by op.
struct Builder {
    args: Vec<ValueType>,
    ops: Vec<OpNode>,
}

impl Builder {
    fn value_type(&self, v: ValueRef) -> ValueType {
        match v {
            ValueRef::Arg(i) => self.args[i].clone(),
            ValueRef::Op { op, .. } => self.ops[op].results[0].clone(),
            ValueRef::Outer => unreachable!(),
        }
    }

    fn op(&mut self, name: &str, operands: Vec<ValueRef>, result: ValueType, attrs: Vec<(&str, Attr)>) -> ValueRef {
        let attrs: Attrs = attrs.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        let regions = if name == "stablehlo.reduce" { vec![add_body()] } else { vec![] };
        self.ops.push(OpNode {
            name: name.into(),
            location: String::new(),
            operands,
            results: vec![result],
            attrs,
            regions,
        });
        ValueRef::Op { op: self.ops.len() - 1, result: 0 }
    }

    fn finish(self, returned: Vec<ValueRef>) -> Graph {
        let results = returned.iter().map(|v| Param { ty: self.value_type(*v), attrs: Attrs::new() }).collect();
        let args = self.args.iter().map(|ty| Param { ty: ty.clone(), attrs: Attrs::new() }).collect();
        Graph {
            func_name: "main".into(),
            args,
            results,
            body: Block { args: self.args, ops: self.ops, terminator: None },
            returned,
        }
    }
}

fn add_body() -> Region {
    let scalar = tensor(&[]);
    let add = OpNode {
        name: "stablehlo.add".into(),
        location: String::new(),
        operands: vec![ValueRef::Arg(0), ValueRef::Arg(1)],
        results: vec![scalar.clone()],
        attrs: Attrs::new(),
        regions: vec![],
    };
    let ret = OpNode {
        name: "stablehlo.return".into(),
        location: String::new(),
        operands: vec![ValueRef::Op { op: 0, result: 0 }],
        results: vec![],
        attrs: Attrs::new(),
        regions: vec![],
    };
    Region { blocks: vec![Block { args: vec![scalar.clone(), scalar], ops: vec![add], terminator: Some(ret) }] }
}

fn opaque(data: &str) -> Attr {
    Attr::Opaque { dialect: "stablehlo".into(), data: data.into() }
}

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

fn program(n: i64, args: usize, steps: &[Step]) -> Graph {
    let matrix = tensor(&[n, n]);
    let mut b = Builder { args: vec![matrix.clone(); args], ops: vec![] };
    let mut values: Vec<ValueRef> = (0..args).map(ValueRef::Arg).collect();
    let pick = |values: &Vec<ValueRef>, i: usize| values[i % values.len()];
    for s in steps {
        let v = match *s {
            Step::Dot(x, y) => {
                let (x, y) = (pick(&values, x), pick(&values, y));
                let dims = opaque("dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>");
                b.op("stablehlo.dot_general", vec![x, y], matrix.clone(), vec![("dot_dimension_numbers", dims)])
            }
            Step::Add(x, y) => {
                let (x, y) = (pick(&values, x), pick(&values, y));
                b.op("stablehlo.add", vec![x, y], matrix.clone(), vec![])
            }
            Step::Relu(x) => {
                let x = pick(&values, x);
                let zero = b.op(
                    "stablehlo.constant",
                    vec![],
                    tensor(&[]),
                    vec![("value", Attr::Elements { ty: TensorType::new(vec![], ElementType::f32()), splat: true })],
                );
                let zeros = b.op(
                    "stablehlo.broadcast_in_dim",
                    vec![zero],
                    matrix.clone(),
                    vec![("broadcast_dimensions", Attr::I64Array(vec![]))],
                );
                b.op("stablehlo.maximum", vec![x, zeros], matrix.clone(), vec![])
            }
            Step::Transpose(x) => {
                let x = pick(&values, x);
                b.op("stablehlo.transpose", vec![x], matrix.clone(), vec![("permutation", Attr::I64Array(vec![1, 0]))])
            }
            Step::RowSumBroadcast(x) => {
                let x = pick(&values, x);
                let zero = b.op(
                    "stablehlo.constant",
                    vec![],
                    tensor(&[]),
                    vec![("value", Attr::Elements { ty: TensorType::new(vec![], ElementType::f32()), splat: true })],
                );
                let sums = b.op(
                    "stablehlo.reduce",
                    vec![x, zero],
                    tensor(&[n]),
                    vec![("dimensions", Attr::I64Array(vec![1]))],
                );
                b.op(
                    "stablehlo.broadcast_in_dim",
                    vec![sums],
                    matrix.clone(),
                    vec![("broadcast_dimensions", Attr::I64Array(vec![0]))],
                )
            }
            Step::Exp(x) => {
                let x = pick(&values, x);
                b.op("stablehlo.exponential", vec![x], matrix.clone(), vec![])
            }
        };
        values.push(v);
    }
    let last = *values.last().unwrap();
    b.finish(vec![last])
}

fn options(mesh: DeviceMesh, merge: bool, budget: Option<u64>) -> IntraOptions {
    IntraOptions { memory_budget: budget, merge_trivial_ops: merge, ..IntraOptions::on_mesh(mesh) }
}

fn search_space(problem: &alpa_mlir::intra::StrategyProblem) -> f64 {
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
                prop_assert!((plan.objective - best.objective).abs() <= tolerance);
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
