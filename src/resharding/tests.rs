//! Hand-computed cases: tiles, the paper's local all-gather example, sender choice, costs,
//! errors.

use std::collections::BTreeMap;

use crate::cluster::{Cluster, DeviceSpec, LinkSpec};
use crate::resharding::*;
use crate::sharding::ShardingSpec;

/// `hosts` hosts of `per_host` devices; intra-host 100 B/s and 0.5 s, inter-host 10 B/s and 2 s.
pub(crate) fn cluster(hosts: usize, per_host: usize) -> Cluster {
    links(hosts, per_host, (100.0, 0.5), (10.0, 2.0))
}

pub(crate) fn links(hosts: usize, per_host: usize, intra: (f64, f64), inter: (f64, f64)) -> Cluster {
    let link = |(bandwidth_bytes_per_s, latency_s)| LinkSpec { bandwidth_bytes_per_s, latency_s };
    Cluster {
        name: "test".into(),
        hosts,
        devices_per_host: per_host,
        device: DeviceSpec {
            name: "dev".into(),
            memory_bytes: 1 << 30,
            peak_flops: BTreeMap::from([("f32".to_string(), 1e12)]),
            peak_flops_fallback: None,
            hbm_bytes_per_s: None,
        },
        intra_host: link(intra),
        inter_host: (hosts > 1).then(|| link(inter)),
        measured: None,
    }
}

fn layout(devices: &[usize], mesh: [usize; 2], spec: &str) -> Layout {
    Layout { devices: devices.to_vec(), mesh, spec: spec.parse::<ShardingSpec>().unwrap() }
}

fn f32s(shape: &[i64]) -> TensorDesc {
    TensorDesc { shape: shape.to_vec(), element_bytes: 4 }
}

