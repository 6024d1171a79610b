// RUN: alpa-opt --alpa-inline -split-input-file -verify-diagnostics %s

module {
  func.func public @main(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f(%arg0) : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @f(%arg0: tensor<f32>) -> tensor<f32> {
    // expected-error @+1 {{cannot inline recursive call to '@f' (call chain: @main -> @f -> @f)}}
    %0 = func.call @f(%arg0) : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
}

// -----

module {
  func.func public @main(%arg0: tensor<f32>) -> tensor<f32> {
    // expected-error @+1 {{cannot inline '@ext': it is a declaration without a body}}
    %0 = func.call @ext(%arg0) : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @ext(tensor<f32>) -> tensor<f32>
}

// -----

// expected-error @+1 {{entry function '@main' not found (public functions: @a, @b); pass entry=<name>}}
module {
  func.func public @a(%arg0: tensor<f32>) -> tensor<f32> {
    return %arg0 : tensor<f32>
  }
  func.func public @b(%arg0: tensor<f32>) -> tensor<f32> {
    return %arg0 : tensor<f32>
  }
}
