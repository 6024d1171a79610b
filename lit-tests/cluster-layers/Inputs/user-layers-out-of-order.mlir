func.func @main(%x: tensor<8x64xf32>, %w1: tensor<64x64xf32>, %w2: tensor<64x64xf32>) -> tensor<8x64xf32> {
  %0 = "stablehlo.dot_general"(%x, %w1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32> loc(fused["user-layers-out-of-order.mlir":2:8, "alpa_layer_0/dot_general"])
  %1 = "stablehlo.tanh"(%0) : (tensor<8x64xf32>) -> tensor<8x64xf32> loc(fused["user-layers-out-of-order.mlir":3:8, "alpa_layer_1/tanh"])
  %2 = "stablehlo.dot_general"(%1, %w2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32> loc(fused["user-layers-out-of-order.mlir":4:8, "alpa_layer_0/dot_general"])
  return %2 : tensor<8x64xf32>
}
