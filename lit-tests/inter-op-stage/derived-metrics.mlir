// Metrics a step returns that are no sum or mean over the batch but are computed from such
// values alone: the norm of the activations sqrt(sum(h * h)), a perplexity exp(loss / 16) and
// a ratio of two means. Each runs once, in an apply function, on the microbatches' combined
// sums: each was refused as neither a sum nor a mean. The largest and the smallest squared
// activation (reductions by maximum and minimum over the batch) combine by the maximum and the
// minimum of the microbatches' values; they were refused too.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>%t.err
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=WARN --allow-empty --implicit-check-not=warning < %t.err
// Metrics that read a constant that may count the microbatch's examples, or are no function of
// sums, means and extremes, are refused at their op.
// RUN: alpa-opt --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %S/Inputs/derived-metrics-refused.mlir -split-input-file -verify-diagnostics
// CHECK-LABEL: func.func private @stage0_apply
// CHECK-DAG: "stablehlo.sqrt"
// CHECK-DAG: "stablehlo.exponential"
// CHECK-DAG: "stablehlo.divide"
// CHECK-LABEL: func.func @main
// CHECK: %[[B0:[0-9]+]]:{{[0-9]+}} = call @stage0_backward
// CHECK: %[[B1:[0-9]+]]:{{[0-9]+}} = call @stage0_backward
// CHECK-DAG: "stablehlo.maximum"(%[[B0]]#{{[0-9]+}}, %[[B1]]#{{[0-9]+}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-DAG: "stablehlo.minimum"(%[[B0]]#{{[0-9]+}}, %[[B1]]#{{[0-9]+}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: call @stage0_apply
// WARN-NOT: warning
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %squared = "stablehlo.multiply"(%h, %h) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.reduce"(%squared, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %norm = "stablehlo.sqrt"(%loss) : (tensor<f32>) -> tensor<f32> loc("norm")
  %sixteen = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
  %mean = "stablehlo.divide"(%loss, %sixteen) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %perplexity = "stablehlo.exponential"(%mean) : (tensor<f32>) -> tensor<f32> loc("perplexity")
  %xsum = "stablehlo.reduce"(%x, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %xmean = "stablehlo.divide"(%xsum, %sixteen) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %ratio = "stablehlo.divide"(%mean, %xmean) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("ratio")
  %lowest = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
  %largest = "stablehlo.reduce"(%squared, %lowest) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.maximum"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  %highest = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<f32>}> : () -> tensor<f32>
  %smallest = "stablehlo.reduce"(%squared, %highest) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.minimum"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32> loc("smallest")
  %two = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %g = "stablehlo.multiply"(%h, %two) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %dw = "stablehlo.dot_general"(%x, %g) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %dw) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %norm, %perplexity, %ratio, %largest, %smallest, %loss : tensor<4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
}
