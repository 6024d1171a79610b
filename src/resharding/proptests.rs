//! Property tests over random shapes (some dimensions not divisible, some empty), 1-D and 2-D
//! meshes, specs (replicated, 2-D, S01/S10), device sets that are disjoint, overlapping or the
//! same, and clusters of 1 to 4 hosts.

use std::collections::BTreeSet;

use proptest::prelude::*;

use crate::cluster::Cluster;
use crate::resharding::cost::host_of;
use crate::resharding::tests::{check_delivers, links};
use crate::resharding::*;
use crate::rng::SplitMix64;
use crate::sharding::{DimSharding, ShardingSpec};

#[derive(Clone, Debug)]
struct Case {
    tensor: TensorDesc,
    src: Layout,
    dst: Layout,
    cluster: Cluster,
}

/// Which mesh axis shards which dimension: (axis 0's dim, axis 1's dim, axis 1 major when both
/// shard the same dim).
type SpecChoice = (Option<usize>, Option<usize>, bool);

fn spec_of(rank: usize, (a0, a1, axis1_major): SpecChoice) -> ShardingSpec {
    let mut dims = vec![DimSharding::R; rank];
    let (a0, a1) = (a0.filter(|&d| d < rank), a1.filter(|&d| d < rank));
    if let Some(d) = a0 {
        dims[d] = DimSharding::S0;
    }
    if let Some(d) = a1 {
        dims[d] = match (a0 == Some(d), axis1_major) {
            (false, _) => DimSharding::S1,
            (true, false) => DimSharding::S01,
            (true, true) => DimSharding::S10,
        };
    }
    ShardingSpec::new(dims).expect("each axis shards one dim")
}

fn mesh() -> impl Strategy<Value = [usize; 2]> {
    // Mostly powers of two, as real meshes are (and as local all-gather needs to split tiles).
    let axis = || prop_oneof![3 => prop::sample::select(vec![1usize, 2, 4, 8]), 1 => 1usize..=8];
    (axis(), axis(), any::<bool>()).prop_map(|(n0, n1, one_d)| if one_d { [1, n1] } else { [n0, n1] })
}

fn spec_choice() -> impl Strategy<Value = SpecChoice> {
    (prop::option::of(0usize..4), prop::option::of(0usize..4), any::<bool>())
}

#[derive(Clone, Copy, Debug)]
enum Devices {
    Disjoint,
    Overlapping,
    /// The destination uses the source mesh and devices (possibly another spec).
    Same,
}

fn case() -> impl Strategy<Value = Case> {
    // Sizes like 8, 12, 24 divide by most part and replica counts (local all-gather applies);
    // 1..=9 gives uneven tiles; 0 gives empty ones.
    let dim = prop_oneof![10 => 1i64..=9, 6 => prop::sample::select(vec![8i64, 12, 16, 24]), 1 => Just(0i64)];
    let devices = prop_oneof![Just(Devices::Disjoint), Just(Devices::Overlapping), Just(Devices::Same)];
    (
        prop::collection::vec(dim, 0..=4),
        (mesh(), mesh(), spec_choice(), spec_choice(), any::<bool>(), any::<bool>()),
        (devices, any::<bool>(), any::<u64>()),
        (1usize..=4, 0usize..=2, prop::sample::select(vec![1u64, 2, 4, 8])),
        (10.0f64..1000.0, 0.0f64..1.0, 1.0f64..100.0, 0.0f64..5.0),
    )
        .prop_map(
            |(
                shape,
                (src_mesh, dst_mesh, src_spec, dst_spec, same_spec, dst_replicates),
                (devices, contiguous, seed),
                (hosts, spare, element_bytes),
                (intra_bw, intra_lat, inter_bw, inter_lat),
            )| {
                let rank = shape.len();
                let dst_mesh = if matches!(devices, Devices::Same) { src_mesh } else { dst_mesh };
                let (n_src, n_dst) = (src_mesh[0] * src_mesh[1], dst_mesh[0] * dst_mesh[1]);
                let needed = match devices {
                    Devices::Disjoint => n_src + n_dst,
                    _ => n_src.max(n_dst),
                };
                let per_host = needed.div_ceil(hosts) + spare;
                let cluster = links(hosts, per_host, (intra_bw, intra_lat), (inter_bw, inter_lat));
                let mut rng = SplitMix64::new(seed);
                let mut pool: Vec<usize> = (0..hosts * per_host).collect();
                if !contiguous {
                    shuffle(&mut pool, &mut rng);
                }
                let src_devices = pool[..n_src].to_vec();
                let dst_devices = match devices {
                    Devices::Disjoint => pool[n_src..n_src + n_dst].to_vec(),
                    Devices::Same => src_devices.clone(),
                    Devices::Overlapping => {
                        shuffle(&mut pool, &mut rng);
                        pool[..n_dst].to_vec()
                    }
                };
                let src_spec = spec_of(rank, src_spec);
                // Half the destinations leave their larger mesh axis unused: tiles replicated there.
                let dst_spec = match (same_spec, dst_replicates) {
                    (true, _) => src_spec.clone(),
                    (false, true) if dst_mesh[0] > dst_mesh[1] => spec_of(rank, (None, dst_spec.1, false)),
                    (false, true) => spec_of(rank, (dst_spec.0, None, false)),
                    (false, false) => spec_of(rank, dst_spec),
                };
                Case {
                    tensor: TensorDesc { shape, element_bytes },
                    src: Layout { devices: src_devices, mesh: src_mesh, spec: src_spec },
                    dst: Layout { devices: dst_devices, mesh: dst_mesh, spec: dst_spec },
                    cluster,
                }
            },
        )
}

