//! Follower strategies, and property tests tying them and the enumeration together.

use proptest::prelude::*;

use super::test_util::*;
use super::StrategyOptions;
use crate::ir::graph::Attr;
use crate::sharding::reshard::resharding;
use crate::sharding::ShardingSpec;

fn spec(s: &str) -> ShardingSpec {
    s.parse().unwrap()
}

fn reshape(from: &[i64], to: &[i64]) -> Case {
    Case::new(op("stablehlo.reshape", &[f32t(to)], &[]), &[f32t(from)])
}

#[test]
fn elementwise_and_reduce_followers() {
    let m = mesh([2, 4]);
    let add = Case::new(op("stablehlo.add", &[f32t(&[8, 16])], &[]), &[f32t(&[8, 16]), f32t(&[8, 16])]);
    let s = add.follow(0, "S0S1", &m);
    assert_eq!(s.name, "S0S1 = S0S1 x S0S1");
    assert_eq!(s.communication_cost, 0.0);
    assert_eq!(add.follow(1, "S10R", &m).name, "S10R = S10R x S10R");
    // Reducing a sharded dim: the partial [8] tile (32 bytes) is all-reduced over axis 1.
    let red =
        Case::new(op("stablehlo.reduce", &[f32t(&[16])], &[("dimensions", ints(&[1]))]), &[f32t(&[16, 32]), f32t(&[])]);
    let s = red.follow(0, "S0S1", &m);
    assert_eq!(s.name, "S0 = S0S1 x [] @ allreduce{1}");
    assert!(close(s.communication_cost, 5.8));
    // A dot can follow too: the leader's split of the contracted dim becomes an all-reduce.
    let mm = matmul(32, 256, 512);
    assert_eq!(mm.follow(0, "S0S1", &m).name, "S0R = S0S1 x S1R @ allreduce{1}");
}

#[test]
fn layout_followers() {
    let m = mesh([2, 4]);
    let b = broadcast_rows(16, 32);
    assert_eq!(b.follow(0, "S0", &m).name, "S0R = S0");
    assert_eq!(b.follow(0, "S10", &m).name, "S10R = S10");
    let t = transpose_2d(16, 32);
    assert_eq!(t.follow(0, "S0R", &m).name, "RS0 = S0R");
    assert_eq!(t.follow(0, "S1S0", &m).name, "S0S1 = S1S0");
}

#[test]
fn reshape_followers_keep_what_stays_contiguous() {
    // Split [32, 64] -> [4, 8, 64]. On 4x2, S01 puts axis 0 on the 4 (completely) and axis 1
    // on the 8.
    let split = reshape(&[32, 64], &[4, 8, 64]);
    assert_eq!(split.follow(0, "S01R", &mesh([4, 2])).name, "S0S1R = S01R");
    // On 2x4 axis 0 only halves the 4 and axis 1 (4) cannot follow: it is dropped, the
    // operand spec differs from the leader and the caller pays the resharding.
    let s = split.follow(0, "S01R", &mesh([2, 4]));
    assert_eq!(s.name, "S0RR = S0R");
    assert_ne!(s.operand_specs[0], Some(spec("S01R")));

    // Merge [4, 8, 64] -> [32, 64]. On 4x2: dim 0 (the 4) over axis 0, dim 1 over axis 1
    // merges into S01.
    let merge = reshape(&[4, 8, 64], &[32, 64]);
    assert_eq!(merge.follow(0, "S0S1R", &mesh([4, 2])).name, "S01R = S0S1R");
    // On 2x4 the merged tile would not be contiguous; keeping axis 0 (an all-gather of axis 1
    // on the leader) is the valid choice.
    let m = mesh([2, 4]);
    let s = merge.follow(0, "S0S1R", &m);
    assert_eq!(s.name, "S0R = S0RR");
    let extra = resharding(&f32t(&[4, 8, 64]), &spec("S0S1R"), &spec("S0RR"), &m).unwrap();
    assert!(close(extra.cost, 1.0 + 0.1 * 0.75 * 4096.0));
    // A leader split on a dim the reshape cannot express at all (T without B).
    assert_eq!(merge.follow(0, "RS1R", &m).name, "RR = RRR");
}

#[test]
fn need_replication_unknown_and_mismatched_leaders() {
    let m = mesh([2, 4]);
    let sort = Case::new(op("stablehlo.sort", &[f32t(&[8, 16])], &[("dimension", Attr::Int(1))]), &[f32t(&[8, 16])]);
    assert_eq!(sort.follow(0, "S0S1", &m).name, "S0R = S0R");
    let unknown = Case::new(
        op("stablehlo.custom_call", &[f32t(&[8, 16])], &[("call_target_name", Attr::Str("k".into()))]),
        &[f32t(&[8, 16])],
    );
    assert_eq!(unknown.follow(0, "S0S1", &m).name, "RR = RR");
    let add = Case::new(op("stablehlo.add", &[f32t(&[8, 16])], &[]), &[f32t(&[8, 16]), f32t(&[8, 16])]);
    assert_eq!(add.follow(0, "S0", &m).name, "RR = RR x RR");
    assert_eq!(add.follow(5, "S0R", &m).name, "RR = RR x RR");
    // An indivisible leader split (the caller's spec does not fit) is dropped.
    let odd = Case::new(op("stablehlo.negate", &[f32t(&[6])], &[]), &[f32t(&[6])]);
    assert_eq!(odd.follow(0, "S1", &m).name, "R = R");
    assert_eq!(odd.follow(0, "S01", &m).name, "S0 = S0");
}

