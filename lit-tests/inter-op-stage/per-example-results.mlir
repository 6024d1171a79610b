// Values per example a step returns (per-example losses, predictions) are the microbatches'
// values side by side along the batch: @main concatenates them, in the batch's dimension of
// each (0 as exported, 1 after a transpose), into the global batch's shape.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>%t.err
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=WARN --allow-empty --implicit-check-not=warning < %t.err
// Values per example whose examples moved along the batch (reversed, joined with other values
// along it, partly overwritten) are refused at the op that moved them.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %S/Inputs/per-example-moved.mlir -split-input-file -verify-diagnostics
// CHECK: func.func @main(%arg0: tensor<4x4xf32> {{.*}}, %arg1: tensor<8x4xf32>) -> (tensor<4x4xf32>, tensor<f32>, tensor<8x4xf32>, tensor<4x8xf32>, tensor<8xi32>)
// CHECK-DAG: "stablehlo.concatenate"({{.*}}) {{.*}}dimension = 0 : i64{{.*}} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
// CHECK-DAG: "stablehlo.concatenate"({{.*}}) {{.*}}dimension = 1 : i64{{.*}} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
// CHECK-DAG: "stablehlo.concatenate"({{.*}}) {{.*}}dimension = 0 : i64{{.*}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<8xi32>
// WARN-NOT: warning
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xi32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %squared = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.reduce"(%squared, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %columns = "stablehlo.transpose"(%squared) <{permutation = array<i64: 1, 0>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %predicted = "stablehlo.convert"(%x) : (tensor<4x4xf32>) -> tensor<4x4xi32>
  %first = "stablehlo.slice"(%predicted) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 4, 1>, strides = array<i64: 1, 1>}> : (tensor<4x4xi32>) -> tensor<4x1xi32>
  %labels = "stablehlo.reshape"(%first) : (tensor<4x1xi32>) -> tensor<4xi32>
  %dw = "stablehlo.dot_general"(%x, %h) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss, %squared, %columns, %labels : tensor<4x4xf32>, tensor<f32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xi32>
}
