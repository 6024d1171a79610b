// RUN: alpa-opt --alpa-annotate-costs="summary=false" -split-input-file -verify-diagnostics %s

// Sizes past u64 are errors at the op: a saturated count would cost 2^96 elements as 2^64.
func.func @main(%x: tensor<8xi8>) -> tensor<8xi8> {
  // expected-error @+1 {{result #0: tensor<281474976710656x281474976710656xi8> has more than 2^64 bytes: sizes past u64 cannot be costed}}
  %0 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<281474976710656x281474976710656xi8>
  return %x : tensor<8xi8>
}

// -----

// 2^62 f32 elements are exactly 2^64 bytes: one too many.
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{result #0: tensor<4611686018427387904xf32> has more than 2^64 bytes}}
  %0 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4611686018427387904xf32>
  return %x : tensor<8xf32>
}

// -----

func.func @main(%x: tensor<8xi8>,
    // expected-error @+1 {{argument #1: tensor<281474976710656x281474976710656xi8> has more than 2^64 bytes}}
    %y: tensor<281474976710656x281474976710656xi8>) -> tensor<8xi8> {
  return %x : tensor<8xi8>
}

// -----

// Types that have no size (memref, ...) are costed as 0 bytes at the op, and a remark says so.
func.func @main(%x: tensor<8xf32>, %m: memref<8xf32>) -> tensor<8xf32> {
  // expected-remark @+3 {{operand of type memref<8xf32> is costed as 0 bytes in alpa.bytes_read}}
  // expected-remark @+2 {{result of type memref<4xf32> is costed as 0 bytes in alpa.bytes_written}}
  // expected-remark @+1 {{'test.consume' is not in the op table}}
  %0, %1 = "test.consume"(%x, %m) : (tensor<8xf32>, memref<8xf32>) -> (tensor<8xf32>, memref<4xf32>)
  return %0 : tensor<8xf32>
}

// -----

// Counts past u64 are errors at the op, not saturated: 2 * 2^21 * 2^21 * 2^21 FLOPs = 2^64.
func.func @main(%a: tensor<2097152x2097152xf32>, %b: tensor<2097152x2097152xf32>) -> tensor<2097152x2097152xf32> {
  // expected-error @+1 {{its FLOPs pass 2^64: sizes past u64 cannot be costed}}
  %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<2097152x2097152xf32>, tensor<2097152x2097152xf32>) -> tensor<2097152x2097152xf32>
  return %0 : tensor<2097152x2097152xf32>
}

// -----

// Each dot is 2^63 FLOPs; the function's total passes u64 at the second.
func.func @main(%a: tensor<2097152x2097152xf32>, %b: tensor<2097152x1048576xf32>) -> tensor<2097152x1048576xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<2097152x2097152xf32>, tensor<2097152x1048576xf32>) -> tensor<2097152x1048576xf32>
  // expected-error @+1 {{the function's FLOPs or bytes up to this op pass 2^64}}
  %1 = "stablehlo.dot_general"(%a, %0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<2097152x2097152xf32>, tensor<2097152x1048576xf32>) -> tensor<2097152x1048576xf32>
  return %1 : tensor<2097152x1048576xf32>
}

// -----

// 2^40 trips of a 2^30-FLOP body: the loop's count passes u64 at the loop.
func.func @main(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
  // expected-error @+1 {{its body's costs times its trips pass 2^64}}
  %r:2 = "stablehlo.while"(%c0, %x) ({
  ^bb0(%i: tensor<i64>, %h: tensor<1024x1024xf32>):
    %n = "stablehlo.constant"() <{value = dense<1099511627776> : tensor<i64>}> : () -> tensor<i64>
    %p = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i64>, tensor<i64>) -> tensor<i1>
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i64>, %h: tensor<1024x1024xf32>):
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
    %j = "stablehlo.add"(%i, %one) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %d = "stablehlo.dot_general"(%h, %h) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    "stablehlo.return"(%j, %d) : (tensor<i64>, tensor<1024x1024xf32>) -> ()
  }) : (tensor<i64>, tensor<1024x1024xf32>) -> (tensor<i64>, tensor<1024x1024xf32>)
  return %r#1 : tensor<1024x1024xf32>
}

// -----

// A region's block argument past u64 is an error at the op that holds the region.
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{block argument #0: tensor<281474976710656x281474976710656xi8> has more than 2^64 bytes}}
  %0 = "test.region"() ({
  ^bb0(%big: tensor<281474976710656x281474976710656xi8>):
    "test.yield"() : () -> ()
  }) : () -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Each argument is 2^63 bytes; together they pass u64.
// expected-error @+1 {{the arguments together have more than 2^64 bytes}}
func.func @main(%x: tensor<1152921504606846976xi64>, %y: tensor<1152921504606846976xi64>) -> tensor<8xf32> {
  %0 = "stablehlo.constant"() <{value = dense<0.0> : tensor<8xf32>}> : () -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
