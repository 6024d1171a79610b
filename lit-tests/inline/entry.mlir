// RUN: alpa-opt --alpa-inline="entry=step" %s | FileCheck %s --check-prefix=NAMED

// An explicitly named entry: only its calls are inlined; @main keeps its call.
// NAMED-LABEL: func.func public @main
// NAMED:         call @id
// NAMED-LABEL: func.func public @step
// NAMED-NOT:     func.call
// NAMED:         "stablehlo.negate"
module {
  func.func public @main(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @id(%arg0) : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
  func.func public @step(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @neg(%arg0) : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @id(%arg0: tensor<f32>) -> tensor<f32> {
    return %arg0 : tensor<f32>
  }
  func.func private @neg(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = "stablehlo.negate"(%arg0) : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
}
