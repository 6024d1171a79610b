// Sums over the batch of forward values computed with constants outside the forward pass read
// no cotangent seed: an epsilon added before a log (`log(h * h + 1e-3)`) is forward arithmetic,
// not the seed the backward pass scales by. Their microbatches' values add up: a contraction of
// the batch updating a state the forward reads, the per-class sums of each example's value
// scattered at its label (a [4] vector per example and a [4, 4] row per example), returned. The
// gradient reads the seed and is averaged, as the loss is. Before, the epsilon was taken for a
// seed: the state's sum was averaged, unwarned, and the per-class sums were refused.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>%t.err
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=ERR --implicit-check-not=warning < %t.err
// ERR: remark:
// CHECK-LABEL: func.func @main
// CHECK: %[[G:.*]] = "stablehlo.add"(%{{.*}}, %{{.*}}) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[TWO:.*]] = "stablehlo.constant"() {value = dense<2.000000e+00> : tensor<4x4xf32>}
// CHECK-NEXT: %[[GRADIENT:.*]] = "stablehlo.divide"(%[[G]], %[[TWO]])
// CHECK-NEXT: %[[STATE_SUM:.*]] = "stablehlo.add"(%[[B:.*]]#1, %{{.*}}#1) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[PER_CLASS:.*]] = "stablehlo.add"(%[[B]]#2, %{{.*}}#2) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[CLASS_ROWS:.*]] = "stablehlo.add"(%[[B]]#3, %{{.*}}#3) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NOT: "stablehlo.divide"
// CHECK: call @stage0_apply(%arg0, %[[GRADIENT]], %arg1, %[[STATE_SUM]])
// CHECK-NEXT: return {{.*}}, %[[PER_CLASS]], %[[CLASS_ROWS]] :
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %c: tensor<4x4xf32> {tf.aliasing_output = 1 : i32}, %x: tensor<4x4xf32>, %y: tensor<4x1xi32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<f32>, tensor<4xf32>, tensor<4x4xf32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %e = "stablehlo.dot_general"(%h, %c) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
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
  %epsilon = "stablehlo.constant"() <{value = dense<1.000000e-03> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %positive = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %shifted = "stablehlo.add"(%positive, %epsilon) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %logs = "stablehlo.log"(%shifted) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %gram = "stablehlo.dot_general"(%x, %logs) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("gram")
  %c2 = "stablehlo.add"(%c, %gram) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %per_example = "stablehlo.reduce"(%logs, %zero) <{dimensions = array<i64: 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  %bins = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<4xf32>}> : () -> tensor<4xf32>
  %per_class = "stablehlo.scatter"(%bins, %y, %per_example) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4xf32>, tensor<4x1xi32>, tensor<4xf32>) -> tensor<4xf32> loc("per_class")
  %rows = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %class_rows = "stablehlo.scatter"(%rows, %y, %logs) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<4x1xi32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("class_rows")
  return %w2, %c2, %loss, %per_class, %class_rows : tensor<4x4xf32>, tensor<4x4xf32>, tensor<f32>, tensor<4xf32>, tensor<4x4xf32>
}
