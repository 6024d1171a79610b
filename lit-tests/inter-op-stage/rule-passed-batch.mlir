// Ops with no case of their own in the batch analysis keep the examples where their op table
// rule passes the batch's dimension through: an FFT over the features (FNet's token mixing, a
// long convolution by RFFT) and a sort along them. A mean of their result is a mean over the
// batch, and the microbatches' gradients average, unwarned. They were lost track of, and the
// loss was warned about as neither a sum nor a mean. An FFT over the examples too combines
// them with each other: warned at the FFT, which explains the loss (it was warned about at the
// loss, as a masked mean is).
// RUN: alpa-opt --split-input-file --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>%t.err
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=WARN --implicit-check-not=warning < %t.err
// CHECK: func.func @main
// CHECK: %[[G:.*]] = "stablehlo.add"({{.*}}) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: %[[M:.*]] = "stablehlo.divide"(%[[G]], {{.*}})
// CHECK: call @stage0_apply(%arg0, %[[M]])
// WARN: warning: loc("examples_transformed"): alpa-inter-op-stage: the examples meet each other here (a fft along the batch's dimension
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %spectrum = "stablehlo.fft"(%h) <{fft_length = array<i64: 4>, fft_type = #stablehlo<fft_type RFFT>}> : (tensor<4x4xf32>) -> tensor<4x3xcomplex<f32>>
  %real = "stablehlo.real"(%spectrum) : (tensor<4x3xcomplex<f32>>) -> tensor<4x3xf32>
  %sorted = "stablehlo.sort"(%real) <{dimension = 1 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%lt) : (tensor<i1>) -> ()
  }) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %total = "stablehlo.reduce"(%sorted, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x3xf32>, tensor<f32>) -> tensor<f32>
  %count = "stablehlo.constant"() <{value = dense<1.200000e+01> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.divide"(%total, %count) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("sorted_spectrum_mean")
  %seed = "stablehlo.constant"() <{value = dense<1.250000e-01> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %dh = "stablehlo.multiply"(%h, %seed) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = "stablehlo.dot_general"(%x, %dh) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}

// -----

func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %spectrum = "stablehlo.fft"(%h) <{fft_length = array<i64: 4, 4>, fft_type = #stablehlo<fft_type RFFT>}> : (tensor<4x4xf32>) -> tensor<4x3xcomplex<f32>> loc("examples_transformed")
  %real = "stablehlo.real"(%spectrum) : (tensor<4x3xcomplex<f32>>) -> tensor<4x3xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %total = "stablehlo.reduce"(%real, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x3xf32>, tensor<f32>) -> tensor<f32>
  %count = "stablehlo.constant"() <{value = dense<1.200000e+01> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.divide"(%total, %count) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("mixed_examples_mean")
  %seed = "stablehlo.constant"() <{value = dense<1.250000e-01> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %dh = "stablehlo.multiply"(%h, %seed) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = "stablehlo.dot_general"(%x, %dh) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}
