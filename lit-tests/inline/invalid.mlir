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

// -----

// A call graph that doubles 30 times expands to over 2^30 ops: refused before anything changes.
module {
  // expected-error @+1 {{inlining every call would expand '@main' to 2147483648 ops, more than 20000000}}
  func.func public @main(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f0(%arg0) : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @f0(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f1(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f1(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f1(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f2(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f2(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f2(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f3(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f3(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f3(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f4(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f4(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f4(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f5(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f5(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f5(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f6(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f6(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f6(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f7(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f7(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f7(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f8(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f8(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f8(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f9(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f9(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f9(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f10(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f10(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f10(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f11(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f11(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f11(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f12(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f12(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f12(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f13(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f13(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f13(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f14(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f14(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f14(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f15(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f15(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f15(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f16(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f16(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f16(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f17(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f17(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f17(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f18(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f18(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f18(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f19(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f19(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f19(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f20(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f20(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f20(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f21(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f21(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f21(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f22(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f22(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f22(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f23(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f23(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f23(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f24(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f24(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f24(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f25(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f25(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f25(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f26(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f26(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f26(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f27(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f27(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f27(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f28(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f28(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f28(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = func.call @f29(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = func.call @f29(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @f29(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = "stablehlo.negate"(%arg0) : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.negate"(%0) : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
}
