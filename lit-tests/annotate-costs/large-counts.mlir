// Counts past i64 (they fit u64) are written as ui64, exactly: they were clamped to 2^63 - 1,
// and the bytes of 2^61 f32 elements, whose bits pass u64, were saturated near 2^61.
// RUN: alpa-opt --alpa-annotate-costs="summary=false" -split-input-file %s | FileCheck %s

// CHECK: "stablehlo.iota"{{.*}}alpa.bytes_read = 0 : i64, alpa.bytes_written = 9223372036854775808 : ui64, alpa.flops = 0 : i64
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<2305843009213693952xf32>
  return %x : tensor<8xf32>
}

// -----

// CHECK: "stablehlo.negate"{{.*}}alpa.bytes_read = 9223372036854775808 : ui64, alpa.bytes_written = 9223372036854775808 : ui64, alpa.flops = 2305843009213693952 : i64
func.func @main(%x: tensor<2305843009213693952xf32>) -> tensor<2305843009213693952xf32> {
  %0 = "stablehlo.negate"(%x) : (tensor<2305843009213693952xf32>) -> tensor<2305843009213693952xf32>
  return %0 : tensor<2305843009213693952xf32>
}
