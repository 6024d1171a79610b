"builtin.module"() <{sym_name = "IrToHlo.2170"}> ({
  "func.func"() <{function_type = (tensor<f64>, tensor<f32>, tensor<f32>, tensor<f64>, tensor<8x32xf32>, tensor<8x8xi64>, tensor<64x32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<f32>, tensor<96xf32>, tensor<32xf32>, tensor<f32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<32xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<32xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<8x8xi64>, tensor<i64>, tensor<f32>, tensor<64x32xf32>, tensor<f32>, tensor<64x32xf32>, tensor<f32>, tensor<i64>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<64x32xf32>) -> (tensor<64x32xf32>, tensor<8x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<f32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<f64>, %arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<f64>, %arg4: tensor<8x32xf32>, %arg5: tensor<8x8xi64>, %arg6: tensor<64x32xf32>, %arg7: tensor<32xf32>, %arg8: tensor<96x32xf32>, %arg9: tensor<f32>, %arg10: tensor<96xf32>, %arg11: tensor<32xf32>, %arg12: tensor<f32>, %arg13: tensor<32x32xf32>, %arg14: tensor<32xf32>, %arg15: tensor<32xf32>, %arg16: tensor<128x32xf32>, %arg17: tensor<128xf32>, %arg18: tensor<32xf32>, %arg19: tensor<32x128xf32>, %arg20: tensor<32xf32>, %arg21: tensor<32xf32>, %arg22: tensor<96x32xf32>, %arg23: tensor<96xf32>, %arg24: tensor<32xf32>, %arg25: tensor<32x32xf32>, %arg26: tensor<32xf32>, %arg27: tensor<32xf32>, %arg28: tensor<128x32xf32>, %arg29: tensor<128xf32>, %arg30: tensor<32xf32>, %arg31: tensor<32x128xf32>, %arg32: tensor<32xf32>, %arg33: tensor<32xf32>, %arg34: tensor<64x32xf32>, %arg35: tensor<32xf32>, %arg36: tensor<8x8xi64>, %arg37: tensor<i64>, %arg38: tensor<f32>, %arg39: tensor<64x32xf32>, %arg40: tensor<f32>, %arg41: tensor<64x32xf32>, %arg42: tensor<f32>, %arg43: tensor<i64>, %arg44: tensor<8x32xf32>, %arg45: tensor<8x32xf32>, %arg46: tensor<32xf32>, %arg47: tensor<32xf32>, %arg48: tensor<32xf32>, %arg49: tensor<32xf32>, %arg50: tensor<96x32xf32>, %arg51: tensor<96x32xf32>, %arg52: tensor<96xf32>, %arg53: tensor<96xf32>, %arg54: tensor<32x32xf32>, %arg55: tensor<32x32xf32>, %arg56: tensor<32xf32>, %arg57: tensor<32xf32>, %arg58: tensor<32xf32>, %arg59: tensor<32xf32>, %arg60: tensor<32xf32>, %arg61: tensor<32xf32>, %arg62: tensor<128x32xf32>, %arg63: tensor<128x32xf32>, %arg64: tensor<128xf32>, %arg65: tensor<128xf32>, %arg66: tensor<32x128xf32>, %arg67: tensor<32x128xf32>, %arg68: tensor<32xf32>, %arg69: tensor<32xf32>, %arg70: tensor<32xf32>, %arg71: tensor<32xf32>, %arg72: tensor<32xf32>, %arg73: tensor<32xf32>, %arg74: tensor<96x32xf32>, %arg75: tensor<96x32xf32>, %arg76: tensor<96xf32>, %arg77: tensor<96xf32>, %arg78: tensor<32x32xf32>, %arg79: tensor<32x32xf32>, %arg80: tensor<32xf32>, %arg81: tensor<32xf32>, %arg82: tensor<32xf32>, %arg83: tensor<32xf32>, %arg84: tensor<32xf32>, %arg85: tensor<32xf32>, %arg86: tensor<128x32xf32>, %arg87: tensor<128x32xf32>, %arg88: tensor<128xf32>, %arg89: tensor<128xf32>, %arg90: tensor<32x128xf32>, %arg91: tensor<32x128xf32>, %arg92: tensor<32xf32>, %arg93: tensor<32xf32>, %arg94: tensor<32xf32>, %arg95: tensor<32xf32>, %arg96: tensor<32xf32>, %arg97: tensor<32xf32>, %arg98: tensor<64x32xf32>, %arg99: tensor<64x32xf32>):
    %0 = "stablehlo.constant"() <{value = dense<[[0], [1], [2], [3], [4], [5], [6], [7]]> : tensor<8x1xi64>}> : () -> tensor<8x1xi64>
    %1 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %2 = "stablehlo.constant"() <{value = dense<-1> : tensor<64xi64>}> : () -> tensor<64xi64>
    %3 = "stablehlo.constant"() <{value = dense<0> : tensor<64xi64>}> : () -> tensor<64xi64>
    %4 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<64x32xf32>}> : () -> tensor<64x32xf32>
    %5 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<3x8x8x32xf32>}> : () -> tensor<3x8x8x32xf32>
    %6 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<8x8x128xf32>}> : () -> tensor<8x8x128xf32>
    %7 = "stablehlo.constant"() <{value = dense<0.134144992> : tensor<8x8x128xf32>}> : () -> tensor<8x8x128xf32>
    %8 = "stablehlo.constant"() <{value = dense<-100> : tensor<64xi64>}> : () -> tensor<64xi64>
    %9 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<64x64xf32>}> : () -> tensor<64x64xf32>
    %10 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<64x64xf32>}> : () -> tensor<64x64xf32>
    %11 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<64xf32>}> : () -> tensor<64xf32>
    %12 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<8x8x128xf32>}> : () -> tensor<8x8x128xf32>
    %13 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<8x8x128xf32>}> : () -> tensor<8x8x128xf32>
    %14 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<8x8x128xf32>}> : () -> tensor<8x8x128xf32>
    %15 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<8x8x128xf32>}> : () -> tensor<8x8x128xf32>
    %16 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<8x8x128xf32>}> : () -> tensor<8x8x128xf32>
    %17 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<8x2x8x8xf32>}> : () -> tensor<8x2x8x8xf32>
    %18 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<8x2x8x8xf32>}> : () -> tensor<8x2x8x8xf32>
    %19 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<8x8xf32>}> : () -> tensor<8x8xf32>
    %20 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<64xf32>}> : () -> tensor<64xf32>
    %21 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<64xf32>}> : () -> tensor<64xf32>
    %22 = "stablehlo.constant"() <{value = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xui32>}> : () -> tensor<8xui32>
    %23 = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
    %24 = "stablehlo.constant"() <{value = dense<2> : tensor<i64>}> : () -> tensor<i64>
    %25 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    %26 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %27 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %28 = "stablehlo.constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
    %29 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %30 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %31 = "stablehlo.reshape"(%arg5) : (tensor<8x8xi64>) -> tensor<64xi64>
    %32 = "stablehlo.convert"(%31) : (tensor<64xi64>) -> tensor<64xui32>
    %33 = "stablehlo.gather"(%arg6, %32) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xf32>, tensor<64xui32>) -> tensor<64x32xf32>
    %34 = "stablehlo.reshape"(%33) : (tensor<64x32xf32>) -> tensor<8x8x32xf32>
    %35 = "stablehlo.gather"(%arg4, %22) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<8x32xf32>, tensor<8xui32>) -> tensor<8x32xf32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<8x32xf32>) -> tensor<8x8x32xf32>
    %37 = "stablehlo.add"(%34, %36) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %38 = "stablehlo.broadcast_in_dim"(%arg11) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<8x8x32xf32>
    %39 = "stablehlo.reshape"(%37) : (tensor<8x8x32xf32>) -> tensor<1x64x32xf32>
    %40:3 = "stablehlo.batch_norm_training"(%39, %21, %20) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>)
    %41 = "stablehlo.reshape"(%40#0) : (tensor<1x64x32xf32>) -> tensor<8x8x32xf32>
    %42 = "stablehlo.broadcast_in_dim"(%arg7) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<8x8x32xf32>
    %43 = "stablehlo.multiply"(%41, %42) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %44 = "stablehlo.add"(%38, %43) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %45 = "stablehlo.transpose"(%44) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,32]{2,0,1}"} : (tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %46 = "stablehlo.reshape"(%45) : (tensor<8x8x32xf32>) -> tensor<64x32xf32>
    %47 = "stablehlo.transpose"(%arg8) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,96]{0,1}"} : (tensor<96x32xf32>) -> tensor<32x96xf32>
    %48 = "stablehlo.dot_general"(%46, %47) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x32xf32>, tensor<32x96xf32>) -> tensor<64x96xf32>
    %49 = "stablehlo.reshape"(%48) : (tensor<64x96xf32>) -> tensor<8x8x96xf32>
    %50 = "stablehlo.broadcast_in_dim"(%arg10) <{broadcast_dimensions = array<i64: 2>}> : (tensor<96xf32>) -> tensor<8x8x96xf32>
    %51 = "stablehlo.add"(%49, %50) : (tensor<8x8x96xf32>, tensor<8x8x96xf32>) -> tensor<8x8x96xf32>
    %52 = "stablehlo.reshape"(%51) : (tensor<8x8x96xf32>) -> tensor<1x8x8x3x32xf32>
    %53 = "stablehlo.transpose"(%52) <{permutation = array<i64: 3, 1, 2, 0, 4>}> {result_layout = dense<[4, 0, 2, 1, 3]> : tensor<5xindex>, xla_shape = "f32[3,8,8,1,32]{4,0,2,1,3}"} : (tensor<1x8x8x3x32xf32>) -> tensor<3x8x8x1x32xf32>
    %54 = "stablehlo.reshape"(%53) : (tensor<3x8x8x1x32xf32>) -> tensor<3x8x8x32xf32>
    %55 = "stablehlo.slice"(%54) <{limit_indices = array<i64: 1, 8, 8, 32>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<3x8x8x32xf32>) -> tensor<1x8x8x32xf32>
    %56 = "stablehlo.reshape"(%55) : (tensor<1x8x8x32xf32>) -> tensor<8x16x16xf32>
    %57 = "stablehlo.transpose"(%56) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[16,8,16]{2,0,1}"} : (tensor<8x16x16xf32>) -> tensor<16x8x16xf32>
    %58 = "stablehlo.reshape"(%57) : (tensor<16x8x16xf32>) -> tensor<8x2x8x16xf32>
    %59 = "stablehlo.broadcast_in_dim"(%arg9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x2x8x16xf32>
    %60 = "stablehlo.multiply"(%58, %59) : (tensor<8x2x8x16xf32>, tensor<8x2x8x16xf32>) -> tensor<8x2x8x16xf32>
    %61 = "stablehlo.reshape"(%60) : (tensor<8x2x8x16xf32>) -> tensor<16x8x16xf32>
    %62 = "stablehlo.slice"(%54) <{limit_indices = array<i64: 2, 8, 8, 32>, start_indices = array<i64: 1, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<3x8x8x32xf32>) -> tensor<1x8x8x32xf32>
    %63 = "stablehlo.reshape"(%62) : (tensor<1x8x8x32xf32>) -> tensor<8x16x16xf32>
    %64 = "stablehlo.transpose"(%63) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[16,8,16]{2,0,1}"} : (tensor<8x16x16xf32>) -> tensor<16x8x16xf32>
    %65 = "stablehlo.reshape"(%64) : (tensor<16x8x16xf32>) -> tensor<8x2x8x16xf32>
    %66 = "stablehlo.transpose"(%65) <{permutation = array<i64: 0, 1, 3, 2>}> {result_layout = dense<[2, 3, 1, 0]> : tensor<4xindex>, xla_shape = "f32[8,2,16,8]{2,3,1,0}"} : (tensor<8x2x8x16xf32>) -> tensor<8x2x16x8xf32>
    %67 = "stablehlo.broadcast_in_dim"(%arg9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x2x16x8xf32>
    %68 = "stablehlo.multiply"(%66, %67) : (tensor<8x2x16x8xf32>, tensor<8x2x16x8xf32>) -> tensor<8x2x16x8xf32>
    %69 = "stablehlo.reshape"(%68) : (tensor<8x2x16x8xf32>) -> tensor<16x16x8xf32>
    %70 = "stablehlo.dot_general"(%61, %69) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8x16xf32>, tensor<16x16x8xf32>) -> tensor<16x8x8xf32>
    %71 = "stablehlo.reshape"(%70) : (tensor<16x8x8xf32>) -> tensor<8x2x8x8xf32>
    %72 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8xi32>
    %73 = "stablehlo.broadcast_in_dim"(%72) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xi32>) -> tensor<8x8xi32>
    %74 = "stablehlo.broadcast_in_dim"(%72) <{broadcast_dimensions = array<i64: 1>}> : (tensor<8xi32>) -> tensor<8x8xi32>
    %75 = "stablehlo.compare"(%73, %74) <{comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %76 = "stablehlo.broadcast_in_dim"(%arg12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x8xf32>
    %77 = "stablehlo.select"(%75, %19, %76) : (tensor<8x8xi1>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %78 = "stablehlo.broadcast_in_dim"(%77) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<8x8xf32>) -> tensor<8x2x8x8xf32>
    %79 = "stablehlo.add"(%71, %78) : (tensor<8x2x8x8xf32>, tensor<8x2x8x8xf32>) -> tensor<8x2x8x8xf32>
    %80 = "stablehlo.compare"(%79, %18) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x2x8x8xf32>, tensor<8x2x8x8xf32>) -> tensor<8x2x8x8xi1>
    %81 = "stablehlo.reduce"(%80, %26) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg166: tensor<i1>, %arg167: tensor<i1>):
      %1011 = "stablehlo.and"(%arg166, %arg167) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %1012 = "stablehlo.select"(%1011, %26, %25) : (tensor<i1>, tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%1012) : (tensor<i1>) -> ()
    }) : (tensor<8x2x8x8xi1>, tensor<i1>) -> tensor<8x2x8xi1>
    %82 = "stablehlo.broadcast_in_dim"(%81) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<8x2x8xi1>) -> tensor<8x2x8x8xi1>
    %83 = "stablehlo.reduce"(%79, %27) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg164: tensor<f32>, %arg165: tensor<f32>):
      %1010 = "stablehlo.maximum"(%arg164, %arg165) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1010) : (tensor<f32>) -> ()
    }) : (tensor<8x2x8x8xf32>, tensor<f32>) -> tensor<8x2x8xf32>
    %84 = "stablehlo.broadcast_in_dim"(%83) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<8x2x8xf32>) -> tensor<8x2x8x8xf32>
    %85 = "stablehlo.subtract"(%79, %84) : (tensor<8x2x8x8xf32>, tensor<8x2x8x8xf32>) -> tensor<8x2x8x8xf32>
    %86 = "stablehlo.exponential"(%85) : (tensor<8x2x8x8xf32>) -> tensor<8x2x8x8xf32>
    %87 = "stablehlo.reduce"(%86, %30) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg162: tensor<f32>, %arg163: tensor<f32>):
      %1009 = "stablehlo.add"(%arg162, %arg163) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1009) : (tensor<f32>) -> ()
    }) : (tensor<8x2x8x8xf32>, tensor<f32>) -> tensor<8x2x8xf32>
    %88 = "stablehlo.broadcast_in_dim"(%87) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<8x2x8xf32>) -> tensor<8x2x8x8xf32>
    %89 = "stablehlo.divide"(%86, %88) : (tensor<8x2x8x8xf32>, tensor<8x2x8x8xf32>) -> tensor<8x2x8x8xf32>
    %90 = "stablehlo.select"(%82, %17, %89) : (tensor<8x2x8x8xi1>, tensor<8x2x8x8xf32>, tensor<8x2x8x8xf32>) -> tensor<8x2x8x8xf32>
    %91 = "stablehlo.reshape"(%90) : (tensor<8x2x8x8xf32>) -> tensor<16x8x8xf32>
    %92 = "stablehlo.slice"(%54) <{limit_indices = array<i64: 3, 8, 8, 32>, start_indices = array<i64: 2, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<3x8x8x32xf32>) -> tensor<1x8x8x32xf32>
    %93 = "stablehlo.reshape"(%92) : (tensor<1x8x8x32xf32>) -> tensor<8x16x16xf32>
    %94 = "stablehlo.transpose"(%93) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[16,8,16]{2,0,1}"} : (tensor<8x16x16xf32>) -> tensor<16x8x16xf32>
    %95 = "stablehlo.dot_general"(%91, %94) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8x8xf32>, tensor<16x8x16xf32>) -> tensor<16x8x16xf32>
    %96 = "stablehlo.reshape"(%95) : (tensor<16x8x16xf32>) -> tensor<8x2x8x16xf32>
    %97 = "stablehlo.transpose"(%96) <{permutation = array<i64: 2, 0, 1, 3>}> {result_layout = dense<[3, 0, 2, 1]> : tensor<4xindex>, xla_shape = "f32[8,8,2,16]{3,0,2,1}"} : (tensor<8x2x8x16xf32>) -> tensor<8x8x2x16xf32>
    %98 = "stablehlo.reshape"(%97) : (tensor<8x8x2x16xf32>) -> tensor<64x32xf32>
    %99 = "stablehlo.transpose"(%arg13) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %100 = "stablehlo.dot_general"(%98, %99) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
    %101 = "stablehlo.broadcast_in_dim"(%arg14) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<64x32xf32>
    %102 = "stablehlo.add"(%100, %101) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %103 = "stablehlo.reshape"(%102) : (tensor<64x32xf32>) -> tensor<8x8x32xf32>
    %104 = "stablehlo.transpose"(%103) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,32]{2,0,1}"} : (tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %105 = "stablehlo.add"(%37, %104) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %106 = "stablehlo.broadcast_in_dim"(%arg18) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<8x8x32xf32>
    %107 = "stablehlo.reshape"(%105) : (tensor<8x8x32xf32>) -> tensor<1x64x32xf32>
    %108:3 = "stablehlo.batch_norm_training"(%107, %21, %20) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>)
    %109 = "stablehlo.reshape"(%108#0) : (tensor<1x64x32xf32>) -> tensor<8x8x32xf32>
    %110 = "stablehlo.broadcast_in_dim"(%arg15) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<8x8x32xf32>
    %111 = "stablehlo.multiply"(%109, %110) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %112 = "stablehlo.add"(%106, %111) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %113 = "stablehlo.reshape"(%112) : (tensor<8x8x32xf32>) -> tensor<64x32xf32>
    %114 = "stablehlo.transpose"(%arg16) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,128]{0,1}"} : (tensor<128x32xf32>) -> tensor<32x128xf32>
    %115 = "stablehlo.dot_general"(%113, %114) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x32xf32>, tensor<32x128xf32>) -> tensor<64x128xf32>
    %116 = "stablehlo.reshape"(%115) : (tensor<64x128xf32>) -> tensor<8x8x128xf32>
    %117 = "stablehlo.broadcast_in_dim"(%arg17) <{broadcast_dimensions = array<i64: 2>}> : (tensor<128xf32>) -> tensor<8x8x128xf32>
    %118 = "stablehlo.add"(%116, %117) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %119 = "stablehlo.multiply"(%118, %16) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %120 = "stablehlo.power"(%118, %12) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %121 = "stablehlo.multiply"(%120, %13) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %122 = "stablehlo.add"(%118, %121) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %123 = "stablehlo.multiply"(%122, %14) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %124 = "stablehlo.tanh"(%123) : (tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %125 = "stablehlo.add"(%124, %15) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %126 = "stablehlo.multiply"(%119, %125) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %127 = "stablehlo.reshape"(%126) : (tensor<8x8x128xf32>) -> tensor<64x128xf32>
    %128 = "stablehlo.transpose"(%arg19) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,32]{0,1}"} : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %129 = "stablehlo.dot_general"(%127, %128) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x128xf32>, tensor<128x32xf32>) -> tensor<64x32xf32>
    %130 = "stablehlo.reshape"(%129) : (tensor<64x32xf32>) -> tensor<8x8x32xf32>
    %131 = "stablehlo.broadcast_in_dim"(%arg20) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<8x8x32xf32>
    %132 = "stablehlo.add"(%130, %131) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %133 = "stablehlo.add"(%105, %132) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %134 = "stablehlo.broadcast_in_dim"(%arg24) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<8x8x32xf32>
    %135 = "stablehlo.reshape"(%133) : (tensor<8x8x32xf32>) -> tensor<1x64x32xf32>
    %136:3 = "stablehlo.batch_norm_training"(%135, %21, %20) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>)
    %137 = "stablehlo.reshape"(%136#0) : (tensor<1x64x32xf32>) -> tensor<8x8x32xf32>
    %138 = "stablehlo.broadcast_in_dim"(%arg21) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<8x8x32xf32>
    %139 = "stablehlo.multiply"(%137, %138) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %140 = "stablehlo.add"(%134, %139) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %141 = "stablehlo.transpose"(%140) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,32]{2,0,1}"} : (tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %142 = "stablehlo.reshape"(%141) : (tensor<8x8x32xf32>) -> tensor<64x32xf32>
    %143 = "stablehlo.transpose"(%arg22) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,96]{0,1}"} : (tensor<96x32xf32>) -> tensor<32x96xf32>
    %144 = "stablehlo.dot_general"(%142, %143) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x32xf32>, tensor<32x96xf32>) -> tensor<64x96xf32>
    %145 = "stablehlo.reshape"(%144) : (tensor<64x96xf32>) -> tensor<8x8x96xf32>
    %146 = "stablehlo.broadcast_in_dim"(%arg23) <{broadcast_dimensions = array<i64: 2>}> : (tensor<96xf32>) -> tensor<8x8x96xf32>
    %147 = "stablehlo.add"(%145, %146) : (tensor<8x8x96xf32>, tensor<8x8x96xf32>) -> tensor<8x8x96xf32>
    %148 = "stablehlo.reshape"(%147) : (tensor<8x8x96xf32>) -> tensor<1x8x8x3x32xf32>
    %149 = "stablehlo.transpose"(%148) <{permutation = array<i64: 3, 1, 2, 0, 4>}> {result_layout = dense<[4, 0, 2, 1, 3]> : tensor<5xindex>, xla_shape = "f32[3,8,8,1,32]{4,0,2,1,3}"} : (tensor<1x8x8x3x32xf32>) -> tensor<3x8x8x1x32xf32>
    %150 = "stablehlo.reshape"(%149) : (tensor<3x8x8x1x32xf32>) -> tensor<3x8x8x32xf32>
    %151 = "stablehlo.slice"(%150) <{limit_indices = array<i64: 1, 8, 8, 32>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<3x8x8x32xf32>) -> tensor<1x8x8x32xf32>
    %152 = "stablehlo.reshape"(%151) : (tensor<1x8x8x32xf32>) -> tensor<8x16x16xf32>
    %153 = "stablehlo.transpose"(%152) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[16,8,16]{2,0,1}"} : (tensor<8x16x16xf32>) -> tensor<16x8x16xf32>
    %154 = "stablehlo.reshape"(%153) : (tensor<16x8x16xf32>) -> tensor<8x2x8x16xf32>
    %155 = "stablehlo.multiply"(%154, %59) : (tensor<8x2x8x16xf32>, tensor<8x2x8x16xf32>) -> tensor<8x2x8x16xf32>
    %156 = "stablehlo.reshape"(%155) : (tensor<8x2x8x16xf32>) -> tensor<16x8x16xf32>
    %157 = "stablehlo.slice"(%150) <{limit_indices = array<i64: 2, 8, 8, 32>, start_indices = array<i64: 1, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<3x8x8x32xf32>) -> tensor<1x8x8x32xf32>
    %158 = "stablehlo.reshape"(%157) : (tensor<1x8x8x32xf32>) -> tensor<8x16x16xf32>
    %159 = "stablehlo.transpose"(%158) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[16,8,16]{2,0,1}"} : (tensor<8x16x16xf32>) -> tensor<16x8x16xf32>
    %160 = "stablehlo.reshape"(%159) : (tensor<16x8x16xf32>) -> tensor<8x2x8x16xf32>
    %161 = "stablehlo.transpose"(%160) <{permutation = array<i64: 0, 1, 3, 2>}> {result_layout = dense<[2, 3, 1, 0]> : tensor<4xindex>, xla_shape = "f32[8,2,16,8]{2,3,1,0}"} : (tensor<8x2x8x16xf32>) -> tensor<8x2x16x8xf32>
    %162 = "stablehlo.multiply"(%161, %67) : (tensor<8x2x16x8xf32>, tensor<8x2x16x8xf32>) -> tensor<8x2x16x8xf32>
    %163 = "stablehlo.reshape"(%162) : (tensor<8x2x16x8xf32>) -> tensor<16x16x8xf32>
    %164 = "stablehlo.dot_general"(%156, %163) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8x16xf32>, tensor<16x16x8xf32>) -> tensor<16x8x8xf32>
    %165 = "stablehlo.reshape"(%164) : (tensor<16x8x8xf32>) -> tensor<8x2x8x8xf32>
    %166 = "stablehlo.add"(%165, %78) : (tensor<8x2x8x8xf32>, tensor<8x2x8x8xf32>) -> tensor<8x2x8x8xf32>
    %167 = "stablehlo.compare"(%166, %18) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x2x8x8xf32>, tensor<8x2x8x8xf32>) -> tensor<8x2x8x8xi1>
    %168 = "stablehlo.reduce"(%167, %26) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg160: tensor<i1>, %arg161: tensor<i1>):
      %1007 = "stablehlo.and"(%arg160, %arg161) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %1008 = "stablehlo.select"(%1007, %26, %25) : (tensor<i1>, tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%1008) : (tensor<i1>) -> ()
    }) : (tensor<8x2x8x8xi1>, tensor<i1>) -> tensor<8x2x8xi1>
    %169 = "stablehlo.broadcast_in_dim"(%168) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<8x2x8xi1>) -> tensor<8x2x8x8xi1>
    %170 = "stablehlo.reduce"(%166, %27) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg158: tensor<f32>, %arg159: tensor<f32>):
      %1006 = "stablehlo.maximum"(%arg158, %arg159) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1006) : (tensor<f32>) -> ()
    }) : (tensor<8x2x8x8xf32>, tensor<f32>) -> tensor<8x2x8xf32>
    %171 = "stablehlo.broadcast_in_dim"(%170) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<8x2x8xf32>) -> tensor<8x2x8x8xf32>
    %172 = "stablehlo.subtract"(%166, %171) : (tensor<8x2x8x8xf32>, tensor<8x2x8x8xf32>) -> tensor<8x2x8x8xf32>
    %173 = "stablehlo.exponential"(%172) : (tensor<8x2x8x8xf32>) -> tensor<8x2x8x8xf32>
    %174 = "stablehlo.reduce"(%173, %30) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg156: tensor<f32>, %arg157: tensor<f32>):
      %1005 = "stablehlo.add"(%arg156, %arg157) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1005) : (tensor<f32>) -> ()
    }) : (tensor<8x2x8x8xf32>, tensor<f32>) -> tensor<8x2x8xf32>
    %175 = "stablehlo.broadcast_in_dim"(%174) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<8x2x8xf32>) -> tensor<8x2x8x8xf32>
    %176 = "stablehlo.divide"(%173, %175) : (tensor<8x2x8x8xf32>, tensor<8x2x8x8xf32>) -> tensor<8x2x8x8xf32>
    %177 = "stablehlo.select"(%169, %17, %176) : (tensor<8x2x8x8xi1>, tensor<8x2x8x8xf32>, tensor<8x2x8x8xf32>) -> tensor<8x2x8x8xf32>
    %178 = "stablehlo.reshape"(%177) : (tensor<8x2x8x8xf32>) -> tensor<16x8x8xf32>
    %179 = "stablehlo.slice"(%150) <{limit_indices = array<i64: 3, 8, 8, 32>, start_indices = array<i64: 2, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<3x8x8x32xf32>) -> tensor<1x8x8x32xf32>
    %180 = "stablehlo.reshape"(%179) : (tensor<1x8x8x32xf32>) -> tensor<8x16x16xf32>
    %181 = "stablehlo.transpose"(%180) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[16,8,16]{2,0,1}"} : (tensor<8x16x16xf32>) -> tensor<16x8x16xf32>
    %182 = "stablehlo.dot_general"(%178, %181) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8x8xf32>, tensor<16x8x16xf32>) -> tensor<16x8x16xf32>
    %183 = "stablehlo.reshape"(%182) : (tensor<16x8x16xf32>) -> tensor<8x2x8x16xf32>
    %184 = "stablehlo.transpose"(%183) <{permutation = array<i64: 2, 0, 1, 3>}> {result_layout = dense<[3, 0, 2, 1]> : tensor<4xindex>, xla_shape = "f32[8,8,2,16]{3,0,2,1}"} : (tensor<8x2x8x16xf32>) -> tensor<8x8x2x16xf32>
    %185 = "stablehlo.reshape"(%184) : (tensor<8x8x2x16xf32>) -> tensor<64x32xf32>
    %186 = "stablehlo.transpose"(%arg25) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %187 = "stablehlo.dot_general"(%185, %186) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
    %188 = "stablehlo.broadcast_in_dim"(%arg26) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<64x32xf32>
    %189 = "stablehlo.add"(%187, %188) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %190 = "stablehlo.reshape"(%189) : (tensor<64x32xf32>) -> tensor<8x8x32xf32>
    %191 = "stablehlo.transpose"(%190) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,32]{2,0,1}"} : (tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %192 = "stablehlo.add"(%133, %191) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %193 = "stablehlo.broadcast_in_dim"(%arg30) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<8x8x32xf32>
    %194 = "stablehlo.reshape"(%192) : (tensor<8x8x32xf32>) -> tensor<1x64x32xf32>
    %195:3 = "stablehlo.batch_norm_training"(%194, %21, %20) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>)
    %196 = "stablehlo.reshape"(%195#0) : (tensor<1x64x32xf32>) -> tensor<8x8x32xf32>
    %197 = "stablehlo.broadcast_in_dim"(%arg27) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<8x8x32xf32>
    %198 = "stablehlo.multiply"(%196, %197) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %199 = "stablehlo.add"(%193, %198) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %200 = "stablehlo.reshape"(%199) : (tensor<8x8x32xf32>) -> tensor<64x32xf32>
    %201 = "stablehlo.transpose"(%arg28) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,128]{0,1}"} : (tensor<128x32xf32>) -> tensor<32x128xf32>
    %202 = "stablehlo.dot_general"(%200, %201) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x32xf32>, tensor<32x128xf32>) -> tensor<64x128xf32>
    %203 = "stablehlo.reshape"(%202) : (tensor<64x128xf32>) -> tensor<8x8x128xf32>
    %204 = "stablehlo.broadcast_in_dim"(%arg29) <{broadcast_dimensions = array<i64: 2>}> : (tensor<128xf32>) -> tensor<8x8x128xf32>
    %205 = "stablehlo.add"(%203, %204) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %206 = "stablehlo.multiply"(%205, %16) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %207 = "stablehlo.power"(%205, %12) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %208 = "stablehlo.multiply"(%207, %13) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %209 = "stablehlo.add"(%205, %208) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %210 = "stablehlo.multiply"(%209, %14) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %211 = "stablehlo.tanh"(%210) : (tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %212 = "stablehlo.add"(%211, %15) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %213 = "stablehlo.multiply"(%206, %212) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %214 = "stablehlo.reshape"(%213) : (tensor<8x8x128xf32>) -> tensor<64x128xf32>
    %215 = "stablehlo.transpose"(%arg31) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,32]{0,1}"} : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %216 = "stablehlo.dot_general"(%214, %215) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x128xf32>, tensor<128x32xf32>) -> tensor<64x32xf32>
    %217 = "stablehlo.reshape"(%216) : (tensor<64x32xf32>) -> tensor<8x8x32xf32>
    %218 = "stablehlo.broadcast_in_dim"(%arg32) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<8x8x32xf32>
    %219 = "stablehlo.add"(%217, %218) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %220 = "stablehlo.add"(%192, %219) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %221 = "stablehlo.reshape"(%220) : (tensor<8x8x32xf32>) -> tensor<1x64x32xf32>
    %222:3 = "stablehlo.batch_norm_training"(%221, %21, %20) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>)
    %223 = "stablehlo.add"(%222#2, %11) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %224 = "stablehlo.rsqrt"(%223) : (tensor<64xf32>) -> tensor<64xf32>
    %225 = "stablehlo.divide"(%21, %224) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %226 = "stablehlo.multiply"(%225, %225) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %227 = "stablehlo.subtract"(%226, %11) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %228 = "stablehlo.reshape"(%arg36) : (tensor<8x8xi64>) -> tensor<64xi64>
    %229 = "stablehlo.broadcast_in_dim"(%228) <{broadcast_dimensions = array<i64: 0>}> : (tensor<64xi64>) -> tensor<64x64xi64>
    %230 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<64xi64>
    %231 = "stablehlo.broadcast_in_dim"(%230) <{broadcast_dimensions = array<i64: 1>}> : (tensor<64xi64>) -> tensor<64x64xi64>
    %232 = "stablehlo.compare"(%229, %231) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<64x64xi64>, tensor<64x64xi64>) -> tensor<64x64xi1>
    %233 = "stablehlo.select"(%232, %10, %9) : (tensor<64x64xi1>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %234 = "stablehlo.negate"(%233) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %235 = "stablehlo.compare"(%228, %8) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<64xi64>, tensor<64xi64>) -> tensor<64xi1>
    %236 = "stablehlo.broadcast_in_dim"(%235) <{broadcast_dimensions = array<i64: 0>}> : (tensor<64xi1>) -> tensor<64x64xi1>
    %237 = "stablehlo.select"(%236, %10, %9) : (tensor<64x64xi1>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %238 = "stablehlo.multiply"(%237, %233) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %239 = "stablehlo.multiply"(%234, %238) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %240 = "stablehlo.reduce"(%238, %30) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg154: tensor<f32>, %arg155: tensor<f32>):
      %1004 = "stablehlo.add"(%arg154, %arg155) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1004) : (tensor<f32>) -> ()
    }) : (tensor<64x64xf32>, tensor<f32>) -> tensor<f32>
    %241 = "stablehlo.compare"(%240, %30) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %242 = "stablehlo.select"(%241, %240, %29) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %243 = "stablehlo.broadcast_in_dim"(%242) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x64xf32>
    %244 = "stablehlo.divide"(%239, %243) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %245 = "stablehlo.broadcast_in_dim"(%arg35) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<8x8x32xf32>
    %246 = "stablehlo.reshape"(%222#0) : (tensor<1x64x32xf32>) -> tensor<8x8x32xf32>
    %247 = "stablehlo.broadcast_in_dim"(%arg33) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<8x8x32xf32>
    %248 = "stablehlo.multiply"(%246, %247) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %249 = "stablehlo.add"(%245, %248) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %250 = "stablehlo.reshape"(%249) : (tensor<8x8x32xf32>) -> tensor<64x32xf32>
    %251 = "stablehlo.transpose"(%arg34) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,64]{0,1}"} : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %252 = "stablehlo.dot_general"(%250, %251) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x32xf32>, tensor<32x64xf32>) -> tensor<64x64xf32>
    %253 = "stablehlo.reduce"(%252, %27) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg152: tensor<f32>, %arg153: tensor<f32>):
      %1003 = "stablehlo.maximum"(%arg152, %arg153) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1003) : (tensor<f32>) -> ()
    }) : (tensor<64x64xf32>, tensor<f32>) -> tensor<64xf32>
    %254 = "stablehlo.broadcast_in_dim"(%253) <{broadcast_dimensions = array<i64: 0>}> : (tensor<64xf32>) -> tensor<64x64xf32>
    %255 = "stablehlo.subtract"(%252, %254) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %256 = "stablehlo.exponential"(%255) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %257 = "stablehlo.reduce"(%256, %30) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg150: tensor<f32>, %arg151: tensor<f32>):
      %1002 = "stablehlo.add"(%arg150, %arg151) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1002) : (tensor<f32>) -> ()
    }) : (tensor<64x64xf32>, tensor<f32>) -> tensor<64xf32>
    %258 = "stablehlo.log"(%257) : (tensor<64xf32>) -> tensor<64xf32>
    %259 = "stablehlo.broadcast_in_dim"(%258) <{broadcast_dimensions = array<i64: 0>}> : (tensor<64xf32>) -> tensor<64x64xf32>
    %260 = "stablehlo.subtract"(%255, %259) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %261 = "stablehlo.exponential"(%260) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %262 = "stablehlo.reduce"(%244, %30) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg148: tensor<f32>, %arg149: tensor<f32>):
      %1001 = "stablehlo.add"(%arg148, %arg149) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1001) : (tensor<f32>) -> ()
    }) : (tensor<64x64xf32>, tensor<f32>) -> tensor<64xf32>
    %263 = "stablehlo.broadcast_in_dim"(%262) <{broadcast_dimensions = array<i64: 0>}> : (tensor<64xf32>) -> tensor<64x64xf32>
    %264 = "stablehlo.multiply"(%261, %263) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %265 = "stablehlo.subtract"(%244, %264) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %266 = "stablehlo.dot_general"(%265, %arg34) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x64xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %267 = "stablehlo.reshape"(%266) : (tensor<64x32xf32>) -> tensor<8x8x32xf32>
    %268 = "stablehlo.multiply"(%267, %247) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %269 = "stablehlo.reshape"(%268) : (tensor<8x8x32xf32>) -> tensor<1x64x32xf32>
    %270:3 = "stablehlo.batch_norm_grad"(%221, %21, %222#1, %227, %269) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<1x64x32xf32>) -> (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>)
    %271 = "stablehlo.add"(%195#2, %11) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %272 = "stablehlo.rsqrt"(%271) : (tensor<64xf32>) -> tensor<64xf32>
    %273 = "stablehlo.divide"(%21, %272) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %274 = "stablehlo.multiply"(%273, %273) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %275 = "stablehlo.subtract"(%274, %11) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %276 = "stablehlo.reshape"(%270#0) : (tensor<1x64x32xf32>) -> tensor<8x8x32xf32>
    %277 = "stablehlo.reshape"(%270#0) : (tensor<1x64x32xf32>) -> tensor<64x32xf32>
    %278 = "stablehlo.dot_general"(%277, %arg31) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x32xf32>, tensor<32x128xf32>) -> tensor<64x128xf32>
    %279 = "stablehlo.reshape"(%278) : (tensor<64x128xf32>) -> tensor<8x8x128xf32>
    %280 = "stablehlo.multiply"(%212, %16) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %281 = "stablehlo.multiply"(%211, %211) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %282 = "stablehlo.subtract"(%15, %281) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %283 = "stablehlo.multiply"(%206, %282) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %284 = "stablehlo.power"(%205, %6) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %285 = "stablehlo.multiply"(%284, %7) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %286 = "stablehlo.add"(%285, %15) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %287 = "stablehlo.multiply"(%286, %14) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %288 = "stablehlo.multiply"(%283, %287) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %289 = "stablehlo.add"(%280, %288) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %290 = "stablehlo.multiply"(%279, %289) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %291 = "stablehlo.reshape"(%290) : (tensor<8x8x128xf32>) -> tensor<64x128xf32>
    %292 = "stablehlo.dot_general"(%291, %arg28) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x128xf32>, tensor<128x32xf32>) -> tensor<64x32xf32>
    %293 = "stablehlo.reshape"(%292) : (tensor<64x32xf32>) -> tensor<8x8x32xf32>
    %294 = "stablehlo.multiply"(%293, %197) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %295 = "stablehlo.reshape"(%294) : (tensor<8x8x32xf32>) -> tensor<1x64x32xf32>
    %296:3 = "stablehlo.batch_norm_grad"(%194, %21, %195#1, %275, %295) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<1x64x32xf32>) -> (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>)
    %297 = "stablehlo.add"(%136#2, %11) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %298 = "stablehlo.rsqrt"(%297) : (tensor<64xf32>) -> tensor<64xf32>
    %299 = "stablehlo.divide"(%21, %298) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %300 = "stablehlo.multiply"(%299, %299) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %301 = "stablehlo.subtract"(%300, %11) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %302 = "stablehlo.transpose"(%178) <{permutation = array<i64: 0, 2, 1>}> {result_layout = dense<[1, 2, 0]> : tensor<3xindex>, xla_shape = "f32[16,8,8]{1,2,0}"} : (tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %303 = "stablehlo.reshape"(%296#0) : (tensor<1x64x32xf32>) -> tensor<8x8x32xf32>
    %304 = "stablehlo.add"(%276, %303) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %305 = "stablehlo.transpose"(%304) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,32]{2,0,1}"} : (tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %306 = "stablehlo.reshape"(%305) : (tensor<8x8x32xf32>) -> tensor<64x32xf32>
    %307 = "stablehlo.dot_general"(%306, %arg25) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
    %308 = "stablehlo.reshape"(%307) : (tensor<64x32xf32>) -> tensor<8x8x2x16xf32>
    %309 = "stablehlo.transpose"(%308) <{permutation = array<i64: 1, 2, 0, 3>}> {result_layout = dense<[3, 1, 0, 2]> : tensor<4xindex>, xla_shape = "f32[8,2,8,16]{3,1,0,2}"} : (tensor<8x8x2x16xf32>) -> tensor<8x2x8x16xf32>
    %310 = "stablehlo.reshape"(%309) : (tensor<8x2x8x16xf32>) -> tensor<16x8x16xf32>
    %311 = "stablehlo.dot_general"(%302, %310) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8x8xf32>, tensor<16x8x16xf32>) -> tensor<16x8x16xf32>
    %312 = "stablehlo.transpose"(%311) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,16,16]{2,0,1}"} : (tensor<16x8x16xf32>) -> tensor<8x16x16xf32>
    %313 = "stablehlo.reshape"(%312) : (tensor<8x16x16xf32>) -> tensor<1x8x8x32xf32>
    %314 = "stablehlo.dynamic_update_slice"(%5, %313, %24, %23, %23, %23) : (tensor<3x8x8x32xf32>, tensor<1x8x8x32xf32>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3x8x8x32xf32>
    %315 = "stablehlo.transpose"(%156) <{permutation = array<i64: 0, 2, 1>}> {result_layout = dense<[1, 2, 0]> : tensor<3xindex>, xla_shape = "f32[16,16,8]{1,2,0}"} : (tensor<16x8x16xf32>) -> tensor<16x16x8xf32>
    %316 = "stablehlo.transpose"(%180) <{permutation = array<i64: 1, 2, 0>}> : (tensor<8x16x16xf32>) -> tensor<16x16x8xf32>
    %317 = "stablehlo.dot_general"(%310, %316) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8x16xf32>, tensor<16x16x8xf32>) -> tensor<16x8x8xf32>
    %318 = "stablehlo.reshape"(%317) : (tensor<16x8x8xf32>) -> tensor<8x2x8x8xf32>
    %319 = "stablehlo.multiply"(%318, %177) : (tensor<8x2x8x8xf32>, tensor<8x2x8x8xf32>) -> tensor<8x2x8x8xf32>
    %320 = "stablehlo.reduce"(%319, %30) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg146: tensor<f32>, %arg147: tensor<f32>):
      %1000 = "stablehlo.add"(%arg146, %arg147) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1000) : (tensor<f32>) -> ()
    }) : (tensor<8x2x8x8xf32>, tensor<f32>) -> tensor<8x2x8xf32>
    %321 = "stablehlo.broadcast_in_dim"(%320) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<8x2x8xf32>) -> tensor<8x2x8x8xf32>
    %322 = "stablehlo.subtract"(%318, %321) : (tensor<8x2x8x8xf32>, tensor<8x2x8x8xf32>) -> tensor<8x2x8x8xf32>
    %323 = "stablehlo.multiply"(%177, %322) : (tensor<8x2x8x8xf32>, tensor<8x2x8x8xf32>) -> tensor<8x2x8x8xf32>
    %324 = "stablehlo.reshape"(%323) : (tensor<8x2x8x8xf32>) -> tensor<16x8x8xf32>
    %325 = "stablehlo.dot_general"(%315, %324) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x16x8xf32>, tensor<16x8x8xf32>) -> tensor<16x16x8xf32>
    %326 = "stablehlo.reshape"(%325) : (tensor<16x16x8xf32>) -> tensor<8x2x16x8xf32>
    %327 = "stablehlo.multiply"(%326, %67) : (tensor<8x2x16x8xf32>, tensor<8x2x16x8xf32>) -> tensor<8x2x16x8xf32>
    %328 = "stablehlo.transpose"(%327) <{permutation = array<i64: 0, 1, 3, 2>}> {result_layout = dense<[2, 3, 1, 0]> : tensor<4xindex>, xla_shape = "f32[8,2,8,16]{2,3,1,0}"} : (tensor<8x2x16x8xf32>) -> tensor<8x2x8x16xf32>
    %329 = "stablehlo.reshape"(%328) : (tensor<8x2x8x16xf32>) -> tensor<16x8x16xf32>
    %330 = "stablehlo.transpose"(%329) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,16,16]{2,0,1}"} : (tensor<16x8x16xf32>) -> tensor<8x16x16xf32>
    %331 = "stablehlo.reshape"(%330) : (tensor<8x16x16xf32>) -> tensor<1x8x8x32xf32>
    %332 = "stablehlo.dynamic_update_slice"(%5, %331, %28, %23, %23, %23) : (tensor<3x8x8x32xf32>, tensor<1x8x8x32xf32>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3x8x8x32xf32>
    %333 = "stablehlo.add"(%314, %332) : (tensor<3x8x8x32xf32>, tensor<3x8x8x32xf32>) -> tensor<3x8x8x32xf32>
    %334 = "stablehlo.transpose"(%163) <{permutation = array<i64: 0, 2, 1>}> {result_layout = dense<[1, 2, 0]> : tensor<3xindex>, xla_shape = "f32[16,8,16]{1,2,0}"} : (tensor<16x16x8xf32>) -> tensor<16x8x16xf32>
    %335 = "stablehlo.dot_general"(%324, %334) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8x8xf32>, tensor<16x8x16xf32>) -> tensor<16x8x16xf32>
    %336 = "stablehlo.reshape"(%335) : (tensor<16x8x16xf32>) -> tensor<8x2x8x16xf32>
    %337 = "stablehlo.multiply"(%336, %59) : (tensor<8x2x8x16xf32>, tensor<8x2x8x16xf32>) -> tensor<8x2x8x16xf32>
    %338 = "stablehlo.reshape"(%337) : (tensor<8x2x8x16xf32>) -> tensor<16x8x16xf32>
    %339 = "stablehlo.transpose"(%338) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,16,16]{2,0,1}"} : (tensor<16x8x16xf32>) -> tensor<8x16x16xf32>
    %340 = "stablehlo.reshape"(%339) : (tensor<8x16x16xf32>) -> tensor<1x8x8x32xf32>
    %341 = "stablehlo.dynamic_update_slice"(%5, %340, %23, %23, %23, %23) : (tensor<3x8x8x32xf32>, tensor<1x8x8x32xf32>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3x8x8x32xf32>
    %342 = "stablehlo.add"(%333, %341) : (tensor<3x8x8x32xf32>, tensor<3x8x8x32xf32>) -> tensor<3x8x8x32xf32>
    %343 = "stablehlo.reshape"(%342) : (tensor<3x8x8x32xf32>) -> tensor<3x8x8x1x32xf32>
    %344 = "stablehlo.transpose"(%343) <{permutation = array<i64: 3, 1, 2, 0, 4>}> {result_layout = dense<[4, 0, 2, 1, 3]> : tensor<5xindex>, xla_shape = "f32[1,8,8,3,32]{4,0,2,1,3}"} : (tensor<3x8x8x1x32xf32>) -> tensor<1x8x8x3x32xf32>
    %345 = "stablehlo.reshape"(%344) : (tensor<1x8x8x3x32xf32>) -> tensor<8x8x96xf32>
    %346 = "stablehlo.reshape"(%344) : (tensor<1x8x8x3x32xf32>) -> tensor<64x96xf32>
    %347 = "stablehlo.dot_general"(%346, %arg22) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x96xf32>, tensor<96x32xf32>) -> tensor<64x32xf32>
    %348 = "stablehlo.reshape"(%347) : (tensor<64x32xf32>) -> tensor<8x8x32xf32>
    %349 = "stablehlo.transpose"(%348) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,32]{2,0,1}"} : (tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %350 = "stablehlo.multiply"(%349, %138) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %351 = "stablehlo.reshape"(%350) : (tensor<8x8x32xf32>) -> tensor<1x64x32xf32>
    %352:3 = "stablehlo.batch_norm_grad"(%135, %21, %136#1, %301, %351) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<1x64x32xf32>) -> (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>)
    %353 = "stablehlo.add"(%108#2, %11) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %354 = "stablehlo.rsqrt"(%353) : (tensor<64xf32>) -> tensor<64xf32>
    %355 = "stablehlo.divide"(%21, %354) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %356 = "stablehlo.multiply"(%355, %355) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %357 = "stablehlo.subtract"(%356, %11) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %358 = "stablehlo.reshape"(%352#0) : (tensor<1x64x32xf32>) -> tensor<8x8x32xf32>
    %359 = "stablehlo.add"(%304, %358) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %360 = "stablehlo.reshape"(%359) : (tensor<8x8x32xf32>) -> tensor<64x32xf32>
    %361 = "stablehlo.dot_general"(%360, %arg19) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x32xf32>, tensor<32x128xf32>) -> tensor<64x128xf32>
    %362 = "stablehlo.reshape"(%361) : (tensor<64x128xf32>) -> tensor<8x8x128xf32>
    %363 = "stablehlo.multiply"(%125, %16) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %364 = "stablehlo.multiply"(%124, %124) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %365 = "stablehlo.subtract"(%15, %364) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %366 = "stablehlo.multiply"(%119, %365) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %367 = "stablehlo.power"(%118, %6) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %368 = "stablehlo.multiply"(%367, %7) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %369 = "stablehlo.add"(%368, %15) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %370 = "stablehlo.multiply"(%369, %14) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %371 = "stablehlo.multiply"(%366, %370) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %372 = "stablehlo.add"(%363, %371) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %373 = "stablehlo.multiply"(%362, %372) : (tensor<8x8x128xf32>, tensor<8x8x128xf32>) -> tensor<8x8x128xf32>
    %374 = "stablehlo.reshape"(%373) : (tensor<8x8x128xf32>) -> tensor<64x128xf32>
    %375 = "stablehlo.dot_general"(%374, %arg16) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x128xf32>, tensor<128x32xf32>) -> tensor<64x32xf32>
    %376 = "stablehlo.reshape"(%375) : (tensor<64x32xf32>) -> tensor<8x8x32xf32>
    %377 = "stablehlo.multiply"(%376, %110) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %378 = "stablehlo.reshape"(%377) : (tensor<8x8x32xf32>) -> tensor<1x64x32xf32>
    %379:3 = "stablehlo.batch_norm_grad"(%107, %21, %108#1, %357, %378) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<1x64x32xf32>) -> (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>)
    %380 = "stablehlo.add"(%40#2, %11) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %381 = "stablehlo.rsqrt"(%380) : (tensor<64xf32>) -> tensor<64xf32>
    %382 = "stablehlo.divide"(%21, %381) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %383 = "stablehlo.multiply"(%382, %382) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %384 = "stablehlo.subtract"(%383, %11) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %385 = "stablehlo.transpose"(%91) <{permutation = array<i64: 0, 2, 1>}> {result_layout = dense<[1, 2, 0]> : tensor<3xindex>, xla_shape = "f32[16,8,8]{1,2,0}"} : (tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %386 = "stablehlo.reshape"(%379#0) : (tensor<1x64x32xf32>) -> tensor<8x8x32xf32>
    %387 = "stablehlo.add"(%359, %386) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %388 = "stablehlo.transpose"(%387) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,32]{2,0,1}"} : (tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %389 = "stablehlo.reshape"(%388) : (tensor<8x8x32xf32>) -> tensor<64x32xf32>
    %390 = "stablehlo.dot_general"(%389, %arg13) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
    %391 = "stablehlo.reshape"(%390) : (tensor<64x32xf32>) -> tensor<8x8x2x16xf32>
    %392 = "stablehlo.transpose"(%391) <{permutation = array<i64: 1, 2, 0, 3>}> {result_layout = dense<[3, 1, 0, 2]> : tensor<4xindex>, xla_shape = "f32[8,2,8,16]{3,1,0,2}"} : (tensor<8x8x2x16xf32>) -> tensor<8x2x8x16xf32>
    %393 = "stablehlo.reshape"(%392) : (tensor<8x2x8x16xf32>) -> tensor<16x8x16xf32>
    %394 = "stablehlo.dot_general"(%385, %393) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8x8xf32>, tensor<16x8x16xf32>) -> tensor<16x8x16xf32>
    %395 = "stablehlo.transpose"(%394) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,16,16]{2,0,1}"} : (tensor<16x8x16xf32>) -> tensor<8x16x16xf32>
    %396 = "stablehlo.reshape"(%395) : (tensor<8x16x16xf32>) -> tensor<1x8x8x32xf32>
    %397 = "stablehlo.dynamic_update_slice"(%5, %396, %24, %23, %23, %23) : (tensor<3x8x8x32xf32>, tensor<1x8x8x32xf32>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3x8x8x32xf32>
    %398 = "stablehlo.transpose"(%61) <{permutation = array<i64: 0, 2, 1>}> {result_layout = dense<[1, 2, 0]> : tensor<3xindex>, xla_shape = "f32[16,16,8]{1,2,0}"} : (tensor<16x8x16xf32>) -> tensor<16x16x8xf32>
    %399 = "stablehlo.transpose"(%93) <{permutation = array<i64: 1, 2, 0>}> : (tensor<8x16x16xf32>) -> tensor<16x16x8xf32>
    %400 = "stablehlo.dot_general"(%393, %399) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8x16xf32>, tensor<16x16x8xf32>) -> tensor<16x8x8xf32>
    %401 = "stablehlo.reshape"(%400) : (tensor<16x8x8xf32>) -> tensor<8x2x8x8xf32>
    %402 = "stablehlo.multiply"(%401, %90) : (tensor<8x2x8x8xf32>, tensor<8x2x8x8xf32>) -> tensor<8x2x8x8xf32>
    %403 = "stablehlo.reduce"(%402, %30) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg144: tensor<f32>, %arg145: tensor<f32>):
      %999 = "stablehlo.add"(%arg144, %arg145) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%999) : (tensor<f32>) -> ()
    }) : (tensor<8x2x8x8xf32>, tensor<f32>) -> tensor<8x2x8xf32>
    %404 = "stablehlo.broadcast_in_dim"(%403) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<8x2x8xf32>) -> tensor<8x2x8x8xf32>
    %405 = "stablehlo.subtract"(%401, %404) : (tensor<8x2x8x8xf32>, tensor<8x2x8x8xf32>) -> tensor<8x2x8x8xf32>
    %406 = "stablehlo.multiply"(%90, %405) : (tensor<8x2x8x8xf32>, tensor<8x2x8x8xf32>) -> tensor<8x2x8x8xf32>
    %407 = "stablehlo.reshape"(%406) : (tensor<8x2x8x8xf32>) -> tensor<16x8x8xf32>
    %408 = "stablehlo.dot_general"(%398, %407) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x16x8xf32>, tensor<16x8x8xf32>) -> tensor<16x16x8xf32>
    %409 = "stablehlo.reshape"(%408) : (tensor<16x16x8xf32>) -> tensor<8x2x16x8xf32>
    %410 = "stablehlo.multiply"(%409, %67) : (tensor<8x2x16x8xf32>, tensor<8x2x16x8xf32>) -> tensor<8x2x16x8xf32>
    %411 = "stablehlo.transpose"(%410) <{permutation = array<i64: 0, 1, 3, 2>}> {result_layout = dense<[2, 3, 1, 0]> : tensor<4xindex>, xla_shape = "f32[8,2,8,16]{2,3,1,0}"} : (tensor<8x2x16x8xf32>) -> tensor<8x2x8x16xf32>
    %412 = "stablehlo.reshape"(%411) : (tensor<8x2x8x16xf32>) -> tensor<16x8x16xf32>
    %413 = "stablehlo.transpose"(%412) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,16,16]{2,0,1}"} : (tensor<16x8x16xf32>) -> tensor<8x16x16xf32>
    %414 = "stablehlo.reshape"(%413) : (tensor<8x16x16xf32>) -> tensor<1x8x8x32xf32>
    %415 = "stablehlo.dynamic_update_slice"(%5, %414, %28, %23, %23, %23) : (tensor<3x8x8x32xf32>, tensor<1x8x8x32xf32>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3x8x8x32xf32>
    %416 = "stablehlo.add"(%397, %415) : (tensor<3x8x8x32xf32>, tensor<3x8x8x32xf32>) -> tensor<3x8x8x32xf32>
    %417 = "stablehlo.transpose"(%69) <{permutation = array<i64: 0, 2, 1>}> {result_layout = dense<[1, 2, 0]> : tensor<3xindex>, xla_shape = "f32[16,8,16]{1,2,0}"} : (tensor<16x16x8xf32>) -> tensor<16x8x16xf32>
    %418 = "stablehlo.dot_general"(%407, %417) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8x8xf32>, tensor<16x8x16xf32>) -> tensor<16x8x16xf32>
    %419 = "stablehlo.reshape"(%418) : (tensor<16x8x16xf32>) -> tensor<8x2x8x16xf32>
    %420 = "stablehlo.multiply"(%419, %59) : (tensor<8x2x8x16xf32>, tensor<8x2x8x16xf32>) -> tensor<8x2x8x16xf32>
    %421 = "stablehlo.reshape"(%420) : (tensor<8x2x8x16xf32>) -> tensor<16x8x16xf32>
    %422 = "stablehlo.transpose"(%421) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,16,16]{2,0,1}"} : (tensor<16x8x16xf32>) -> tensor<8x16x16xf32>
    %423 = "stablehlo.reshape"(%422) : (tensor<8x16x16xf32>) -> tensor<1x8x8x32xf32>
    %424 = "stablehlo.dynamic_update_slice"(%5, %423, %23, %23, %23, %23) : (tensor<3x8x8x32xf32>, tensor<1x8x8x32xf32>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3x8x8x32xf32>
    %425 = "stablehlo.add"(%416, %424) : (tensor<3x8x8x32xf32>, tensor<3x8x8x32xf32>) -> tensor<3x8x8x32xf32>
    %426 = "stablehlo.reshape"(%425) : (tensor<3x8x8x32xf32>) -> tensor<3x8x8x1x32xf32>
    %427 = "stablehlo.transpose"(%426) <{permutation = array<i64: 3, 1, 2, 0, 4>}> {result_layout = dense<[4, 0, 2, 1, 3]> : tensor<5xindex>, xla_shape = "f32[1,8,8,3,32]{4,0,2,1,3}"} : (tensor<3x8x8x1x32xf32>) -> tensor<1x8x8x3x32xf32>
    %428 = "stablehlo.reshape"(%427) : (tensor<1x8x8x3x32xf32>) -> tensor<8x8x96xf32>
    %429 = "stablehlo.reshape"(%427) : (tensor<1x8x8x3x32xf32>) -> tensor<64x96xf32>
    %430 = "stablehlo.dot_general"(%429, %arg8) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x96xf32>, tensor<96x32xf32>) -> tensor<64x32xf32>
    %431 = "stablehlo.reshape"(%430) : (tensor<64x32xf32>) -> tensor<8x8x32xf32>
    %432 = "stablehlo.transpose"(%431) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,32]{2,0,1}"} : (tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %433 = "stablehlo.multiply"(%432, %42) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %434 = "stablehlo.reshape"(%433) : (tensor<8x8x32xf32>) -> tensor<1x64x32xf32>
    %435:3 = "stablehlo.batch_norm_grad"(%39, %21, %40#1, %384, %434) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<1x64x32xf32>) -> (tensor<1x64x32xf32>, tensor<64xf32>, tensor<64xf32>)
    %436 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x32xf32>
    %437 = "stablehlo.multiply"(%arg6, %436) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %438 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x32xf32>
    %439 = "stablehlo.compare"(%31, %3) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<64xi64>, tensor<64xi64>) -> tensor<64xi1>
    %440 = "stablehlo.broadcast_in_dim"(%arg37) <{broadcast_dimensions = array<i64>}> : (tensor<i64>) -> tensor<64xi64>
    %441 = "stablehlo.add"(%31, %440) : (tensor<64xi64>, tensor<64xi64>) -> tensor<64xi64>
    %442 = "stablehlo.select"(%439, %441, %31) : (tensor<64xi1>, tensor<64xi64>, tensor<64xi64>) -> tensor<64xi64>
    %443 = "stablehlo.reshape"(%442) : (tensor<64xi64>) -> tensor<64x1xi64>
    %444 = "stablehlo.compare"(%31, %2) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<64xi64>, tensor<64xi64>) -> tensor<64xi1>
    %445 = "stablehlo.broadcast_in_dim"(%444) <{broadcast_dimensions = array<i64: 0>}> : (tensor<64xi1>) -> tensor<64x32xi1>
    %446 = "stablehlo.reshape"(%435#0) : (tensor<1x64x32xf32>) -> tensor<8x8x32xf32>
    %447 = "stablehlo.add"(%387, %446) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %448 = "stablehlo.reshape"(%447) : (tensor<8x8x32xf32>) -> tensor<64x32xf32>
    %449 = "stablehlo.select"(%445, %448, %4) : (tensor<64x32xi1>, tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %450 = "stablehlo.scatter"(%4, %443, %449) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg142: tensor<f32>, %arg143: tensor<f32>):
      %998 = "stablehlo.add"(%arg142, %arg143) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%998) : (tensor<f32>) -> ()
    }) : (tensor<64x32xf32>, tensor<64x1xi64>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %451 = "stablehlo.subtract"(%450, %arg41) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %452 = "stablehlo.multiply"(%438, %451) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %453 = "stablehlo.add"(%arg41, %452) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %454 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x32xf32>
    %455 = "stablehlo.multiply"(%arg39, %454) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %456 = "stablehlo.multiply"(%450, %450) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %457 = "stablehlo.convert"(%arg3) : (tensor<f64>) -> tensor<f32>
    %458 = "stablehlo.broadcast_in_dim"(%457) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x32xf32>
    %459 = "stablehlo.multiply"(%456, %458) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %460 = "stablehlo.add"(%455, %459) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %461 = "stablehlo.sqrt"(%460) : (tensor<64x32xf32>) -> tensor<64x32xf32>
    %462 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x32xf32>
    %463 = "stablehlo.divide"(%461, %462) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %464 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x32xf32>
    %465 = "stablehlo.add"(%463, %464) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %466 = "stablehlo.divide"(%453, %465) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %467 = "stablehlo.convert"(%arg0) : (tensor<f64>) -> tensor<f32>
    %468 = "stablehlo.broadcast_in_dim"(%467) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x32xf32>
    %469 = "stablehlo.multiply"(%466, %468) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %470 = "stablehlo.add"(%437, %469) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %471 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %472 = "stablehlo.multiply"(%arg4, %471) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %473 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %474 = "stablehlo.reduce"(%447, %30) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg140: tensor<f32>, %arg141: tensor<f32>):
      %997 = "stablehlo.add"(%arg140, %arg141) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%997) : (tensor<f32>) -> ()
    }) : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<8x32xf32>
    %475 = "stablehlo.scatter"(%1, %0, %474) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg138: tensor<f32>, %arg139: tensor<f32>):
      %996 = "stablehlo.add"(%arg138, %arg139) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%996) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<8x1xi64>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %476 = "stablehlo.subtract"(%475, %arg45) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %477 = "stablehlo.multiply"(%473, %476) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %478 = "stablehlo.add"(%arg45, %477) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %479 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %480 = "stablehlo.multiply"(%arg44, %479) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %481 = "stablehlo.multiply"(%475, %475) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %482 = "stablehlo.broadcast_in_dim"(%457) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %483 = "stablehlo.multiply"(%481, %482) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %484 = "stablehlo.add"(%480, %483) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %485 = "stablehlo.sqrt"(%484) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %486 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %487 = "stablehlo.divide"(%485, %486) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %488 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %489 = "stablehlo.add"(%487, %488) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %490 = "stablehlo.divide"(%478, %489) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %491 = "stablehlo.broadcast_in_dim"(%467) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %492 = "stablehlo.multiply"(%490, %491) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %493 = "stablehlo.add"(%472, %492) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %494 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %495 = "stablehlo.multiply"(%arg7, %494) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %496 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %497 = "stablehlo.multiply"(%432, %41) {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,32]{2,0,1}"} : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %498 = "stablehlo.reduce"(%497, %30) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg136: tensor<f32>, %arg137: tensor<f32>):
      %995 = "stablehlo.add"(%arg136, %arg137) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%995) : (tensor<f32>) -> ()
    }) : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %499 = "stablehlo.subtract"(%498, %arg47) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %500 = "stablehlo.multiply"(%496, %499) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %501 = "stablehlo.add"(%arg47, %500) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %502 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %503 = "stablehlo.multiply"(%arg46, %502) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %504 = "stablehlo.multiply"(%498, %498) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %505 = "stablehlo.broadcast_in_dim"(%457) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %506 = "stablehlo.multiply"(%504, %505) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %507 = "stablehlo.add"(%503, %506) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %508 = "stablehlo.sqrt"(%507) : (tensor<32xf32>) -> tensor<32xf32>
    %509 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %510 = "stablehlo.divide"(%508, %509) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %511 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %512 = "stablehlo.add"(%510, %511) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %513 = "stablehlo.divide"(%501, %512) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %514 = "stablehlo.broadcast_in_dim"(%467) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %515 = "stablehlo.multiply"(%513, %514) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %516 = "stablehlo.add"(%495, %515) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %517 = "stablehlo.multiply"(%arg11, %494) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %518 = "stablehlo.reduce"(%432, %30) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg134: tensor<f32>, %arg135: tensor<f32>):
      %994 = "stablehlo.add"(%arg134, %arg135) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%994) : (tensor<f32>) -> ()
    }) : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %519 = "stablehlo.subtract"(%518, %arg49) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %520 = "stablehlo.multiply"(%496, %519) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %521 = "stablehlo.add"(%arg49, %520) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %522 = "stablehlo.multiply"(%arg48, %502) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %523 = "stablehlo.multiply"(%518, %518) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %524 = "stablehlo.multiply"(%523, %505) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %525 = "stablehlo.add"(%522, %524) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %526 = "stablehlo.sqrt"(%525) : (tensor<32xf32>) -> tensor<32xf32>
    %527 = "stablehlo.divide"(%526, %509) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %528 = "stablehlo.add"(%527, %511) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %529 = "stablehlo.divide"(%521, %528) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %530 = "stablehlo.multiply"(%529, %514) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %531 = "stablehlo.add"(%517, %530) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %532 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96x32xf32>
    %533 = "stablehlo.multiply"(%arg8, %532) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %534 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96x32xf32>
    %535 = "stablehlo.transpose"(%46) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,64]{0,1}"} : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %536 = "stablehlo.dot_general"(%535, %429) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x64xf32>, tensor<64x96xf32>) -> tensor<32x96xf32>
    %537 = "stablehlo.transpose"(%536) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[96,32]{0,1}"} : (tensor<32x96xf32>) -> tensor<96x32xf32>
    %538 = "stablehlo.subtract"(%537, %arg51) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[96,32]{0,1}"} : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %539 = "stablehlo.multiply"(%534, %538) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %540 = "stablehlo.add"(%arg51, %539) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %541 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96x32xf32>
    %542 = "stablehlo.multiply"(%arg50, %541) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %543 = "stablehlo.multiply"(%537, %537) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[96,32]{0,1}"} : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %544 = "stablehlo.broadcast_in_dim"(%457) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96x32xf32>
    %545 = "stablehlo.multiply"(%543, %544) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %546 = "stablehlo.add"(%542, %545) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %547 = "stablehlo.sqrt"(%546) : (tensor<96x32xf32>) -> tensor<96x32xf32>
    %548 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96x32xf32>
    %549 = "stablehlo.divide"(%547, %548) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %550 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96x32xf32>
    %551 = "stablehlo.add"(%549, %550) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %552 = "stablehlo.divide"(%540, %551) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %553 = "stablehlo.broadcast_in_dim"(%467) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96x32xf32>
    %554 = "stablehlo.multiply"(%552, %553) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %555 = "stablehlo.add"(%533, %554) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %556 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96xf32>
    %557 = "stablehlo.multiply"(%arg10, %556) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %558 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96xf32>
    %559 = "stablehlo.reduce"(%428, %30) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg132: tensor<f32>, %arg133: tensor<f32>):
      %993 = "stablehlo.add"(%arg132, %arg133) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%993) : (tensor<f32>) -> ()
    }) : (tensor<8x8x96xf32>, tensor<f32>) -> tensor<96xf32>
    %560 = "stablehlo.subtract"(%559, %arg53) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %561 = "stablehlo.multiply"(%558, %560) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %562 = "stablehlo.add"(%arg53, %561) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %563 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96xf32>
    %564 = "stablehlo.multiply"(%arg52, %563) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %565 = "stablehlo.multiply"(%559, %559) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %566 = "stablehlo.broadcast_in_dim"(%457) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96xf32>
    %567 = "stablehlo.multiply"(%565, %566) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %568 = "stablehlo.add"(%564, %567) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %569 = "stablehlo.sqrt"(%568) : (tensor<96xf32>) -> tensor<96xf32>
    %570 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96xf32>
    %571 = "stablehlo.divide"(%569, %570) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %572 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96xf32>
    %573 = "stablehlo.add"(%571, %572) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %574 = "stablehlo.divide"(%562, %573) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %575 = "stablehlo.broadcast_in_dim"(%467) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96xf32>
    %576 = "stablehlo.multiply"(%574, %575) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %577 = "stablehlo.add"(%557, %576) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %578 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x32xf32>
    %579 = "stablehlo.multiply"(%arg13, %578) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %580 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x32xf32>
    %581 = "stablehlo.transpose"(%98) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,64]{0,1}"} : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %582 = "stablehlo.dot_general"(%581, %389) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>
    %583 = "stablehlo.transpose"(%582) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %584 = "stablehlo.subtract"(%583, %arg55) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %585 = "stablehlo.multiply"(%580, %584) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %586 = "stablehlo.add"(%arg55, %585) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %587 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x32xf32>
    %588 = "stablehlo.multiply"(%arg54, %587) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %589 = "stablehlo.multiply"(%583, %583) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %590 = "stablehlo.broadcast_in_dim"(%457) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x32xf32>
    %591 = "stablehlo.multiply"(%589, %590) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %592 = "stablehlo.add"(%588, %591) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %593 = "stablehlo.sqrt"(%592) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %594 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x32xf32>
    %595 = "stablehlo.divide"(%593, %594) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %596 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x32xf32>
    %597 = "stablehlo.add"(%595, %596) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %598 = "stablehlo.divide"(%586, %597) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %599 = "stablehlo.broadcast_in_dim"(%467) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x32xf32>
    %600 = "stablehlo.multiply"(%598, %599) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %601 = "stablehlo.add"(%579, %600) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %602 = "stablehlo.multiply"(%arg14, %494) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %603 = "stablehlo.reduce"(%389, %30) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg130: tensor<f32>, %arg131: tensor<f32>):
      %992 = "stablehlo.add"(%arg130, %arg131) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%992) : (tensor<f32>) -> ()
    }) : (tensor<64x32xf32>, tensor<f32>) -> tensor<32xf32>
    %604 = "stablehlo.subtract"(%603, %arg57) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %605 = "stablehlo.multiply"(%496, %604) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %606 = "stablehlo.add"(%arg57, %605) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %607 = "stablehlo.multiply"(%arg56, %502) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %608 = "stablehlo.multiply"(%603, %603) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %609 = "stablehlo.multiply"(%608, %505) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %610 = "stablehlo.add"(%607, %609) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %611 = "stablehlo.sqrt"(%610) : (tensor<32xf32>) -> tensor<32xf32>
    %612 = "stablehlo.divide"(%611, %509) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %613 = "stablehlo.add"(%612, %511) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %614 = "stablehlo.divide"(%606, %613) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %615 = "stablehlo.multiply"(%614, %514) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %616 = "stablehlo.add"(%602, %615) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %617 = "stablehlo.multiply"(%arg15, %494) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %618 = "stablehlo.multiply"(%376, %109) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %619 = "stablehlo.reduce"(%618, %30) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg128: tensor<f32>, %arg129: tensor<f32>):
      %991 = "stablehlo.add"(%arg128, %arg129) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%991) : (tensor<f32>) -> ()
    }) : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %620 = "stablehlo.subtract"(%619, %arg59) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %621 = "stablehlo.multiply"(%496, %620) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %622 = "stablehlo.add"(%arg59, %621) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %623 = "stablehlo.multiply"(%arg58, %502) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %624 = "stablehlo.multiply"(%619, %619) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %625 = "stablehlo.multiply"(%624, %505) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %626 = "stablehlo.add"(%623, %625) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %627 = "stablehlo.sqrt"(%626) : (tensor<32xf32>) -> tensor<32xf32>
    %628 = "stablehlo.divide"(%627, %509) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %629 = "stablehlo.add"(%628, %511) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %630 = "stablehlo.divide"(%622, %629) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %631 = "stablehlo.multiply"(%630, %514) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %632 = "stablehlo.add"(%617, %631) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %633 = "stablehlo.multiply"(%arg18, %494) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %634 = "stablehlo.reduce"(%376, %30) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg126: tensor<f32>, %arg127: tensor<f32>):
      %990 = "stablehlo.add"(%arg126, %arg127) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%990) : (tensor<f32>) -> ()
    }) : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %635 = "stablehlo.subtract"(%634, %arg61) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %636 = "stablehlo.multiply"(%496, %635) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %637 = "stablehlo.add"(%arg61, %636) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %638 = "stablehlo.multiply"(%arg60, %502) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %639 = "stablehlo.multiply"(%634, %634) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %640 = "stablehlo.multiply"(%639, %505) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %641 = "stablehlo.add"(%638, %640) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %642 = "stablehlo.sqrt"(%641) : (tensor<32xf32>) -> tensor<32xf32>
    %643 = "stablehlo.divide"(%642, %509) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %644 = "stablehlo.add"(%643, %511) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %645 = "stablehlo.divide"(%637, %644) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %646 = "stablehlo.multiply"(%645, %514) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %647 = "stablehlo.add"(%633, %646) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %648 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128x32xf32>
    %649 = "stablehlo.multiply"(%arg16, %648) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %650 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128x32xf32>
    %651 = "stablehlo.transpose"(%113) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,64]{0,1}"} : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %652 = "stablehlo.dot_general"(%651, %374) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
    %653 = "stablehlo.transpose"(%652) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,32]{0,1}"} : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %654 = "stablehlo.subtract"(%653, %arg63) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,32]{0,1}"} : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %655 = "stablehlo.multiply"(%650, %654) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %656 = "stablehlo.add"(%arg63, %655) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %657 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128x32xf32>
    %658 = "stablehlo.multiply"(%arg62, %657) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %659 = "stablehlo.multiply"(%653, %653) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,32]{0,1}"} : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %660 = "stablehlo.broadcast_in_dim"(%457) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128x32xf32>
    %661 = "stablehlo.multiply"(%659, %660) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %662 = "stablehlo.add"(%658, %661) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %663 = "stablehlo.sqrt"(%662) : (tensor<128x32xf32>) -> tensor<128x32xf32>
    %664 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128x32xf32>
    %665 = "stablehlo.divide"(%663, %664) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %666 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128x32xf32>
    %667 = "stablehlo.add"(%665, %666) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %668 = "stablehlo.divide"(%656, %667) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %669 = "stablehlo.broadcast_in_dim"(%467) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128x32xf32>
    %670 = "stablehlo.multiply"(%668, %669) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %671 = "stablehlo.add"(%649, %670) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %672 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128xf32>
    %673 = "stablehlo.multiply"(%arg17, %672) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %674 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128xf32>
    %675 = "stablehlo.reduce"(%373, %30) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg124: tensor<f32>, %arg125: tensor<f32>):
      %989 = "stablehlo.add"(%arg124, %arg125) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%989) : (tensor<f32>) -> ()
    }) : (tensor<8x8x128xf32>, tensor<f32>) -> tensor<128xf32>
    %676 = "stablehlo.subtract"(%675, %arg65) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %677 = "stablehlo.multiply"(%674, %676) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %678 = "stablehlo.add"(%arg65, %677) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %679 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128xf32>
    %680 = "stablehlo.multiply"(%arg64, %679) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %681 = "stablehlo.multiply"(%675, %675) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %682 = "stablehlo.broadcast_in_dim"(%457) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128xf32>
    %683 = "stablehlo.multiply"(%681, %682) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %684 = "stablehlo.add"(%680, %683) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %685 = "stablehlo.sqrt"(%684) : (tensor<128xf32>) -> tensor<128xf32>
    %686 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128xf32>
    %687 = "stablehlo.divide"(%685, %686) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %688 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128xf32>
    %689 = "stablehlo.add"(%687, %688) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %690 = "stablehlo.divide"(%678, %689) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %691 = "stablehlo.broadcast_in_dim"(%467) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128xf32>
    %692 = "stablehlo.multiply"(%690, %691) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %693 = "stablehlo.add"(%673, %692) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %694 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x128xf32>
    %695 = "stablehlo.multiply"(%arg19, %694) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %696 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x128xf32>
    %697 = "stablehlo.transpose"(%127) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,64]{0,1}"} : (tensor<64x128xf32>) -> tensor<128x64xf32>
    %698 = "stablehlo.dot_general"(%697, %360) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<128x64xf32>, tensor<64x32xf32>) -> tensor<128x32xf32>
    %699 = "stablehlo.transpose"(%698) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,128]{0,1}"} : (tensor<128x32xf32>) -> tensor<32x128xf32>
    %700 = "stablehlo.subtract"(%699, %arg67) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,128]{0,1}"} : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %701 = "stablehlo.multiply"(%696, %700) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %702 = "stablehlo.add"(%arg67, %701) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %703 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x128xf32>
    %704 = "stablehlo.multiply"(%arg66, %703) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %705 = "stablehlo.multiply"(%699, %699) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,128]{0,1}"} : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %706 = "stablehlo.broadcast_in_dim"(%457) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x128xf32>
    %707 = "stablehlo.multiply"(%705, %706) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %708 = "stablehlo.add"(%704, %707) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %709 = "stablehlo.sqrt"(%708) : (tensor<32x128xf32>) -> tensor<32x128xf32>
    %710 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x128xf32>
    %711 = "stablehlo.divide"(%709, %710) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %712 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x128xf32>
    %713 = "stablehlo.add"(%711, %712) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %714 = "stablehlo.divide"(%702, %713) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %715 = "stablehlo.broadcast_in_dim"(%467) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x128xf32>
    %716 = "stablehlo.multiply"(%714, %715) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %717 = "stablehlo.add"(%695, %716) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %718 = "stablehlo.multiply"(%arg20, %494) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %719 = "stablehlo.reduce"(%359, %30) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg122: tensor<f32>, %arg123: tensor<f32>):
      %988 = "stablehlo.add"(%arg122, %arg123) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%988) : (tensor<f32>) -> ()
    }) : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %720 = "stablehlo.subtract"(%719, %arg69) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %721 = "stablehlo.multiply"(%496, %720) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %722 = "stablehlo.add"(%arg69, %721) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %723 = "stablehlo.multiply"(%arg68, %502) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %724 = "stablehlo.multiply"(%719, %719) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %725 = "stablehlo.multiply"(%724, %505) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %726 = "stablehlo.add"(%723, %725) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %727 = "stablehlo.sqrt"(%726) : (tensor<32xf32>) -> tensor<32xf32>
    %728 = "stablehlo.divide"(%727, %509) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %729 = "stablehlo.add"(%728, %511) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %730 = "stablehlo.divide"(%722, %729) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %731 = "stablehlo.multiply"(%730, %514) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %732 = "stablehlo.add"(%718, %731) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %733 = "stablehlo.multiply"(%arg21, %494) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %734 = "stablehlo.multiply"(%349, %137) {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,32]{2,0,1}"} : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %735 = "stablehlo.reduce"(%734, %30) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg120: tensor<f32>, %arg121: tensor<f32>):
      %987 = "stablehlo.add"(%arg120, %arg121) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%987) : (tensor<f32>) -> ()
    }) : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %736 = "stablehlo.subtract"(%735, %arg71) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %737 = "stablehlo.multiply"(%496, %736) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %738 = "stablehlo.add"(%arg71, %737) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %739 = "stablehlo.multiply"(%arg70, %502) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %740 = "stablehlo.multiply"(%735, %735) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %741 = "stablehlo.multiply"(%740, %505) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %742 = "stablehlo.add"(%739, %741) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %743 = "stablehlo.sqrt"(%742) : (tensor<32xf32>) -> tensor<32xf32>
    %744 = "stablehlo.divide"(%743, %509) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %745 = "stablehlo.add"(%744, %511) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %746 = "stablehlo.divide"(%738, %745) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %747 = "stablehlo.multiply"(%746, %514) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %748 = "stablehlo.add"(%733, %747) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %749 = "stablehlo.multiply"(%arg24, %494) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %750 = "stablehlo.reduce"(%349, %30) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg118: tensor<f32>, %arg119: tensor<f32>):
      %986 = "stablehlo.add"(%arg118, %arg119) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%986) : (tensor<f32>) -> ()
    }) : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %751 = "stablehlo.subtract"(%750, %arg73) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %752 = "stablehlo.multiply"(%496, %751) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %753 = "stablehlo.add"(%arg73, %752) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %754 = "stablehlo.multiply"(%arg72, %502) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %755 = "stablehlo.multiply"(%750, %750) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %756 = "stablehlo.multiply"(%755, %505) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %757 = "stablehlo.add"(%754, %756) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %758 = "stablehlo.sqrt"(%757) : (tensor<32xf32>) -> tensor<32xf32>
    %759 = "stablehlo.divide"(%758, %509) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %760 = "stablehlo.add"(%759, %511) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %761 = "stablehlo.divide"(%753, %760) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %762 = "stablehlo.multiply"(%761, %514) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %763 = "stablehlo.add"(%749, %762) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %764 = "stablehlo.multiply"(%arg22, %532) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %765 = "stablehlo.transpose"(%142) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,64]{0,1}"} : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %766 = "stablehlo.dot_general"(%765, %346) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x64xf32>, tensor<64x96xf32>) -> tensor<32x96xf32>
    %767 = "stablehlo.transpose"(%766) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[96,32]{0,1}"} : (tensor<32x96xf32>) -> tensor<96x32xf32>
    %768 = "stablehlo.subtract"(%767, %arg75) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[96,32]{0,1}"} : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %769 = "stablehlo.multiply"(%534, %768) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %770 = "stablehlo.add"(%arg75, %769) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %771 = "stablehlo.multiply"(%arg74, %541) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %772 = "stablehlo.multiply"(%767, %767) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[96,32]{0,1}"} : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %773 = "stablehlo.multiply"(%772, %544) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %774 = "stablehlo.add"(%771, %773) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %775 = "stablehlo.sqrt"(%774) : (tensor<96x32xf32>) -> tensor<96x32xf32>
    %776 = "stablehlo.divide"(%775, %548) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %777 = "stablehlo.add"(%776, %550) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %778 = "stablehlo.divide"(%770, %777) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %779 = "stablehlo.multiply"(%778, %553) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %780 = "stablehlo.add"(%764, %779) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %781 = "stablehlo.multiply"(%arg23, %556) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %782 = "stablehlo.reduce"(%345, %30) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg116: tensor<f32>, %arg117: tensor<f32>):
      %985 = "stablehlo.add"(%arg116, %arg117) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%985) : (tensor<f32>) -> ()
    }) : (tensor<8x8x96xf32>, tensor<f32>) -> tensor<96xf32>
    %783 = "stablehlo.subtract"(%782, %arg77) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %784 = "stablehlo.multiply"(%558, %783) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %785 = "stablehlo.add"(%arg77, %784) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %786 = "stablehlo.multiply"(%arg76, %563) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %787 = "stablehlo.multiply"(%782, %782) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %788 = "stablehlo.multiply"(%787, %566) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %789 = "stablehlo.add"(%786, %788) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %790 = "stablehlo.sqrt"(%789) : (tensor<96xf32>) -> tensor<96xf32>
    %791 = "stablehlo.divide"(%790, %570) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %792 = "stablehlo.add"(%791, %572) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %793 = "stablehlo.divide"(%785, %792) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %794 = "stablehlo.multiply"(%793, %575) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %795 = "stablehlo.add"(%781, %794) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %796 = "stablehlo.multiply"(%arg25, %578) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %797 = "stablehlo.transpose"(%185) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,64]{0,1}"} : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %798 = "stablehlo.dot_general"(%797, %306) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>
    %799 = "stablehlo.transpose"(%798) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %800 = "stablehlo.subtract"(%799, %arg79) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %801 = "stablehlo.multiply"(%580, %800) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %802 = "stablehlo.add"(%arg79, %801) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %803 = "stablehlo.multiply"(%arg78, %587) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %804 = "stablehlo.multiply"(%799, %799) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %805 = "stablehlo.multiply"(%804, %590) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %806 = "stablehlo.add"(%803, %805) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %807 = "stablehlo.sqrt"(%806) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %808 = "stablehlo.divide"(%807, %594) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %809 = "stablehlo.add"(%808, %596) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %810 = "stablehlo.divide"(%802, %809) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %811 = "stablehlo.multiply"(%810, %599) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %812 = "stablehlo.add"(%796, %811) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %813 = "stablehlo.multiply"(%arg26, %494) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %814 = "stablehlo.reduce"(%306, %30) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg114: tensor<f32>, %arg115: tensor<f32>):
      %984 = "stablehlo.add"(%arg114, %arg115) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%984) : (tensor<f32>) -> ()
    }) : (tensor<64x32xf32>, tensor<f32>) -> tensor<32xf32>
    %815 = "stablehlo.subtract"(%814, %arg81) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %816 = "stablehlo.multiply"(%496, %815) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %817 = "stablehlo.add"(%arg81, %816) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %818 = "stablehlo.multiply"(%arg80, %502) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %819 = "stablehlo.multiply"(%814, %814) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %820 = "stablehlo.multiply"(%819, %505) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %821 = "stablehlo.add"(%818, %820) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %822 = "stablehlo.sqrt"(%821) : (tensor<32xf32>) -> tensor<32xf32>
    %823 = "stablehlo.divide"(%822, %509) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %824 = "stablehlo.add"(%823, %511) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %825 = "stablehlo.divide"(%817, %824) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %826 = "stablehlo.multiply"(%825, %514) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %827 = "stablehlo.add"(%813, %826) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %828 = "stablehlo.multiply"(%arg27, %494) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %829 = "stablehlo.multiply"(%293, %196) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %830 = "stablehlo.reduce"(%829, %30) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg112: tensor<f32>, %arg113: tensor<f32>):
      %983 = "stablehlo.add"(%arg112, %arg113) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%983) : (tensor<f32>) -> ()
    }) : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %831 = "stablehlo.subtract"(%830, %arg83) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %832 = "stablehlo.multiply"(%496, %831) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %833 = "stablehlo.add"(%arg83, %832) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %834 = "stablehlo.multiply"(%arg82, %502) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %835 = "stablehlo.multiply"(%830, %830) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %836 = "stablehlo.multiply"(%835, %505) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %837 = "stablehlo.add"(%834, %836) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %838 = "stablehlo.sqrt"(%837) : (tensor<32xf32>) -> tensor<32xf32>
    %839 = "stablehlo.divide"(%838, %509) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %840 = "stablehlo.add"(%839, %511) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %841 = "stablehlo.divide"(%833, %840) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %842 = "stablehlo.multiply"(%841, %514) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %843 = "stablehlo.add"(%828, %842) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %844 = "stablehlo.multiply"(%arg30, %494) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %845 = "stablehlo.reduce"(%293, %30) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg110: tensor<f32>, %arg111: tensor<f32>):
      %982 = "stablehlo.add"(%arg110, %arg111) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%982) : (tensor<f32>) -> ()
    }) : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %846 = "stablehlo.subtract"(%845, %arg85) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %847 = "stablehlo.multiply"(%496, %846) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %848 = "stablehlo.add"(%arg85, %847) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %849 = "stablehlo.multiply"(%arg84, %502) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %850 = "stablehlo.multiply"(%845, %845) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %851 = "stablehlo.multiply"(%850, %505) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %852 = "stablehlo.add"(%849, %851) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %853 = "stablehlo.sqrt"(%852) : (tensor<32xf32>) -> tensor<32xf32>
    %854 = "stablehlo.divide"(%853, %509) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %855 = "stablehlo.add"(%854, %511) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %856 = "stablehlo.divide"(%848, %855) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %857 = "stablehlo.multiply"(%856, %514) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %858 = "stablehlo.add"(%844, %857) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %859 = "stablehlo.multiply"(%arg28, %648) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %860 = "stablehlo.transpose"(%200) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,64]{0,1}"} : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %861 = "stablehlo.dot_general"(%860, %291) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
    %862 = "stablehlo.transpose"(%861) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,32]{0,1}"} : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %863 = "stablehlo.subtract"(%862, %arg87) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,32]{0,1}"} : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %864 = "stablehlo.multiply"(%650, %863) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %865 = "stablehlo.add"(%arg87, %864) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %866 = "stablehlo.multiply"(%arg86, %657) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %867 = "stablehlo.multiply"(%862, %862) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,32]{0,1}"} : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %868 = "stablehlo.multiply"(%867, %660) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %869 = "stablehlo.add"(%866, %868) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %870 = "stablehlo.sqrt"(%869) : (tensor<128x32xf32>) -> tensor<128x32xf32>
    %871 = "stablehlo.divide"(%870, %664) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %872 = "stablehlo.add"(%871, %666) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %873 = "stablehlo.divide"(%865, %872) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %874 = "stablehlo.multiply"(%873, %669) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %875 = "stablehlo.add"(%859, %874) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %876 = "stablehlo.multiply"(%arg29, %672) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %877 = "stablehlo.reduce"(%290, %30) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg108: tensor<f32>, %arg109: tensor<f32>):
      %981 = "stablehlo.add"(%arg108, %arg109) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%981) : (tensor<f32>) -> ()
    }) : (tensor<8x8x128xf32>, tensor<f32>) -> tensor<128xf32>
    %878 = "stablehlo.subtract"(%877, %arg89) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %879 = "stablehlo.multiply"(%674, %878) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %880 = "stablehlo.add"(%arg89, %879) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %881 = "stablehlo.multiply"(%arg88, %679) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %882 = "stablehlo.multiply"(%877, %877) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %883 = "stablehlo.multiply"(%882, %682) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %884 = "stablehlo.add"(%881, %883) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %885 = "stablehlo.sqrt"(%884) : (tensor<128xf32>) -> tensor<128xf32>
    %886 = "stablehlo.divide"(%885, %686) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %887 = "stablehlo.add"(%886, %688) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %888 = "stablehlo.divide"(%880, %887) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %889 = "stablehlo.multiply"(%888, %691) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %890 = "stablehlo.add"(%876, %889) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %891 = "stablehlo.multiply"(%arg31, %694) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %892 = "stablehlo.transpose"(%214) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,64]{0,1}"} : (tensor<64x128xf32>) -> tensor<128x64xf32>
    %893 = "stablehlo.dot_general"(%892, %277) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<128x64xf32>, tensor<64x32xf32>) -> tensor<128x32xf32>
    %894 = "stablehlo.transpose"(%893) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,128]{0,1}"} : (tensor<128x32xf32>) -> tensor<32x128xf32>
    %895 = "stablehlo.subtract"(%894, %arg91) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,128]{0,1}"} : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %896 = "stablehlo.multiply"(%696, %895) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %897 = "stablehlo.add"(%arg91, %896) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %898 = "stablehlo.multiply"(%arg90, %703) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %899 = "stablehlo.multiply"(%894, %894) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,128]{0,1}"} : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %900 = "stablehlo.multiply"(%899, %706) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %901 = "stablehlo.add"(%898, %900) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %902 = "stablehlo.sqrt"(%901) : (tensor<32x128xf32>) -> tensor<32x128xf32>
    %903 = "stablehlo.divide"(%902, %710) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %904 = "stablehlo.add"(%903, %712) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %905 = "stablehlo.divide"(%897, %904) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %906 = "stablehlo.multiply"(%905, %715) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %907 = "stablehlo.add"(%891, %906) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %908 = "stablehlo.multiply"(%arg32, %494) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %909 = "stablehlo.reduce"(%276, %30) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg106: tensor<f32>, %arg107: tensor<f32>):
      %980 = "stablehlo.add"(%arg106, %arg107) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%980) : (tensor<f32>) -> ()
    }) : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %910 = "stablehlo.subtract"(%909, %arg93) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %911 = "stablehlo.multiply"(%496, %910) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %912 = "stablehlo.add"(%arg93, %911) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %913 = "stablehlo.multiply"(%arg92, %502) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %914 = "stablehlo.multiply"(%909, %909) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %915 = "stablehlo.multiply"(%914, %505) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %916 = "stablehlo.add"(%913, %915) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %917 = "stablehlo.sqrt"(%916) : (tensor<32xf32>) -> tensor<32xf32>
    %918 = "stablehlo.divide"(%917, %509) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %919 = "stablehlo.add"(%918, %511) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %920 = "stablehlo.divide"(%912, %919) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %921 = "stablehlo.multiply"(%920, %514) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %922 = "stablehlo.add"(%908, %921) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %923 = "stablehlo.multiply"(%arg33, %494) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %924 = "stablehlo.multiply"(%267, %246) : (tensor<8x8x32xf32>, tensor<8x8x32xf32>) -> tensor<8x8x32xf32>
    %925 = "stablehlo.reduce"(%924, %30) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg104: tensor<f32>, %arg105: tensor<f32>):
      %979 = "stablehlo.add"(%arg104, %arg105) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%979) : (tensor<f32>) -> ()
    }) : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %926 = "stablehlo.subtract"(%925, %arg95) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %927 = "stablehlo.multiply"(%496, %926) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %928 = "stablehlo.add"(%arg95, %927) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %929 = "stablehlo.multiply"(%arg94, %502) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %930 = "stablehlo.multiply"(%925, %925) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %931 = "stablehlo.multiply"(%930, %505) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %932 = "stablehlo.add"(%929, %931) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %933 = "stablehlo.sqrt"(%932) : (tensor<32xf32>) -> tensor<32xf32>
    %934 = "stablehlo.divide"(%933, %509) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %935 = "stablehlo.add"(%934, %511) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %936 = "stablehlo.divide"(%928, %935) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %937 = "stablehlo.multiply"(%936, %514) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %938 = "stablehlo.add"(%923, %937) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %939 = "stablehlo.multiply"(%arg35, %494) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %940 = "stablehlo.reduce"(%267, %30) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg102: tensor<f32>, %arg103: tensor<f32>):
      %978 = "stablehlo.add"(%arg102, %arg103) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%978) : (tensor<f32>) -> ()
    }) : (tensor<8x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %941 = "stablehlo.subtract"(%940, %arg97) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %942 = "stablehlo.multiply"(%496, %941) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %943 = "stablehlo.add"(%arg97, %942) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %944 = "stablehlo.multiply"(%arg96, %502) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %945 = "stablehlo.multiply"(%940, %940) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %946 = "stablehlo.multiply"(%945, %505) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %947 = "stablehlo.add"(%944, %946) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %948 = "stablehlo.sqrt"(%947) : (tensor<32xf32>) -> tensor<32xf32>
    %949 = "stablehlo.divide"(%948, %509) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %950 = "stablehlo.add"(%949, %511) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %951 = "stablehlo.divide"(%943, %950) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %952 = "stablehlo.multiply"(%951, %514) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %953 = "stablehlo.add"(%939, %952) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %954 = "stablehlo.multiply"(%arg34, %436) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %955 = "stablehlo.transpose"(%250) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,64]{0,1}"} : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %956 = "stablehlo.dot_general"(%955, %265) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
    %957 = "stablehlo.transpose"(%956) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[64,32]{0,1}"} : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %958 = "stablehlo.subtract"(%957, %arg99) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[64,32]{0,1}"} : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %959 = "stablehlo.multiply"(%438, %958) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %960 = "stablehlo.add"(%arg99, %959) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %961 = "stablehlo.multiply"(%arg98, %454) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %962 = "stablehlo.multiply"(%957, %957) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[64,32]{0,1}"} : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %963 = "stablehlo.multiply"(%962, %458) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %964 = "stablehlo.add"(%961, %963) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %965 = "stablehlo.sqrt"(%964) : (tensor<64x32xf32>) -> tensor<64x32xf32>
    %966 = "stablehlo.divide"(%965, %462) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %967 = "stablehlo.add"(%966, %464) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %968 = "stablehlo.divide"(%960, %967) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %969 = "stablehlo.multiply"(%968, %468) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %970 = "stablehlo.add"(%954, %969) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %971 = "stablehlo.compare"(%233, %10) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xi1>
    %972 = "stablehlo.multiply"(%234, %260) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %973 = "stablehlo.select"(%971, %9, %972) : (tensor<64x64xi1>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %974 = "stablehlo.multiply"(%973, %238) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %975 = "stablehlo.reduce"(%974, %30) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg100: tensor<f32>, %arg101: tensor<f32>):
      %977 = "stablehlo.add"(%arg100, %arg101) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%977) : (tensor<f32>) -> ()
    }) : (tensor<64x64xf32>, tensor<f32>) -> tensor<f32>
    %976 = "stablehlo.divide"(%975, %240) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%470, %493, %516, %531, %555, %577, %601, %616, %632, %647, %671, %693, %717, %732, %748, %763, %780, %795, %812, %827, %843, %858, %875, %890, %907, %922, %938, %953, %970, %453, %460, %478, %484, %501, %507, %521, %525, %540, %546, %562, %568, %586, %592, %606, %610, %622, %626, %637, %641, %656, %662, %678, %684, %702, %708, %722, %726, %738, %742, %753, %757, %770, %774, %785, %789, %802, %806, %817, %821, %833, %837, %848, %852, %865, %869, %880, %884, %897, %901, %912, %916, %928, %932, %943, %947, %960, %964, %976) : (tensor<64x32xf32>, tensor<8x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<f32>) -> ()
  }) : () -> ()
}) {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.use_auto_spmd_partitioning = false} : () -> ()

