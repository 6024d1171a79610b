use crate::inter::{
    CachedCost, ClusterShape, CostTable, ImbalancePrune, InterError, StageCost, StageCostResult, SubmeshShape,
    SubmeshSpace, TableOptions,
};
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Latency = sum of per-layer weights / devices; counts calls.
struct Counting {
    weights: Vec<f64>,
    calls: AtomicUsize,
}

impl StageCost for Counting {
    fn cost(&self, layers: Range<usize>, submesh: SubmeshShape) -> Option<StageCostResult> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        let w: f64 = self.weights[layers].iter().sum();
        Some(StageCostResult {
            latency: w / submesh.devices() as f64,
            mem_param: w,
            mem_act: 1.0,
            logical_mesh: [1, submesh.devices()],
        })
    }
}

fn counting(weights: Vec<f64>) -> Counting {
    Counting { weights, calls: AtomicUsize::new(0) }
}

#[test]
fn memo_counts_hits() {
    let c = CachedCost::new(counting(vec![1.0; 4]));
    let s = SubmeshShape::new(1, 2);
    let a = c.cost(0..2, s);
    let b = c.cost(0..2, s);
    assert_eq!(a, b);
    let _ = c.cost(1..3, s);
    let st = c.stats();
    assert_eq!((st.lookups, st.queries, st.cache_hits, st.signature_hits), (3, 2, 1, 0));
    assert_eq!(c.inner().calls.load(Ordering::Relaxed), 2);
}

#[test]
fn signatures_share_structurally_identical_ranges() {
    // Layers 0 and 5 are special; 1..5 identical.
    let sig = vec![7, 1, 1, 1, 1, 9];
    let c = CachedCost::with_signatures(counting(vec![2.0, 1.0, 1.0, 1.0, 1.0, 3.0]), sig);
    let s = SubmeshShape::new(1, 1);
    let x = c.cost_options(1..3, s);
    let y = c.cost_options(2..4, s);
    let z = c.cost_options(3..5, s);
    assert_eq!(x, y);
    assert_eq!(y, z);
    let _ = c.cost_options(0..2, s);
    let st = c.stats();
    assert_eq!(st.queries, 2);
    assert_eq!(st.cache_hits, 2);
    assert_eq!(st.signature_hits, 2);
}

#[test]
fn table_build_sequential_and_parallel_agree() {
    let l = 12;
    let cluster = ClusterShape::new(2, 4);
    let sig: Vec<u64> = (0..l).map(|i| if i == 0 || i == l - 1 { i as u64 + 100 } else { 1 }).collect();
    let weights: Vec<f64> = sig.iter().map(|&s| s as f64).collect();
    let seq = CachedCost::with_signatures(counting(weights.clone()), sig.clone());
    let t1 = CostTable::build(&seq, l, cluster, &TableOptions::default()).unwrap();
    let par = CachedCost::with_signatures(counting(weights), sig);
    let opts = TableOptions { threads: 4, ..TableOptions::default() };
    let t2 = CostTable::build_parallel(&par, l, cluster, &opts).unwrap();
    let shapes = t1.shapes().len();
    let pairs = l * (l + 1) / 2 * shapes;
    for k in 0..l {
        for i in k + 1..=l {
            for s in 0..shapes {
                assert_eq!(t1.options(k..i, s), t2.options(k..i, s));
            }
        }
    }
    let (a, b) = (seq.stats(), par.stats());
    assert_eq!(a.lookups, pairs);
    assert_eq!(b.lookups, pairs);
    assert_eq!(a.queries, b.queries);
    assert_eq!(b.queries, par.inner().calls.load(Ordering::Relaxed));
    // Distinct signature sequences: ranges are determined by (starts at 0?, ends at L?, length).
    assert!(a.queries < pairs / 2, "{} of {pairs}", a.queries);
    assert_eq!(a.queries + a.cache_hits, pairs);
    assert!(b.wall_seconds >= 0.0 && a.oracle_seconds >= 0.0);
}

#[test]
fn imbalance_pruning_skips_queries() {
    let l = 8;
    let cluster = ClusterShape::new(1, 8);
    let c = CachedCost::new(counting(vec![1.0; l]));
    let opts = TableOptions {
        shapes: SubmeshSpace::PowerOfTwo,
        imbalance: Some(ImbalancePrune { layer_flops: vec![1.0; l], tolerance: 2.0 }),
        ..TableOptions::default()
    };
    let t = CostTable::build(&c, l, cluster, &opts).unwrap();
    let st = c.stats();
    assert!(st.pruned > 0);
    assert_eq!(st.lookups + st.pruned, l * (l + 1) / 2 * t.shapes().len());
    // Share per device is 1; 2 layers on 1 device (2 per device) kept, 3 layers pruned.
    let one = t.shape_index(SubmeshShape::new(1, 1)).unwrap();
    assert!(!t.options(0..2, one).is_empty());
    assert!(t.options(0..3, one).is_empty());
    let bad = TableOptions { imbalance: Some(ImbalancePrune { layer_flops: vec![1.0; 3], tolerance: 2.0 }), ..opts };
    assert!(matches!(CostTable::build(&c, l, cluster, &bad), Err(InterError::InvalidInput(_))));
}

