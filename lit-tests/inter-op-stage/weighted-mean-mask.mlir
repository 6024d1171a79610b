// A masked mean whose mask is a comparison of the labels, sum(l * (y != 0)) / sum(y != 0),
// its count unguarded: the weights are non-negative, so a microbatch whose count is zero has
// no weight at all and its part of the combination is zero, where its own 0/0 would make the
// loss and the gradient NaN. Each microbatch's weighted part is chosen as zero when its count
// is zero.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>%t.err
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=WARN --allow-empty --implicit-check-not=warning < %t.err
// Over sum(mask) - 1, a count that is zero with one example kept: the choice asks the weights'
// sum, not the denominator.
// RUN: sed -e 's/divide"(%numerator, %count)/divide"(%numerator, %fewer)/' -e 's/divide"(%one, %count)/divide"(%one, %fewer)/' -e 's/^  %loss = /  %fewer = "stablehlo.subtract"(%count, %one) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n  %loss = /' %s > %t.fewer.mlir
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %t.fewer.mlir 2>&1 | FileCheck %s --check-prefix=FEWER
// FEWER: %[[F0:[0-9]+]]:{{[0-9]+}} = call @stage0_forward
// FEWER: %[[F1:[0-9]+]]:{{[0-9]+}} = call @stage0_forward
// FEWER: "stablehlo.add"(%[[F0]]#[[WI:[0-9]]], %[[F1]]#[[WI]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// FEWER: "stablehlo.subtract"
// FEWER: "stablehlo.compare"(%[[F0]]#[[WI]], %{{[0-9]+}}) {comparison_direction = #stablehlo<comparison_direction EQ>}
// CHECK-LABEL: func.func @main
// CHECK: %[[F0:[0-9]+]]:{{[0-9]+}} = call @stage0_forward
// CHECK: %[[F1:[0-9]+]]:{{[0-9]+}} = call @stage0_forward
// CHECK: %[[W:[0-9]+]] = "stablehlo.add"(%[[F0]]#[[WI:[0-9]]], %[[F1]]#[[WI]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// The loss of microbatch 0: its part, zero when its count is.
// CHECK: %[[P0:[0-9]+]] = "stablehlo.multiply"(%[[F0]]#[[LI:[0-9]]], %[[F0]]#[[WI]])
// CHECK: %[[Z:[0-9]+]] = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<f32>}
// CHECK: %[[ZS:[0-9]+]] = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<f32>}
// CHECK: %[[E0:[0-9]+]] = "stablehlo.compare"(%[[F0]]#[[WI]], %[[Z]]) {comparison_direction = #stablehlo<comparison_direction EQ>}
// CHECK: %[[G0:[0-9]+]] = "stablehlo.select"(%[[E0]], %[[ZS]], %[[P0]])
// CHECK: "stablehlo.multiply"(%[[F1]]#[[LI]], %[[F1]]#[[WI]])
// CHECK: "stablehlo.select"
// CHECK: %[[SUM:[0-9]+]] = "stablehlo.add"(%[[G0]], %{{[0-9]+}})
// CHECK: "stablehlo.divide"(%[[SUM]], %[[W]])
// The gradient's parts too, the choice spread over the gradient's shape.
// CHECK: "stablehlo.broadcast_in_dim"({{.*}}(tensor<i1>) -> tensor<4x4xi1>
// CHECK: "stablehlo.select"({{.*}}(tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: "stablehlo.broadcast_in_dim"({{.*}}(tensor<i1>) -> tensor<4x4xi1>
// CHECK: "stablehlo.select"({{.*}}(tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: call @stage0_apply
// WARN-NOT: warning
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>, %labels: tensor<4xi32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %squared = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %padding = "stablehlo.constant"() <{value = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>
  %kept = "stablehlo.compare"(%labels, %padding) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %mask = "stablehlo.convert"(%kept) : (tensor<4xi1>) -> tensor<4xf32>
  %spread = "stablehlo.broadcast_in_dim"(%mask) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x4xf32>
  %masked = "stablehlo.multiply"(%squared, %spread) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %numerator = "stablehlo.reduce"(%masked, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %count = "stablehlo.reduce"(%mask, %zero) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %one = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.divide"(%numerator, %count) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("masked_mean")
  %inverse = "stablehlo.divide"(%one, %count) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %seed = "stablehlo.broadcast_in_dim"(%inverse) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
  %masked_h = "stablehlo.multiply"(%h, %spread) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %g = "stablehlo.multiply"(%masked_h, %seed) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = "stablehlo.dot_general"(%x, %g) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}
