"builtin.module"() <{sym_name = "IrToHlo.341"}> ({
  "func.func"() <{function_type = (tensor<f32>, tensor<16x3x3x3xf32>, tensor<4x3x16x16xf32>, tensor<16xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>, tensor<f32>, tensor<10x32xf32>, tensor<10xf32>, tensor<4xi64>, tensor<f32>, tensor<i64>, tensor<f32>, tensor<16x3x3x3xf32>, tensor<16xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>, tensor<10x32xf32>, tensor<10xf32>) -> (tensor<16x3x3x3xf32>, tensor<16xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>, tensor<10x32xf32>, tensor<10xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>, tensor<10x32xf32>, tensor<10xf32>, tensor<f32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<f32>, %arg1: tensor<16x3x3x3xf32>, %arg2: tensor<4x3x16x16xf32>, %arg3: tensor<16xf32>, %arg4: tensor<32x16x3x3xf32>, %arg5: tensor<32xf32>, %arg6: tensor<f32>, %arg7: tensor<10x32xf32>, %arg8: tensor<10xf32>, %arg9: tensor<4xi64>, %arg10: tensor<f32>, %arg11: tensor<i64>, %arg12: tensor<f32>, %arg13: tensor<16x3x3x3xf32>, %arg14: tensor<16xf32>, %arg15: tensor<32x16x3x3xf32>, %arg16: tensor<32xf32>, %arg17: tensor<10x32xf32>, %arg18: tensor<10xf32>):
    %0 = "stablehlo.constant"() <{value = dense<1.562500e-02> : tensor<4x32xf32>}> : () -> tensor<4x32xf32>
    %1 = "stablehlo.constant"() <{value = dense<-100> : tensor<4xi64>}> : () -> tensor<4xi64>
    %2 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<4x10xf32>}> : () -> tensor<4x10xf32>
    %3 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<4x10xf32>}> : () -> tensor<4x10xf32>
    %4 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<4xf32>}> : () -> tensor<4xf32>
    %5 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<4x32x8x8xf32>}> : () -> tensor<4x32x8x8xf32>
    %6 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<4x16x16x16xf32>}> : () -> tensor<4x16x16x16xf32>
    %7 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
    %10 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.convolution"(%arg2, %arg1) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<4x3x16x16xf32>, tensor<16x3x3x3xf32>) -> tensor<4x16x16x16xf32>
    %12 = "stablehlo.broadcast_in_dim"(%arg3) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xf32>) -> tensor<4x16x16x16xf32>
    %13 = "stablehlo.add"(%11, %12) : (tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
    %14 = "stablehlo.maximum"(%13, %6) : (tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
    %15 = "stablehlo.compare"(%14, %6) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xi1>
    %16 = "stablehlo.convolution"(%14, %arg4) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 2, 2>}> : (tensor<4x16x16x16xf32>, tensor<32x16x3x3xf32>) -> tensor<4x32x8x8xf32>
    %17 = "stablehlo.broadcast_in_dim"(%arg5) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<4x32x8x8xf32>
    %18 = "stablehlo.add"(%16, %17) : (tensor<4x32x8x8xf32>, tensor<4x32x8x8xf32>) -> tensor<4x32x8x8xf32>
    %19 = "stablehlo.maximum"(%18, %5) : (tensor<4x32x8x8xf32>, tensor<4x32x8x8xf32>) -> tensor<4x32x8x8xf32>
    %20 = "stablehlo.compare"(%19, %5) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<4x32x8x8xf32>, tensor<4x32x8x8xf32>) -> tensor<4x32x8x8xi1>
    %21 = "stablehlo.broadcast_in_dim"(%arg11) <{broadcast_dimensions = array<i64>}> : (tensor<i64>) -> tensor<4xi64>
    %22 = "stablehlo.compare"(%arg9, %21) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
    %23 = "stablehlo.not"(%22) : (tensor<4xi1>) -> tensor<4xi1>
    %24 = "stablehlo.convert"(%23) : (tensor<4xi1>) -> tensor<4xi64>
    %25 = "stablehlo.reduce"(%24, %9) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg41: tensor<i64>, %arg42: tensor<i64>):
      %150 = "stablehlo.add"(%arg41, %arg42) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%150) : (tensor<i64>) -> ()
    }) : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
    %26 = "stablehlo.convert"(%25) : (tensor<i64>) -> tensor<f32>
    %27 = "stablehlo.divide"(%arg12, %26) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %28 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %29 = "stablehlo.select"(%22, %4, %28) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %30 = "stablehlo.negate"(%29) : (tensor<4xf32>) -> tensor<4xf32>
    %31 = "stablehlo.broadcast_in_dim"(%30) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x10xf32>
    %32 = "stablehlo.broadcast_in_dim"(%arg9) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xi64>) -> tensor<4x10xi64>
    %33 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<10xi64>
    %34 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64: 1>}> : (tensor<10xi64>) -> tensor<4x10xi64>
    %35 = "stablehlo.compare"(%32, %34) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x10xi64>, tensor<4x10xi64>) -> tensor<4x10xi1>
    %36 = "stablehlo.select"(%35, %3, %2) : (tensor<4x10xi1>, tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %37 = "stablehlo.negate"(%36) : (tensor<4x10xf32>) -> tensor<4x10xf32>
    %38 = "stablehlo.broadcast_in_dim"(%arg10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x10xf32>
    %39 = "stablehlo.multiply"(%37, %38) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %40 = "stablehlo.compare"(%arg9, %1) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
    %41 = "stablehlo.broadcast_in_dim"(%40) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xi1>) -> tensor<4x10xi1>
    %42 = "stablehlo.select"(%41, %3, %2) : (tensor<4x10xi1>, tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %43 = "stablehlo.multiply"(%42, %36) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %44 = "stablehlo.multiply"(%39, %43) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %45 = "stablehlo.reduce"(%43, %10) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg39: tensor<f32>, %arg40: tensor<f32>):
      %149 = "stablehlo.add"(%arg39, %arg40) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%149) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<f32>
    %46 = "stablehlo.compare"(%45, %10) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %47 = "stablehlo.select"(%46, %45, %8) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %48 = "stablehlo.broadcast_in_dim"(%47) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x10xf32>
    %49 = "stablehlo.divide"(%44, %48) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %50 = "stablehlo.add"(%31, %49) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %51 = "stablehlo.reduce"(%19, %10) <{dimensions = array<i64: 3, 2>}> ({
    ^bb0(%arg37: tensor<f32>, %arg38: tensor<f32>):
      %148 = "stablehlo.add"(%arg37, %arg38) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%148) : (tensor<f32>) -> ()
    }) : (tensor<4x32x8x8xf32>, tensor<f32>) -> tensor<4x32xf32>
    %52 = "stablehlo.multiply"(%51, %0) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
    %53 = "stablehlo.transpose"(%arg7) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,10]{0,1}"} : (tensor<10x32xf32>) -> tensor<32x10xf32>
    %54 = "stablehlo.dot_general"(%52, %53) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x32xf32>, tensor<32x10xf32>) -> tensor<4x10xf32>
    %55 = "stablehlo.broadcast_in_dim"(%arg8) <{broadcast_dimensions = array<i64: 1>}> : (tensor<10xf32>) -> tensor<4x10xf32>
    %56 = "stablehlo.add"(%54, %55) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %57 = "stablehlo.reduce"(%56, %7) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg35: tensor<f32>, %arg36: tensor<f32>):
      %147 = "stablehlo.maximum"(%arg35, %arg36) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%147) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %58 = "stablehlo.broadcast_in_dim"(%57) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x10xf32>
    %59 = "stablehlo.subtract"(%56, %58) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %60 = "stablehlo.exponential"(%59) : (tensor<4x10xf32>) -> tensor<4x10xf32>
    %61 = "stablehlo.reduce"(%60, %10) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg33: tensor<f32>, %arg34: tensor<f32>):
      %146 = "stablehlo.add"(%arg33, %arg34) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%146) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %62 = "stablehlo.log"(%61) : (tensor<4xf32>) -> tensor<4xf32>
    %63 = "stablehlo.broadcast_in_dim"(%62) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x10xf32>
    %64 = "stablehlo.subtract"(%59, %63) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %65 = "stablehlo.exponential"(%64) : (tensor<4x10xf32>) -> tensor<4x10xf32>
    %66 = "stablehlo.reduce"(%50, %10) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg31: tensor<f32>, %arg32: tensor<f32>):
      %145 = "stablehlo.add"(%arg31, %arg32) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%145) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %67 = "stablehlo.broadcast_in_dim"(%66) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x10xf32>
    %68 = "stablehlo.multiply"(%65, %67) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %69 = "stablehlo.subtract"(%50, %68) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %70 = "stablehlo.dot_general"(%69, %arg7) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x10xf32>, tensor<10x32xf32>) -> tensor<4x32xf32>
    %71 = "stablehlo.broadcast_in_dim"(%70) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x32xf32>) -> tensor<4x32x8x8xf32>
    %72 = "stablehlo.broadcast_in_dim"(%arg6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x32x8x8xf32>
    %73 = "stablehlo.divide"(%71, %72) : (tensor<4x32x8x8xf32>, tensor<4x32x8x8xf32>) -> tensor<4x32x8x8xf32>
    %74 = "stablehlo.select"(%20, %73, %5) : (tensor<4x32x8x8xi1>, tensor<4x32x8x8xf32>, tensor<4x32x8x8xf32>) -> tensor<4x32x8x8xf32>
    %75 = "stablehlo.transpose"(%arg4) <{permutation = array<i64: 2, 3, 1, 0>}> {result_layout = dense<[1, 0, 2, 3]> : tensor<4xindex>, xla_shape = "f32[3,3,16,32]{1,0,2,3}"} : (tensor<32x16x3x3xf32>) -> tensor<3x3x16x32xf32>
    %76 = "stablehlo.reverse"(%75) <{dimensions = array<i64: 0, 1>}> {result_layout = dense<[1, 0, 2, 3]> : tensor<4xindex>, xla_shape = "f32[3,3,16,32]{1,0,2,3}"} : (tensor<3x3x16x32xf32>) -> tensor<3x3x16x32xf32>
    %77 = "stablehlo.convolution"(%74, %76) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[0, 1, o, i]->[b, f, 0, 1]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 2, 2>, padding = dense<[[1, 2], [1, 2]]> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<4x32x8x8xf32>, tensor<3x3x16x32xf32>) -> tensor<4x16x16x16xf32>
    %78 = "stablehlo.select"(%15, %77, %6) : (tensor<4x16x16x16xi1>, tensor<4x16x16x16xf32>, tensor<4x16x16x16xf32>) -> tensor<4x16x16x16xf32>
    %79 = "stablehlo.broadcast_in_dim"(%arg10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x3x3x3xf32>
    %80 = "stablehlo.multiply"(%arg13, %79) : (tensor<16x3x3x3xf32>, tensor<16x3x3x3xf32>) -> tensor<16x3x3x3xf32>
    %81 = "stablehlo.convolution"(%arg2, %78) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[f, b, 0, 1]x[i, o, 0, 1]->[0, 1, b, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<4x3x16x16xf32>, tensor<4x16x16x16xf32>) -> tensor<3x3x3x16xf32>
    %82 = "stablehlo.transpose"(%81) <{permutation = array<i64: 3, 2, 0, 1>}> {result_layout = dense<[0, 1, 3, 2]> : tensor<4xindex>, xla_shape = "f32[16,3,3,3]{0,1,3,2}"} : (tensor<3x3x3x16xf32>) -> tensor<16x3x3x3xf32>
    %83 = "stablehlo.add"(%80, %82) : (tensor<16x3x3x3xf32>, tensor<16x3x3x3xf32>) -> tensor<16x3x3x3xf32>
    %84 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x3x3x3xf32>
    %85 = "stablehlo.multiply"(%83, %84) : (tensor<16x3x3x3xf32>, tensor<16x3x3x3xf32>) -> tensor<16x3x3x3xf32>
    %86 = "stablehlo.add"(%arg1, %85) : (tensor<16x3x3x3xf32>, tensor<16x3x3x3xf32>) -> tensor<16x3x3x3xf32>
    %87 = "stablehlo.broadcast_in_dim"(%arg10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %88 = "stablehlo.multiply"(%arg14, %87) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %89 = "stablehlo.reduce"(%78, %10) <{dimensions = array<i64: 0, 2, 3>}> ({
    ^bb0(%arg29: tensor<f32>, %arg30: tensor<f32>):
      %144 = "stablehlo.add"(%arg29, %arg30) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%144) : (tensor<f32>) -> ()
    }) : (tensor<4x16x16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %90 = "stablehlo.add"(%88, %89) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %91 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %92 = "stablehlo.multiply"(%90, %91) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %93 = "stablehlo.add"(%arg3, %92) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %94 = "stablehlo.broadcast_in_dim"(%arg10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x16x3x3xf32>
    %95 = "stablehlo.multiply"(%arg15, %94) : (tensor<32x16x3x3xf32>, tensor<32x16x3x3xf32>) -> tensor<32x16x3x3xf32>
    %96 = "stablehlo.convolution"(%14, %74) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[f, b, 0, 1]x[i, o, 0, 1]->[0, 1, b, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<[[1, 0], [1, 0]]> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 2, 2>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<4x16x16x16xf32>, tensor<4x32x8x8xf32>) -> tensor<3x3x16x32xf32>
    %97 = "stablehlo.transpose"(%96) <{permutation = array<i64: 3, 2, 0, 1>}> {result_layout = dense<[0, 1, 3, 2]> : tensor<4xindex>, xla_shape = "f32[32,16,3,3]{0,1,3,2}"} : (tensor<3x3x16x32xf32>) -> tensor<32x16x3x3xf32>
    %98 = "stablehlo.add"(%95, %97) : (tensor<32x16x3x3xf32>, tensor<32x16x3x3xf32>) -> tensor<32x16x3x3xf32>
    %99 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x16x3x3xf32>
    %100 = "stablehlo.multiply"(%98, %99) : (tensor<32x16x3x3xf32>, tensor<32x16x3x3xf32>) -> tensor<32x16x3x3xf32>
    %101 = "stablehlo.add"(%arg4, %100) : (tensor<32x16x3x3xf32>, tensor<32x16x3x3xf32>) -> tensor<32x16x3x3xf32>
    %102 = "stablehlo.broadcast_in_dim"(%arg10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %103 = "stablehlo.multiply"(%arg16, %102) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %104 = "stablehlo.reduce"(%74, %10) <{dimensions = array<i64: 0, 2, 3>}> ({
    ^bb0(%arg27: tensor<f32>, %arg28: tensor<f32>):
      %143 = "stablehlo.add"(%arg27, %arg28) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%143) : (tensor<f32>) -> ()
    }) : (tensor<4x32x8x8xf32>, tensor<f32>) -> tensor<32xf32>
    %105 = "stablehlo.add"(%103, %104) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %106 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %107 = "stablehlo.multiply"(%105, %106) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %108 = "stablehlo.add"(%arg5, %107) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %109 = "stablehlo.broadcast_in_dim"(%arg10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10x32xf32>
    %110 = "stablehlo.multiply"(%arg17, %109) : (tensor<10x32xf32>, tensor<10x32xf32>) -> tensor<10x32xf32>
    %111 = "stablehlo.transpose"(%52) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,4]{0,1}"} : (tensor<4x32xf32>) -> tensor<32x4xf32>
    %112 = "stablehlo.dot_general"(%111, %69) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<32x4xf32>, tensor<4x10xf32>) -> tensor<32x10xf32>
    %113 = "stablehlo.transpose"(%112) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[10,32]{0,1}"} : (tensor<32x10xf32>) -> tensor<10x32xf32>
    %114 = "stablehlo.add"(%110, %113) : (tensor<10x32xf32>, tensor<10x32xf32>) -> tensor<10x32xf32>
    %115 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10x32xf32>
    %116 = "stablehlo.multiply"(%114, %115) : (tensor<10x32xf32>, tensor<10x32xf32>) -> tensor<10x32xf32>
    %117 = "stablehlo.add"(%arg7, %116) : (tensor<10x32xf32>, tensor<10x32xf32>) -> tensor<10x32xf32>
    %118 = "stablehlo.broadcast_in_dim"(%arg10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %119 = "stablehlo.multiply"(%arg18, %118) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %120 = "stablehlo.reduce"(%69, %10) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg25: tensor<f32>, %arg26: tensor<f32>):
      %142 = "stablehlo.add"(%arg25, %arg26) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%142) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<10xf32>
    %121 = "stablehlo.add"(%119, %120) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %122 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %123 = "stablehlo.multiply"(%121, %122) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %124 = "stablehlo.add"(%arg8, %123) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %125 = "stablehlo.compare"(%36, %3) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xi1>
    %126 = "stablehlo.multiply"(%37, %64) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %127 = "stablehlo.select"(%125, %2, %126) : (tensor<4x10xi1>, tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %128 = "stablehlo.multiply"(%127, %43) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %129 = "stablehlo.reduce"(%128, %10) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg23: tensor<f32>, %arg24: tensor<f32>):
      %141 = "stablehlo.add"(%arg23, %arg24) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%141) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<f32>
    %130 = "stablehlo.divide"(%129, %45) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %131 = "stablehlo.multiply"(%130, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %132 = "stablehlo.reduce"(%64, %10) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg21: tensor<f32>, %arg22: tensor<f32>):
      %140 = "stablehlo.add"(%arg21, %arg22) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%140) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %133 = "stablehlo.negate"(%132) : (tensor<4xf32>) -> tensor<4xf32>
    %134 = "stablehlo.select"(%22, %4, %133) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %135 = "stablehlo.reduce"(%134, %10) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg19: tensor<f32>, %arg20: tensor<f32>):
      %139 = "stablehlo.add"(%arg19, %arg20) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%139) : (tensor<f32>) -> ()
    }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %136 = "stablehlo.divide"(%135, %26) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %137 = "stablehlo.multiply"(%136, %arg12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %138 = "stablehlo.add"(%131, %137) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%86, %93, %101, %108, %117, %124, %83, %90, %98, %105, %114, %121, %138) : (tensor<16x3x3x3xf32>, tensor<16xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>, tensor<10x32xf32>, tensor<10xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>, tensor<10x32xf32>, tensor<10xf32>, tensor<f32>) -> ()
  }) : () -> ()
}) {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.use_auto_spmd_partitioning = false} : () -> ()

