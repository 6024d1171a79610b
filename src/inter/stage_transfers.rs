//! `cross-stage-cost=on`: what a stage pays per microbatch to hand its values to other stages,
//! priced by the cross-mesh resharding planner (src/resharding) in the chosen transfer mode.
//!
//! The neighbour a value goes to is not known while the DP prices a (layer range, submesh,
//! logical mesh) candidate, so each value is priced against a mirror: a stage of the same
//! submesh and logical mesh that wants the value in the same layout, on the next devices (the
//! placement puts neighbouring stages next to each other: the next hosts when the submesh fills
//! hosts, the next devices of the host otherwise). Its layout on this stage is the candidate's
//! own plan, so a replicated activation pays for its replicas under send-recv and once under
//! local all-gather or broadcast, as the planner prices it. The price depends on the candidate
//! alone, so the stage DP stays exact with it added to the stage's latency.

use crate::cluster::Cluster;
use crate::resharding::{plan, Layout, Mode, TensorDesc};
use crate::sharding::ShardingSpec;

/// One value the stage sends to other stages: its shape, element bytes and layout here.
pub struct SentValue<'a> {
    pub shape: &'a [i64],
    pub element_bytes: u64,
    pub spec: &'a ShardingSpec,
}

/// Seconds per microbatch for a stage on `devices` devices (logical mesh `logical_mesh`) to send
/// `values` to a mirror stage, under `mode`.
pub fn mirror_transfer_seconds(
    values: &[SentValue],
    devices: usize,
    logical_mesh: [usize; 2],
    cluster: &Cluster,
    mode: Mode,
) -> Result<f64, String> {
    let total = cluster.hosts * cluster.devices_per_host;
    if values.is_empty() || devices == 0 || devices >= total {
        return Ok(0.0);
    }
    let here: Vec<usize> = (0..devices).collect();
    let there: Vec<usize> = (0..devices).map(|d| (d + devices) % total).collect();
    let mut seconds = 0.0;
    for value in values {
        let tensor = TensorDesc { shape: value.shape.to_vec(), element_bytes: value.element_bytes };
        let src = Layout { devices: here.clone(), mesh: logical_mesh, spec: value.spec.clone() };
        let dst = Layout { devices: there.clone(), mesh: logical_mesh, spec: value.spec.clone() };
        seconds += plan(&tensor, &src, &dst, cluster, mode).map_err(|e| e.to_string())?.cost;
    }
    Ok(seconds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sharding::DimSharding;

    #[test]
    fn replicated_values_cost_less_under_local_all_gather_and_nothing_is_sent_by_a_whole_cluster_stage() {
        let cluster = Cluster::load("p3.16xlarge-x2").unwrap();
        let replicated = ShardingSpec::replicated(2);
        let sharded = ShardingSpec::new(vec![DimSharding::S1, DimSharding::R]).unwrap();
        let shape = [1024, 1024];
        let value = |spec| SentValue { shape: &shape, element_bytes: 4, spec };
        // A host of 8 sends a replicated 4 MiB activation to the next host.
        let send_recv = mirror_transfer_seconds(&[value(&replicated)], 8, [1, 8], &cluster, Mode::SendRecv).unwrap();
        let gather = mirror_transfer_seconds(&[value(&replicated)], 8, [1, 8], &cluster, Mode::LocalAllGather).unwrap();
        assert!(gather < send_recv / 4.0, "{gather} vs {send_recv}");
        // Sharded, each tile crosses once whatever the mode.
        let a = mirror_transfer_seconds(&[value(&sharded)], 8, [1, 8], &cluster, Mode::SendRecv).unwrap();
        let b = mirror_transfer_seconds(&[value(&sharded)], 8, [1, 8], &cluster, Mode::LocalAllGather).unwrap();
        assert!((a - b).abs() <= 1e-12 * a.max(1.0), "{a} vs {b}");
        // The same tensor costs the planner's price exactly.
        let tensor = TensorDesc { shape: shape.to_vec(), element_bytes: 4 };
        let layout = |devices: Vec<usize>| Layout { devices, mesh: [1, 8], spec: sharded.clone() };
        let direct = plan(&tensor, &layout((0..8).collect()), &layout((8..16).collect()), &cluster, Mode::SendRecv)
            .unwrap()
            .cost;
        assert_eq!(a, direct);
        assert_eq!(mirror_transfer_seconds(&[value(&sharded)], 16, [2, 8], &cluster, Mode::SendRecv).unwrap(), 0.0);
        assert_eq!(mirror_transfer_seconds(&[], 8, [1, 8], &cluster, Mode::SendRecv).unwrap(), 0.0);
    }
}
