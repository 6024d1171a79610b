//! A value resharded for several operands is moved once per layout, as the module runs it.
//!
//! The emitter (`passes::write_shardings::pin`) keeps one sharding constraint per (value,
//! layout) and continues every operand's chain of layouts from the furthest one already made,
//! so XLA runs a move once for every operand whose chain passes through it. For that to be a
//! structure the objective can price, every chain of a value produced in layout `p` follows one
//! tree, the [`MoveTree`] of `p`: the shortest path (`sharding::reshard`) to every layout,
//! cheapest first, each layout keeping the parent it got first. It depends only on the tensor,
//! `p` and the mesh, so the strategy problem, the plan and the report agree on it.
//!
//! Pricing one value ([`price_value`]): a tree move that operands of only one consumer group
//! can need is priced on the (producer, consumer) edge, once for all that group's operands.
//! A move that two groups can need is, with `across_groups`, exact and still a pairwise problem:
//! one binary node per (root, move) that pays the move when the producer makes that root and
//! that every consumer strategy needing the move forces on (see [`add_shared_nodes`]); without
//! it, each group's edge pays it (an upper bound on what runs: the plan's `objective` is
//! corrected afterwards to what runs, and `ilp_objective` keeps the solver's). It is off in the
//! pass for now. Exact pricing finds much cheaper plans
//! where it is proven (8x1: Wide-ResNet-tiny 21% and MoE-tiny 11% below what the per-group
//! optimum runs), but on 2-D meshes the extra nodes (GPT-tiny 2x4: 523 nodes become 8,325)
//! leave HiGHS far from a proof: the LP relaxation is weak (bound 26k against a 106k plan),
//! because a pairwise model cannot tie a move node to the (producer, consumer) pair that needs
//! it, only to each end separately. The tight form (move >= the consumer's edge variables of the
//! pairs that need it) is a row over edge variables that the pairwise pipeline cannot carry.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::cluster::mesh::DeviceMesh;
use crate::ir::types::TensorType;
use crate::sharding::reshard::{resharding, CollectiveUse, Resharding};
use crate::sharding::spec::ShardingSpec;

use super::problem::FORBIDDEN_COST;

/// One layout of the tree and the move into it from its parent.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeNode {
    pub layout: ShardingSpec,
    /// `None`: the root.
    pub parent: Option<usize>,
    /// `None` for a free slice.
    pub collective: Option<CollectiveUse>,
    pub cost: f64,
}

/// Every layout a tensor produced in `root` can be resharded to, and the one chain to each.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveTree {
    pub root: ShardingSpec,
    pub nodes: Vec<TreeNode>,
    index: HashMap<ShardingSpec, usize>,
}

impl MoveTree {
    /// Specs are compared normalized (mesh axes of size 1 dropped).
    pub fn new(ty: &TensorType, root: &ShardingSpec, mesh: &DeviceMesh) -> MoveTree {
        let shape = mesh.shape;
        let root = root.normalized(shape);
        let mut paths: Vec<(ShardingSpec, Resharding)> = ShardingSpec::enumerate(root.rank(), shape)
            .into_iter()
            .map(|s| s.normalized(shape))
            .filter(|s| *s != root)
            .filter_map(|s| resharding(ty, &root, &s, mesh).ok().filter(|r| r.cost.is_finite()).map(|r| (s, r)))
            .collect();
        paths.sort_by(|a, b| {
            a.1.cost.total_cmp(&b.1.cost).then(a.1.steps.len().cmp(&b.1.steps.len())).then(a.0.cmp(&b.0))
        });
        let mut tree = MoveTree { root, nodes: Vec::new(), index: HashMap::new() };
        for (target, path) in paths {
            tree.insert(target, &path, mesh);
        }
        tree
    }

