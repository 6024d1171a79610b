// alpa-cross-mesh-resharding on a 2x2 mesh of host 0 sending an [S0, S1] tensor to a replicated
// 1x4 mesh of host 1 (p3.16xlarge-x2: 8 GPUs per host), in every mode.
// send-recv: every destination device receives its whole tile, 4 pieces each, 16 in all, and
// 4 x 512 bytes cross the hosts.
// RUN: alpa-opt %s --alpa-cross-mesh-resharding="cluster=p3.16xlarge-x2 mode=send-recv" | FileCheck %s --check-prefix=SEND
// local all-gather (paper Fig. 9): each destination device receives a quarter of the tile (its
// column block, from the two sources that hold it), the tensor crosses the hosts once, and one
// all-gather along dimension 1 inside the destination group rebuilds the tile.
// RUN: alpa-opt %s --alpa-cross-mesh-resharding="cluster=p3.16xlarge-x2 mode=local-all-gather" | FileCheck %s --check-prefix=LAG
// broadcast: each source tile goes once to the whole destination group, entering host 1 once:
// `from` names each receiver's sender, the source for one device of host 1 (a different one per
// tile), which relays it to the three others.
// RUN: alpa-opt %s --alpa-cross-mesh-resharding="cluster=p3.16xlarge-x2 mode=broadcast" | FileCheck %s --check-prefix=BCAST
// auto takes the cheapest under the cluster model: here broadcast, at the lower bound.
// RUN: alpa-opt %s --alpa-cross-mesh-resharding="cluster=p3.16xlarge-x2" | FileCheck %s --check-prefix=AUTO

// SEND: "alpa.transfer_plan"(%arg0) {bytes_across_hosts = 2048 : i64, cost = {{.*}}, gathers = [], lower_bound = {{.*}}, mode = "send-recv", pieces = [{dsts = array<i64: 8>, offset = array<i64: 0, 0>, sizes = array<i64: 4, 8>, src = 0 : i64}, {dsts = array<i64: 8>, offset = array<i64: 0, 8>, sizes = array<i64: 4, 8>, src = 1 : i64}, {dsts = array<i64: 8>, offset = array<i64: 4, 0>, sizes = array<i64: 4, 8>, src = 2 : i64}, {dsts = array<i64: 8>, offset = array<i64: 4, 8>, sizes = array<i64: 4, 8>, src = 3 : i64}, {dsts = array<i64: 9>,
// SEND-SAME: {dsts = array<i64: 11>, offset = array<i64: 4, 8>, sizes = array<i64: 4, 8>, src = 3 : i64}]
// SEND-NOT: alpa.transfer"

// LAG: "alpa.transfer_plan"(%arg0) {bytes_across_hosts = 512 : i64, {{.*}} gathers = [{devices = array<i64: 8, 9, 10, 11>, dim = 1 : i64, offset = array<i64: 0, 0>, parts = [{offset = array<i64: 0, 0>, sizes = array<i64: 8, 4>}, {offset = array<i64: 0, 4>, sizes = array<i64: 8, 4>}, {offset = array<i64: 0, 8>, sizes = array<i64: 8, 4>}, {offset = array<i64: 0, 12>, sizes = array<i64: 8, 4>}], sizes = array<i64: 8, 16>}], {{.*}} mode = "local-all-gather", pieces = [{dsts = array<i64: 8>, offset = array<i64: 0, 0>, sizes = array<i64: 4, 4>, src = 0 : i64}, {dsts = array<i64: 8>, offset = array<i64: 4, 0>, sizes = array<i64: 4, 4>, src = 2 : i64}, {dsts = array<i64: 9>, offset = array<i64: 0, 4>, sizes = array<i64: 4, 4>, src = 0 : i64}, {dsts = array<i64: 9>, offset = array<i64: 4, 4>, sizes = array<i64: 4, 4>, src = 2 : i64}, {dsts = array<i64: 10>, offset = array<i64: 0, 8>, sizes = array<i64: 4, 4>, src = 1 : i64}, {dsts = array<i64: 10>, offset = array<i64: 4, 8>, sizes = array<i64: 4, 4>, src = 3 : i64}, {dsts = array<i64: 11>, offset = array<i64: 0, 12>, sizes = array<i64: 4, 4>, src = 1 : i64}, {dsts = array<i64: 11>, offset = array<i64: 4, 12>, sizes = array<i64: 4, 4>, src = 3 : i64}]

// BCAST: "alpa.transfer_plan"(%arg0) {bytes_across_hosts = 512 : i64, {{.*}} mode = "broadcast", pieces = [{dsts = array<i64: 8, 9, 10, 11>, from = array<i64: 0, 8, 8, 8>, offset = array<i64: 0, 0>, sizes = array<i64: 4, 8>, src = 0 : i64}, {dsts = array<i64: 8, 9, 10, 11>, from = array<i64: 9, 1, 9, 9>, offset = array<i64: 0, 8>, sizes = array<i64: 4, 8>, src = 1 : i64}, {dsts = array<i64: 8, 9, 10, 11>, from = array<i64: 10, 10, 2, 10>, offset = array<i64: 4, 0>, sizes = array<i64: 4, 8>, src = 2 : i64}, {dsts = array<i64: 8, 9, 10, 11>, from = array<i64: 11, 11, 11, 3>, offset = array<i64: 4, 8>, sizes = array<i64: 4, 8>, src = 3 : i64}]

// AUTO: cost = [[COST:.*]] : f64, {{.*}} lower_bound = {{.*}}, mode = "broadcast"

module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "stage0_mesh"}> : () -> ()
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=1, "y"=4]>, sym_name = "stage1_mesh"}> : () -> ()
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = "alpa.transfer"(%arg0) {dst_devices = array<i64: 8, 9, 10, 11>, dst_logical_mesh = array<i64: 1, 4>, dst_sharding = #sdy.sharding<@stage1_mesh, [{}, {}]>, dst_stage = 1 : i64, src_devices = array<i64: 0, 1, 2, 3>, src_logical_mesh = array<i64: 2, 2>, src_sharding = #sdy.sharding<@stage0_mesh, [{"x"}, {"y"}]>, src_stage = 0 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}
