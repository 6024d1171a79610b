// A sum over the batch divided by a number that grows with it is a mean: the examples
// (`jnp.sum(l) / batch`, each sequence's tokens summed), a count the step computes from
// constants (the sum of a position mask broadcast over the batch), or a literal that is the
// examples times a whole number (`batch * (seq - 1)`, which JAX folds). The microbatches'
// gradients average. They were added up as a sum's, unwarned: each update twice the global
// batch's. A divisor other than the examples and the count is warned about (a fixed
// coefficient that happened to be a multiple of the examples would have to add up). A value
// strided along another dimension than the batch's (RoPE's `x[..., ::2]`) keeps every example:
// its mean was taken for neither a sum nor a mean, and warned about.
// RUN: alpa-opt --split-input-file --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>%t.err
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=WARN --implicit-check-not=warning < %t.err
// CHECK: func.func @main
// CHECK: %[[G:.*]] = "stablehlo.add"({{.*}}) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: %[[M:.*]] = "stablehlo.divide"(%[[G]], {{.*}})
// CHECK: call @stage0_apply(%arg0, %[[M]])
// CHECK: {{^// -+$}}
// CHECK: func.func @main
// CHECK: %[[G:.*]] = "stablehlo.add"({{.*}}) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: %[[M:.*]] = "stablehlo.divide"(%[[G]], {{.*}})
// CHECK: call @stage0_apply(%arg0, %[[M]])
// CHECK: {{^// -+$}}
// CHECK: func.func @main
// CHECK: %[[G:.*]] = "stablehlo.add"({{.*}}) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: %[[M:.*]] = "stablehlo.divide"(%[[G]], {{.*}})
// CHECK: call @stage0_apply(%arg0, %[[M]])
// CHECK: {{^// -+$}}
// CHECK: func.func @main
// CHECK: %[[G:.*]] = "stablehlo.add"({{.*}}) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: %[[M:.*]] = "stablehlo.divide"(%[[G]], {{.*}})
// CHECK: call @stage0_apply(%arg0, %[[M]])
// WARN: warning: loc("position_masked_mean"): alpa-inter-op-stage: this sum over the batch divided by 12, a constant that counts the microbatch's examples or their elements, is taken for a mean over the batch
// WARN: warning: loc("literal_token_count"): alpa-inter-op-stage: this sum over the batch divided by 12, a constant that counts the microbatch's examples or their elements, is taken for a mean over the batch
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %squared = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %total = "stablehlo.reduce"(%squared, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %examples = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.divide"(%total, %examples) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("per_example_sum")
  %seed = "stablehlo.constant"() <{value = dense<1.250000e-01> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %dh = "stablehlo.multiply"(%h, %seed) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = "stablehlo.dot_general"(%x, %dh) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}

// -----

func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %squared = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %positions = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4xi32>
  %three = "stablehlo.constant"() <{value = dense<3> : tensor<4xi32>}> : () -> tensor<4xi32>
  %kept = "stablehlo.compare"(%positions, %three) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %row = "stablehlo.convert"(%kept) : (tensor<4xi1>) -> tensor<4xf32>
  %mask = "stablehlo.broadcast_in_dim"(%row) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<4x4xf32>
  %masked = "stablehlo.multiply"(%squared, %mask) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %total = "stablehlo.reduce"(%masked, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %count = "stablehlo.reduce"(%mask, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %loss = "stablehlo.divide"(%total, %count) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("position_masked_mean")
  %seed = "stablehlo.constant"() <{value = dense<1.250000e-01> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %dh = "stablehlo.multiply"(%h, %seed) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = "stablehlo.dot_general"(%x, %dh) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}

// -----

func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %squared = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %total = "stablehlo.reduce"(%squared, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %tokens = "stablehlo.constant"() <{value = dense<1.200000e+01> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.divide"(%total, %tokens) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("literal_token_count")
  %seed = "stablehlo.constant"() <{value = dense<1.250000e-01> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %dh = "stablehlo.multiply"(%h, %seed) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = "stablehlo.dot_general"(%x, %dh) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}

// -----

func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %squared = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %evens = "stablehlo.slice"(%squared) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 4, 4>, strides = array<i64: 1, 2>}> : (tensor<4x4xf32>) -> tensor<4x2xf32>
  %total = "stablehlo.reduce"(%evens, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x2xf32>, tensor<f32>) -> tensor<f32>
  %count = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.divide"(%total, %count) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("strided_mean")
  %seed = "stablehlo.constant"() <{value = dense<1.250000e-01> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %dh = "stablehlo.multiply"(%h, %seed) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = "stablehlo.dot_general"(%x, %dh) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}
