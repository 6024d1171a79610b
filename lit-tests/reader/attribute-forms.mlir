// Every form StableHLO's printer writes is read: struct fields holding their default (empty
// lists, integers equal to 0) are left out, convolutions may have 0, 1 or 3 spatial dims, the
// raw conv form and both enum spellings are accepted.
// RUN: alpa-opt --alpa-annotate-costs %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.err

// CHECK-LABEL: func.func @main
// jnp.take(v, i, axis=0): index_vector_dim = 0 left out.
// CHECK: "stablehlo.gather"{{.*}}alpa.flops
// scatter with only index_vector_dim = 0 and empty lists left out.
// CHECK: "stablehlo.scatter"
// CHECK: }) {{{.*}}alpa.flops = 4 : i64{{.*}}} : (tensor<8x4xf32>, tensor<1xi32>, tensor<4xf32>)
// every dot field empty: an outer product, 2*8*3 FLOPs
// CHECK: "stablehlo.dot_general"{{.*}}alpa.flops = 48 : i64
// 1-D conv [b, 0, f]: 2 * (2*6*5) * (3*4)
// CHECK: "stablehlo.convolution"{{.*}}alpa.flops = 1440 : i64
// 3-D conv: 2 * (1*2*2*2*4) * (2*2*2*3)
// CHECK: "stablehlo.convolution"{{.*}}alpa.flops = 1536 : i64
// no spatial dims: a matmul, 2 * (2*5) * 4
// CHECK: "stablehlo.convolution"{{.*}}alpa.flops = 80 : i64
// the raw form with batch dims = 0 left out, as the compact form above
// CHECK: "stablehlo.convolution"{{.*}}alpa.flops = 80 : i64
// CHECK: "stablehlo.compare"{{.*}}alpa.flops
// CHECK: "stablehlo.compare"{{.*}}alpa.flops
// SUMMARY: remark: alpa-annotate-costs: @main: 9 ops (stablehlo.convolution 4, stablehlo.compare 2, stablehlo.dot_general 1, stablehlo.gather 1, stablehlo.scatter 1); 3204 FLOPs
func.func @main(%v: tensor<8x4xf32>, %i: tensor<1xi32>, %u: tensor<4xf32>, %a: tensor<8xf32>, %b: tensor<3xf32>,
                %x1: tensor<2x8x4xf32>, %k1: tensor<3x4x5xf32>, %x3: tensor<1x3x3x3x3xf32>, %k3: tensor<2x2x2x3x4xf32>,
                %x0: tensor<2x4xf32>, %k0: tensor<4x5xf32>)
    -> (tensor<4xf32>, tensor<8x4xf32>, tensor<8x3xf32>, tensor<2x6x5xf32>, tensor<1x2x2x2x4xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<8xi1>, tensor<8xi1>) {
  %0 = "stablehlo.gather"(%v, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0]>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<1xi32>) -> tensor<4xf32>
  %1 = "stablehlo.scatter"(%v, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = false}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<8x4xf32>, tensor<1xi32>, tensor<4xf32>) -> tensor<8x4xf32>
  %2 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<>}> : (tensor<8xf32>, tensor<3xf32>) -> tensor<8x3xf32>
  %3 = "stablehlo.convolution"(%x1, %k1) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64}> : (tensor<2x8x4xf32>, tensor<3x4x5xf32>) -> tensor<2x6x5xf32>
  %4 = "stablehlo.convolution"(%x3, %k3) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f]>, feature_group_count = 1 : i64}> : (tensor<1x3x3x3x3xf32>, tensor<2x2x2x3x4xf32>) -> tensor<1x2x2x2x4xf32>
  %5 = "stablehlo.convolution"(%x0, %k0) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f]x[i, o]->[b, f]>, feature_group_count = 1 : i64}> : (tensor<2x4xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  %6 = "stablehlo.convolution"(%x0, %k0) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<raw input_feature_dimension = 1, kernel_output_feature_dimension = 1, output_feature_dimension = 1>, feature_group_count = 1 : i64}> : (tensor<2x4xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  %7 = "stablehlo.compare"(%a, %a) <{comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type FLOAT>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %8 = "stablehlo.compare"(%a, %a) <{comparison_direction = #stablehlo.comparison_direction<GE>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<4xf32>, tensor<8x4xf32>, tensor<8x3xf32>, tensor<2x6x5xf32>, tensor<1x2x2x2x4xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<8xi1>, tensor<8xi1>
}
