// A tuple costs the sum of its elements' bytes, a token none (no remark for either).
// RUN: alpa-opt --alpa-annotate-costs="summary=false" %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --allow-empty < %t.err

// REMARK-NOT: remark
// 32 + 16 bytes of the tuple, 0 of the token.
// CHECK: "stablehlo.get_tuple_element"{{.*}}alpa.bytes_read = 48 : i64, alpa.bytes_written = 32 : i64
// CHECK: "stablehlo.tuple"{{.*}}alpa.bytes_read = 48 : i64, alpa.bytes_written = 48 : i64
// CHECK: "stablehlo.after_all"{{.*}}alpa.bytes_read = 0 : i64, alpa.bytes_written = 0 : i64
func.func @main(%t: tuple<tensor<8xf32>, tensor<4xf32>>, %k: !stablehlo.token) -> tensor<8xf32> {
  %0 = "stablehlo.get_tuple_element"(%t) {index = 0 : i32} : (tuple<tensor<8xf32>, tensor<4xf32>>) -> tensor<8xf32>
  %1 = "stablehlo.get_tuple_element"(%t) {index = 1 : i32} : (tuple<tensor<8xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %2 = "stablehlo.tuple"(%0, %1) : (tensor<8xf32>, tensor<4xf32>) -> tuple<tensor<8xf32>, tensor<4xf32>>
  %3 = "stablehlo.after_all"(%k) : (!stablehlo.token) -> !stablehlo.token
  return %0 : tensor<8xf32>
}
