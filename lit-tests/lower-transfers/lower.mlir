// alpa-lower-transfers turns each planned transfer into XLA programs. The [S0, S1] tensor on the
// 2x2 mesh of host 0 (devices 0..3) goes, by local all-gather, to the replicated 1x4 mesh of
// host 1 (devices 8..11):
// - @main calls @transfer_0, the identity on the value, which names its programs and keeps the
//   plan's description;
// - @transfer_0_send runs on the union of both device sets (8 partitions, sources first); two
//   rounds of collective_permute (one per source-tile row) each deliver a 4x4 piece to every
//   destination device, each with its own channel;
// - @transfer_0_gather runs on the destination devices: one all_gather along dimension 1 in the
//   replica group rebuilds each device's 8x16 tile from its 8x4 part.
// RUN: alpa-opt %S/../cross-mesh-resharding/modes.mlir --alpa-cross-mesh-resharding="cluster=p3.16xlarge-x2 mode=local-all-gather" --alpa-lower-transfers | FileCheck %s
// Send-recv has no gather program; each destination device receives four 4x8 pieces, so four
// rounds of four pairs.
// RUN: alpa-opt %S/../cross-mesh-resharding/modes.mlir --alpa-cross-mesh-resharding="cluster=p3.16xlarge-x2 mode=send-recv" --alpa-lower-transfers | FileCheck %s --check-prefix=SEND
// Broadcast: each source tile enters host 1 once, at a different device per tile (one round of
// four pairs), and each of those devices relays it from its destination buffer to the three
// others of its host (three more rounds).
// RUN: alpa-opt %S/../cross-mesh-resharding/modes.mlir --alpa-cross-mesh-resharding="cluster=p3.16xlarge-x2 mode=broadcast" --alpa-lower-transfers | FileCheck %s --check-prefix=BCAST

// CHECK-LABEL: func.func private @transfer_0_send(%arg0: tensor<8x4x8xf32> {mhlo.sharding = "{devices=[8,1,1]<=[8]}"}) -> (tensor<8x8x4xf32> {mhlo.sharding = "{devices=[8,1,1]<=[8]}"}) attributes {alpa.devices = array<i64: 0, 1, 2, 3, 8, 9, 10, 11>}
// CHECK: call_target_name = "SPMDFullToShardShape"{{.*}}{mhlo.sharding = "{manual}"} : (tensor<8x4x8xf32>) -> tensor<1x4x8xf32>
// CHECK: "stablehlo.partition_id"
// CHECK: "stablehlo.collective_permute"({{.*}}) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<{{\[\[0, [4-7]\], \[1, [4-7]\], \[2, [4-7]\], \[3, [4-7]\]\]}}> : tensor<4x2xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: "stablehlo.collective_permute"({{.*}}) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, source_target_pairs = dense<{{\[\[0, [4-7]\], \[1, [4-7]\], \[2, [4-7]\], \[3, [4-7]\]\]}}> : tensor<4x2xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NOT: "stablehlo.collective_permute"
// CHECK: call_target_name = "SPMDShardToFullShape"{{.*}} : (tensor<1x8x4xf32>) -> tensor<8x8x4xf32>
// CHECK-LABEL: func.func private @transfer_0_gather(%arg0: tensor<4x8x4xf32> {{.*}}) -> (tensor<4x8x16xf32> {{.*}}) attributes {alpa.devices = array<i64: 8, 9, 10, 11>}
// CHECK: "stablehlo.all_gather"({{.*}}) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<{{\[\[0, 1, 2, 3\]\]}}> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<8x4xf32>) -> tensor<8x16xf32>
// CHECK-LABEL: func.func private @transfer_0(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-SAME: alpa.dst_devices = array<i64: 8, 9, 10, 11>
// CHECK-SAME: alpa.gather_program = @transfer_0_gather
// CHECK-SAME: alpa.mode = "local-all-gather"
// CHECK-SAME: alpa.send_program = @transfer_0_send
// CHECK-SAME: alpa.src_devices = array<i64: 0, 1, 2, 3>
// CHECK-NEXT: return %arg0
// CHECK-LABEL: func.func public @main
// CHECK-NEXT: call @transfer_0(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NOT: alpa.transfer

// SEND-LABEL: func.func private @transfer_0_send
// SEND-COUNT-4: "stablehlo.collective_permute"({{.*}}) <{channel_handle = #stablehlo.channel_handle<handle = {{[1-4]}}, type = 1>, source_target_pairs = dense<{{.*}}> : tensor<4x2xi64>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
// SEND-NOT: "stablehlo.collective_permute"
// SEND-NOT: _gather
// SEND-LABEL: func.func private @transfer_0(
// SEND-SAME: alpa.mode = "send-recv"

// BCAST-LABEL: func.func private @transfer_0_send
// BCAST: source_target_pairs = dense<{{\[\[0, [4-7]\], \[1, [4-7]\], \[2, [4-7]\], \[3, [4-7]\]\]}}>
// BCAST-COUNT-3: source_target_pairs = dense<{{\[\[4, [5-7]\], \[5, [4-7]\], \[6, [4-7]\], \[7, [4-6]\]\]}}>
// BCAST-NOT: "stablehlo.collective_permute"
// BCAST-LABEL: func.func private @transfer_0(
// BCAST-SAME: alpa.mode = "broadcast"
