// RUN: not alpa-opt --alpa-cluster-layers="layers=2 delta=0" %s 2>&1 | FileCheck %s --check-prefix=DELTA
// RUN: not alpa-opt --alpa-cluster-layers="layers=many" %s 2>&1 | FileCheck %s --check-prefix=LAYERS
// RUN: not alpa-opt --alpa-cluster-layers="layers=9" %s 2>&1 | FileCheck %s --check-prefix=LAYERS
// RUN: not alpa-opt --alpa-cluster-layers="delta=-1" %s 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not alpa-opt --alpa-cluster-layers="devices=0" %s 2>&1 | FileCheck %s --check-prefix=DEVICES
// A heavy op next to a tiny one cannot be split evenly without slack.
// DELTA: error: alpa-cluster-layers: no clustering into 2 layers keeps every layer within (1 + delta) x FLOP_total / L with delta = 0; the smallest delta that admits one is
// LAYERS: error: alpa-cluster-layers: layers must be auto, user or a number from 1 to 2 (the ops clustered)
// NEG: error: alpa-cluster-layers: delta must be a non-negative number
// DEVICES: error: alpa-cluster-layers: devices must be a positive integer
func.func @main(%x: tensor<8x64xf32>, %w1: tensor<64x8xf32>) -> tensor<8x8xf32> {
  %0 = "stablehlo.dot_general"(%x, %w1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x64xf32>, tensor<64x8xf32>) -> tensor<8x8xf32>
  %1 = "stablehlo.tanh"(%0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
