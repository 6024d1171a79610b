"builtin.module"() <{sym_name = "IrToHlo.2170"}> ({
  "func.func"() <{function_type = (tensor<f64>, tensor<f32>, tensor<f32>, tensor<f64>, tensor<8x32xf32>, tensor<4x8xi64>, tensor<64x32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<f32>, tensor<96xf32>, tensor<32xf32>, tensor<f32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<32xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<32xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<4x8xi64>, tensor<i64>, tensor<f32>, tensor<64x32xf32>, tensor<f32>, tensor<64x32xf32>, tensor<f32>, tensor<i64>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<64x32xf32>) -> (tensor<64x32xf32>, tensor<8x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<f32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<f64>, %arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<f64>, %arg4: tensor<8x32xf32>, %arg5: tensor<4x8xi64>, %arg6: tensor<64x32xf32>, %arg7: tensor<32xf32>, %arg8: tensor<96x32xf32>, %arg9: tensor<f32>, %arg10: tensor<96xf32>, %arg11: tensor<32xf32>, %arg12: tensor<f32>, %arg13: tensor<32x32xf32>, %arg14: tensor<32xf32>, %arg15: tensor<32xf32>, %arg16: tensor<128x32xf32>, %arg17: tensor<128xf32>, %arg18: tensor<32xf32>, %arg19: tensor<32x128xf32>, %arg20: tensor<32xf32>, %arg21: tensor<32xf32>, %arg22: tensor<96x32xf32>, %arg23: tensor<96xf32>, %arg24: tensor<32xf32>, %arg25: tensor<32x32xf32>, %arg26: tensor<32xf32>, %arg27: tensor<32xf32>, %arg28: tensor<128x32xf32>, %arg29: tensor<128xf32>, %arg30: tensor<32xf32>, %arg31: tensor<32x128xf32>, %arg32: tensor<32xf32>, %arg33: tensor<32xf32>, %arg34: tensor<64x32xf32>, %arg35: tensor<32xf32>, %arg36: tensor<4x8xi64>, %arg37: tensor<i64>, %arg38: tensor<f32>, %arg39: tensor<64x32xf32>, %arg40: tensor<f32>, %arg41: tensor<64x32xf32>, %arg42: tensor<f32>, %arg43: tensor<i64>, %arg44: tensor<8x32xf32>, %arg45: tensor<8x32xf32>, %arg46: tensor<32xf32>, %arg47: tensor<32xf32>, %arg48: tensor<32xf32>, %arg49: tensor<32xf32>, %arg50: tensor<96x32xf32>, %arg51: tensor<96x32xf32>, %arg52: tensor<96xf32>, %arg53: tensor<96xf32>, %arg54: tensor<32x32xf32>, %arg55: tensor<32x32xf32>, %arg56: tensor<32xf32>, %arg57: tensor<32xf32>, %arg58: tensor<32xf32>, %arg59: tensor<32xf32>, %arg60: tensor<32xf32>, %arg61: tensor<32xf32>, %arg62: tensor<128x32xf32>, %arg63: tensor<128x32xf32>, %arg64: tensor<128xf32>, %arg65: tensor<128xf32>, %arg66: tensor<32x128xf32>, %arg67: tensor<32x128xf32>, %arg68: tensor<32xf32>, %arg69: tensor<32xf32>, %arg70: tensor<32xf32>, %arg71: tensor<32xf32>, %arg72: tensor<32xf32>, %arg73: tensor<32xf32>, %arg74: tensor<96x32xf32>, %arg75: tensor<96x32xf32>, %arg76: tensor<96xf32>, %arg77: tensor<96xf32>, %arg78: tensor<32x32xf32>, %arg79: tensor<32x32xf32>, %arg80: tensor<32xf32>, %arg81: tensor<32xf32>, %arg82: tensor<32xf32>, %arg83: tensor<32xf32>, %arg84: tensor<32xf32>, %arg85: tensor<32xf32>, %arg86: tensor<128x32xf32>, %arg87: tensor<128x32xf32>, %arg88: tensor<128xf32>, %arg89: tensor<128xf32>, %arg90: tensor<32x128xf32>, %arg91: tensor<32x128xf32>, %arg92: tensor<32xf32>, %arg93: tensor<32xf32>, %arg94: tensor<32xf32>, %arg95: tensor<32xf32>, %arg96: tensor<32xf32>, %arg97: tensor<32xf32>, %arg98: tensor<64x32xf32>, %arg99: tensor<64x32xf32>):
    %0 = "stablehlo.constant"() <{value = dense<[[0], [1], [2], [3], [4], [5], [6], [7]]> : tensor<8x1xi64>}> : () -> tensor<8x1xi64>
    %1 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %2 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<32x32xf32>}> : () -> tensor<32x32xf32>
    %3 = "stablehlo.constant"() <{value = dense<-1> : tensor<32xi64>}> : () -> tensor<32xi64>
    %4 = "stablehlo.constant"() <{value = dense<0> : tensor<32xi64>}> : () -> tensor<32xi64>
    %5 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<64x32xf32>}> : () -> tensor<64x32xf32>
    %6 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<3x8x4x32xf32>}> : () -> tensor<3x8x4x32xf32>
    %7 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<4x8x128xf32>}> : () -> tensor<4x8x128xf32>
    %8 = "stablehlo.constant"() <{value = dense<0.134144992> : tensor<4x8x128xf32>}> : () -> tensor<4x8x128xf32>
    %9 = "stablehlo.constant"() <{value = dense<-100> : tensor<32xi64>}> : () -> tensor<32xi64>
    %10 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<32x64xf32>}> : () -> tensor<32x64xf32>
    %11 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<32x64xf32>}> : () -> tensor<32x64xf32>
    %12 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<32xf32>}> : () -> tensor<32xf32>
    %13 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<4x8x128xf32>}> : () -> tensor<4x8x128xf32>
    %14 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<4x8x128xf32>}> : () -> tensor<4x8x128xf32>
    %15 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<4x8x128xf32>}> : () -> tensor<4x8x128xf32>
    %16 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<4x8x128xf32>}> : () -> tensor<4x8x128xf32>
    %17 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<4x8x128xf32>}> : () -> tensor<4x8x128xf32>
    %18 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<4x2x8x8xf32>}> : () -> tensor<4x2x8x8xf32>
    %19 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<4x2x8x8xf32>}> : () -> tensor<4x2x8x8xf32>
    %20 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<8x8xf32>}> : () -> tensor<8x8xf32>
    %21 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<32xf32>}> : () -> tensor<32xf32>
    %22 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<32xf32>}> : () -> tensor<32xf32>
    %23 = "stablehlo.constant"() <{value = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xui32>}> : () -> tensor<8xui32>
    %24 = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
    %25 = "stablehlo.constant"() <{value = dense<2> : tensor<i64>}> : () -> tensor<i64>
    %26 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    %27 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %28 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %29 = "stablehlo.constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
    %30 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %31 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %32 = "stablehlo.reshape"(%arg5) : (tensor<4x8xi64>) -> tensor<32xi64>
    %33 = "stablehlo.convert"(%32) : (tensor<32xi64>) -> tensor<32xui32>
    %34 = "stablehlo.gather"(%arg6, %33) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xf32>, tensor<32xui32>) -> tensor<32x32xf32>
    %35 = "stablehlo.reshape"(%34) : (tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %36 = "stablehlo.gather"(%arg4, %23) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<8x32xf32>, tensor<8xui32>) -> tensor<8x32xf32>
    %37 = "stablehlo.broadcast_in_dim"(%36) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<8x32xf32>) -> tensor<4x8x32xf32>
    %38 = "stablehlo.add"(%35, %37) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %39 = "stablehlo.broadcast_in_dim"(%arg11) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %40 = "stablehlo.reshape"(%38) : (tensor<4x8x32xf32>) -> tensor<1x32x32xf32>
    %41:3 = "stablehlo.batch_norm_training"(%40, %22, %21) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>)
    %42 = "stablehlo.reshape"(%41#0) : (tensor<1x32x32xf32>) -> tensor<4x8x32xf32>
    %43 = "stablehlo.broadcast_in_dim"(%arg7) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %44 = "stablehlo.multiply"(%42, %43) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %45 = "stablehlo.add"(%39, %44) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %46 = "stablehlo.transpose"(%45) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,4,32]{2,0,1}"} : (tensor<4x8x32xf32>) -> tensor<8x4x32xf32>
    %47 = "stablehlo.reshape"(%46) : (tensor<8x4x32xf32>) -> tensor<32x32xf32>
    %48 = "stablehlo.transpose"(%arg8) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,96]{0,1}"} : (tensor<96x32xf32>) -> tensor<32x96xf32>
    %49 = "stablehlo.dot_general"(%47, %48) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x32xf32>, tensor<32x96xf32>) -> tensor<32x96xf32>
    %50 = "stablehlo.reshape"(%49) : (tensor<32x96xf32>) -> tensor<8x4x96xf32>
    %51 = "stablehlo.broadcast_in_dim"(%arg10) <{broadcast_dimensions = array<i64: 2>}> : (tensor<96xf32>) -> tensor<8x4x96xf32>
    %52 = "stablehlo.add"(%50, %51) : (tensor<8x4x96xf32>, tensor<8x4x96xf32>) -> tensor<8x4x96xf32>
    %53 = "stablehlo.reshape"(%52) : (tensor<8x4x96xf32>) -> tensor<1x8x4x3x32xf32>
    %54 = "stablehlo.transpose"(%53) <{permutation = array<i64: 3, 1, 2, 0, 4>}> {result_layout = dense<[4, 0, 2, 1, 3]> : tensor<5xindex>, xla_shape = "f32[3,8,4,1,32]{4,0,2,1,3}"} : (tensor<1x8x4x3x32xf32>) -> tensor<3x8x4x1x32xf32>
    %55 = "stablehlo.reshape"(%54) : (tensor<3x8x4x1x32xf32>) -> tensor<3x8x4x32xf32>
    %56 = "stablehlo.slice"(%55) <{limit_indices = array<i64: 1, 8, 4, 32>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<3x8x4x32xf32>) -> tensor<1x8x4x32xf32>
    %57 = "stablehlo.reshape"(%56) : (tensor<1x8x4x32xf32>) -> tensor<8x8x16xf32>
    %58 = "stablehlo.transpose"(%57) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,16]{2,0,1}"} : (tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
    %59 = "stablehlo.reshape"(%58) : (tensor<8x8x16xf32>) -> tensor<4x2x8x16xf32>
    %60 = "stablehlo.broadcast_in_dim"(%arg9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x2x8x16xf32>
    %61 = "stablehlo.multiply"(%59, %60) : (tensor<4x2x8x16xf32>, tensor<4x2x8x16xf32>) -> tensor<4x2x8x16xf32>
    %62 = "stablehlo.reshape"(%61) : (tensor<4x2x8x16xf32>) -> tensor<8x8x16xf32>
    %63 = "stablehlo.slice"(%55) <{limit_indices = array<i64: 2, 8, 4, 32>, start_indices = array<i64: 1, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<3x8x4x32xf32>) -> tensor<1x8x4x32xf32>
    %64 = "stablehlo.reshape"(%63) : (tensor<1x8x4x32xf32>) -> tensor<8x8x16xf32>
    %65 = "stablehlo.transpose"(%64) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,16]{2,0,1}"} : (tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
    %66 = "stablehlo.reshape"(%65) : (tensor<8x8x16xf32>) -> tensor<4x2x8x16xf32>
    %67 = "stablehlo.transpose"(%66) <{permutation = array<i64: 0, 1, 3, 2>}> {result_layout = dense<[2, 3, 1, 0]> : tensor<4xindex>, xla_shape = "f32[4,2,16,8]{2,3,1,0}"} : (tensor<4x2x8x16xf32>) -> tensor<4x2x16x8xf32>
    %68 = "stablehlo.broadcast_in_dim"(%arg9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x2x16x8xf32>
    %69 = "stablehlo.multiply"(%67, %68) : (tensor<4x2x16x8xf32>, tensor<4x2x16x8xf32>) -> tensor<4x2x16x8xf32>
    %70 = "stablehlo.reshape"(%69) : (tensor<4x2x16x8xf32>) -> tensor<8x16x8xf32>
    %71 = "stablehlo.dot_general"(%62, %70) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x8x16xf32>, tensor<8x16x8xf32>) -> tensor<8x8x8xf32>
    %72 = "stablehlo.reshape"(%71) : (tensor<8x8x8xf32>) -> tensor<4x2x8x8xf32>
    %73 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8xi32>
    %74 = "stablehlo.broadcast_in_dim"(%73) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xi32>) -> tensor<8x8xi32>
    %75 = "stablehlo.broadcast_in_dim"(%73) <{broadcast_dimensions = array<i64: 1>}> : (tensor<8xi32>) -> tensor<8x8xi32>
    %76 = "stablehlo.compare"(%74, %75) <{comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %77 = "stablehlo.broadcast_in_dim"(%arg12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x8xf32>
    %78 = "stablehlo.select"(%76, %20, %77) : (tensor<8x8xi1>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %79 = "stablehlo.broadcast_in_dim"(%78) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<8x8xf32>) -> tensor<4x2x8x8xf32>
    %80 = "stablehlo.add"(%72, %79) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %81 = "stablehlo.compare"(%80, %19) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xi1>
    %82 = "stablehlo.reduce"(%81, %27) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg166: tensor<i1>, %arg167: tensor<i1>):
      %1012 = "stablehlo.and"(%arg166, %arg167) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %1013 = "stablehlo.select"(%1012, %27, %26) : (tensor<i1>, tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%1013) : (tensor<i1>) -> ()
    }) : (tensor<4x2x8x8xi1>, tensor<i1>) -> tensor<4x2x8xi1>
    %83 = "stablehlo.broadcast_in_dim"(%82) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x2x8xi1>) -> tensor<4x2x8x8xi1>
    %84 = "stablehlo.reduce"(%80, %28) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg164: tensor<f32>, %arg165: tensor<f32>):
      %1011 = "stablehlo.maximum"(%arg164, %arg165) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1011) : (tensor<f32>) -> ()
    }) : (tensor<4x2x8x8xf32>, tensor<f32>) -> tensor<4x2x8xf32>
    %85 = "stablehlo.broadcast_in_dim"(%84) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x2x8xf32>) -> tensor<4x2x8x8xf32>
    %86 = "stablehlo.subtract"(%80, %85) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %87 = "stablehlo.exponential"(%86) : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %88 = "stablehlo.reduce"(%87, %31) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg162: tensor<f32>, %arg163: tensor<f32>):
      %1010 = "stablehlo.add"(%arg162, %arg163) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1010) : (tensor<f32>) -> ()
    }) : (tensor<4x2x8x8xf32>, tensor<f32>) -> tensor<4x2x8xf32>
    %89 = "stablehlo.broadcast_in_dim"(%88) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x2x8xf32>) -> tensor<4x2x8x8xf32>
    %90 = "stablehlo.divide"(%87, %89) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %91 = "stablehlo.select"(%83, %18, %90) : (tensor<4x2x8x8xi1>, tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %92 = "stablehlo.reshape"(%91) : (tensor<4x2x8x8xf32>) -> tensor<8x8x8xf32>
    %93 = "stablehlo.slice"(%55) <{limit_indices = array<i64: 3, 8, 4, 32>, start_indices = array<i64: 2, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<3x8x4x32xf32>) -> tensor<1x8x4x32xf32>
    %94 = "stablehlo.reshape"(%93) : (tensor<1x8x4x32xf32>) -> tensor<8x8x16xf32>
    %95 = "stablehlo.transpose"(%94) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,16]{2,0,1}"} : (tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
    %96 = "stablehlo.dot_general"(%92, %95) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x8x8xf32>, tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
    %97 = "stablehlo.reshape"(%96) : (tensor<8x8x16xf32>) -> tensor<4x2x8x16xf32>
    %98 = "stablehlo.transpose"(%97) <{permutation = array<i64: 2, 0, 1, 3>}> {result_layout = dense<[3, 0, 2, 1]> : tensor<4xindex>, xla_shape = "f32[8,4,2,16]{3,0,2,1}"} : (tensor<4x2x8x16xf32>) -> tensor<8x4x2x16xf32>
    %99 = "stablehlo.reshape"(%98) : (tensor<8x4x2x16xf32>) -> tensor<32x32xf32>
    %100 = "stablehlo.transpose"(%arg13) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %101 = "stablehlo.dot_general"(%99, %100) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %102 = "stablehlo.broadcast_in_dim"(%arg14) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<32x32xf32>
    %103 = "stablehlo.add"(%101, %102) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %104 = "stablehlo.reshape"(%103) : (tensor<32x32xf32>) -> tensor<8x4x32xf32>
    %105 = "stablehlo.transpose"(%104) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[4,8,32]{2,0,1}"} : (tensor<8x4x32xf32>) -> tensor<4x8x32xf32>
    %106 = "stablehlo.add"(%38, %105) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %107 = "stablehlo.broadcast_in_dim"(%arg18) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %108 = "stablehlo.reshape"(%106) : (tensor<4x8x32xf32>) -> tensor<1x32x32xf32>
    %109:3 = "stablehlo.batch_norm_training"(%108, %22, %21) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>)
    %110 = "stablehlo.reshape"(%109#0) : (tensor<1x32x32xf32>) -> tensor<4x8x32xf32>
    %111 = "stablehlo.broadcast_in_dim"(%arg15) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %112 = "stablehlo.multiply"(%110, %111) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %113 = "stablehlo.add"(%107, %112) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %114 = "stablehlo.reshape"(%113) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %115 = "stablehlo.transpose"(%arg16) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,128]{0,1}"} : (tensor<128x32xf32>) -> tensor<32x128xf32>
    %116 = "stablehlo.dot_general"(%114, %115) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x32xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %117 = "stablehlo.reshape"(%116) : (tensor<32x128xf32>) -> tensor<4x8x128xf32>
    %118 = "stablehlo.broadcast_in_dim"(%arg17) <{broadcast_dimensions = array<i64: 2>}> : (tensor<128xf32>) -> tensor<4x8x128xf32>
    %119 = "stablehlo.add"(%117, %118) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %120 = "stablehlo.multiply"(%119, %17) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %121 = "stablehlo.power"(%119, %13) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %122 = "stablehlo.multiply"(%121, %14) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %123 = "stablehlo.add"(%119, %122) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %124 = "stablehlo.multiply"(%123, %15) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %125 = "stablehlo.tanh"(%124) : (tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %126 = "stablehlo.add"(%125, %16) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %127 = "stablehlo.multiply"(%120, %126) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %128 = "stablehlo.reshape"(%127) : (tensor<4x8x128xf32>) -> tensor<32x128xf32>
    %129 = "stablehlo.transpose"(%arg19) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,32]{0,1}"} : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %130 = "stablehlo.dot_general"(%128, %129) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x128xf32>, tensor<128x32xf32>) -> tensor<32x32xf32>
    %131 = "stablehlo.reshape"(%130) : (tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %132 = "stablehlo.broadcast_in_dim"(%arg20) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %133 = "stablehlo.add"(%131, %132) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %134 = "stablehlo.add"(%106, %133) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %135 = "stablehlo.broadcast_in_dim"(%arg24) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %136 = "stablehlo.reshape"(%134) : (tensor<4x8x32xf32>) -> tensor<1x32x32xf32>
    %137:3 = "stablehlo.batch_norm_training"(%136, %22, %21) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>)
    %138 = "stablehlo.reshape"(%137#0) : (tensor<1x32x32xf32>) -> tensor<4x8x32xf32>
    %139 = "stablehlo.broadcast_in_dim"(%arg21) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %140 = "stablehlo.multiply"(%138, %139) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %141 = "stablehlo.add"(%135, %140) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %142 = "stablehlo.transpose"(%141) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,4,32]{2,0,1}"} : (tensor<4x8x32xf32>) -> tensor<8x4x32xf32>
    %143 = "stablehlo.reshape"(%142) : (tensor<8x4x32xf32>) -> tensor<32x32xf32>
    %144 = "stablehlo.transpose"(%arg22) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,96]{0,1}"} : (tensor<96x32xf32>) -> tensor<32x96xf32>
    %145 = "stablehlo.dot_general"(%143, %144) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x32xf32>, tensor<32x96xf32>) -> tensor<32x96xf32>
    %146 = "stablehlo.reshape"(%145) : (tensor<32x96xf32>) -> tensor<8x4x96xf32>
    %147 = "stablehlo.broadcast_in_dim"(%arg23) <{broadcast_dimensions = array<i64: 2>}> : (tensor<96xf32>) -> tensor<8x4x96xf32>
    %148 = "stablehlo.add"(%146, %147) : (tensor<8x4x96xf32>, tensor<8x4x96xf32>) -> tensor<8x4x96xf32>
    %149 = "stablehlo.reshape"(%148) : (tensor<8x4x96xf32>) -> tensor<1x8x4x3x32xf32>
    %150 = "stablehlo.transpose"(%149) <{permutation = array<i64: 3, 1, 2, 0, 4>}> {result_layout = dense<[4, 0, 2, 1, 3]> : tensor<5xindex>, xla_shape = "f32[3,8,4,1,32]{4,0,2,1,3}"} : (tensor<1x8x4x3x32xf32>) -> tensor<3x8x4x1x32xf32>
    %151 = "stablehlo.reshape"(%150) : (tensor<3x8x4x1x32xf32>) -> tensor<3x8x4x32xf32>
    %152 = "stablehlo.slice"(%151) <{limit_indices = array<i64: 1, 8, 4, 32>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<3x8x4x32xf32>) -> tensor<1x8x4x32xf32>
    %153 = "stablehlo.reshape"(%152) : (tensor<1x8x4x32xf32>) -> tensor<8x8x16xf32>
    %154 = "stablehlo.transpose"(%153) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,16]{2,0,1}"} : (tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
    %155 = "stablehlo.reshape"(%154) : (tensor<8x8x16xf32>) -> tensor<4x2x8x16xf32>
    %156 = "stablehlo.multiply"(%155, %60) : (tensor<4x2x8x16xf32>, tensor<4x2x8x16xf32>) -> tensor<4x2x8x16xf32>
    %157 = "stablehlo.reshape"(%156) : (tensor<4x2x8x16xf32>) -> tensor<8x8x16xf32>
    %158 = "stablehlo.slice"(%151) <{limit_indices = array<i64: 2, 8, 4, 32>, start_indices = array<i64: 1, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<3x8x4x32xf32>) -> tensor<1x8x4x32xf32>
    %159 = "stablehlo.reshape"(%158) : (tensor<1x8x4x32xf32>) -> tensor<8x8x16xf32>
    %160 = "stablehlo.transpose"(%159) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,16]{2,0,1}"} : (tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
    %161 = "stablehlo.reshape"(%160) : (tensor<8x8x16xf32>) -> tensor<4x2x8x16xf32>
    %162 = "stablehlo.transpose"(%161) <{permutation = array<i64: 0, 1, 3, 2>}> {result_layout = dense<[2, 3, 1, 0]> : tensor<4xindex>, xla_shape = "f32[4,2,16,8]{2,3,1,0}"} : (tensor<4x2x8x16xf32>) -> tensor<4x2x16x8xf32>
    %163 = "stablehlo.multiply"(%162, %68) : (tensor<4x2x16x8xf32>, tensor<4x2x16x8xf32>) -> tensor<4x2x16x8xf32>
    %164 = "stablehlo.reshape"(%163) : (tensor<4x2x16x8xf32>) -> tensor<8x16x8xf32>
    %165 = "stablehlo.dot_general"(%157, %164) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x8x16xf32>, tensor<8x16x8xf32>) -> tensor<8x8x8xf32>
    %166 = "stablehlo.reshape"(%165) : (tensor<8x8x8xf32>) -> tensor<4x2x8x8xf32>
    %167 = "stablehlo.add"(%166, %79) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %168 = "stablehlo.compare"(%167, %19) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xi1>
    %169 = "stablehlo.reduce"(%168, %27) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg160: tensor<i1>, %arg161: tensor<i1>):
      %1008 = "stablehlo.and"(%arg160, %arg161) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %1009 = "stablehlo.select"(%1008, %27, %26) : (tensor<i1>, tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%1009) : (tensor<i1>) -> ()
    }) : (tensor<4x2x8x8xi1>, tensor<i1>) -> tensor<4x2x8xi1>
    %170 = "stablehlo.broadcast_in_dim"(%169) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x2x8xi1>) -> tensor<4x2x8x8xi1>
    %171 = "stablehlo.reduce"(%167, %28) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg158: tensor<f32>, %arg159: tensor<f32>):
      %1007 = "stablehlo.maximum"(%arg158, %arg159) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1007) : (tensor<f32>) -> ()
    }) : (tensor<4x2x8x8xf32>, tensor<f32>) -> tensor<4x2x8xf32>
    %172 = "stablehlo.broadcast_in_dim"(%171) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x2x8xf32>) -> tensor<4x2x8x8xf32>
    %173 = "stablehlo.subtract"(%167, %172) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %174 = "stablehlo.exponential"(%173) : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %175 = "stablehlo.reduce"(%174, %31) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg156: tensor<f32>, %arg157: tensor<f32>):
      %1006 = "stablehlo.add"(%arg156, %arg157) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1006) : (tensor<f32>) -> ()
    }) : (tensor<4x2x8x8xf32>, tensor<f32>) -> tensor<4x2x8xf32>
    %176 = "stablehlo.broadcast_in_dim"(%175) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x2x8xf32>) -> tensor<4x2x8x8xf32>
    %177 = "stablehlo.divide"(%174, %176) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %178 = "stablehlo.select"(%170, %18, %177) : (tensor<4x2x8x8xi1>, tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %179 = "stablehlo.reshape"(%178) : (tensor<4x2x8x8xf32>) -> tensor<8x8x8xf32>
    %180 = "stablehlo.slice"(%151) <{limit_indices = array<i64: 3, 8, 4, 32>, start_indices = array<i64: 2, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<3x8x4x32xf32>) -> tensor<1x8x4x32xf32>
    %181 = "stablehlo.reshape"(%180) : (tensor<1x8x4x32xf32>) -> tensor<8x8x16xf32>
    %182 = "stablehlo.transpose"(%181) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,16]{2,0,1}"} : (tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
    %183 = "stablehlo.dot_general"(%179, %182) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x8x8xf32>, tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
    %184 = "stablehlo.reshape"(%183) : (tensor<8x8x16xf32>) -> tensor<4x2x8x16xf32>
    %185 = "stablehlo.transpose"(%184) <{permutation = array<i64: 2, 0, 1, 3>}> {result_layout = dense<[3, 0, 2, 1]> : tensor<4xindex>, xla_shape = "f32[8,4,2,16]{3,0,2,1}"} : (tensor<4x2x8x16xf32>) -> tensor<8x4x2x16xf32>
    %186 = "stablehlo.reshape"(%185) : (tensor<8x4x2x16xf32>) -> tensor<32x32xf32>
    %187 = "stablehlo.transpose"(%arg25) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %188 = "stablehlo.dot_general"(%186, %187) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %189 = "stablehlo.broadcast_in_dim"(%arg26) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<32x32xf32>
    %190 = "stablehlo.add"(%188, %189) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %191 = "stablehlo.reshape"(%190) : (tensor<32x32xf32>) -> tensor<8x4x32xf32>
    %192 = "stablehlo.transpose"(%191) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[4,8,32]{2,0,1}"} : (tensor<8x4x32xf32>) -> tensor<4x8x32xf32>
    %193 = "stablehlo.add"(%134, %192) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %194 = "stablehlo.broadcast_in_dim"(%arg30) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %195 = "stablehlo.reshape"(%193) : (tensor<4x8x32xf32>) -> tensor<1x32x32xf32>
    %196:3 = "stablehlo.batch_norm_training"(%195, %22, %21) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>)
    %197 = "stablehlo.reshape"(%196#0) : (tensor<1x32x32xf32>) -> tensor<4x8x32xf32>
    %198 = "stablehlo.broadcast_in_dim"(%arg27) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %199 = "stablehlo.multiply"(%197, %198) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %200 = "stablehlo.add"(%194, %199) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %201 = "stablehlo.reshape"(%200) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %202 = "stablehlo.transpose"(%arg28) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,128]{0,1}"} : (tensor<128x32xf32>) -> tensor<32x128xf32>
    %203 = "stablehlo.dot_general"(%201, %202) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x32xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %204 = "stablehlo.reshape"(%203) : (tensor<32x128xf32>) -> tensor<4x8x128xf32>
    %205 = "stablehlo.broadcast_in_dim"(%arg29) <{broadcast_dimensions = array<i64: 2>}> : (tensor<128xf32>) -> tensor<4x8x128xf32>
    %206 = "stablehlo.add"(%204, %205) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %207 = "stablehlo.multiply"(%206, %17) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %208 = "stablehlo.power"(%206, %13) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %209 = "stablehlo.multiply"(%208, %14) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %210 = "stablehlo.add"(%206, %209) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %211 = "stablehlo.multiply"(%210, %15) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %212 = "stablehlo.tanh"(%211) : (tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %213 = "stablehlo.add"(%212, %16) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %214 = "stablehlo.multiply"(%207, %213) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %215 = "stablehlo.reshape"(%214) : (tensor<4x8x128xf32>) -> tensor<32x128xf32>
    %216 = "stablehlo.transpose"(%arg31) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,32]{0,1}"} : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %217 = "stablehlo.dot_general"(%215, %216) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x128xf32>, tensor<128x32xf32>) -> tensor<32x32xf32>
    %218 = "stablehlo.reshape"(%217) : (tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %219 = "stablehlo.broadcast_in_dim"(%arg32) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %220 = "stablehlo.add"(%218, %219) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %221 = "stablehlo.add"(%193, %220) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %222 = "stablehlo.reshape"(%221) : (tensor<4x8x32xf32>) -> tensor<1x32x32xf32>
    %223:3 = "stablehlo.batch_norm_training"(%222, %22, %21) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>)
    %224 = "stablehlo.add"(%223#2, %12) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %225 = "stablehlo.rsqrt"(%224) : (tensor<32xf32>) -> tensor<32xf32>
    %226 = "stablehlo.divide"(%22, %225) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %227 = "stablehlo.multiply"(%226, %226) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %228 = "stablehlo.subtract"(%227, %12) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %229 = "stablehlo.reshape"(%arg36) : (tensor<4x8xi64>) -> tensor<32xi64>
    %230 = "stablehlo.broadcast_in_dim"(%229) <{broadcast_dimensions = array<i64: 0>}> : (tensor<32xi64>) -> tensor<32x64xi64>
    %231 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<64xi64>
    %232 = "stablehlo.broadcast_in_dim"(%231) <{broadcast_dimensions = array<i64: 1>}> : (tensor<64xi64>) -> tensor<32x64xi64>
    %233 = "stablehlo.compare"(%230, %232) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<32x64xi64>, tensor<32x64xi64>) -> tensor<32x64xi1>
    %234 = "stablehlo.select"(%233, %11, %10) : (tensor<32x64xi1>, tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %235 = "stablehlo.negate"(%234) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %236 = "stablehlo.compare"(%229, %9) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<32xi64>, tensor<32xi64>) -> tensor<32xi1>
    %237 = "stablehlo.broadcast_in_dim"(%236) <{broadcast_dimensions = array<i64: 0>}> : (tensor<32xi1>) -> tensor<32x64xi1>
    %238 = "stablehlo.select"(%237, %11, %10) : (tensor<32x64xi1>, tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %239 = "stablehlo.multiply"(%238, %234) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %240 = "stablehlo.multiply"(%235, %239) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %241 = "stablehlo.reduce"(%239, %31) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg154: tensor<f32>, %arg155: tensor<f32>):
      %1005 = "stablehlo.add"(%arg154, %arg155) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1005) : (tensor<f32>) -> ()
    }) : (tensor<32x64xf32>, tensor<f32>) -> tensor<f32>
    %242 = "stablehlo.compare"(%241, %31) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %243 = "stablehlo.select"(%242, %241, %30) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %244 = "stablehlo.broadcast_in_dim"(%243) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x64xf32>
    %245 = "stablehlo.divide"(%240, %244) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %246 = "stablehlo.broadcast_in_dim"(%arg35) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %247 = "stablehlo.reshape"(%223#0) : (tensor<1x32x32xf32>) -> tensor<4x8x32xf32>
    %248 = "stablehlo.broadcast_in_dim"(%arg33) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %249 = "stablehlo.multiply"(%247, %248) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %250 = "stablehlo.add"(%246, %249) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %251 = "stablehlo.reshape"(%250) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %252 = "stablehlo.transpose"(%arg34) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,64]{0,1}"} : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %253 = "stablehlo.dot_general"(%251, %252) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %254 = "stablehlo.reduce"(%253, %28) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg152: tensor<f32>, %arg153: tensor<f32>):
      %1004 = "stablehlo.maximum"(%arg152, %arg153) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1004) : (tensor<f32>) -> ()
    }) : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %255 = "stablehlo.broadcast_in_dim"(%254) <{broadcast_dimensions = array<i64: 0>}> : (tensor<32xf32>) -> tensor<32x64xf32>
    %256 = "stablehlo.subtract"(%253, %255) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %257 = "stablehlo.exponential"(%256) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %258 = "stablehlo.reduce"(%257, %31) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg150: tensor<f32>, %arg151: tensor<f32>):
      %1003 = "stablehlo.add"(%arg150, %arg151) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1003) : (tensor<f32>) -> ()
    }) : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %259 = "stablehlo.log"(%258) : (tensor<32xf32>) -> tensor<32xf32>
    %260 = "stablehlo.broadcast_in_dim"(%259) <{broadcast_dimensions = array<i64: 0>}> : (tensor<32xf32>) -> tensor<32x64xf32>
    %261 = "stablehlo.subtract"(%256, %260) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %262 = "stablehlo.exponential"(%261) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %263 = "stablehlo.reduce"(%245, %31) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg148: tensor<f32>, %arg149: tensor<f32>):
      %1002 = "stablehlo.add"(%arg148, %arg149) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1002) : (tensor<f32>) -> ()
    }) : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %264 = "stablehlo.broadcast_in_dim"(%263) <{broadcast_dimensions = array<i64: 0>}> : (tensor<32xf32>) -> tensor<32x64xf32>
    %265 = "stablehlo.multiply"(%262, %264) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %266 = "stablehlo.subtract"(%245, %265) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %267 = "stablehlo.dot_general"(%266, %arg34) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>
    %268 = "stablehlo.reshape"(%267) : (tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %269 = "stablehlo.multiply"(%268, %248) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %270 = "stablehlo.reshape"(%269) : (tensor<4x8x32xf32>) -> tensor<1x32x32xf32>
    %271:3 = "stablehlo.batch_norm_grad"(%222, %22, %223#1, %228, %270) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<1x32x32xf32>) -> (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>)
    %272 = "stablehlo.add"(%196#2, %12) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %273 = "stablehlo.rsqrt"(%272) : (tensor<32xf32>) -> tensor<32xf32>
    %274 = "stablehlo.divide"(%22, %273) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %275 = "stablehlo.multiply"(%274, %274) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %276 = "stablehlo.subtract"(%275, %12) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %277 = "stablehlo.reshape"(%271#0) : (tensor<1x32x32xf32>) -> tensor<4x8x32xf32>
    %278 = "stablehlo.reshape"(%271#0) : (tensor<1x32x32xf32>) -> tensor<32x32xf32>
    %279 = "stablehlo.dot_general"(%278, %arg31) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x32xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %280 = "stablehlo.reshape"(%279) : (tensor<32x128xf32>) -> tensor<4x8x128xf32>
    %281 = "stablehlo.multiply"(%213, %17) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %282 = "stablehlo.multiply"(%212, %212) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %283 = "stablehlo.subtract"(%16, %282) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %284 = "stablehlo.multiply"(%207, %283) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %285 = "stablehlo.power"(%206, %7) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %286 = "stablehlo.multiply"(%285, %8) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %287 = "stablehlo.add"(%286, %16) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %288 = "stablehlo.multiply"(%287, %15) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %289 = "stablehlo.multiply"(%284, %288) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %290 = "stablehlo.add"(%281, %289) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %291 = "stablehlo.multiply"(%280, %290) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %292 = "stablehlo.reshape"(%291) : (tensor<4x8x128xf32>) -> tensor<32x128xf32>
    %293 = "stablehlo.dot_general"(%292, %arg28) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x128xf32>, tensor<128x32xf32>) -> tensor<32x32xf32>
    %294 = "stablehlo.reshape"(%293) : (tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %295 = "stablehlo.multiply"(%294, %198) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %296 = "stablehlo.reshape"(%295) : (tensor<4x8x32xf32>) -> tensor<1x32x32xf32>
    %297:3 = "stablehlo.batch_norm_grad"(%195, %22, %196#1, %276, %296) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<1x32x32xf32>) -> (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>)
    %298 = "stablehlo.add"(%137#2, %12) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %299 = "stablehlo.rsqrt"(%298) : (tensor<32xf32>) -> tensor<32xf32>
    %300 = "stablehlo.divide"(%22, %299) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %301 = "stablehlo.multiply"(%300, %300) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %302 = "stablehlo.subtract"(%301, %12) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %303 = "stablehlo.transpose"(%179) <{permutation = array<i64: 0, 2, 1>}> {result_layout = dense<[1, 2, 0]> : tensor<3xindex>, xla_shape = "f32[8,8,8]{1,2,0}"} : (tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %304 = "stablehlo.reshape"(%297#0) : (tensor<1x32x32xf32>) -> tensor<4x8x32xf32>
    %305 = "stablehlo.add"(%277, %304) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %306 = "stablehlo.transpose"(%305) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,4,32]{2,0,1}"} : (tensor<4x8x32xf32>) -> tensor<8x4x32xf32>
    %307 = "stablehlo.reshape"(%306) : (tensor<8x4x32xf32>) -> tensor<32x32xf32>
    %308 = "stablehlo.dot_general"(%307, %arg25) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %309 = "stablehlo.reshape"(%308) : (tensor<32x32xf32>) -> tensor<8x4x2x16xf32>
    %310 = "stablehlo.transpose"(%309) <{permutation = array<i64: 1, 2, 0, 3>}> {result_layout = dense<[3, 1, 0, 2]> : tensor<4xindex>, xla_shape = "f32[4,2,8,16]{3,1,0,2}"} : (tensor<8x4x2x16xf32>) -> tensor<4x2x8x16xf32>
    %311 = "stablehlo.reshape"(%310) : (tensor<4x2x8x16xf32>) -> tensor<8x8x16xf32>
    %312 = "stablehlo.dot_general"(%303, %311) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x8x8xf32>, tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
    %313 = "stablehlo.transpose"(%312) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,16]{2,0,1}"} : (tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
    %314 = "stablehlo.reshape"(%313) : (tensor<8x8x16xf32>) -> tensor<1x8x4x32xf32>
    %315 = "stablehlo.dynamic_update_slice"(%6, %314, %25, %24, %24, %24) : (tensor<3x8x4x32xf32>, tensor<1x8x4x32xf32>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3x8x4x32xf32>
    %316 = "stablehlo.transpose"(%157) <{permutation = array<i64: 0, 2, 1>}> {result_layout = dense<[1, 2, 0]> : tensor<3xindex>, xla_shape = "f32[8,16,8]{1,2,0}"} : (tensor<8x8x16xf32>) -> tensor<8x16x8xf32>
    %317 = "stablehlo.transpose"(%181) <{permutation = array<i64: 1, 2, 0>}> : (tensor<8x8x16xf32>) -> tensor<8x16x8xf32>
    %318 = "stablehlo.dot_general"(%311, %317) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x8x16xf32>, tensor<8x16x8xf32>) -> tensor<8x8x8xf32>
    %319 = "stablehlo.reshape"(%318) : (tensor<8x8x8xf32>) -> tensor<4x2x8x8xf32>
    %320 = "stablehlo.multiply"(%319, %178) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %321 = "stablehlo.reduce"(%320, %31) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg146: tensor<f32>, %arg147: tensor<f32>):
      %1001 = "stablehlo.add"(%arg146, %arg147) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1001) : (tensor<f32>) -> ()
    }) : (tensor<4x2x8x8xf32>, tensor<f32>) -> tensor<4x2x8xf32>
    %322 = "stablehlo.broadcast_in_dim"(%321) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x2x8xf32>) -> tensor<4x2x8x8xf32>
    %323 = "stablehlo.subtract"(%319, %322) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %324 = "stablehlo.multiply"(%178, %323) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %325 = "stablehlo.reshape"(%324) : (tensor<4x2x8x8xf32>) -> tensor<8x8x8xf32>
    %326 = "stablehlo.dot_general"(%316, %325) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16x8xf32>, tensor<8x8x8xf32>) -> tensor<8x16x8xf32>
    %327 = "stablehlo.reshape"(%326) : (tensor<8x16x8xf32>) -> tensor<4x2x16x8xf32>
    %328 = "stablehlo.multiply"(%327, %68) : (tensor<4x2x16x8xf32>, tensor<4x2x16x8xf32>) -> tensor<4x2x16x8xf32>
    %329 = "stablehlo.transpose"(%328) <{permutation = array<i64: 0, 1, 3, 2>}> {result_layout = dense<[2, 3, 1, 0]> : tensor<4xindex>, xla_shape = "f32[4,2,8,16]{2,3,1,0}"} : (tensor<4x2x16x8xf32>) -> tensor<4x2x8x16xf32>
    %330 = "stablehlo.reshape"(%329) : (tensor<4x2x8x16xf32>) -> tensor<8x8x16xf32>
    %331 = "stablehlo.transpose"(%330) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,16]{2,0,1}"} : (tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
    %332 = "stablehlo.reshape"(%331) : (tensor<8x8x16xf32>) -> tensor<1x8x4x32xf32>
    %333 = "stablehlo.dynamic_update_slice"(%6, %332, %29, %24, %24, %24) : (tensor<3x8x4x32xf32>, tensor<1x8x4x32xf32>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3x8x4x32xf32>
    %334 = "stablehlo.add"(%315, %333) : (tensor<3x8x4x32xf32>, tensor<3x8x4x32xf32>) -> tensor<3x8x4x32xf32>
    %335 = "stablehlo.transpose"(%164) <{permutation = array<i64: 0, 2, 1>}> {result_layout = dense<[1, 2, 0]> : tensor<3xindex>, xla_shape = "f32[8,8,16]{1,2,0}"} : (tensor<8x16x8xf32>) -> tensor<8x8x16xf32>
    %336 = "stablehlo.dot_general"(%325, %335) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x8x8xf32>, tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
    %337 = "stablehlo.reshape"(%336) : (tensor<8x8x16xf32>) -> tensor<4x2x8x16xf32>
    %338 = "stablehlo.multiply"(%337, %60) : (tensor<4x2x8x16xf32>, tensor<4x2x8x16xf32>) -> tensor<4x2x8x16xf32>
    %339 = "stablehlo.reshape"(%338) : (tensor<4x2x8x16xf32>) -> tensor<8x8x16xf32>
    %340 = "stablehlo.transpose"(%339) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,16]{2,0,1}"} : (tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
    %341 = "stablehlo.reshape"(%340) : (tensor<8x8x16xf32>) -> tensor<1x8x4x32xf32>
    %342 = "stablehlo.dynamic_update_slice"(%6, %341, %24, %24, %24, %24) : (tensor<3x8x4x32xf32>, tensor<1x8x4x32xf32>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3x8x4x32xf32>
    %343 = "stablehlo.add"(%334, %342) : (tensor<3x8x4x32xf32>, tensor<3x8x4x32xf32>) -> tensor<3x8x4x32xf32>
    %344 = "stablehlo.reshape"(%343) : (tensor<3x8x4x32xf32>) -> tensor<3x8x4x1x32xf32>
    %345 = "stablehlo.transpose"(%344) <{permutation = array<i64: 3, 1, 2, 0, 4>}> {result_layout = dense<[4, 0, 2, 1, 3]> : tensor<5xindex>, xla_shape = "f32[1,8,4,3,32]{4,0,2,1,3}"} : (tensor<3x8x4x1x32xf32>) -> tensor<1x8x4x3x32xf32>
    %346 = "stablehlo.reshape"(%345) : (tensor<1x8x4x3x32xf32>) -> tensor<8x4x96xf32>
    %347 = "stablehlo.reshape"(%345) : (tensor<1x8x4x3x32xf32>) -> tensor<32x96xf32>
    %348 = "stablehlo.dot_general"(%347, %arg22) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x96xf32>, tensor<96x32xf32>) -> tensor<32x32xf32>
    %349 = "stablehlo.reshape"(%348) : (tensor<32x32xf32>) -> tensor<8x4x32xf32>
    %350 = "stablehlo.transpose"(%349) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[4,8,32]{2,0,1}"} : (tensor<8x4x32xf32>) -> tensor<4x8x32xf32>
    %351 = "stablehlo.multiply"(%350, %139) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %352 = "stablehlo.reshape"(%351) : (tensor<4x8x32xf32>) -> tensor<1x32x32xf32>
    %353:3 = "stablehlo.batch_norm_grad"(%136, %22, %137#1, %302, %352) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<1x32x32xf32>) -> (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>)
    %354 = "stablehlo.add"(%109#2, %12) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %355 = "stablehlo.rsqrt"(%354) : (tensor<32xf32>) -> tensor<32xf32>
    %356 = "stablehlo.divide"(%22, %355) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %357 = "stablehlo.multiply"(%356, %356) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %358 = "stablehlo.subtract"(%357, %12) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %359 = "stablehlo.reshape"(%353#0) : (tensor<1x32x32xf32>) -> tensor<4x8x32xf32>
    %360 = "stablehlo.add"(%305, %359) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %361 = "stablehlo.reshape"(%360) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %362 = "stablehlo.dot_general"(%361, %arg19) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x32xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %363 = "stablehlo.reshape"(%362) : (tensor<32x128xf32>) -> tensor<4x8x128xf32>
    %364 = "stablehlo.multiply"(%126, %17) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %365 = "stablehlo.multiply"(%125, %125) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %366 = "stablehlo.subtract"(%16, %365) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %367 = "stablehlo.multiply"(%120, %366) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %368 = "stablehlo.power"(%119, %7) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %369 = "stablehlo.multiply"(%368, %8) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %370 = "stablehlo.add"(%369, %16) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %371 = "stablehlo.multiply"(%370, %15) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %372 = "stablehlo.multiply"(%367, %371) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %373 = "stablehlo.add"(%364, %372) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %374 = "stablehlo.multiply"(%363, %373) : (tensor<4x8x128xf32>, tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
    %375 = "stablehlo.reshape"(%374) : (tensor<4x8x128xf32>) -> tensor<32x128xf32>
    %376 = "stablehlo.dot_general"(%375, %arg16) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x128xf32>, tensor<128x32xf32>) -> tensor<32x32xf32>
    %377 = "stablehlo.reshape"(%376) : (tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %378 = "stablehlo.multiply"(%377, %111) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %379 = "stablehlo.reshape"(%378) : (tensor<4x8x32xf32>) -> tensor<1x32x32xf32>
    %380:3 = "stablehlo.batch_norm_grad"(%108, %22, %109#1, %358, %379) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<1x32x32xf32>) -> (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>)
    %381 = "stablehlo.add"(%41#2, %12) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %382 = "stablehlo.rsqrt"(%381) : (tensor<32xf32>) -> tensor<32xf32>
    %383 = "stablehlo.divide"(%22, %382) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %384 = "stablehlo.multiply"(%383, %383) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %385 = "stablehlo.subtract"(%384, %12) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %386 = "stablehlo.transpose"(%92) <{permutation = array<i64: 0, 2, 1>}> {result_layout = dense<[1, 2, 0]> : tensor<3xindex>, xla_shape = "f32[8,8,8]{1,2,0}"} : (tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
    %387 = "stablehlo.reshape"(%380#0) : (tensor<1x32x32xf32>) -> tensor<4x8x32xf32>
    %388 = "stablehlo.add"(%360, %387) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %389 = "stablehlo.transpose"(%388) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,4,32]{2,0,1}"} : (tensor<4x8x32xf32>) -> tensor<8x4x32xf32>
    %390 = "stablehlo.reshape"(%389) : (tensor<8x4x32xf32>) -> tensor<32x32xf32>
    %391 = "stablehlo.dot_general"(%390, %arg13) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %392 = "stablehlo.reshape"(%391) : (tensor<32x32xf32>) -> tensor<8x4x2x16xf32>
    %393 = "stablehlo.transpose"(%392) <{permutation = array<i64: 1, 2, 0, 3>}> {result_layout = dense<[3, 1, 0, 2]> : tensor<4xindex>, xla_shape = "f32[4,2,8,16]{3,1,0,2}"} : (tensor<8x4x2x16xf32>) -> tensor<4x2x8x16xf32>
    %394 = "stablehlo.reshape"(%393) : (tensor<4x2x8x16xf32>) -> tensor<8x8x16xf32>
    %395 = "stablehlo.dot_general"(%386, %394) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x8x8xf32>, tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
    %396 = "stablehlo.transpose"(%395) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,16]{2,0,1}"} : (tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
    %397 = "stablehlo.reshape"(%396) : (tensor<8x8x16xf32>) -> tensor<1x8x4x32xf32>
    %398 = "stablehlo.dynamic_update_slice"(%6, %397, %25, %24, %24, %24) : (tensor<3x8x4x32xf32>, tensor<1x8x4x32xf32>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3x8x4x32xf32>
    %399 = "stablehlo.transpose"(%62) <{permutation = array<i64: 0, 2, 1>}> {result_layout = dense<[1, 2, 0]> : tensor<3xindex>, xla_shape = "f32[8,16,8]{1,2,0}"} : (tensor<8x8x16xf32>) -> tensor<8x16x8xf32>
    %400 = "stablehlo.transpose"(%94) <{permutation = array<i64: 1, 2, 0>}> : (tensor<8x8x16xf32>) -> tensor<8x16x8xf32>
    %401 = "stablehlo.dot_general"(%394, %400) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x8x16xf32>, tensor<8x16x8xf32>) -> tensor<8x8x8xf32>
    %402 = "stablehlo.reshape"(%401) : (tensor<8x8x8xf32>) -> tensor<4x2x8x8xf32>
    %403 = "stablehlo.multiply"(%402, %91) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %404 = "stablehlo.reduce"(%403, %31) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg144: tensor<f32>, %arg145: tensor<f32>):
      %1000 = "stablehlo.add"(%arg144, %arg145) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1000) : (tensor<f32>) -> ()
    }) : (tensor<4x2x8x8xf32>, tensor<f32>) -> tensor<4x2x8xf32>
    %405 = "stablehlo.broadcast_in_dim"(%404) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x2x8xf32>) -> tensor<4x2x8x8xf32>
    %406 = "stablehlo.subtract"(%402, %405) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %407 = "stablehlo.multiply"(%91, %406) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %408 = "stablehlo.reshape"(%407) : (tensor<4x2x8x8xf32>) -> tensor<8x8x8xf32>
    %409 = "stablehlo.dot_general"(%399, %408) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16x8xf32>, tensor<8x8x8xf32>) -> tensor<8x16x8xf32>
    %410 = "stablehlo.reshape"(%409) : (tensor<8x16x8xf32>) -> tensor<4x2x16x8xf32>
    %411 = "stablehlo.multiply"(%410, %68) : (tensor<4x2x16x8xf32>, tensor<4x2x16x8xf32>) -> tensor<4x2x16x8xf32>
    %412 = "stablehlo.transpose"(%411) <{permutation = array<i64: 0, 1, 3, 2>}> {result_layout = dense<[2, 3, 1, 0]> : tensor<4xindex>, xla_shape = "f32[4,2,8,16]{2,3,1,0}"} : (tensor<4x2x16x8xf32>) -> tensor<4x2x8x16xf32>
    %413 = "stablehlo.reshape"(%412) : (tensor<4x2x8x16xf32>) -> tensor<8x8x16xf32>
    %414 = "stablehlo.transpose"(%413) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,16]{2,0,1}"} : (tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
    %415 = "stablehlo.reshape"(%414) : (tensor<8x8x16xf32>) -> tensor<1x8x4x32xf32>
    %416 = "stablehlo.dynamic_update_slice"(%6, %415, %29, %24, %24, %24) : (tensor<3x8x4x32xf32>, tensor<1x8x4x32xf32>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3x8x4x32xf32>
    %417 = "stablehlo.add"(%398, %416) : (tensor<3x8x4x32xf32>, tensor<3x8x4x32xf32>) -> tensor<3x8x4x32xf32>
    %418 = "stablehlo.transpose"(%70) <{permutation = array<i64: 0, 2, 1>}> {result_layout = dense<[1, 2, 0]> : tensor<3xindex>, xla_shape = "f32[8,8,16]{1,2,0}"} : (tensor<8x16x8xf32>) -> tensor<8x8x16xf32>
    %419 = "stablehlo.dot_general"(%408, %418) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x8x8xf32>, tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
    %420 = "stablehlo.reshape"(%419) : (tensor<8x8x16xf32>) -> tensor<4x2x8x16xf32>
    %421 = "stablehlo.multiply"(%420, %60) : (tensor<4x2x8x16xf32>, tensor<4x2x8x16xf32>) -> tensor<4x2x8x16xf32>
    %422 = "stablehlo.reshape"(%421) : (tensor<4x2x8x16xf32>) -> tensor<8x8x16xf32>
    %423 = "stablehlo.transpose"(%422) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[8,8,16]{2,0,1}"} : (tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
    %424 = "stablehlo.reshape"(%423) : (tensor<8x8x16xf32>) -> tensor<1x8x4x32xf32>
    %425 = "stablehlo.dynamic_update_slice"(%6, %424, %24, %24, %24, %24) : (tensor<3x8x4x32xf32>, tensor<1x8x4x32xf32>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3x8x4x32xf32>
    %426 = "stablehlo.add"(%417, %425) : (tensor<3x8x4x32xf32>, tensor<3x8x4x32xf32>) -> tensor<3x8x4x32xf32>
    %427 = "stablehlo.reshape"(%426) : (tensor<3x8x4x32xf32>) -> tensor<3x8x4x1x32xf32>
    %428 = "stablehlo.transpose"(%427) <{permutation = array<i64: 3, 1, 2, 0, 4>}> {result_layout = dense<[4, 0, 2, 1, 3]> : tensor<5xindex>, xla_shape = "f32[1,8,4,3,32]{4,0,2,1,3}"} : (tensor<3x8x4x1x32xf32>) -> tensor<1x8x4x3x32xf32>
    %429 = "stablehlo.reshape"(%428) : (tensor<1x8x4x3x32xf32>) -> tensor<8x4x96xf32>
    %430 = "stablehlo.reshape"(%428) : (tensor<1x8x4x3x32xf32>) -> tensor<32x96xf32>
    %431 = "stablehlo.dot_general"(%430, %arg8) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x96xf32>, tensor<96x32xf32>) -> tensor<32x32xf32>
    %432 = "stablehlo.reshape"(%431) : (tensor<32x32xf32>) -> tensor<8x4x32xf32>
    %433 = "stablehlo.transpose"(%432) <{permutation = array<i64: 1, 0, 2>}> {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[4,8,32]{2,0,1}"} : (tensor<8x4x32xf32>) -> tensor<4x8x32xf32>
    %434 = "stablehlo.multiply"(%433, %43) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %435 = "stablehlo.reshape"(%434) : (tensor<4x8x32xf32>) -> tensor<1x32x32xf32>
    %436:3 = "stablehlo.batch_norm_grad"(%40, %22, %41#1, %385, %435) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<1x32x32xf32>) -> (tensor<1x32x32xf32>, tensor<32xf32>, tensor<32xf32>)
    %437 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x32xf32>
    %438 = "stablehlo.multiply"(%arg6, %437) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %439 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x32xf32>
    %440 = "stablehlo.compare"(%32, %4) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<32xi64>, tensor<32xi64>) -> tensor<32xi1>
    %441 = "stablehlo.broadcast_in_dim"(%arg37) <{broadcast_dimensions = array<i64>}> : (tensor<i64>) -> tensor<32xi64>
    %442 = "stablehlo.add"(%32, %441) : (tensor<32xi64>, tensor<32xi64>) -> tensor<32xi64>
    %443 = "stablehlo.select"(%440, %442, %32) : (tensor<32xi1>, tensor<32xi64>, tensor<32xi64>) -> tensor<32xi64>
    %444 = "stablehlo.reshape"(%443) : (tensor<32xi64>) -> tensor<32x1xi64>
    %445 = "stablehlo.compare"(%32, %3) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<32xi64>, tensor<32xi64>) -> tensor<32xi1>
    %446 = "stablehlo.broadcast_in_dim"(%445) <{broadcast_dimensions = array<i64: 0>}> : (tensor<32xi1>) -> tensor<32x32xi1>
    %447 = "stablehlo.reshape"(%436#0) : (tensor<1x32x32xf32>) -> tensor<4x8x32xf32>
    %448 = "stablehlo.add"(%388, %447) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %449 = "stablehlo.reshape"(%448) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %450 = "stablehlo.select"(%446, %449, %2) : (tensor<32x32xi1>, tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %451 = "stablehlo.scatter"(%5, %444, %450) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg142: tensor<f32>, %arg143: tensor<f32>):
      %999 = "stablehlo.add"(%arg142, %arg143) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%999) : (tensor<f32>) -> ()
    }) : (tensor<64x32xf32>, tensor<32x1xi64>, tensor<32x32xf32>) -> tensor<64x32xf32>
    %452 = "stablehlo.subtract"(%451, %arg41) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %453 = "stablehlo.multiply"(%439, %452) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %454 = "stablehlo.add"(%arg41, %453) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %455 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x32xf32>
    %456 = "stablehlo.multiply"(%arg39, %455) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %457 = "stablehlo.multiply"(%451, %451) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %458 = "stablehlo.convert"(%arg3) : (tensor<f64>) -> tensor<f32>
    %459 = "stablehlo.broadcast_in_dim"(%458) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x32xf32>
    %460 = "stablehlo.multiply"(%457, %459) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %461 = "stablehlo.add"(%456, %460) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %462 = "stablehlo.sqrt"(%461) : (tensor<64x32xf32>) -> tensor<64x32xf32>
    %463 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x32xf32>
    %464 = "stablehlo.divide"(%462, %463) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %465 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x32xf32>
    %466 = "stablehlo.add"(%464, %465) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %467 = "stablehlo.divide"(%454, %466) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %468 = "stablehlo.convert"(%arg0) : (tensor<f64>) -> tensor<f32>
    %469 = "stablehlo.broadcast_in_dim"(%468) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x32xf32>
    %470 = "stablehlo.multiply"(%467, %469) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %471 = "stablehlo.add"(%438, %470) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %472 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %473 = "stablehlo.multiply"(%arg4, %472) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %474 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %475 = "stablehlo.reduce"(%448, %31) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg140: tensor<f32>, %arg141: tensor<f32>):
      %998 = "stablehlo.add"(%arg140, %arg141) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%998) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<8x32xf32>
    %476 = "stablehlo.scatter"(%1, %0, %475) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg138: tensor<f32>, %arg139: tensor<f32>):
      %997 = "stablehlo.add"(%arg138, %arg139) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%997) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<8x1xi64>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %477 = "stablehlo.subtract"(%476, %arg45) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %478 = "stablehlo.multiply"(%474, %477) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %479 = "stablehlo.add"(%arg45, %478) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %480 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %481 = "stablehlo.multiply"(%arg44, %480) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %482 = "stablehlo.multiply"(%476, %476) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %483 = "stablehlo.broadcast_in_dim"(%458) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %484 = "stablehlo.multiply"(%482, %483) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %485 = "stablehlo.add"(%481, %484) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %486 = "stablehlo.sqrt"(%485) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %487 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %488 = "stablehlo.divide"(%486, %487) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %489 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %490 = "stablehlo.add"(%488, %489) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %491 = "stablehlo.divide"(%479, %490) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %492 = "stablehlo.broadcast_in_dim"(%468) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %493 = "stablehlo.multiply"(%491, %492) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %494 = "stablehlo.add"(%473, %493) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %495 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %496 = "stablehlo.multiply"(%arg7, %495) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %497 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %498 = "stablehlo.multiply"(%433, %42) {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[4,8,32]{2,0,1}"} : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %499 = "stablehlo.reduce"(%498, %31) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg136: tensor<f32>, %arg137: tensor<f32>):
      %996 = "stablehlo.add"(%arg136, %arg137) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%996) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %500 = "stablehlo.subtract"(%499, %arg47) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %501 = "stablehlo.multiply"(%497, %500) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %502 = "stablehlo.add"(%arg47, %501) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %503 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %504 = "stablehlo.multiply"(%arg46, %503) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %505 = "stablehlo.multiply"(%499, %499) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %506 = "stablehlo.broadcast_in_dim"(%458) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %507 = "stablehlo.multiply"(%505, %506) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %508 = "stablehlo.add"(%504, %507) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %509 = "stablehlo.sqrt"(%508) : (tensor<32xf32>) -> tensor<32xf32>
    %510 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %511 = "stablehlo.divide"(%509, %510) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %512 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %513 = "stablehlo.add"(%511, %512) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %514 = "stablehlo.divide"(%502, %513) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %515 = "stablehlo.broadcast_in_dim"(%468) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %516 = "stablehlo.multiply"(%514, %515) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %517 = "stablehlo.add"(%496, %516) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %518 = "stablehlo.multiply"(%arg11, %495) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %519 = "stablehlo.reduce"(%433, %31) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg134: tensor<f32>, %arg135: tensor<f32>):
      %995 = "stablehlo.add"(%arg134, %arg135) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%995) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %520 = "stablehlo.subtract"(%519, %arg49) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %521 = "stablehlo.multiply"(%497, %520) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %522 = "stablehlo.add"(%arg49, %521) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %523 = "stablehlo.multiply"(%arg48, %503) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %524 = "stablehlo.multiply"(%519, %519) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %525 = "stablehlo.multiply"(%524, %506) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %526 = "stablehlo.add"(%523, %525) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %527 = "stablehlo.sqrt"(%526) : (tensor<32xf32>) -> tensor<32xf32>
    %528 = "stablehlo.divide"(%527, %510) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %529 = "stablehlo.add"(%528, %512) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %530 = "stablehlo.divide"(%522, %529) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %531 = "stablehlo.multiply"(%530, %515) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %532 = "stablehlo.add"(%518, %531) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %533 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96x32xf32>
    %534 = "stablehlo.multiply"(%arg8, %533) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %535 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96x32xf32>
    %536 = "stablehlo.transpose"(%47) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %537 = "stablehlo.dot_general"(%536, %430) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x32xf32>, tensor<32x96xf32>) -> tensor<32x96xf32>
    %538 = "stablehlo.transpose"(%537) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[96,32]{0,1}"} : (tensor<32x96xf32>) -> tensor<96x32xf32>
    %539 = "stablehlo.subtract"(%538, %arg51) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[96,32]{0,1}"} : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %540 = "stablehlo.multiply"(%535, %539) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %541 = "stablehlo.add"(%arg51, %540) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %542 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96x32xf32>
    %543 = "stablehlo.multiply"(%arg50, %542) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %544 = "stablehlo.multiply"(%538, %538) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[96,32]{0,1}"} : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %545 = "stablehlo.broadcast_in_dim"(%458) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96x32xf32>
    %546 = "stablehlo.multiply"(%544, %545) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %547 = "stablehlo.add"(%543, %546) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %548 = "stablehlo.sqrt"(%547) : (tensor<96x32xf32>) -> tensor<96x32xf32>
    %549 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96x32xf32>
    %550 = "stablehlo.divide"(%548, %549) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %551 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96x32xf32>
    %552 = "stablehlo.add"(%550, %551) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %553 = "stablehlo.divide"(%541, %552) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %554 = "stablehlo.broadcast_in_dim"(%468) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96x32xf32>
    %555 = "stablehlo.multiply"(%553, %554) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %556 = "stablehlo.add"(%534, %555) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %557 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96xf32>
    %558 = "stablehlo.multiply"(%arg10, %557) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %559 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96xf32>
    %560 = "stablehlo.reduce"(%429, %31) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg132: tensor<f32>, %arg133: tensor<f32>):
      %994 = "stablehlo.add"(%arg132, %arg133) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%994) : (tensor<f32>) -> ()
    }) : (tensor<8x4x96xf32>, tensor<f32>) -> tensor<96xf32>
    %561 = "stablehlo.subtract"(%560, %arg53) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %562 = "stablehlo.multiply"(%559, %561) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %563 = "stablehlo.add"(%arg53, %562) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %564 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96xf32>
    %565 = "stablehlo.multiply"(%arg52, %564) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %566 = "stablehlo.multiply"(%560, %560) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %567 = "stablehlo.broadcast_in_dim"(%458) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96xf32>
    %568 = "stablehlo.multiply"(%566, %567) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %569 = "stablehlo.add"(%565, %568) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %570 = "stablehlo.sqrt"(%569) : (tensor<96xf32>) -> tensor<96xf32>
    %571 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96xf32>
    %572 = "stablehlo.divide"(%570, %571) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %573 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96xf32>
    %574 = "stablehlo.add"(%572, %573) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %575 = "stablehlo.divide"(%563, %574) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %576 = "stablehlo.broadcast_in_dim"(%468) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<96xf32>
    %577 = "stablehlo.multiply"(%575, %576) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %578 = "stablehlo.add"(%558, %577) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %579 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x32xf32>
    %580 = "stablehlo.multiply"(%arg13, %579) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %581 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x32xf32>
    %582 = "stablehlo.transpose"(%99) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %583 = "stablehlo.dot_general"(%582, %390) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %584 = "stablehlo.transpose"(%583) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %585 = "stablehlo.subtract"(%584, %arg55) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %586 = "stablehlo.multiply"(%581, %585) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %587 = "stablehlo.add"(%arg55, %586) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %588 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x32xf32>
    %589 = "stablehlo.multiply"(%arg54, %588) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %590 = "stablehlo.multiply"(%584, %584) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %591 = "stablehlo.broadcast_in_dim"(%458) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x32xf32>
    %592 = "stablehlo.multiply"(%590, %591) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %593 = "stablehlo.add"(%589, %592) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %594 = "stablehlo.sqrt"(%593) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %595 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x32xf32>
    %596 = "stablehlo.divide"(%594, %595) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %597 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x32xf32>
    %598 = "stablehlo.add"(%596, %597) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %599 = "stablehlo.divide"(%587, %598) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %600 = "stablehlo.broadcast_in_dim"(%468) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x32xf32>
    %601 = "stablehlo.multiply"(%599, %600) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %602 = "stablehlo.add"(%580, %601) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %603 = "stablehlo.multiply"(%arg14, %495) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %604 = "stablehlo.reduce"(%390, %31) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg130: tensor<f32>, %arg131: tensor<f32>):
      %993 = "stablehlo.add"(%arg130, %arg131) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%993) : (tensor<f32>) -> ()
    }) : (tensor<32x32xf32>, tensor<f32>) -> tensor<32xf32>
    %605 = "stablehlo.subtract"(%604, %arg57) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %606 = "stablehlo.multiply"(%497, %605) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %607 = "stablehlo.add"(%arg57, %606) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %608 = "stablehlo.multiply"(%arg56, %503) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %609 = "stablehlo.multiply"(%604, %604) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %610 = "stablehlo.multiply"(%609, %506) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %611 = "stablehlo.add"(%608, %610) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %612 = "stablehlo.sqrt"(%611) : (tensor<32xf32>) -> tensor<32xf32>
    %613 = "stablehlo.divide"(%612, %510) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %614 = "stablehlo.add"(%613, %512) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %615 = "stablehlo.divide"(%607, %614) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %616 = "stablehlo.multiply"(%615, %515) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %617 = "stablehlo.add"(%603, %616) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %618 = "stablehlo.multiply"(%arg15, %495) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %619 = "stablehlo.multiply"(%377, %110) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %620 = "stablehlo.reduce"(%619, %31) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg128: tensor<f32>, %arg129: tensor<f32>):
      %992 = "stablehlo.add"(%arg128, %arg129) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%992) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %621 = "stablehlo.subtract"(%620, %arg59) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %622 = "stablehlo.multiply"(%497, %621) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %623 = "stablehlo.add"(%arg59, %622) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %624 = "stablehlo.multiply"(%arg58, %503) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %625 = "stablehlo.multiply"(%620, %620) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %626 = "stablehlo.multiply"(%625, %506) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %627 = "stablehlo.add"(%624, %626) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %628 = "stablehlo.sqrt"(%627) : (tensor<32xf32>) -> tensor<32xf32>
    %629 = "stablehlo.divide"(%628, %510) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %630 = "stablehlo.add"(%629, %512) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %631 = "stablehlo.divide"(%623, %630) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %632 = "stablehlo.multiply"(%631, %515) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %633 = "stablehlo.add"(%618, %632) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %634 = "stablehlo.multiply"(%arg18, %495) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %635 = "stablehlo.reduce"(%377, %31) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg126: tensor<f32>, %arg127: tensor<f32>):
      %991 = "stablehlo.add"(%arg126, %arg127) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%991) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %636 = "stablehlo.subtract"(%635, %arg61) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %637 = "stablehlo.multiply"(%497, %636) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %638 = "stablehlo.add"(%arg61, %637) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %639 = "stablehlo.multiply"(%arg60, %503) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %640 = "stablehlo.multiply"(%635, %635) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %641 = "stablehlo.multiply"(%640, %506) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %642 = "stablehlo.add"(%639, %641) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %643 = "stablehlo.sqrt"(%642) : (tensor<32xf32>) -> tensor<32xf32>
    %644 = "stablehlo.divide"(%643, %510) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %645 = "stablehlo.add"(%644, %512) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %646 = "stablehlo.divide"(%638, %645) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %647 = "stablehlo.multiply"(%646, %515) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %648 = "stablehlo.add"(%634, %647) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %649 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128x32xf32>
    %650 = "stablehlo.multiply"(%arg16, %649) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %651 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128x32xf32>
    %652 = "stablehlo.transpose"(%114) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %653 = "stablehlo.dot_general"(%652, %375) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x32xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %654 = "stablehlo.transpose"(%653) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,32]{0,1}"} : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %655 = "stablehlo.subtract"(%654, %arg63) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,32]{0,1}"} : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %656 = "stablehlo.multiply"(%651, %655) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %657 = "stablehlo.add"(%arg63, %656) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %658 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128x32xf32>
    %659 = "stablehlo.multiply"(%arg62, %658) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %660 = "stablehlo.multiply"(%654, %654) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,32]{0,1}"} : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %661 = "stablehlo.broadcast_in_dim"(%458) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128x32xf32>
    %662 = "stablehlo.multiply"(%660, %661) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %663 = "stablehlo.add"(%659, %662) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %664 = "stablehlo.sqrt"(%663) : (tensor<128x32xf32>) -> tensor<128x32xf32>
    %665 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128x32xf32>
    %666 = "stablehlo.divide"(%664, %665) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %667 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128x32xf32>
    %668 = "stablehlo.add"(%666, %667) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %669 = "stablehlo.divide"(%657, %668) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %670 = "stablehlo.broadcast_in_dim"(%468) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128x32xf32>
    %671 = "stablehlo.multiply"(%669, %670) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %672 = "stablehlo.add"(%650, %671) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %673 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128xf32>
    %674 = "stablehlo.multiply"(%arg17, %673) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %675 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128xf32>
    %676 = "stablehlo.reduce"(%374, %31) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg124: tensor<f32>, %arg125: tensor<f32>):
      %990 = "stablehlo.add"(%arg124, %arg125) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%990) : (tensor<f32>) -> ()
    }) : (tensor<4x8x128xf32>, tensor<f32>) -> tensor<128xf32>
    %677 = "stablehlo.subtract"(%676, %arg65) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %678 = "stablehlo.multiply"(%675, %677) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %679 = "stablehlo.add"(%arg65, %678) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %680 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128xf32>
    %681 = "stablehlo.multiply"(%arg64, %680) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %682 = "stablehlo.multiply"(%676, %676) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %683 = "stablehlo.broadcast_in_dim"(%458) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128xf32>
    %684 = "stablehlo.multiply"(%682, %683) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %685 = "stablehlo.add"(%681, %684) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %686 = "stablehlo.sqrt"(%685) : (tensor<128xf32>) -> tensor<128xf32>
    %687 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128xf32>
    %688 = "stablehlo.divide"(%686, %687) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %689 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128xf32>
    %690 = "stablehlo.add"(%688, %689) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %691 = "stablehlo.divide"(%679, %690) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %692 = "stablehlo.broadcast_in_dim"(%468) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<128xf32>
    %693 = "stablehlo.multiply"(%691, %692) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %694 = "stablehlo.add"(%674, %693) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %695 = "stablehlo.broadcast_in_dim"(%arg42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x128xf32>
    %696 = "stablehlo.multiply"(%arg19, %695) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %697 = "stablehlo.broadcast_in_dim"(%arg40) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x128xf32>
    %698 = "stablehlo.transpose"(%128) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,32]{0,1}"} : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %699 = "stablehlo.dot_general"(%698, %361) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<128x32xf32>, tensor<32x32xf32>) -> tensor<128x32xf32>
    %700 = "stablehlo.transpose"(%699) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,128]{0,1}"} : (tensor<128x32xf32>) -> tensor<32x128xf32>
    %701 = "stablehlo.subtract"(%700, %arg67) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,128]{0,1}"} : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %702 = "stablehlo.multiply"(%697, %701) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %703 = "stablehlo.add"(%arg67, %702) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %704 = "stablehlo.broadcast_in_dim"(%arg38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x128xf32>
    %705 = "stablehlo.multiply"(%arg66, %704) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %706 = "stablehlo.multiply"(%700, %700) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,128]{0,1}"} : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %707 = "stablehlo.broadcast_in_dim"(%458) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x128xf32>
    %708 = "stablehlo.multiply"(%706, %707) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %709 = "stablehlo.add"(%705, %708) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %710 = "stablehlo.sqrt"(%709) : (tensor<32x128xf32>) -> tensor<32x128xf32>
    %711 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x128xf32>
    %712 = "stablehlo.divide"(%710, %711) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %713 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x128xf32>
    %714 = "stablehlo.add"(%712, %713) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %715 = "stablehlo.divide"(%703, %714) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %716 = "stablehlo.broadcast_in_dim"(%468) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x128xf32>
    %717 = "stablehlo.multiply"(%715, %716) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %718 = "stablehlo.add"(%696, %717) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %719 = "stablehlo.multiply"(%arg20, %495) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %720 = "stablehlo.reduce"(%360, %31) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg122: tensor<f32>, %arg123: tensor<f32>):
      %989 = "stablehlo.add"(%arg122, %arg123) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%989) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %721 = "stablehlo.subtract"(%720, %arg69) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %722 = "stablehlo.multiply"(%497, %721) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %723 = "stablehlo.add"(%arg69, %722) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %724 = "stablehlo.multiply"(%arg68, %503) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %725 = "stablehlo.multiply"(%720, %720) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %726 = "stablehlo.multiply"(%725, %506) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %727 = "stablehlo.add"(%724, %726) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %728 = "stablehlo.sqrt"(%727) : (tensor<32xf32>) -> tensor<32xf32>
    %729 = "stablehlo.divide"(%728, %510) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %730 = "stablehlo.add"(%729, %512) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %731 = "stablehlo.divide"(%723, %730) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %732 = "stablehlo.multiply"(%731, %515) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %733 = "stablehlo.add"(%719, %732) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %734 = "stablehlo.multiply"(%arg21, %495) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %735 = "stablehlo.multiply"(%350, %138) {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[4,8,32]{2,0,1}"} : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %736 = "stablehlo.reduce"(%735, %31) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg120: tensor<f32>, %arg121: tensor<f32>):
      %988 = "stablehlo.add"(%arg120, %arg121) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%988) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %737 = "stablehlo.subtract"(%736, %arg71) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %738 = "stablehlo.multiply"(%497, %737) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %739 = "stablehlo.add"(%arg71, %738) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %740 = "stablehlo.multiply"(%arg70, %503) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %741 = "stablehlo.multiply"(%736, %736) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %742 = "stablehlo.multiply"(%741, %506) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %743 = "stablehlo.add"(%740, %742) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %744 = "stablehlo.sqrt"(%743) : (tensor<32xf32>) -> tensor<32xf32>
    %745 = "stablehlo.divide"(%744, %510) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %746 = "stablehlo.add"(%745, %512) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %747 = "stablehlo.divide"(%739, %746) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %748 = "stablehlo.multiply"(%747, %515) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %749 = "stablehlo.add"(%734, %748) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %750 = "stablehlo.multiply"(%arg24, %495) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %751 = "stablehlo.reduce"(%350, %31) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg118: tensor<f32>, %arg119: tensor<f32>):
      %987 = "stablehlo.add"(%arg118, %arg119) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%987) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %752 = "stablehlo.subtract"(%751, %arg73) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %753 = "stablehlo.multiply"(%497, %752) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %754 = "stablehlo.add"(%arg73, %753) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %755 = "stablehlo.multiply"(%arg72, %503) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %756 = "stablehlo.multiply"(%751, %751) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %757 = "stablehlo.multiply"(%756, %506) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %758 = "stablehlo.add"(%755, %757) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %759 = "stablehlo.sqrt"(%758) : (tensor<32xf32>) -> tensor<32xf32>
    %760 = "stablehlo.divide"(%759, %510) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %761 = "stablehlo.add"(%760, %512) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %762 = "stablehlo.divide"(%754, %761) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %763 = "stablehlo.multiply"(%762, %515) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %764 = "stablehlo.add"(%750, %763) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %765 = "stablehlo.multiply"(%arg22, %533) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %766 = "stablehlo.transpose"(%143) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %767 = "stablehlo.dot_general"(%766, %347) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x32xf32>, tensor<32x96xf32>) -> tensor<32x96xf32>
    %768 = "stablehlo.transpose"(%767) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[96,32]{0,1}"} : (tensor<32x96xf32>) -> tensor<96x32xf32>
    %769 = "stablehlo.subtract"(%768, %arg75) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[96,32]{0,1}"} : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %770 = "stablehlo.multiply"(%535, %769) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %771 = "stablehlo.add"(%arg75, %770) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %772 = "stablehlo.multiply"(%arg74, %542) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %773 = "stablehlo.multiply"(%768, %768) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[96,32]{0,1}"} : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %774 = "stablehlo.multiply"(%773, %545) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %775 = "stablehlo.add"(%772, %774) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %776 = "stablehlo.sqrt"(%775) : (tensor<96x32xf32>) -> tensor<96x32xf32>
    %777 = "stablehlo.divide"(%776, %549) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %778 = "stablehlo.add"(%777, %551) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %779 = "stablehlo.divide"(%771, %778) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %780 = "stablehlo.multiply"(%779, %554) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %781 = "stablehlo.add"(%765, %780) : (tensor<96x32xf32>, tensor<96x32xf32>) -> tensor<96x32xf32>
    %782 = "stablehlo.multiply"(%arg23, %557) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %783 = "stablehlo.reduce"(%346, %31) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg116: tensor<f32>, %arg117: tensor<f32>):
      %986 = "stablehlo.add"(%arg116, %arg117) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%986) : (tensor<f32>) -> ()
    }) : (tensor<8x4x96xf32>, tensor<f32>) -> tensor<96xf32>
    %784 = "stablehlo.subtract"(%783, %arg77) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %785 = "stablehlo.multiply"(%559, %784) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %786 = "stablehlo.add"(%arg77, %785) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %787 = "stablehlo.multiply"(%arg76, %564) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %788 = "stablehlo.multiply"(%783, %783) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %789 = "stablehlo.multiply"(%788, %567) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %790 = "stablehlo.add"(%787, %789) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %791 = "stablehlo.sqrt"(%790) : (tensor<96xf32>) -> tensor<96xf32>
    %792 = "stablehlo.divide"(%791, %571) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %793 = "stablehlo.add"(%792, %573) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %794 = "stablehlo.divide"(%786, %793) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %795 = "stablehlo.multiply"(%794, %576) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %796 = "stablehlo.add"(%782, %795) : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32>
    %797 = "stablehlo.multiply"(%arg25, %579) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %798 = "stablehlo.transpose"(%186) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %799 = "stablehlo.dot_general"(%798, %307) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %800 = "stablehlo.transpose"(%799) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %801 = "stablehlo.subtract"(%800, %arg79) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %802 = "stablehlo.multiply"(%581, %801) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %803 = "stablehlo.add"(%arg79, %802) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %804 = "stablehlo.multiply"(%arg78, %588) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %805 = "stablehlo.multiply"(%800, %800) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %806 = "stablehlo.multiply"(%805, %591) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %807 = "stablehlo.add"(%804, %806) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %808 = "stablehlo.sqrt"(%807) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %809 = "stablehlo.divide"(%808, %595) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %810 = "stablehlo.add"(%809, %597) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %811 = "stablehlo.divide"(%803, %810) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %812 = "stablehlo.multiply"(%811, %600) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %813 = "stablehlo.add"(%797, %812) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %814 = "stablehlo.multiply"(%arg26, %495) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %815 = "stablehlo.reduce"(%307, %31) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg114: tensor<f32>, %arg115: tensor<f32>):
      %985 = "stablehlo.add"(%arg114, %arg115) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%985) : (tensor<f32>) -> ()
    }) : (tensor<32x32xf32>, tensor<f32>) -> tensor<32xf32>
    %816 = "stablehlo.subtract"(%815, %arg81) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %817 = "stablehlo.multiply"(%497, %816) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %818 = "stablehlo.add"(%arg81, %817) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %819 = "stablehlo.multiply"(%arg80, %503) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %820 = "stablehlo.multiply"(%815, %815) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %821 = "stablehlo.multiply"(%820, %506) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %822 = "stablehlo.add"(%819, %821) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %823 = "stablehlo.sqrt"(%822) : (tensor<32xf32>) -> tensor<32xf32>
    %824 = "stablehlo.divide"(%823, %510) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %825 = "stablehlo.add"(%824, %512) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %826 = "stablehlo.divide"(%818, %825) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %827 = "stablehlo.multiply"(%826, %515) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %828 = "stablehlo.add"(%814, %827) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %829 = "stablehlo.multiply"(%arg27, %495) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %830 = "stablehlo.multiply"(%294, %197) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %831 = "stablehlo.reduce"(%830, %31) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg112: tensor<f32>, %arg113: tensor<f32>):
      %984 = "stablehlo.add"(%arg112, %arg113) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%984) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %832 = "stablehlo.subtract"(%831, %arg83) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %833 = "stablehlo.multiply"(%497, %832) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %834 = "stablehlo.add"(%arg83, %833) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %835 = "stablehlo.multiply"(%arg82, %503) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %836 = "stablehlo.multiply"(%831, %831) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %837 = "stablehlo.multiply"(%836, %506) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %838 = "stablehlo.add"(%835, %837) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %839 = "stablehlo.sqrt"(%838) : (tensor<32xf32>) -> tensor<32xf32>
    %840 = "stablehlo.divide"(%839, %510) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %841 = "stablehlo.add"(%840, %512) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %842 = "stablehlo.divide"(%834, %841) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %843 = "stablehlo.multiply"(%842, %515) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %844 = "stablehlo.add"(%829, %843) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %845 = "stablehlo.multiply"(%arg30, %495) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %846 = "stablehlo.reduce"(%294, %31) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg110: tensor<f32>, %arg111: tensor<f32>):
      %983 = "stablehlo.add"(%arg110, %arg111) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%983) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %847 = "stablehlo.subtract"(%846, %arg85) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %848 = "stablehlo.multiply"(%497, %847) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %849 = "stablehlo.add"(%arg85, %848) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %850 = "stablehlo.multiply"(%arg84, %503) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %851 = "stablehlo.multiply"(%846, %846) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %852 = "stablehlo.multiply"(%851, %506) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %853 = "stablehlo.add"(%850, %852) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %854 = "stablehlo.sqrt"(%853) : (tensor<32xf32>) -> tensor<32xf32>
    %855 = "stablehlo.divide"(%854, %510) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %856 = "stablehlo.add"(%855, %512) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %857 = "stablehlo.divide"(%849, %856) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %858 = "stablehlo.multiply"(%857, %515) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %859 = "stablehlo.add"(%845, %858) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %860 = "stablehlo.multiply"(%arg28, %649) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %861 = "stablehlo.transpose"(%201) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %862 = "stablehlo.dot_general"(%861, %292) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x32xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %863 = "stablehlo.transpose"(%862) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,32]{0,1}"} : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %864 = "stablehlo.subtract"(%863, %arg87) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,32]{0,1}"} : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %865 = "stablehlo.multiply"(%651, %864) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %866 = "stablehlo.add"(%arg87, %865) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %867 = "stablehlo.multiply"(%arg86, %658) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %868 = "stablehlo.multiply"(%863, %863) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,32]{0,1}"} : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %869 = "stablehlo.multiply"(%868, %661) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %870 = "stablehlo.add"(%867, %869) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %871 = "stablehlo.sqrt"(%870) : (tensor<128x32xf32>) -> tensor<128x32xf32>
    %872 = "stablehlo.divide"(%871, %665) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %873 = "stablehlo.add"(%872, %667) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %874 = "stablehlo.divide"(%866, %873) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %875 = "stablehlo.multiply"(%874, %670) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %876 = "stablehlo.add"(%860, %875) : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
    %877 = "stablehlo.multiply"(%arg29, %673) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %878 = "stablehlo.reduce"(%291, %31) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg108: tensor<f32>, %arg109: tensor<f32>):
      %982 = "stablehlo.add"(%arg108, %arg109) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%982) : (tensor<f32>) -> ()
    }) : (tensor<4x8x128xf32>, tensor<f32>) -> tensor<128xf32>
    %879 = "stablehlo.subtract"(%878, %arg89) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %880 = "stablehlo.multiply"(%675, %879) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %881 = "stablehlo.add"(%arg89, %880) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %882 = "stablehlo.multiply"(%arg88, %680) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %883 = "stablehlo.multiply"(%878, %878) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %884 = "stablehlo.multiply"(%883, %683) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %885 = "stablehlo.add"(%882, %884) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %886 = "stablehlo.sqrt"(%885) : (tensor<128xf32>) -> tensor<128xf32>
    %887 = "stablehlo.divide"(%886, %687) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %888 = "stablehlo.add"(%887, %689) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %889 = "stablehlo.divide"(%881, %888) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %890 = "stablehlo.multiply"(%889, %692) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %891 = "stablehlo.add"(%877, %890) : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %892 = "stablehlo.multiply"(%arg31, %695) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %893 = "stablehlo.transpose"(%215) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[128,32]{0,1}"} : (tensor<32x128xf32>) -> tensor<128x32xf32>
    %894 = "stablehlo.dot_general"(%893, %278) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<128x32xf32>, tensor<32x32xf32>) -> tensor<128x32xf32>
    %895 = "stablehlo.transpose"(%894) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,128]{0,1}"} : (tensor<128x32xf32>) -> tensor<32x128xf32>
    %896 = "stablehlo.subtract"(%895, %arg91) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,128]{0,1}"} : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %897 = "stablehlo.multiply"(%697, %896) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %898 = "stablehlo.add"(%arg91, %897) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %899 = "stablehlo.multiply"(%arg90, %704) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %900 = "stablehlo.multiply"(%895, %895) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,128]{0,1}"} : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %901 = "stablehlo.multiply"(%900, %707) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %902 = "stablehlo.add"(%899, %901) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %903 = "stablehlo.sqrt"(%902) : (tensor<32x128xf32>) -> tensor<32x128xf32>
    %904 = "stablehlo.divide"(%903, %711) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %905 = "stablehlo.add"(%904, %713) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %906 = "stablehlo.divide"(%898, %905) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %907 = "stablehlo.multiply"(%906, %716) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %908 = "stablehlo.add"(%892, %907) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
    %909 = "stablehlo.multiply"(%arg32, %495) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %910 = "stablehlo.reduce"(%277, %31) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg106: tensor<f32>, %arg107: tensor<f32>):
      %981 = "stablehlo.add"(%arg106, %arg107) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%981) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %911 = "stablehlo.subtract"(%910, %arg93) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %912 = "stablehlo.multiply"(%497, %911) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %913 = "stablehlo.add"(%arg93, %912) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %914 = "stablehlo.multiply"(%arg92, %503) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %915 = "stablehlo.multiply"(%910, %910) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %916 = "stablehlo.multiply"(%915, %506) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %917 = "stablehlo.add"(%914, %916) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %918 = "stablehlo.sqrt"(%917) : (tensor<32xf32>) -> tensor<32xf32>
    %919 = "stablehlo.divide"(%918, %510) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %920 = "stablehlo.add"(%919, %512) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %921 = "stablehlo.divide"(%913, %920) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %922 = "stablehlo.multiply"(%921, %515) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %923 = "stablehlo.add"(%909, %922) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %924 = "stablehlo.multiply"(%arg33, %495) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %925 = "stablehlo.multiply"(%268, %247) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %926 = "stablehlo.reduce"(%925, %31) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg104: tensor<f32>, %arg105: tensor<f32>):
      %980 = "stablehlo.add"(%arg104, %arg105) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%980) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %927 = "stablehlo.subtract"(%926, %arg95) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %928 = "stablehlo.multiply"(%497, %927) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %929 = "stablehlo.add"(%arg95, %928) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %930 = "stablehlo.multiply"(%arg94, %503) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %931 = "stablehlo.multiply"(%926, %926) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %932 = "stablehlo.multiply"(%931, %506) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %933 = "stablehlo.add"(%930, %932) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %934 = "stablehlo.sqrt"(%933) : (tensor<32xf32>) -> tensor<32xf32>
    %935 = "stablehlo.divide"(%934, %510) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %936 = "stablehlo.add"(%935, %512) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %937 = "stablehlo.divide"(%929, %936) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %938 = "stablehlo.multiply"(%937, %515) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %939 = "stablehlo.add"(%924, %938) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %940 = "stablehlo.multiply"(%arg35, %495) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %941 = "stablehlo.reduce"(%268, %31) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg102: tensor<f32>, %arg103: tensor<f32>):
      %979 = "stablehlo.add"(%arg102, %arg103) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%979) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %942 = "stablehlo.subtract"(%941, %arg97) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %943 = "stablehlo.multiply"(%497, %942) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %944 = "stablehlo.add"(%arg97, %943) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %945 = "stablehlo.multiply"(%arg96, %503) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %946 = "stablehlo.multiply"(%941, %941) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %947 = "stablehlo.multiply"(%946, %506) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %948 = "stablehlo.add"(%945, %947) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %949 = "stablehlo.sqrt"(%948) : (tensor<32xf32>) -> tensor<32xf32>
    %950 = "stablehlo.divide"(%949, %510) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %951 = "stablehlo.add"(%950, %512) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %952 = "stablehlo.divide"(%944, %951) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %953 = "stablehlo.multiply"(%952, %515) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %954 = "stablehlo.add"(%940, %953) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %955 = "stablehlo.multiply"(%arg34, %437) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %956 = "stablehlo.transpose"(%251) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,32]{0,1}"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %957 = "stablehlo.dot_general"(%956, %266) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %958 = "stablehlo.transpose"(%957) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[64,32]{0,1}"} : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %959 = "stablehlo.subtract"(%958, %arg99) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[64,32]{0,1}"} : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %960 = "stablehlo.multiply"(%439, %959) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %961 = "stablehlo.add"(%arg99, %960) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %962 = "stablehlo.multiply"(%arg98, %455) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %963 = "stablehlo.multiply"(%958, %958) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[64,32]{0,1}"} : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %964 = "stablehlo.multiply"(%963, %459) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %965 = "stablehlo.add"(%962, %964) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %966 = "stablehlo.sqrt"(%965) : (tensor<64x32xf32>) -> tensor<64x32xf32>
    %967 = "stablehlo.divide"(%966, %463) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %968 = "stablehlo.add"(%967, %465) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %969 = "stablehlo.divide"(%961, %968) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %970 = "stablehlo.multiply"(%969, %469) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %971 = "stablehlo.add"(%955, %970) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %972 = "stablehlo.compare"(%234, %11) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xi1>
    %973 = "stablehlo.multiply"(%235, %261) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %974 = "stablehlo.select"(%972, %10, %973) : (tensor<32x64xi1>, tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %975 = "stablehlo.multiply"(%974, %239) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %976 = "stablehlo.reduce"(%975, %31) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg100: tensor<f32>, %arg101: tensor<f32>):
      %978 = "stablehlo.add"(%arg100, %arg101) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%978) : (tensor<f32>) -> ()
    }) : (tensor<32x64xf32>, tensor<f32>) -> tensor<f32>
    %977 = "stablehlo.divide"(%976, %241) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%471, %494, %517, %532, %556, %578, %602, %617, %633, %648, %672, %694, %718, %733, %749, %764, %781, %796, %813, %828, %844, %859, %876, %891, %908, %923, %939, %954, %971, %454, %461, %479, %485, %502, %508, %522, %526, %541, %547, %563, %569, %587, %593, %607, %611, %623, %627, %638, %642, %657, %663, %679, %685, %703, %709, %723, %727, %739, %743, %754, %758, %771, %775, %786, %790, %803, %807, %818, %822, %834, %838, %849, %853, %866, %870, %881, %885, %898, %902, %913, %917, %929, %933, %944, %948, %961, %965, %977) : (tensor<64x32xf32>, tensor<8x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<96x32xf32>, tensor<96x32xf32>, tensor<96xf32>, tensor<96xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<128x32xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<32x128xf32>, tensor<32x128xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<f32>) -> ()
  }) : () -> ()
}) {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.use_auto_spmd_partitioning = false} : () -> ()

