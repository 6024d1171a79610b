// A loss the batch analysis cannot call a sum or a mean, because it loses track of the
// examples on the way, is warned about where it loses them: at a reshape of the batch into
// groups of several examples (a mixture of experts' gating groups), at a loop it does not follow
// (one that iterates until a sum over the batch is small: a microbatch may iterate a different
// number of times; loop-classes.mlir has loops it follows).
// It was called 'a mean over a batch-dependent count, such as a masked mean' at the loss, where a
// masked mean's guarded count (weighted-mean.mlir) keeps that warning.
// RUN: alpa-opt --split-input-file --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>%t.err
// RUN: FileCheck %s --check-prefix=WARN --implicit-check-not=warning < %t.err
// WARN: warning: loc("grouped"): alpa-inter-op-stage: the loss is neither a sum nor a mean over the batch that this analysis can follow: it loses track of the examples here, at a reshape that merges them with another dimension or splits them into groups
// WARN: warning: loc("loop"): alpa-inter-op-stage: the loop's trip count is not static
// WARN: warning: loc("loop"): alpa-inter-op-stage: the loss is neither a sum nor a mean over the batch that this analysis can follow: it loses track of the examples here, at a while whose result it cannot relate to the examples it reads
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>, %v: tensor<8x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %grouped = "stablehlo.reshape"(%h) : (tensor<4x4xf32>) -> tensor<2x8xf32> loc("grouped")
  %logits = "stablehlo.dot_general"(%grouped, %v) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %gates = "stablehlo.exponential"(%logits) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %squares = "stablehlo.multiply"(%gates, %gates) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.reduce"(%squares, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<2x4xf32>, tensor<f32>) -> tensor<f32> loc("loss")
  %dw = "stablehlo.dot_general"(%x, %h) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}

// -----

func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %n: tensor<i32>, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:3 = "stablehlo.while"(%c0, %n, %h) ({
  ^bb0(%i: tensor<i32>, %m: tensor<i32>, %g: tensor<4x4xf32>):
    %z = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %sum = "stablehlo.reduce"(%g, %z) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%c) : (tensor<f32>) -> ()
    }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
    %tol = "stablehlo.constant"() <{value = dense<1.000000e-03> : tensor<f32>}> : () -> tensor<f32>
    %p = "stablehlo.compare"(%sum, %tol) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %m: tensor<i32>, %g: tensor<4x4xf32>):
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %t = "stablehlo.tanh"(%g) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    "stablehlo.return"(%j, %m, %t) : (tensor<i32>, tensor<i32>, tensor<4x4xf32>) -> ()
  }) : (tensor<i32>, tensor<i32>, tensor<4x4xf32>) -> (tensor<i32>, tensor<i32>, tensor<4x4xf32>) loc("loop")
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.reduce"(%r#2, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32> loc("loss")
  %dw = "stablehlo.dot_general"(%x, %h) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}