    fn insert(&mut self, target: ShardingSpec, path: &Resharding, mesh: &DeviceMesh) {
        let shape = mesh.shape;
        let mut moves = path
            .moves
            .iter()
            .zip(&path.collectives)
            .map(|((a, b), c)| (a.normalized(shape), b.normalized(shape), *c))
            .peekable();
        let mut previous = self.root.clone();
        let mut parent = None;
        for layout in path.steps.iter().map(|s| s.normalized(shape)).chain([target]) {
            let collective = match moves.peek() {
                Some((a, b, c)) if *a == previous && *b == layout => {
                    let c = *c;
                    moves.next();
                    Some(c)
                }
                _ => None,
            };
            let node = match self.index.get(&layout) {
                Some(&node) => node,
                None => {
                    let cost = collective.map_or(0.0, |c| c.cost(mesh));
                    self.nodes.push(TreeNode { layout: layout.clone(), parent, collective, cost });
                    self.index.insert(layout.clone(), self.nodes.len() - 1);
                    self.nodes.len() - 1
                }
            };
            parent = Some(node);
            previous = layout;
        }
    }

    /// The node of a (normalized) layout other than the root.
    pub fn node(&self, layout: &ShardingSpec) -> Option<usize> {
        self.index.get(layout).copied()
    }

    /// The nodes from the root's child down to `node`.
    pub fn chain(&self, node: usize) -> Vec<usize> {
        let mut chain = vec![node];
        while let Some(parent) = self.nodes[*chain.last().expect("non-empty")].parent {
            chain.push(parent);
        }
        chain.reverse();
        chain
    }

    /// The nodes a set of (normalized) target layouts needs: the union of their chains; `None`
    /// when one is not reachable.
    pub fn needed<'a>(&self, targets: impl IntoIterator<Item = &'a ShardingSpec>) -> Option<BTreeSet<usize>> {
        let mut needed = BTreeSet::new();
        for t in targets {
            if *t != self.root {
                needed.extend(self.chain(self.node(t)?));
            }
        }
        Some(needed)
    }

    /// The chain to `node` as a [`Resharding`]: its cost, collectives, moves and the layouts
    /// before the last one (what the emitter pins on the way).
    pub fn resharding(&self, node: usize) -> Resharding {
        let chain = self.chain(node);
        let mut r = Resharding::free();
        let mut previous = &self.root;
        for &n in &chain {
            let t = &self.nodes[n];
            if let Some(c) = t.collective {
                r.cost += t.cost;
                r.collectives.push(c);
                r.moves.push((previous.clone(), t.layout.clone()));
            }
            previous = &t.layout;
        }
        r.steps = chain[..chain.len() - 1].iter().map(|&n| self.nodes[n].layout.clone()).collect();
        r
    }
}

/// The operands of one value in one consumer group: per strategy of the group, the
/// (normalized) layouts they require.
pub struct GroupUse {
    pub group: usize,
    pub targets: Vec<Vec<ShardingSpec>>,
}

