// A `custom_call @mhlo.<op>` of an elementwise op CHLO has (torch_xla's GELU erf) becomes the
// CHLO op and gets a sharding as the elementwise op it is; a call to an MHLO op
// with attributes (`mhlo.topk`) or to a library stays a call, replicated.
// RUN: alpa-opt --alpa-intra-op-shard="mesh=1x4 time-limit=5" %s | FileCheck %s
// CHECK-LABEL: func.func @main(
// CHECK: %[[H:.*]] = "stablehlo.dot_general"
// CHECK: %[[HS:.*]] = "sdy.sharding_constraint"(%[[H]])
// CHECK: "chlo.erf"(%[[HS]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{{.*}}]>]>} : (tensor<64x32xf32>) -> tensor<64x32xf32>
// CHECK: "stablehlo.custom_call"({{.*}}call_target_name = "mhlo.topk"
// CHECK: "stablehlo.custom_call"({{.*}}call_target_name = "my_kernel"
// CHECK-NOT: mhlo.erf
func.func @main(%x: tensor<64x32xf32>, %w: tensor<32x32xf32>) -> (tensor<64x32xf32>, tensor<64x2xf32>, tensor<64x32xf32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  %e = "stablehlo.custom_call"(%h) <{call_target_name = "mhlo.erf"}> {mhlo.attributes = {}, mhlo.version = 1 : i64} : (tensor<64x32xf32>) -> tensor<64x32xf32>
  %t:2 = "stablehlo.custom_call"(%e) <{call_target_name = "mhlo.topk"}> {mhlo.attributes = {k = 2 : i64, largest = true}, mhlo.version = 1 : i64} : (tensor<64x32xf32>) -> (tensor<64x2xf32>, tensor<64x2xi32>)
  %k = "stablehlo.custom_call"(%e) <{call_target_name = "my_kernel"}> : (tensor<64x32xf32>) -> tensor<64x32xf32>
  return %e, %t#0, %k : tensor<64x32xf32>, tensor<64x2xf32>, tensor<64x32xf32>
}
