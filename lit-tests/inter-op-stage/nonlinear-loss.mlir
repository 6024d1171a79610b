// A loss term that is a nonlinear function of statistics of the batch (a product of two means
// over the examples, as a mixture of experts' load-balancing loss; the exponential of one) is
// warned about at that term: each microbatch's term and gradient follow its own examples'
// statistics. It was called 'a mean over a batch-dependent count, such as a masked mean' at the
// loss.
// RUN: alpa-opt --split-input-file --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>%t.err
// RUN: FileCheck %s --check-prefix=WARN --implicit-check-not=warning < %t.err
// WARN: warning: loc("balance"): alpa-inter-op-stage: the loss is neither a sum nor a mean over the batch: it is a nonlinear function of statistics of the batch here
// WARN: warning: loc("exp_of_mean"): alpa-inter-op-stage: the loss is neither a sum nor a mean over the batch: it is a nonlinear function of statistics of the batch here
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %squares = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %sums = "stablehlo.reduce"(%h, %zero) <{dimensions = array<i64: 0>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  %square_sums = "stablehlo.reduce"(%squares, %zero) <{dimensions = array<i64: 0>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  %examples = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<4xf32>}> : () -> tensor<4xf32>
  %means = "stablehlo.divide"(%sums, %examples) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %square_means = "stablehlo.divide"(%square_sums, %examples) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %product = "stablehlo.multiply"(%means, %square_means) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc("balance")
  %balance = "stablehlo.reduce"(%product, %zero) <{dimensions = array<i64: 0>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %mean_squares = "stablehlo.reduce"(%square_means, %zero) <{dimensions = array<i64: 0>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %weight = "stablehlo.constant"() <{value = dense<1.000000e-02> : tensor<f32>}> : () -> tensor<f32>
  %scaled = "stablehlo.multiply"(%weight, %balance) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %loss = "stablehlo.add"(%mean_squares, %scaled) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("loss")
  %dw = "stablehlo.dot_general"(%x, %h) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}

// -----

func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %squares = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %total = "stablehlo.reduce"(%squares, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %elements = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
  %mean = "stablehlo.divide"(%total, %elements) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %exp = "stablehlo.exponential"(%mean) : (tensor<f32>) -> tensor<f32> loc("exp_of_mean")
  %loss = "stablehlo.negate"(%exp) : (tensor<f32>) -> tensor<f32> loc("loss")
  %dw = "stablehlo.dot_general"(%x, %h) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}