/// The cost terms of one value, added to a pairwise strategy problem under construction:
/// `costs[x]` are the strategy costs of node `x` (extra nodes are appended), `edges` the
/// row-major matrices by (u, v). `produced[i]` is the (normalized) layout of the value under
/// strategy `i` of `source`; `trees` the tree of every layout in `produced`.
pub fn price_value(
    costs: &mut Vec<Vec<f64>>,
    edges: &mut BTreeMap<(usize, usize), Vec<f64>>,
    source: usize,
    produced: &[Option<ShardingSpec>],
    uses: &[GroupUse],
    trees: &HashMap<ShardingSpec, std::rc::Rc<MoveTree>>,
    across_groups: bool,
) {
    let mut roots: Vec<&ShardingSpec> = Vec::new();
    for p in produced.iter().flatten() {
        if !roots.contains(&p) {
            roots.push(p);
        }
    }
    let class_of: Vec<Option<usize>> =
        produced.iter().map(|p| p.as_ref().map(|p| roots.iter().position(|r| *r == p).expect("listed"))).collect();
    let trees: Vec<&MoveTree> = roots.iter().map(|r| trees[*r].as_ref()).collect();
    // needs[c][u][j]: the tree nodes of root c that use u under its strategy j needs.
    let needs: Vec<Vec<Vec<Option<BTreeSet<usize>>>>> = trees
        .iter()
        .map(|t| uses.iter().map(|u| u.targets.iter().map(|ts| t.needed(ts)).collect()).collect())
        .collect();
    // A paid move two groups can need is shared (without `across_groups`, each group pays it).
    let shared: Vec<BTreeSet<usize>> = trees
        .iter()
        .enumerate()
        .map(|(c, t)| {
            let mut groups_of: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
            for (u, per_strategy) in needs[c].iter().enumerate() {
                for n in per_strategy.iter().flatten().flatten() {
                    if t.nodes[*n].cost > 0.0 {
                        groups_of.entry(*n).or_default().insert(uses[u].group);
                    }
                }
            }
            groups_of.into_iter().filter(|(_, g)| across_groups && g.len() > 1).map(|(n, _)| n).collect()
        })
        .collect();

    let rows = costs[source].len();
    for (u, group_use) in uses.iter().enumerate() {
        let g = group_use.group;
        let cols = costs[g].len();
        let cost = |c: usize, j: usize| -> f64 {
            needs[c][u][j].as_ref().map_or(FORBIDDEN_COST, |nodes| {
                nodes.iter().filter(|n| !shared[c].contains(n)).map(|&n| trees[c].nodes[n].cost).sum()
            })
        };
        if g == source {
            for (i, class) in class_of.iter().enumerate() {
                if let Some(c) = class {
                    costs[source][i] += cost(*c, i);
                }
            }
            continue;
        }
        let matrix = edges.entry((source, g)).or_insert_with(|| vec![0.0; rows * cols]);
        for (i, class) in class_of.iter().enumerate() {
            let Some(c) = *class else { continue };
            for j in 0..cols {
                matrix[i * cols + j] += cost(c, j);
            }
        }
    }
    if shared.iter().all(BTreeSet::is_empty) {
        return;
    }
    add_shared_nodes(costs, edges, source, &class_of, uses, &trees, &needs, &shared);
}

/// One binary node per shared move (root `c`, tree node `n`): strategy 0 "not run", 1 "run".
/// Run costs the move when the producer's layout is `c` (and nothing otherwise, where no
/// operand can need it); every consumer strategy whose operands need the move from `c`
/// forbids "not run". So the move is paid once when the producer makes `c` and some group
/// needs it. Per consumer group the run variable is at least the sum of the strategies that
/// need it; the producer side is what leaves the relaxation weak (module doc).
#[allow(clippy::too_many_arguments)]
fn add_shared_nodes(
    costs: &mut Vec<Vec<f64>>,
    edges: &mut BTreeMap<(usize, usize), Vec<f64>>,
    source: usize,
    class_of: &[Option<usize>],
    uses: &[GroupUse],
    trees: &[&MoveTree],
    needs: &[Vec<Vec<Option<BTreeSet<usize>>>>],
    shared: &[BTreeSet<usize>],
) {
    for (c, nodes) in shared.iter().enumerate() {
        for &n in nodes {
            costs.push(vec![0.0, 0.0]);
            let run = costs.len() - 1;
            let mut to_producer = vec![0.0; costs[source].len() * 2];
            for (i, class) in class_of.iter().enumerate() {
                if *class == Some(c) {
                    to_producer[i * 2 + 1] = trees[c].nodes[n].cost;
                }
            }
            edges.insert((source, run), to_producer);
            for (group_use, per_strategy) in uses.iter().zip(&needs[c]) {
                for (j, needed) in per_strategy.iter().enumerate() {
                    if needed.as_ref().is_some_and(|needed| needed.contains(&n)) {
                        forbid(edges, costs, group_use.group, run, j, 0);
                    }
                }
            }
        }
    }
}

/// Forbids the pair (`i` of `u`, `j` of `v`).
fn forbid(edges: &mut BTreeMap<(usize, usize), Vec<f64>>, costs: &[Vec<f64>], u: usize, v: usize, i: usize, j: usize) {
    let cols = costs[v].len();
    let matrix = edges.entry((u, v)).or_insert_with(|| vec![0.0; costs[u].len() * cols]);
    matrix[i * cols + j] = FORBIDDEN_COST;
}

