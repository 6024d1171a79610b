// Layouts that meet in other ways (send-recv on p3.16xlarge-x2, two hosts of 8 GPUs).
// RUN: alpa-opt %s -split-input-file --alpa-cross-mesh-resharding="cluster=p3.16xlarge-x2 mode=send-recv" | FileCheck %s

// Same tiles on other devices: each destination device receives its tile whole from the one
// source device that holds the same tile.
// CHECK-LABEL: func.func public @same_tiles
// CHECK: mode = "send-recv", pieces = [{dsts = array<i64: 4>, offset = array<i64: 0, 0>, sizes = array<i64: 4, 16>, src = 0 : i64}, {dsts = array<i64: 5>, offset = array<i64: 4, 0>, sizes = array<i64: 4, 16>, src = 1 : i64}]
module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=1]>, sym_name = "a"}> : () -> ()
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=1]>, sym_name = "b"}> : () -> ()
  func.func public @same_tiles(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = "alpa.transfer"(%arg0) {dst_devices = array<i64: 4, 5>, dst_logical_mesh = array<i64: 2, 1>, dst_sharding = #sdy.sharding<@b, [{"x"}, {}]>, dst_stage = 1 : i64, src_devices = array<i64: 0, 1>, src_logical_mesh = array<i64: 2, 1>, src_sharding = #sdy.sharding<@a, [{"x"}, {}]>, src_stage = 0 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

// Different logical meshes and a replicated source: every tile of the 1x4 [S1] destination has
// four holders in the 2x2 replicated source; load balancing gives each source device one piece.
// CHECK-LABEL: func.func public @replicated_source
// CHECK: mode = "send-recv", pieces = [{dsts = array<i64: 12>, offset = array<i64: 0, 0>, sizes = array<i64: 8, 4>, src = 0 : i64}, {dsts = array<i64: 13>, offset = array<i64: 0, 4>, sizes = array<i64: 8, 4>, src = 1 : i64}, {dsts = array<i64: 14>, offset = array<i64: 0, 8>, sizes = array<i64: 8, 4>, src = 2 : i64}, {dsts = array<i64: 15>, offset = array<i64: 0, 12>, sizes = array<i64: 8, 4>, src = 3 : i64}]
module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "a"}> : () -> ()
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=1, "y"=4]>, sym_name = "b"}> : () -> ()
  func.func public @replicated_source(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = "alpa.transfer"(%arg0) {dst_devices = array<i64: 12, 13, 14, 15>, dst_logical_mesh = array<i64: 1, 4>, dst_sharding = #sdy.sharding<@b, [{}, {"y"}]>, dst_stage = 1 : i64, src_devices = array<i64: 0, 1, 2, 3>, src_logical_mesh = array<i64: 2, 2>, src_sharding = #sdy.sharding<@a, [{}, {}]>, src_stage = 0 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

// Overlapping device sets: devices 2 and 3 already hold what they need and copy it locally;
// the two other receivers are served by the source devices with nothing else to send.
// CHECK-LABEL: func.func public @overlapping
// CHECK: bytes_across_hosts = 0 : i64
// CHECK-SAME: pieces = [{dsts = array<i64: 2>, offset = array<i64: 0, 0>, sizes = array<i64: 8, 16>, src = 2 : i64}, {dsts = array<i64: 3>, offset = array<i64: 0, 0>, sizes = array<i64: 8, 16>, src = 3 : i64}, {dsts = array<i64: 4>, offset = array<i64: 0, 0>, sizes = array<i64: 8, 16>, src = 0 : i64}, {dsts = array<i64: 5>, offset = array<i64: 0, 0>, sizes = array<i64: 8, 16>, src = 1 : i64}]
module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=1, "y"=4]>, sym_name = "a"}> : () -> ()
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=1, "y"=4]>, sym_name = "b"}> : () -> ()
  func.func public @overlapping(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = "alpa.transfer"(%arg0) {dst_devices = array<i64: 2, 3, 4, 5>, dst_logical_mesh = array<i64: 1, 4>, dst_sharding = #sdy.sharding<@b, [{}, {}]>, dst_stage = 1 : i64, src_devices = array<i64: 0, 1, 2, 3>, src_logical_mesh = array<i64: 1, 4>, src_sharding = #sdy.sharding<@a, [{}, {}]>, src_stage = 0 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}
