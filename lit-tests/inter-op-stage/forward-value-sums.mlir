// Sums over the batch of values the forward pass computed read no cotangent seed: they are no
// gradients, and the microbatches' values add up where the gradients of the mean loss average.
// Counts of a one-hot updating a state the forward reads (a VQ-VAE's EMA code counts) add up,
// the counts themselves, not their broadcast to the state's shape (the apply function spreads them);
// a contraction of activations divided by the microbatch's examples (a K-FAC factor) is
// computed per microbatch and averaged; counts per class scattered from ones at the examples'
// labels (a confusion matrix's row sums), returned, add up. The gradient reads the seed and is
// averaged, as the loss is.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>%t.err
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=ERR --implicit-check-not=warning < %t.err
// ERR: remark:
// The factor's division by the examples runs in the backward function, per microbatch; the
// apply function divides nothing.
// CHECK-LABEL: func.func private @stage1_backward
// CHECK: "stablehlo.divide"({{.*}}) {alpa.layer = 1 : i64, alpa.phase = "update"
// CHECK-LABEL: func.func private @stage1_apply
// CHECK-NOT: "stablehlo.divide"
// CHECK: return
// CHECK-LABEL: func.func @main
// CHECK: %[[G:.*]] = "stablehlo.add"(%{{.*}}, %{{.*}}) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[TWO:.*]] = "stablehlo.constant"() {value = dense<2.000000e+00> : tensor<4x4xf32>}
// CHECK-NEXT: %[[GRADIENT:.*]] = "stablehlo.divide"(%[[G]], %[[TWO]])
// CHECK-NEXT: %[[COUNTS:.*]] = "stablehlo.add"(%[[B:.*]]#1, %{{.*}}#1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[F:.*]] = "stablehlo.add"(%[[B]]#2, %{{.*}}#2) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[TWO2:.*]] = "stablehlo.constant"() {value = dense<2.000000e+00> : tensor<4x4xf32>}
// CHECK-NEXT: %[[FACTOR:.*]] = "stablehlo.divide"(%[[F]], %[[TWO2]])
// CHECK-NEXT: %[[PER_CLASS:.*]] = "stablehlo.add"(%[[B]]#3, %{{.*}}#3) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: call @stage0_apply(%arg0, %[[GRADIENT]])
// CHECK-NEXT: call @stage1_apply(%[[COUNTS]], %arg1, %arg2, %[[FACTOR]])
// CHECK-NEXT: return {{.*}}, %[[PER_CLASS]] :
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %c: tensor<4x4xf32> {tf.aliasing_output = 1 : i32}, %g: tensor<4x4xf32> {tf.aliasing_output = 2 : i32}, %x: tensor<4x4xf32>, %y: tensor<4x1xi32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<f32>, tensor<4xi32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %e = "stablehlo.dot_general"(%h, %c) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_1")
  %squared = "stablehlo.multiply"(%e, %e) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %total = "stablehlo.reduce"(%squared, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %count = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.divide"(%total, %count) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("loss")
  %seed = "stablehlo.constant"() <{value = dense<1.250000e-01> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %de = "stablehlo.multiply"(%e, %seed) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dh = "stablehlo.dot_general"(%de, %c) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = "stablehlo.dot_general"(%x, %dh) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("gradient")
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zeros = "stablehlo.broadcast_in_dim"(%zero) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
  %hit = "stablehlo.compare"(%h, %zeros) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
  %one_hot = "stablehlo.convert"(%hit) : (tensor<4x4xi1>) -> tensor<4x4xf32>
  %counts = "stablehlo.reduce"(%one_hot, %zero) <{dimensions = array<i64: 0>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32> loc("counts")
  %spread = "stablehlo.broadcast_in_dim"(%counts) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<4x4xf32>
  %c2 = "stablehlo.add"(%c, %spread) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %gram = "stablehlo.dot_general"(%h, %h) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("gram")
  %four = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %factor = "stablehlo.divide"(%gram, %four) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("factor")
  %g2 = "stablehlo.add"(%g, %factor) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %bins = "stablehlo.constant"() <{value = dense<0> : tensor<4xi32>}> : () -> tensor<4xi32>
  %ones = "stablehlo.constant"() <{value = dense<1> : tensor<4xi32>}> : () -> tensor<4xi32>
  %per_class = "stablehlo.scatter"(%bins, %y, %ones) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) : (tensor<4xi32>, tensor<4x1xi32>, tensor<4xi32>) -> tensor<4xi32> loc("per_class")
  return %w2, %c2, %g2, %loss, %per_class : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<f32>, tensor<4xi32>
}
