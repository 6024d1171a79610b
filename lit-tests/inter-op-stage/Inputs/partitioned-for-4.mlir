module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @main(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
    %0 = "stablehlo.tanh"(%x) : (tensor<8x64xf32>) -> tensor<8x64xf32>
    return %0 : tensor<8x64xf32>
  }
}
