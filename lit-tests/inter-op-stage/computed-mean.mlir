// A loss divided by a count the step computes from constants (Keras: the product of the
// values' shape, converted) is a mean: the microbatches' gradients are averaged, unwarned. A
// divisor computed by an op the analysis does not fold may be the batch's size: the loss is
// warned about at its op instead of being taken for a sum.
// RUN: alpa-opt --split-input-file --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>%t.err
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=WARN --implicit-check-not=warning < %t.err
// CHECK: func.func @main
// CHECK: %[[G:.*]] = "stablehlo.add"({{.*}}) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: %[[M:.*]] = "stablehlo.divide"(%[[G]], {{.*}})
// CHECK: call @stage0_apply(%arg0, %[[M]])
// CHECK: {{^// -+$}}
// WARN: warning: loc("rounded_mean"): alpa-inter-op-stage: the loss is neither a sum nor a mean over the batch
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %weighted = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %total = "stablehlo.reduce"(%weighted, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %shape = "stablehlo.constant"() <{value = dense<[2, 8]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %product = "stablehlo.reduce"(%shape, %one) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = "stablehlo.multiply"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%m) : (tensor<i32>) -> ()
  }) : (tensor<2xi32>, tensor<i32>) -> tensor<i32>
  %count = "stablehlo.convert"(%product) : (tensor<i32>) -> tensor<f32>
  %loss = "stablehlo.divide"(%total, %count) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("mean")
  %seed = "stablehlo.constant"() <{value = dense<1.250000e-01> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %dh = "stablehlo.multiply"(%h, %seed) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = "stablehlo.dot_general"(%x, %dh) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}

// -----

func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %weighted = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %total = "stablehlo.reduce"(%weighted, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %about = "stablehlo.constant"() <{value = dense<1.625000e+01> : tensor<f32>}> : () -> tensor<f32>
  %count = "stablehlo.round_nearest_even"(%about) : (tensor<f32>) -> tensor<f32>
  %loss = "stablehlo.divide"(%total, %count) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("rounded_mean")
  %seed = "stablehlo.constant"() <{value = dense<1.250000e-01> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %dh = "stablehlo.multiply"(%h, %seed) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = "stablehlo.dot_general"(%x, %dh) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}