/// Atoms of a shape (sizes 2, 3, 4), grouped into dims two ways: a reshape between them.
fn reshape_case() -> impl Strategy<Value = (Vec<i64>, Vec<i64>)> {
    let atoms = prop::collection::vec(prop::sample::select(vec![2i64, 3, 4]), 1..=4);
    let group = |atoms: &[i64], cuts: &[bool]| {
        let mut dims = vec![atoms[0]];
        for (i, &a) in atoms.iter().enumerate().skip(1) {
            if cuts[i - 1] {
                dims.push(a);
            } else {
                *dims.last_mut().unwrap() *= a;
            }
        }
        dims
    };
    atoms.prop_flat_map(move |atoms| {
        let n = atoms.len();
        (Just(atoms), prop::collection::vec(any::<bool>(), n), prop::collection::vec(any::<bool>(), n))
            .prop_map(move |(atoms, c1, c2)| (group(&atoms, &c1), group(&atoms, &c2)))
    })
}

fn mesh_shape() -> impl Strategy<Value = [usize; 2]> {
    prop::sample::select(vec![[2, 4], [4, 2], [2, 2], [4, 1], [1, 4], [3, 2]])
}

proptest! {
    #[test]
    fn following_an_operand_spec_reproduces_its_strategy((from, to) in reshape_case(), shape in mesh_shape()) {
        // Every factor of a reshape is in its operand, so following the operand spec of any
        // enumerated strategy must give back that strategy.
        let c = reshape(&from, &to);
        let m = mesh(shape);
        for s in c.light(&m) {
            let leader = s.operand_specs[0].clone().unwrap();
            let f = c.follow(0, &leader.to_string(), &m);
            prop_assert_eq!(&f.operand_specs, &s.operand_specs, "{}", s.name);
            prop_assert_eq!(&f.result_specs, &s.result_specs, "{}", s.name);
            prop_assert_eq!(&f.collectives, &s.collectives);
        }
    }

    #[test]
    fn any_leader_gives_a_valid_follower((from, to) in reshape_case(), shape in mesh_shape(), pick in any::<prop::sample::Index>()) {
        let c = reshape(&from, &to);
        let m = mesh(shape);
        let specs = ShardingSpec::enumerate(from.len(), shape);
        let leader = pick.get(&specs);
        let f = c.follow(0, &leader.to_string(), &m);
        let op_spec = f.operand_specs[0].clone().unwrap();
        op_spec.check_shape(&from, shape).unwrap();
        f.result_specs[0].clone().unwrap().check_shape(&to, shape).unwrap();
        // Followers never add sharding the leader does not have: per dim, the operand's axes
        // are a subsequence of the leader's.
        let leader = leader.normalized(shape);
        for (mine, theirs) in op_spec.dims().iter().zip(leader.dims()) {
            let mut rest = theirs.mesh_axes().iter();
            prop_assert!(mine.mesh_axes().iter().all(|a| rest.any(|b| b == a)), "{} from {}", op_spec, leader);
        }
    }

    #[test]
    fn enumerated_strategies_are_valid(
        m_ in prop::sample::select(vec![1i64, 2, 3, 4, 6, 8, 12]),
        k in prop::sample::select(vec![1i64, 2, 4, 6, 8]),
        n in prop::sample::select(vec![1i64, 2, 3, 8, 16]),
        shape in mesh_shape(),
        heavy in any::<bool>(),
    ) {
        let c = matmul(m_, k, n);
        let mesh = mesh(shape);
        let all = c.strategies(heavy, &mesh, &StrategyOptions::default());
        prop_assert!(!all.is_empty());
        let types = [f32t(&[m_, k]), f32t(&[k, n])];
        for s in &all {
            for (spec, ty) in s.operand_specs.iter().zip(&types) {
                prop_assert!(spec.as_ref().unwrap().check_shape(&ty.shape, shape).is_ok(), "{}", s.name);
            }
            prop_assert!(s.result_specs[0].as_ref().unwrap().check_shape(&[m_, n], shape).is_ok());
            let sum: f64 = s.collectives.iter().map(|c| c.cost(&mesh)).sum();
            prop_assert!(close(sum, s.communication_cost));
        }
        let mut names: Vec<&str> = names(&all);
        names.sort_unstable();
        names.dedup();
        prop_assert_eq!(names.len(), all.len());
        if heavy {
            let p = all[0].parallelism(shape);
            prop_assert!(all.iter().all(|s| s.parallelism(shape) == p));
            prop_assert!(p > 1 || all.len() == 1);
        }
        prop_assert_eq!(&all, &c.strategies(heavy, &mesh, &StrategyOptions::default()));
    }
}
