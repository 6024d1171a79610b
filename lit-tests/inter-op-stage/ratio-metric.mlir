// A metric the step returns that is a ratio of sums over the batch, here a loss over the kept
// labels guarded against an empty batch (sum(l * mask) / max(sum(mask), 1), as masked
// accuracies are written), and a term of the loss (half of it), so computed per microbatch
// with the forward ops: @main weights each microbatch's ratio by its own denominator, adds
// them up and divides by the denominator of the summed weights, computed again (the max with
// 1) on the global batch. It was refused as neither a sum nor a mean. (A metric that is no
// term of the loss is computed once from the combined sums: derived-metrics.mlir.)
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>%t.err
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=WARN --allow-empty --implicit-check-not=warning < %t.err
// CHECK-LABEL: func.func @main
// CHECK: %[[B0:[0-9]+]]:{{[0-9]+}} = call @stage0_forward
// CHECK: %[[B1:[0-9]+]]:{{[0-9]+}} = call @stage0_forward
// The global batch's weights, and its denominator: the max with 1 computed again.
// CHECK: %[[W:[0-9]+]] = "stablehlo.add"(%[[B0]]#[[WI:[0-9]]], %[[B1]]#[[WI]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: %[[ONE:[0-9]+]] = "stablehlo.constant"() {value = dense<1.000000e+00> : tensor<f32>}
// CHECK: %[[D:[0-9]+]] = "stablehlo.maximum"(%[[W]], %[[ONE]])
// Each microbatch's ratio times its own denominator, then zero when its weights are.
// CHECK: %[[P0:[0-9]+]] = "stablehlo.multiply"(%[[B0]]#[[MI:[0-9]]], %[[B0]]#[[DI:[0-9]]])
// CHECK: %[[E0:[0-9]+]] = "stablehlo.compare"(%[[B0]]#[[WI]], %{{[0-9]+}})
// CHECK: "stablehlo.select"(%[[E0]], %{{[0-9]+}}, %[[P0]])
// CHECK: %[[P1:[0-9]+]] = "stablehlo.multiply"(%[[B1]]#[[MI]], %[[B1]]#[[DI]])
// CHECK: "stablehlo.select"(%{{[0-9]+}}, %{{[0-9]+}}, %[[P1]])
// CHECK: %[[SUM:[0-9]+]] = "stablehlo.add"
// CHECK: %[[M:[0-9]+]] = "stablehlo.divide"(%[[SUM]], %[[D]])
// CHECK: return %{{[0-9]+}}, %[[M]], %{{[0-9]+}} : tensor<4x4xf32>, tensor<f32>, tensor<f32>
// WARN-NOT: warning
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>, %labels: tensor<4xi32>) -> (tensor<4x4xf32>, tensor<f32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %squared = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %padding = "stablehlo.constant"() <{value = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>
  %kept = "stablehlo.compare"(%labels, %padding) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %mask = "stablehlo.convert"(%kept) : (tensor<4xi1>) -> tensor<4xf32>
  %spread = "stablehlo.broadcast_in_dim"(%mask) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x4xf32>
  %masked = "stablehlo.multiply"(%squared, %spread) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.reduce"(%squared, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
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
  %guarded = "stablehlo.maximum"(%count, %one) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %metric = "stablehlo.divide"(%numerator, %guarded) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("masked_metric")
  %half = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
  %halved = "stablehlo.multiply"(%metric, %half) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %two = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %g = "stablehlo.multiply"(%h, %two) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = "stablehlo.dot_general"(%x, %g) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %metric, %halved : tensor<4x4xf32>, tensor<f32>, tensor<f32>
}