#[test]
fn bad_oracle_answers_are_errors() {
    struct Bad;
    impl StageCost for Bad {
        fn cost(&self, _: Range<usize>, s: SubmeshShape) -> Option<StageCostResult> {
            Some(StageCostResult { latency: f64::NAN, mem_param: 0.0, mem_act: 0.0, logical_mesh: [1, s.devices()] })
        }
    }
    let c = CachedCost::new(Bad);
    assert!(matches!(
        CostTable::build(&c, 2, ClusterShape::new(1, 2), &TableOptions::default()),
        Err(InterError::InvalidInput(_))
    ));
    struct Mesh;
    impl StageCost for Mesh {
        fn cost(&self, _: Range<usize>, _: SubmeshShape) -> Option<StageCostResult> {
            Some(StageCostResult { latency: 1.0, mem_param: 0.0, mem_act: 0.0, logical_mesh: [3, 3] })
        }
    }
    let c = CachedCost::new(Mesh);
    assert!(matches!(
        CostTable::build(&c, 2, ClusterShape::new(1, 2), &TableOptions::default()),
        Err(InterError::InvalidInput(_))
    ));
}

/// A chain of layers: each layer costs its weight, each inner boundary of a range adds
/// `glue` (what planning neighbours together adds), per device. Composition from 2-layer
/// windows is exact on it; from 1-layer windows it misses the glue.
struct Chain {
    weights: Vec<f64>,
    glue: f64,
    calls: AtomicUsize,
    longest: AtomicUsize,
}

impl StageCost for Chain {
    fn cost(&self, layers: Range<usize>, submesh: SubmeshShape) -> Option<StageCostResult> {
        self.cost_options(layers, submesh).into_iter().next()
    }
    fn cost_options(&self, layers: Range<usize>, submesh: SubmeshShape) -> Vec<StageCostResult> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.longest.fetch_max(layers.len(), Ordering::Relaxed);
        let d = submesh.devices() as f64;
        let w: f64 = self.weights[layers.clone()].iter().sum();
        let inner = (layers.len() - 1) as f64 * self.glue;
        // Two plans per mesh, as the oracle's sharded-parameter variant gives.
        vec![
            StageCostResult {
                latency: (w + inner) / d,
                mem_param: w,
                mem_act: inner,
                logical_mesh: [1, submesh.devices()],
            },
            StageCostResult {
                latency: 2.0 * (w + inner) / d,
                mem_param: w / d,
                mem_act: inner,
                logical_mesh: [1, submesh.devices()],
            },
        ]
    }
}

fn chain(n: usize) -> Chain {
    Chain {
        weights: (0..n).map(|i| 1.0 + i as f64).collect(),
        glue: 0.5,
        calls: AtomicUsize::new(0),
        longest: AtomicUsize::new(0),
    }
}

#[test]
fn long_ranges_are_composed_from_windows() {
    let s = SubmeshShape::new(1, 2);
    let exact = chain(8);
    for window in [2, 3] {
        let c = CachedCost::new(chain(8)).with_composition(window);
        assert_eq!(c.composition_window(), Some(window));
        for (k, i) in [(0, 8), (1, 5), (3, 6), (2, 4)] {
            let got = c.cost_options(k..i, s);
            let want = exact.cost_options(k..i, s);
            assert_eq!(got.len(), 2);
            for (g, w) in got.iter().zip(&want) {
                assert!(
                    (g.latency - w.latency).abs() < 1e-12 && (g.mem_param - w.mem_param).abs() < 1e-12,
                    "{g:?} vs {w:?}"
                );
                assert!((g.mem_act - w.mem_act).abs() < 1e-12);
            }
            assert_eq!(c.cost(k..i, s), Some(want[0]));
        }
        assert!(c.inner().longest.load(Ordering::Relaxed) <= window, "the oracle saw only windows");
        let st = c.stats();
        assert!(st.composed > 0 && st.queries == c.inner().calls.load(Ordering::Relaxed), "{st:?}");
    }
    // One-layer windows: the plain sum, without the glue.
    let c = CachedCost::new(chain(8)).with_composition(1);
    let sum: f64 = (1..5).map(|i| 1.0 + i as f64).sum::<f64>() / 2.0;
    assert_eq!(c.cost_options(1..5, s)[0].latency, sum);
    assert_eq!(c.inner().longest.load(Ordering::Relaxed), 1);
    // 0 turns composition off.
    let c = CachedCost::new(chain(8)).with_composition(0);
    assert_eq!(c.composition_window(), None);
    let _ = c.cost_options(0..8, s);
    assert_eq!(c.inner().longest.load(Ordering::Relaxed), 8);
}

#[test]
fn a_parallel_table_with_composition_plans_each_window_once() {
    let cluster = ClusterShape::new(1, 4);
    let c = CachedCost::new(chain(10)).with_composition(2);
    let t =
        CostTable::build_parallel(&c, 10, cluster, &TableOptions { threads: 3, ..TableOptions::default() }).unwrap();
    let shapes = t.shapes().len();
    // Windows: 10 single layers and 9 pairs per shape, each planned once.
    assert_eq!(c.inner().calls.load(Ordering::Relaxed), 19 * shapes);
    let sequential = CachedCost::new(chain(10)).with_composition(2);
    let u = CostTable::build(&sequential, 10, cluster, &TableOptions::default()).unwrap();
    for k in 0..10 {
        for i in k + 1..=10 {
            for s in 0..shapes {
                assert_eq!(t.options(k..i, s), u.options(k..i, s));
            }
        }
    }
}
