// A transfer's send program starts its destination buffer from zeros of the tensor's element
// type, written as that type spells a number: a complex value crossing stages (an FFT's
// spectrum) got `dense<0.000000e+00>`, which MLIR refuses for complex elements, and the lowering
// failed. Booleans and integers get `false` and `0`, floats of every width `0.0`.
// The programs are written last transfer first.
// RUN: alpa-opt %s --alpa-cross-mesh-resharding="cluster=p3.16xlarge-x2 mode=send-recv" --alpa-lower-transfers | FileCheck %s

// CHECK-LABEL: func.func private @transfer_3_send(%arg0: tensor<{{[0-9x]+}}i8>
// CHECK: "stablehlo.constant"() <{value = dense<0> : tensor<i8>}>
// CHECK-LABEL: func.func private @transfer_2_send(%arg0: tensor<{{[0-9x]+}}bf16>
// CHECK: "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<bf16>}>
// CHECK-LABEL: func.func private @transfer_1_send(%arg0: tensor<{{[0-9x]+}}i1>
// CHECK: "stablehlo.constant"() <{value = dense<false> : tensor<i1>}>
// CHECK-LABEL: func.func private @transfer_0_send(%arg0: tensor<{{[0-9x]+}}complex<f32>>
// CHECK: "stablehlo.constant"() <{value = dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>}>

module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "stage0_mesh"}> : () -> ()
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "stage1_mesh"}> : () -> ()
  func.func public @main(%a: tensor<16x8xcomplex<f32>>, %b: tensor<16x8xi1>, %c: tensor<16x8xbf16>, %d: tensor<16x8xi8>) -> (tensor<16x8xcomplex<f32>>, tensor<16x8xi1>, tensor<16x8xbf16>, tensor<16x8xi8>) {
    %0 = "alpa.transfer"(%a) {dst_devices = array<i64: 8, 9, 10, 11>, dst_logical_mesh = array<i64: 4, 1>, dst_sharding = #sdy.sharding<@stage1_mesh, [{"x"}, {}]>, dst_stage = 1 : i64, src_devices = array<i64: 0, 1, 2, 3>, src_logical_mesh = array<i64: 4, 1>, src_sharding = #sdy.sharding<@stage0_mesh, [{"x"}, {}]>, src_stage = 0 : i64} : (tensor<16x8xcomplex<f32>>) -> tensor<16x8xcomplex<f32>>
    %1 = "alpa.transfer"(%b) {dst_devices = array<i64: 8, 9, 10, 11>, dst_logical_mesh = array<i64: 4, 1>, dst_sharding = #sdy.sharding<@stage1_mesh, [{"x"}, {}]>, dst_stage = 1 : i64, src_devices = array<i64: 0, 1, 2, 3>, src_logical_mesh = array<i64: 4, 1>, src_sharding = #sdy.sharding<@stage0_mesh, [{"x"}, {}]>, src_stage = 0 : i64} : (tensor<16x8xi1>) -> tensor<16x8xi1>
    %2 = "alpa.transfer"(%c) {dst_devices = array<i64: 8, 9, 10, 11>, dst_logical_mesh = array<i64: 4, 1>, dst_sharding = #sdy.sharding<@stage1_mesh, [{"x"}, {}]>, dst_stage = 1 : i64, src_devices = array<i64: 0, 1, 2, 3>, src_logical_mesh = array<i64: 4, 1>, src_sharding = #sdy.sharding<@stage0_mesh, [{"x"}, {}]>, src_stage = 0 : i64} : (tensor<16x8xbf16>) -> tensor<16x8xbf16>
    %3 = "alpa.transfer"(%d) {dst_devices = array<i64: 8, 9, 10, 11>, dst_logical_mesh = array<i64: 4, 1>, dst_sharding = #sdy.sharding<@stage1_mesh, [{"x"}, {}]>, dst_stage = 1 : i64, src_devices = array<i64: 0, 1, 2, 3>, src_logical_mesh = array<i64: 4, 1>, src_sharding = #sdy.sharding<@stage0_mesh, [{"x"}, {}]>, src_stage = 0 : i64} : (tensor<16x8xi8>) -> tensor<16x8xi8>
    return %0, %1, %2, %3 : tensor<16x8xcomplex<f32>>, tensor<16x8xi1>, tensor<16x8xbf16>, tensor<16x8xi8>
  }
}