fn shuffle(v: &mut [usize], rng: &mut SplitMix64) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i + 1));
    }
}

fn plan_of(case: &Case, mode: Mode, senders: SenderPolicy) -> TransferPlan {
    plan_with(&case.tensor, &case.src, &case.dst, &case.cluster, mode, PlanOptions { senders })
        .unwrap_or_else(|e| panic!("{e} for {case:?}"))
}

fn most_sent_by_one_device(p: &TransferPlan) -> u64 {
    p.traffic.device_sent.values().copied().max().unwrap_or(0)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn every_mode_delivers_exactly_the_destination_layout(case in case()) {
        for mode in [Mode::SendRecv, Mode::LocalAllGather, Mode::Broadcast, Mode::Auto] {
            for senders in [SenderPolicy::Balanced, SenderPolicy::FirstReplica] {
                let p = plan_of(&case, mode, senders);
                prop_assert_ne!(p.mode, Mode::Auto);
                prop_assert!(p.mode == Mode::Broadcast || p.pieces.iter().all(|x| x.dsts.len() == 1));
                prop_assert!(p.mode == Mode::LocalAllGather || p.gathers.is_empty());
                check_delivers(&case.tensor, &case.src, &case.dst, &p);
            }
        }
    }

    #[test]
    fn balanced_senders_never_load_a_device_or_the_hosts_more_than_the_first_replica(case in case()) {
        for mode in [Mode::SendRecv, Mode::LocalAllGather] {
            let balanced = plan_of(&case, mode, SenderPolicy::Balanced);
            let naive = plan_of(&case, mode, SenderPolicy::FirstReplica);
            prop_assert!(most_sent_by_one_device(&balanced) <= most_sent_by_one_device(&naive),
                "{mode}: {:?} vs {:?}", balanced.traffic.device_sent, naive.traffic.device_sent);
            prop_assert!(balanced.bytes_across_hosts <= naive.bytes_across_hosts, "{mode}");
        }
    }

    #[test]
    fn local_all_gather_sends_each_byte_across_hosts_once_per_group(case in case()) {
        let lag = plan_of(&case, Mode::LocalAllGather, SenderPolicy::Balanced);
        let sr = plan_of(&case, Mode::SendRecv, SenderPolicy::Balanced);
        prop_assert!(lag.bytes_across_hosts <= sr.bytes_across_hosts);
        let host = |d: usize| host_of(&case.cluster, d);
        for g in &lag.gathers {
            let members: BTreeSet<usize> = g.devices.iter().copied().collect();
            let crossing: u64 = lag.pieces.iter()
                .filter(|p| members.contains(&p.dsts[0]) && host(p.src) != host(p.dsts[0]))
                .map(|p| p.slice.volume().unwrap() * case.tensor.element_bytes)
                .sum();
            prop_assert!(crossing <= g.tile.volume().unwrap() * case.tensor.element_bytes);
        }
        if lag.mode == Mode::SendRecv {
            prop_assert!(lag.fallback.is_some());
        }
    }

    #[test]
    fn cost_is_at_least_the_lower_bound_and_auto_picks_the_cheapest(case in case()) {
        let plans: Vec<TransferPlan> = Mode::CONCRETE.iter().map(|&m| plan_of(&case, m, SenderPolicy::Balanced)).collect();
        for p in &plans {
            prop_assert!(p.cost >= p.lower_bound, "{}: {} < {}", p.mode, p.cost, p.lower_bound);
            prop_assert!(p.cost.is_finite());
        }
        let naive = plan_of(&case, Mode::Broadcast, SenderPolicy::FirstReplica);
        prop_assert!(naive.cost >= naive.lower_bound);
        let auto = plan_of(&case, Mode::Auto, SenderPolicy::Balanced);
        let cheapest = plans.iter().map(|p| p.cost).fold(f64::INFINITY, f64::min);
        let first_cheapest = plans.iter().find(|p| p.cost == cheapest).unwrap();
        prop_assert_eq!(&auto, first_cheapest);
        // Deterministic: the same inputs give the same plan.
        prop_assert_eq!(&auto, &plan_of(&case, Mode::Auto, SenderPolicy::Balanced));
    }

    /// Arbitrary (mostly invalid) inputs: an error or a plan, never a panic.
    #[test]
    fn never_panics(
        shape in prop::collection::vec(-2i64..6, 0..4),
        src_devices in prop::collection::vec(0usize..10, 0..6),
        dst_devices in prop::collection::vec(0usize..10, 0..6),
        src_mesh in (0usize..4, 0usize..4),
        dst_mesh in (0usize..4, 0usize..4),
        specs in (spec_choice(), spec_choice(), 0usize..4, 0usize..4),
        element_bytes in 0u64..3,
        hosts in 1usize..3,
    ) {
        let (src_spec, dst_spec, src_rank, dst_rank) = specs;
        let layout = |devices: Vec<usize>, (n0, n1): (usize, usize), spec, rank| Layout {
            devices, mesh: [n0, n1], spec: spec_of(rank, spec),
        };
        let src = layout(src_devices, src_mesh, src_spec, src_rank);
        let dst = layout(dst_devices, dst_mesh, dst_spec, dst_rank);
        let tensor = TensorDesc { shape, element_bytes };
        let cluster = links(hosts, 4, (100.0, 0.5), (10.0, 2.0));
        for mode in [Mode::SendRecv, Mode::LocalAllGather, Mode::Broadcast, Mode::Auto] {
            if let Ok(p) = plan(&tensor, &src, &dst, &cluster, mode) {
                check_delivers(&tensor, &src, &dst, &p);
            }
        }
        let _ = tile_of(&src, 0, &tensor.shape);
    }
}
