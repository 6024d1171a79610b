// RUN: alpa-opt --alpa-inline %s | FileCheck %s --check-prefix=ONLY

// Without a function named main, the only public function is the entry.
// ONLY-LABEL: func.func public @train_step
// ONLY-NOT:     func.call
// ONLY:         "stablehlo.negate"
// ONLY-NOT:   func.func private
module {
  func.func public @train_step(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @neg(%arg0) : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @neg(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = "stablehlo.negate"(%arg0) : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
}
