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

// expected-error @+1 {{argument #1: tensor<281474976710656x281474976710656xi8> has more than 2^64 bytes}}
func.func @main(%x: tensor<8xi8>, %y: tensor<281474976710656x281474976710656xi8>) -> tensor<8xi8> {
  return %x : tensor<8xi8>
}

// -----

// Operands that are not ranked tensors have no bytes in the count: a remark says so.
func.func @main(%x: tensor<8xf32>, %m: memref<8xf32>) -> tensor<8xf32> {
  // expected-remark @+2 {{operand #1 is memref<8xf32>, not a ranked tensor: its bytes are not in alpa.bytes_read}}
  // expected-remark @+1 {{'test.consume' is not in the op table}}
  %0 = "test.consume"(%x, %m) : (tensor<8xf32>, memref<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @main(%t: tuple<tensor<8xf32>, tensor<4xf32>>) -> tensor<8xf32> {
  // expected-remark @+1 {{operand #0 is tuple<tensor<8xf32>, tensor<4xf32>>, not a ranked tensor: its bytes are not in alpa.bytes_read}}
  %0 = "stablehlo.get_tuple_element"(%t) {index = 0 : i32} : (tuple<tensor<8xf32>, tensor<4xf32>>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