/// Trees by tensor type and (normalized) root, built once.
#[derive(Default)]
pub struct TreeCache {
    trees: HashMap<(TensorType, ShardingSpec), std::rc::Rc<MoveTree>>,
}

impl TreeCache {
    pub fn get(&mut self, ty: &TensorType, root: &ShardingSpec, mesh: &DeviceMesh) -> std::rc::Rc<MoveTree> {
        self.trees
            .entry((ty.clone(), root.normalized(mesh.shape)))
            .or_insert_with(|| std::rc::Rc::new(MoveTree::new(ty, root, mesh)))
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intra::brute::next_assignment;
    use crate::intra::problem::{Edge, Node, StrategyProblem};
    use crate::intra::{solve, solve_brute_force, solve_ilp, SolveOptions};
    use crate::ir::types::ElementType;
    use std::rc::Rc;

    fn spec(s: &str) -> ShardingSpec {
        s.parse().unwrap()
    }

    fn mesh(shape: [usize; 2]) -> DeviceMesh {
        DeviceMesh::alpa_test(shape).unwrap()
    }

    fn f32t(shape: &[i64]) -> TensorType {
        TensorType::new(shape.to_vec(), ElementType::f32())
    }

    /// The problem `price_value` builds for one value with the given node costs per group
    /// (group 0 produces), and the trees it used.
    fn problem(
        ty: &TensorType,
        mesh: &DeviceMesh,
        node_costs: &[Vec<f64>],
        produced: &[&str],
        uses: &[(usize, Vec<Vec<&str>>)],
    ) -> (StrategyProblem, HashMap<ShardingSpec, Rc<MoveTree>>) {
        let produced: Vec<Option<ShardingSpec>> =
            produced.iter().map(|p| Some(spec(p).normalized(mesh.shape))).collect();
        let mut cache = TreeCache::default();
        let trees: HashMap<ShardingSpec, Rc<MoveTree>> =
            produced.iter().flatten().map(|p| (p.clone(), cache.get(ty, p, mesh))).collect();
        let uses: Vec<GroupUse> = uses
            .iter()
            .map(|(group, per)| GroupUse {
                group: *group,
                targets: per.iter().map(|ts| ts.iter().map(|t| spec(t).normalized(mesh.shape)).collect()).collect(),
            })
            .collect();
        let mut costs = node_costs.to_vec();
        let mut edges = BTreeMap::new();
        price_value(&mut costs, &mut edges, 0, &produced, &uses, &trees, true);
        let nodes = costs.into_iter().map(Node::with_costs).collect();
        let edges = edges.into_iter().map(|((u, v), costs)| Edge { u, v, costs }).collect();
        (StrategyProblem { nodes, edges, aliases: Vec::new(), usage_limit: None }, trees)
    }

    /// What the module runs for one assignment of the real groups, counted independently of the
    /// pricing: node costs plus every distinct tree move of every operand's chain, once.
    fn emitted_cost(
        trees: &HashMap<ShardingSpec, Rc<MoveTree>>,
        mesh: &DeviceMesh,
        node_costs: &[Vec<f64>],
        produced: &[&str],
        uses: &[(usize, Vec<Vec<&str>>)],
        choice: &[usize],
    ) -> f64 {
        let tree = &trees[&spec(produced[choice[0]]).normalized(mesh.shape)];
        let mut made = BTreeSet::new();
        for (group, per) in uses {
            for t in &per[choice[*group]] {
                let t = spec(t).normalized(mesh.shape);
                if t != tree.root {
                    made.extend(tree.chain(tree.node(&t).unwrap()));
                }
            }
        }
        let moves: f64 = made.iter().map(|&n| tree.nodes[n].cost).sum();
        moves + node_costs.iter().zip(choice).map(|(c, &s)| c[s]).sum::<f64>()
    }

    #[test]
    fn every_chain_of_the_tree_costs_what_the_direct_resharding_costs() {
        for shape in [[2, 4], [2, 2], [1, 8], [4, 1]] {
            let m = mesh(shape);
            for dims in [vec![8, 16], vec![64, 4, 32], vec![6, 10]] {
                let ty = f32t(&dims);
                for root in ShardingSpec::enumerate(dims.len(), shape) {
                    let tree = MoveTree::new(&ty, &root, &m);
                    for to in ShardingSpec::enumerate(dims.len(), shape).into_iter().filter(|t| *t != tree.root) {
                        let direct = resharding(&ty, &root, &to, &m).unwrap();
                        let chain = tree.resharding(tree.node(&to).unwrap());
                        assert!(
                            (chain.cost - direct.cost).abs() <= 1e-9 * direct.cost.max(1.0),
                            "{shape:?} {dims:?} {root} -> {to}: {} vs {}",
                            chain.cost,
                            direct.cost
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn three_consumers_of_one_layout_pay_one_move() {
        let m = mesh([2, 4]);
        let ty = f32t(&[64, 32]);
        // The producer makes S0R; three consumer groups each compute from RR (cheap) or S0R
        // (expensive).
        let node_costs = vec![vec![0.0], vec![0.0, 1e6], vec![0.0, 1e6], vec![0.0, 1e6]];
        let uses: Vec<(usize, Vec<Vec<&str>>)> = (1..4).map(|g| (g, vec![vec!["RR"], vec!["S0R"]])).collect();
        let (p, _) = problem(&ty, &m, &node_costs, &["S0R"], &uses);
        let gather = resharding(&ty, &spec("S0R"), &spec("RR"), &m).unwrap().cost;
        assert!(gather > 0.0);
        let best = solve_brute_force(&p).unwrap();
        assert_eq!(&best.choice[..4], &[0, 0, 0, 0]);
        assert!((best.objective - gather).abs() < 1e-9, "{} vs one gather {gather}", best.objective);
        let solved = solve(&p, &SolveOptions::default()).unwrap();
        assert!((solved.objective - gather).abs() < 1e-9);
    }

    #[test]
    fn a_shared_prefix_is_paid_once() {
        let m = mesh([2, 4]);
        let ty = f32t(&[64, 32]);
        // S01R -> S0R (gather over axis 1) is the first move of S01R -> RR as well.
        let node_costs = vec![vec![0.0], vec![0.0], vec![0.0]];
        let uses = vec![(1, vec![vec!["S0R"]]), (2, vec![vec!["RR"]])];
        let (p, _) = problem(&ty, &m, &node_costs, &["S01R"], &uses);
        let both = resharding(&ty, &spec("S01R"), &spec("RR"), &m).unwrap();
        assert_eq!(both.collectives.len(), 2, "{both:?}");
        let best = solve_brute_force(&p).unwrap();
        assert!((best.objective - both.cost).abs() < 1e-9, "{} vs {}", best.objective, both.cost);
    }

    /// A small deterministic generator (no test depends on a seed's luck: every case is checked).
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn brute_force_over_the_real_groups_agrees_with_the_milp_and_the_solver() {
        let m = mesh([2, 2]);
        let ty = f32t(&[16, 8]);
        let layouts: Vec<String> = ShardingSpec::enumerate(2, m.shape).iter().map(|s| s.to_string()).collect();
        let mut state = 0x9e3779b97f4a7c15u64;
        let mut shared_cases = 0;
        for _ in 0..40 {
            let mut pick = |n: usize| (next(&mut state) % n as u64) as usize;
            let groups = 4;
            let sizes: Vec<usize> = (0..groups).map(|_| 2 + pick(2)).collect();
            let produced: Vec<&str> = (0..sizes[0]).map(|_| layouts[pick(layouts.len())].as_str()).collect();
            let node_costs: Vec<Vec<f64>> =
                sizes.iter().map(|&n| (0..n).map(|_| pick(4) as f64 * 0.5).collect()).collect();
            // Every group but possibly the producer's uses the value once or twice.
            let mut uses: Vec<(usize, Vec<Vec<&str>>)> = Vec::new();
            for (g, &size) in sizes.iter().enumerate() {
                if g == 0 && pick(2) == 0 {
                    continue;
                }
                let operands = 1 + pick(2);
                let per: Vec<Vec<&str>> =
                    (0..size).map(|_| (0..operands).map(|_| layouts[pick(layouts.len())].as_str()).collect()).collect();
                uses.push((g, per));
            }
            let (p, trees) = problem(&ty, &m, &node_costs, &produced, &uses);
            if p.nodes.len() > groups {
                shared_cases += 1;
            }
            let mut choice = vec![0; groups];
            let mut best = f64::INFINITY;
            loop {
                best = best.min(emitted_cost(&trees, &m, &node_costs, &produced, &uses, &choice));
                if !next_assignment(&mut choice, |g| sizes[g]) {
                    break;
                }
            }
            let milp = solve_ilp(&p, &SolveOptions::default()).unwrap();
            assert!((milp.objective - best).abs() < 1e-6, "MILP {} vs emitted {best}", milp.objective);
            let solved = solve(&p, &SolveOptions::default()).unwrap();
            assert!((solved.objective - best).abs() < 1e-6, "solve {} vs emitted {best}", solved.objective);
            let emitted = emitted_cost(&trees, &m, &node_costs, &produced, &uses, &solved.choice[..groups]);
            assert!((emitted - best).abs() < 1e-6, "the solver's choice runs {emitted}, optimum {best}");
        }
        assert!(shared_cases >= 10, "only {shared_cases} cases with shared moves");
    }

    fn fixture(name: &str) -> crate::ir::graph::Graph {
        use crate::passes::entry::{find_entry, DEFAULT_ENTRY};
        use crate::passes::inline::inline_into_entry;
        use crate::passes::read_graph::read_function;
        use crate::passes::standalone::ParsedModule;
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lit-tests/inputs").join(name);
        let module = ParsedModule::parse_file(&path).unwrap();
        let entry = find_entry(module.operation(), DEFAULT_ENTRY).unwrap();
        inline_into_entry(module.operation(), entry).unwrap();
        read_function(entry).unwrap().graph
    }

    /// On real train steps solved to optimality (8x1, where HiGHS proves the priced problem),
    /// the objective is what the emitted module runs: the strategies' communication plus every
    /// move of the report once; and no more than what the per-group-priced optimum runs.
    #[test]
    fn priced_objective_is_what_the_module_runs_on_fixtures() {
        use crate::intra::options::IntraOptions;
        use crate::intra::planner::plan_intra_op;
        use crate::intra::SolveStatus;
        let mut corrected = 0;
        for name in ["mlp_dp.mlir", "moe_tiny.mlir", "wresnet_tiny.mlir"] {
            let graph = fixture(name);
            let mut options = IntraOptions::on_mesh(mesh([8, 1]));
            let per_group = plan_intra_op(&graph, &options).unwrap();
            options.price_shared_moves = true;
            let priced = plan_intra_op(&graph, &options).unwrap();
            assert_eq!(priced.status, SolveStatus::Optimal, "{name}");
            let runs = priced.communication_cost + priced.resharding_cost;
            assert!(
                (priced.ilp_objective - runs).abs() <= 1e-6 * runs,
                "{name}: objective {} runs {runs}",
                priced.ilp_objective
            );
            assert_eq!(priced.objective, runs, "{name}");
            let per_group_runs = per_group.communication_cost + per_group.resharding_cost;
            assert!(runs <= per_group_runs + 1e-6 * runs, "{name}: {runs} vs {per_group_runs}");
            // Priced per group, the ILP pays a shared move once per group; the plan's objective
            // is corrected to what runs.
            assert_eq!(per_group.objective, per_group_runs, "{name}");
            assert!(per_group.ilp_objective >= per_group_runs - 1e-6 * per_group_runs, "{name}");
            if per_group.ilp_objective > per_group_runs * (1.0 + 1e-9) {
                corrected += 1;
            }
        }
        assert!(corrected > 0, "no fixture's per-group plan shares a move across groups");
    }
}