fn slice(offset: &[i64], sizes: &[i64]) -> Slice {
    Slice { offset: offset.to_vec(), sizes: sizes.to_vec() }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// The elements of `tile` of a tensor of `shape` holding 0, 1, 2, ... in row-major order.
pub(crate) fn expected_tile(shape: &[i64], tile: &Slice) -> Vec<u64> {
    let mut out = Vec::new();
    if tile.is_empty() {
        return out;
    }
    let mut index = tile.offset.clone();
    loop {
        out.push(index.iter().zip(shape).fold(0u64, |acc, (&i, &n)| acc * n as u64 + i as u64));
        let mut d = index.len();
        loop {
            if d == 0 {
                return out;
            }
            d -= 1;
            index[d] += 1;
            if index[d] < tile.end(d) {
                break;
            }
            index[d] = tile.offset[d];
        }
    }
}

/// Runs `plan` on the tensor 0, 1, 2, ... and checks every destination device's tile.
pub(crate) fn check_delivers(tensor: &TensorDesc, src: &Layout, dst: &Layout, plan: &TransferPlan) {
    let n: i64 = tensor.shape.iter().product();
    let data: Vec<u64> = (0..n as u64).collect();
    let got = execute_on_host(&data, &tensor.shape, src, dst, plan).unwrap_or_else(|e| panic!("{e}\n{plan:#?}"));
    assert_eq!(got.len(), dst.devices.len());
    for (position, device) in dst.devices.iter().enumerate() {
        let tile = tile_of(dst, position, &tensor.shape).unwrap();
        assert_eq!(got[device].data, expected_tile(&tensor.shape, &tile), "device {device}");
        assert_eq!(got[device].slice, tile);
    }
}

#[test]
fn uneven_tiles_are_ceil_sized_and_clipped() {
    let l = layout(&[0, 1, 2, 3], [1, 4], "S1");
    let tiles: Vec<Slice> = (0..4).map(|p| tile_of(&l, p, &[10]).unwrap()).collect();
    assert_eq!(tiles, vec![slice(&[0], &[3]), slice(&[3], &[3]), slice(&[6], &[3]), slice(&[9], &[1])]);
    // 5 in 4 parts: chunks of 2, the last part empty.
    assert_eq!(tile_of(&l, 3, &[5]).unwrap(), slice(&[5], &[0]));
    assert_eq!(tile_of(&l, 2, &[5]).unwrap(), slice(&[4], &[1]));
    // S10 on 2x2: position 1 = (0, 1) holds part 1 * 2 + 0 = 2.
    let l = layout(&[0, 1, 2, 3], [2, 2], "S10R");
    assert_eq!(tile_of(&l, 1, &[8, 3]).unwrap(), slice(&[4, 0], &[2, 3]));
    assert!(matches!(tile_of(&l, 4, &[8, 3]), Err(ReshardingError::PositionOutOfRange { .. })));
}

/// The paper's case: S0 on 4 devices of host 0 to R on 4 devices of host 1.
#[test]
fn local_all_gather_sends_a_quarter_of_send_recv_across_hosts() {
    let c = cluster(2, 4);
    let t = f32s(&[8, 4]); // 128 bytes
    let src = layout(&[0, 1, 2, 3], [4, 1], "S0R");
    let dst = layout(&[4, 5, 6, 7], [2, 2], "RR");
    let sr = plan(&t, &src, &dst, &c, Mode::SendRecv).unwrap();
    let lag = plan(&t, &src, &dst, &c, Mode::LocalAllGather).unwrap();
    let bc = plan(&t, &src, &dst, &c, Mode::Broadcast).unwrap();
    assert_eq!(sr.bytes_across_hosts, 4 * 128);
    assert_eq!(lag.bytes_across_hosts, 128);
    assert_eq!(bc.bytes_across_hosts, 128);
    // Send/recv: host 1's link receives 512 bytes: 2 + 512 / 10.
    assert!(close(sr.cost, 53.2), "{}", sr.cost);
    // Local all-gather: split along dim 0 (size 8, the largest dividing by 4), device j gets
    // rows 2j..2j+2 from source device j; then a ring all-gather of 96 bytes per device on
    // host 1: (2 + 128 / 10) + (0.5 + 96 / 100).
    assert_eq!(lag.mode, Mode::LocalAllGather);
    assert_eq!(lag.gathers.len(), 1);
    let g = &lag.gathers[0];
    assert_eq!((g.devices.clone(), g.dim), (vec![4, 5, 6, 7], 0));
    assert_eq!(g.parts[2], slice(&[4, 0], &[2, 4]));
    let moves: Vec<(usize, Vec<usize>, Slice)> =
        lag.pieces.iter().map(|p| (p.src, p.dsts.clone(), p.slice.clone())).collect();
    assert_eq!(moves, (0..4).map(|j| (j, vec![4 + j], slice(&[2 * j as i64, 0], &[2, 4]))).collect::<Vec<_>>());
    assert!(close(lag.cost, 14.8 + 1.46), "{}", lag.cost);
    // Broadcast: each 32-byte tile goes once to host 1, then along 4 -> 5 -> 6 -> 7:
    // host 1 receives 128 bytes (2 + 12.8); devices 4, 5, 6 each forward 128 (0.5 + 1.28).
    assert!(bc.pieces.iter().all(|p| p.dsts == vec![4, 5, 6, 7]));
    assert!(close(bc.cost, 14.8), "{}", bc.cost);
    // Host 1 lacks the whole tensor: 2 + 128 / 10.
    assert!(close(sr.lower_bound, 14.8) && sr.lower_bound <= bc.cost);
    let auto = plan(&t, &src, &dst, &c, Mode::Auto).unwrap();
    assert_eq!(auto, bc);
    for p in [&sr, &lag, &bc] {
        check_delivers(&t, &src, &dst, p);
    }
}

#[test]
fn local_all_gather_falls_back_when_no_dimension_divides() {
    let c = cluster(2, 4);
    let src = layout(&[0, 1], [1, 2], "S1");
    let dst = layout(&[4, 5, 6], [1, 3], "R");
    // 6 elements over 3 replicas: chunks of 2.
    let t = f32s(&[6]);
    let lag = plan(&t, &src, &dst, &c, Mode::LocalAllGather).unwrap();
    assert_eq!((lag.mode, lag.fallback.is_none()), (Mode::LocalAllGather, true));
    assert_eq!(lag.gathers[0].parts[1], slice(&[2], &[2]));
    check_delivers(&t, &src, &dst, &lag);
    // 5 elements do not split in 3.
    let t = f32s(&[5]);
    let lag = plan(&t, &src, &dst, &c, Mode::LocalAllGather).unwrap();
    assert_eq!(lag.mode, Mode::SendRecv);
    assert!(lag.fallback.as_deref().unwrap().contains("divides"), "{lag:?}");
    let mut sr = plan(&t, &src, &dst, &c, Mode::SendRecv).unwrap();
    sr.fallback = lag.fallback.clone();
    assert_eq!(lag, sr);
    // No replication in the destination: send/recv, said so.
    let dst = layout(&[4, 5, 6], [1, 3], "S1");
    let lag = plan(&f32s(&[6]), &src, &dst, &c, Mode::LocalAllGather).unwrap();
    assert_eq!(lag.mode, Mode::SendRecv);
    assert!(lag.fallback.as_deref().unwrap().contains("replicates nothing"));
}

#[test]
fn uneven_local_all_gather_uses_padded_chunks() {
    // 7 rows in 2 parts: tiles of 4 and 3 rows; 2 replicas split the padded 4 rows in 2 + 2,
    // so the second tile's parts are 2 and 1 rows.
    let c = cluster(2, 4);
    let src = layout(&[0, 1, 2], [1, 3], "RS1");
    let dst = layout(&[4, 5, 6, 7], [2, 2], "S0R");
    let t = f32s(&[7, 3]);
    let lag = plan(&t, &src, &dst, &c, Mode::LocalAllGather).unwrap();
    assert_eq!(lag.mode, Mode::LocalAllGather);
    assert_eq!(lag.gathers[1].tile, slice(&[4, 0], &[3, 3]));
    assert_eq!(lag.gathers[1].parts, vec![slice(&[4, 0], &[2, 3]), slice(&[6, 0], &[1, 3])]);
    check_delivers(&t, &src, &dst, &lag);
}

#[test]
fn replicas_share_the_sending_and_the_host_link_is_preferred() {
    let c = cluster(2, 4);
    // Source R on devices 0, 1 (host 0); destination S0 on 4 devices of host 1: every piece
    // has two holders, the balanced plan alternates, the naive one sends all from device 0.
    let src = layout(&[0, 1], [1, 2], "R");
    let dst = layout(&[4, 5, 6, 7], [1, 4], "S1");
    let t = f32s(&[8]);
    let balanced = plan(&t, &src, &dst, &c, Mode::SendRecv).unwrap();
    let naive =
        plan_with(&t, &src, &dst, &c, Mode::SendRecv, PlanOptions { senders: SenderPolicy::FirstReplica }).unwrap();
    let senders: Vec<usize> = balanced.pieces.iter().map(|p| p.src).collect();
    assert_eq!(senders, vec![0, 1, 0, 1]);
    assert_eq!(balanced.traffic.sent_by_device(0), 16);
    assert_eq!(naive.traffic.sent_by_device(0), 32);
    assert!(naive.pieces.iter().all(|p| p.src == 0));

    // A replica on the destination's host is preferred to a less loaded remote one, and a
    // replica on the destination device itself is a local copy.
    let src = layout(&[0, 5], [2, 1], "R");
    let dst = layout(&[4, 5], [1, 2], "R");
    let p = plan(&t, &src, &dst, &c, Mode::SendRecv).unwrap();
    let moves: Vec<(usize, Vec<usize>)> = p.pieces.iter().map(|p| (p.src, p.dsts.clone())).collect();
    assert_eq!(moves, vec![(5, vec![4]), (5, vec![5])]);
    assert_eq!(p.bytes_across_hosts, 0);
    assert!(close(p.cost, 0.5 + 32.0 / 100.0));
    assert_eq!(p.lower_bound, 0.0);
    check_delivers(&t, &src, &dst, &p);
}

#[test]
fn identical_layouts_on_the_same_devices_cost_nothing() {
    let c = cluster(2, 4);
    let l = layout(&[3, 2, 1, 0, 4, 5], [2, 3], "S1S0");
    let t = f32s(&[5, 4]);
    for mode in Mode::CONCRETE {
        let p = plan(&t, &l, &l, &c, mode).unwrap();
        assert_eq!(p.cost, 0.0, "{mode}");
        assert!(p.pieces.iter().all(|p| p.dsts == vec![p.src]), "{mode}");
        check_delivers(&t, &l, &l, &p);
    }
}

#[test]
fn broadcast_enters_each_host_once() {
    // Destination R over 4 devices on 2 hosts; the source tile is on host 2.
    let c = cluster(3, 2);
    let src = layout(&[4], [1, 1], "R");
    let dst = layout(&[0, 1, 2, 3], [2, 2], "R");
    let t = f32s(&[10]);
    let bc = plan(&t, &src, &dst, &c, Mode::Broadcast).unwrap();
    assert_eq!(bc.pieces.len(), 1);
    // Chain 4 -> 0 -> 1 -> 2 -> 3: host 0 and host 1 each receive 40 bytes once.
    assert_eq!(bc.traffic.host_in, BTreeMap::from([(0, 40), (1, 40)]));
    assert_eq!(bc.traffic.host_out, BTreeMap::from([(0, 40), (2, 40)]));
    assert!(close(bc.cost, 2.0 + 4.0));
    let sr = plan(&t, &src, &dst, &c, Mode::SendRecv).unwrap();
    assert!(close(sr.cost, 2.0 + 16.0));
    check_delivers(&t, &src, &dst, &bc);
}

#[test]
fn a_gather_spanning_hosts_shares_their_links() {
    // Two groups {0, 2} and {1, 3} each span hosts 0 and 1; host 0 lacks the whole tensor
    // (source on host 2), so no plan beats 2 + 32 / 10.
    let c = cluster(3, 2);
    let src = layout(&[4], [1, 1], "R");
    let dst = layout(&[0, 1, 2, 3], [2, 2], "S1");
    let t = f32s(&[8]);
    let lag = plan(&t, &src, &dst, &c, Mode::LocalAllGather).unwrap();
    assert_eq!(lag.gathers.len(), 2);
    // Pieces: host 0 receives 8 + 8 bytes; the rings 0 <-> 2 and 1 <-> 3 bring 8 + 8 more.
    assert_eq!(lag.traffic.host_in[&0], 16);
    assert_eq!(lag.gather_traffic.host_in[&0], 16);
    assert_eq!(lag.gather_bytes_across_hosts, 32);
    assert!(close(lag.lower_bound, 2.0 + 3.2));
    assert!(lag.cost >= lag.lower_bound);
    check_delivers(&t, &src, &dst, &lag);
}

#[test]
fn rank_zero_and_empty_tensors() {
    let c = cluster(2, 2);
    let src = layout(&[0, 1], [1, 2], "[]");
    let dst = layout(&[2, 3], [2, 1], "[]");
    let t = f32s(&[]);
    for mode in Mode::CONCRETE {
        let p = plan(&t, &src, &dst, &c, mode).unwrap();
        check_delivers(&t, &src, &dst, &p);
    }
    let lag = plan(&t, &src, &dst, &c, Mode::LocalAllGather).unwrap();
    assert_eq!(lag.mode, Mode::SendRecv);
    let src = layout(&[0, 1], [1, 2], "S1R");
    let dst = layout(&[2, 3], [2, 1], "RS0");
    let t = f32s(&[0, 3]);
    let p = plan(&t, &src, &dst, &c, Mode::Auto).unwrap();
    assert!(p.pieces.is_empty() && p.cost == 0.0 && p.lower_bound == 0.0);
    check_delivers(&t, &src, &dst, &p);
}

#[test]
fn modes_have_a_text_form() {
    for m in [Mode::SendRecv, Mode::LocalAllGather, Mode::Broadcast, Mode::Auto] {
        assert_eq!(m.to_string().parse::<Mode>().unwrap(), m);
    }
    assert_eq!("local-all-gather".parse::<Mode>().unwrap(), Mode::LocalAllGather);
    assert!("sendrecv".parse::<Mode>().is_err());
    assert_eq!(serde_json::to_string(&Mode::SendRecv).unwrap(), "\"send-recv\"");
}

#[test]
fn bad_inputs_are_errors() {
    let c = cluster(2, 2);
    let ok = layout(&[0, 1], [1, 2], "S1");
    let t = f32s(&[4]);
    let run = |t: &TensorDesc, src: &Layout, dst: &Layout| plan(t, src, dst, &c, Mode::Auto);
    assert!(matches!(run(&f32s(&[4, 4]), &ok, &ok), Err(ReshardingError::RankMismatch { .. })));
    assert!(matches!(run(&t, &layout(&[0, 1, 2], [1, 2], "S1"), &ok), Err(ReshardingError::DeviceCount { .. })));
    assert!(matches!(run(&t, &ok, &layout(&[], [0, 2], "S1")), Err(ReshardingError::EmptyMesh { .. })));
    assert!(matches!(
        run(&t, &ok, &layout(&[2, 2], [1, 2], "S1")),
        Err(ReshardingError::DuplicateDevice { device: 2, .. })
    ));
    assert!(matches!(
        run(&t, &layout(&[0, 4], [1, 2], "S1"), &ok),
        Err(ReshardingError::DeviceOutsideCluster { device: 4, .. })
    ));
    let zero = TensorDesc { shape: vec![4], element_bytes: 0 };
    assert!(matches!(run(&zero, &ok, &ok), Err(ReshardingError::ZeroElementSize)));
    assert!(matches!(run(&f32s(&[-1]), &ok, &ok), Err(ReshardingError::NegativeDim { dim: 0, .. })));
    assert!(matches!(
        run(&f32s(&[i64::MAX, 4]), &layout(&[0, 1], [1, 2], "RS1"), &layout(&[2, 3], [1, 2], "S1R")),
        Err(ReshardingError::Overflow(_))
    ));
    // A mesh whose axes multiply past usize is a count mismatch, not a panic.
    assert!(matches!(run(&t, &layout(&[0, 1], [usize::MAX, 2], "S1"), &ok), Err(ReshardingError::DeviceCount { .. })));
    let mut broken = c.clone();
    broken.intra_host.bandwidth_bytes_per_s = 0.0;
    assert!(matches!(plan(&t, &ok, &ok, &broken, Mode::SendRecv), Err(ReshardingError::Cluster(_))));
    assert!(execute_on_host(&[1u8, 2, 3], &[4], &ok, &ok, &plan(&t, &ok, &ok, &c, Mode::SendRecv).unwrap()).is_err());
}

#[test]
fn the_simulator_rejects_plans_that_do_not_deliver() {
    let c = cluster(2, 2);
    let src = layout(&[0, 1], [1, 2], "S1");
    let dst = layout(&[2, 3], [1, 2], "R");
    let t = f32s(&[4]);
    let data: Vec<u32> = (0..4).collect();
    let good = plan(&t, &src, &dst, &c, Mode::LocalAllGather).unwrap();
    assert!(execute_on_host(&data, &t.shape, &src, &dst, &good).is_ok());
    let mut missing = good.clone();
    missing.pieces.pop();
    assert!(execute_on_host(&data, &t.shape, &src, &dst, &missing).is_err());
    let mut wrong_sender = good.clone();
    wrong_sender.pieces[0].src = 1;
    assert!(execute_on_host(&data, &t.shape, &src, &dst, &wrong_sender).is_err());
    let mut overlapping_parts = good.clone();
    overlapping_parts.gathers[0].parts[1].offset[0] -= 1;
    assert!(execute_on_host(&data, &t.shape, &src, &dst, &overlapping_parts).is_err());
    let mut no_gather = good;
    no_gather.gathers.clear();
    assert!(execute_on_host(&data, &t.shape, &src, &dst, &no_gather).is_err());
}
