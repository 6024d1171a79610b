// What alpa-unroll-loops refuses: each an error at the loop, and the module left unchanged.
// RUN: alpa-opt %s --alpa-unroll-loops="max-ops=20" -split-input-file -verify-diagnostics

// A counted loop inside a case branch: not in the function body, so not unrolled.
func.func @main(%b: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "stablehlo.case"(%b) ({
    %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    // expected-error @+1 {{alpa-unroll-loops: a loop inside 'stablehlo.case' cannot be unrolled: only loops of the function body (and of the loops unrolled) are}}
    %w:2 = "stablehlo.while"(%c0, %x) ({
    ^bb0(%i: tensor<i32>, %h: tensor<4xf32>):
      %n = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
      %p = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%p) : (tensor<i1>) -> ()
    }, {
    ^bb0(%i: tensor<i32>, %h: tensor<4xf32>):
      %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%j, %h) : (tensor<i32>, tensor<4xf32>) -> ()
    }) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
    "stablehlo.return"(%w#1) : (tensor<4xf32>) -> ()
  }, {
    "stablehlo.return"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<i32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// 100 trips of a 4-op body: 400 ops, over the guard of 20.
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  // expected-error @+1 {{alpa-unroll-loops: unrolling would write 400 ops (100 trips x 4 body ops), over max-ops=20 (raise it with alpa-unroll-loops{max-ops=N} before planning)}}
  %r:2 = "stablehlo.while"(%c0, %x) ({
  ^bb0(%i: tensor<i32>, %h: tensor<4xf32>):
    %n = "stablehlo.constant"() <{value = dense<100> : tensor<i32>}> : () -> tensor<i32>
    %p = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %h: tensor<4xf32>):
    %y = "stablehlo.multiply"(%h, %h) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %z = "stablehlo.tanh"(%y) : (tensor<4xf32>) -> tensor<4xf32>
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%j, %z) : (tensor<i32>, tensor<4xf32>) -> ()
  }) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
  return %r#1 : tensor<4xf32>
}
