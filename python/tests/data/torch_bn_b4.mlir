"builtin.module"() <{sym_name = "IrToHlo.246"}> ({
  "func.func"() <{function_type = (tensor<f32>, tensor<16x3x3x3xf32>, tensor<4x3x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>, tensor<10x16xf32>, tensor<10xf32>, tensor<4xi64>, tensor<i64>) -> (tensor<16x3x3x3xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<10x16xf32>, tensor<10xf32>, tensor<16xf32>, tensor<16xf32>, tensor<i64>, tensor<f32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<f32>, %arg1: tensor<16x3x3x3xf32>, %arg2: tensor<4x3x8x8xf32>, %arg3: tensor<16xf32>, %arg4: tensor<16xf32>, %arg5: tensor<16xf32>, %arg6: tensor<16xf32>, %arg7: tensor<16xf32>, %arg8: tensor<f32>, %arg9: tensor<10x16xf32>, %arg10: tensor<10xf32>, %arg11: tensor<4xi64>, %arg12: tensor<i64>):
    %0 = "stablehlo.constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
    %1 = "stablehlo.constant"() <{value = dense<0.899999976> : tensor<16xf32>}> : () -> tensor<16xf32>
    %2 = "stablehlo.constant"() <{value = dense<1.000000e-01> : tensor<16xf32>}> : () -> tensor<16xf32>
    %3 = "stablehlo.constant"() <{value = dense<1.562500e-02> : tensor<4x16xf32>}> : () -> tensor<4x16xf32>
    %4 = "stablehlo.constant"() <{value = dense<-100> : tensor<4xi64>}> : () -> tensor<4xi64>
    %5 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<4x10xf32>}> : () -> tensor<4x10xf32>
    %6 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<4x10xf32>}> : () -> tensor<4x10xf32>
    %7 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<4x16x8x8xf32>}> : () -> tensor<4x16x8x8xf32>
    %8 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<16xf32>}> : () -> tensor<16xf32>
    %9 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<16xf32>}> : () -> tensor<16xf32>
    %10 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %12 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.convolution"(%arg2, %arg1) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<4x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<4x16x8x8xf32>
    %14 = "stablehlo.broadcast_in_dim"(%arg7) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xf32>) -> tensor<4x16x8x8xf32>
    %15 = "stablehlo.add"(%13, %14) : (tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
    %16:3 = "stablehlo.batch_norm_training"(%15, %arg6, %arg5) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<4x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<4x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>)
    %17 = "stablehlo.add"(%16#2, %8) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %18 = "stablehlo.rsqrt"(%17) : (tensor<16xf32>) -> tensor<16xf32>
    %19 = "stablehlo.divide"(%9, %18) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %20 = "stablehlo.multiply"(%19, %19) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %21 = "stablehlo.subtract"(%20, %8) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %22 = "stablehlo.maximum"(%16#0, %7) : (tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
    %23 = "stablehlo.compare"(%22, %7) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xi1>
    %24 = "stablehlo.broadcast_in_dim"(%arg11) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xi64>) -> tensor<4x10xi64>
    %25 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<10xi64>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64: 1>}> : (tensor<10xi64>) -> tensor<4x10xi64>
    %27 = "stablehlo.compare"(%24, %26) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x10xi64>, tensor<4x10xi64>) -> tensor<4x10xi1>
    %28 = "stablehlo.select"(%27, %6, %5) : (tensor<4x10xi1>, tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %29 = "stablehlo.negate"(%28) : (tensor<4x10xf32>) -> tensor<4x10xf32>
    %30 = "stablehlo.compare"(%arg11, %4) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
    %31 = "stablehlo.broadcast_in_dim"(%30) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xi1>) -> tensor<4x10xi1>
    %32 = "stablehlo.select"(%31, %6, %5) : (tensor<4x10xi1>, tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %33 = "stablehlo.multiply"(%32, %28) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %34 = "stablehlo.multiply"(%29, %33) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %35 = "stablehlo.reduce"(%33, %11) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg27: tensor<f32>, %arg28: tensor<f32>):
      %108 = "stablehlo.add"(%arg27, %arg28) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%108) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<f32>
    %36 = "stablehlo.compare"(%35, %11) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %37 = "stablehlo.select"(%36, %35, %12) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %38 = "stablehlo.broadcast_in_dim"(%37) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x10xf32>
    %39 = "stablehlo.divide"(%34, %38) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %40 = "stablehlo.reduce"(%22, %11) <{dimensions = array<i64: 3, 2>}> ({
    ^bb0(%arg25: tensor<f32>, %arg26: tensor<f32>):
      %107 = "stablehlo.add"(%arg25, %arg26) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%107) : (tensor<f32>) -> ()
    }) : (tensor<4x16x8x8xf32>, tensor<f32>) -> tensor<4x16xf32>
    %41 = "stablehlo.multiply"(%40, %3) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %42 = "stablehlo.transpose"(%arg9) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[16,10]{0,1}"} : (tensor<10x16xf32>) -> tensor<16x10xf32>
    %43 = "stablehlo.dot_general"(%41, %42) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16xf32>, tensor<16x10xf32>) -> tensor<4x10xf32>
    %44 = "stablehlo.broadcast_in_dim"(%arg10) <{broadcast_dimensions = array<i64: 1>}> : (tensor<10xf32>) -> tensor<4x10xf32>
    %45 = "stablehlo.add"(%43, %44) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %46 = "stablehlo.reduce"(%45, %10) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg23: tensor<f32>, %arg24: tensor<f32>):
      %106 = "stablehlo.maximum"(%arg23, %arg24) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%106) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %47 = "stablehlo.broadcast_in_dim"(%46) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x10xf32>
    %48 = "stablehlo.subtract"(%45, %47) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %49 = "stablehlo.exponential"(%48) : (tensor<4x10xf32>) -> tensor<4x10xf32>
    %50 = "stablehlo.reduce"(%49, %11) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg21: tensor<f32>, %arg22: tensor<f32>):
      %105 = "stablehlo.add"(%arg21, %arg22) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%105) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %51 = "stablehlo.log"(%50) : (tensor<4xf32>) -> tensor<4xf32>
    %52 = "stablehlo.broadcast_in_dim"(%51) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x10xf32>
    %53 = "stablehlo.subtract"(%48, %52) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %54 = "stablehlo.exponential"(%53) : (tensor<4x10xf32>) -> tensor<4x10xf32>
    %55 = "stablehlo.reduce"(%39, %11) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg19: tensor<f32>, %arg20: tensor<f32>):
      %104 = "stablehlo.add"(%arg19, %arg20) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%104) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %56 = "stablehlo.broadcast_in_dim"(%55) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x10xf32>
    %57 = "stablehlo.multiply"(%54, %56) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %58 = "stablehlo.subtract"(%39, %57) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %59 = "stablehlo.dot_general"(%58, %arg9) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x10xf32>, tensor<10x16xf32>) -> tensor<4x16xf32>
    %60 = "stablehlo.broadcast_in_dim"(%59) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x16xf32>) -> tensor<4x16x8x8xf32>
    %61 = "stablehlo.broadcast_in_dim"(%arg8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x8x8xf32>
    %62 = "stablehlo.divide"(%60, %61) : (tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
    %63 = "stablehlo.select"(%23, %62, %7) : (tensor<4x16x8x8xi1>, tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
    %64:3 = "stablehlo.batch_norm_grad"(%15, %arg6, %16#1, %21, %63) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<4x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<4x16x8x8xf32>) -> (tensor<4x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>)
    %65 = "stablehlo.convolution"(%arg2, %64#0) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[f, b, 0, 1]x[i, o, 0, 1]->[0, 1, b, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<4x3x8x8xf32>, tensor<4x16x8x8xf32>) -> tensor<3x3x3x16xf32>
    %66 = "stablehlo.transpose"(%65) <{permutation = array<i64: 3, 2, 0, 1>}> {result_layout = dense<[0, 1, 3, 2]> : tensor<4xindex>, xla_shape = "f32[16,3,3,3]{0,1,3,2}"} : (tensor<3x3x3x16xf32>) -> tensor<16x3x3x3xf32>
    %67 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x3x3x3xf32>
    %68 = "stablehlo.multiply"(%66, %67) : (tensor<16x3x3x3xf32>, tensor<16x3x3x3xf32>) -> tensor<16x3x3x3xf32>
    %69 = "stablehlo.add"(%arg1, %68) : (tensor<16x3x3x3xf32>, tensor<16x3x3x3xf32>) -> tensor<16x3x3x3xf32>
    %70 = "stablehlo.reduce"(%64#0, %11) <{dimensions = array<i64: 0, 2, 3>}> ({
    ^bb0(%arg17: tensor<f32>, %arg18: tensor<f32>):
      %103 = "stablehlo.add"(%arg17, %arg18) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%103) : (tensor<f32>) -> ()
    }) : (tensor<4x16x8x8xf32>, tensor<f32>) -> tensor<16xf32>
    %71 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %72 = "stablehlo.multiply"(%70, %71) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %73 = "stablehlo.add"(%arg7, %72) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %74 = "stablehlo.multiply"(%64#1, %71) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %75 = "stablehlo.add"(%arg6, %74) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %76 = "stablehlo.multiply"(%64#2, %71) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %77 = "stablehlo.add"(%arg5, %76) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %78 = "stablehlo.transpose"(%41) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[16,4]{0,1}"} : (tensor<4x16xf32>) -> tensor<16x4xf32>
    %79 = "stablehlo.dot_general"(%78, %58) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x4xf32>, tensor<4x10xf32>) -> tensor<16x10xf32>
    %80 = "stablehlo.transpose"(%79) <{permutation = array<i64: 1, 0>}> {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[10,16]{0,1}"} : (tensor<16x10xf32>) -> tensor<10x16xf32>
    %81 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10x16xf32>
    %82 = "stablehlo.multiply"(%80, %81) : (tensor<10x16xf32>, tensor<10x16xf32>) -> tensor<10x16xf32>
    %83 = "stablehlo.add"(%arg9, %82) : (tensor<10x16xf32>, tensor<10x16xf32>) -> tensor<10x16xf32>
    %84 = "stablehlo.reduce"(%58, %11) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg15: tensor<f32>, %arg16: tensor<f32>):
      %102 = "stablehlo.add"(%arg15, %arg16) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%102) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<10xf32>
    %85 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %86 = "stablehlo.multiply"(%84, %85) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %87 = "stablehlo.add"(%arg10, %86) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %88 = "stablehlo.multiply"(%16#1, %2) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %89 = "stablehlo.multiply"(%arg4, %1) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %90 = "stablehlo.add"(%88, %89) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %91 = "stablehlo.multiply"(%16#2, %2) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %92 = "stablehlo.multiply"(%arg3, %1) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %93 = "stablehlo.add"(%91, %92) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %94 = "stablehlo.add"(%arg12, %0) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %95 = "stablehlo.compare"(%28, %6) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xi1>
    %96 = "stablehlo.multiply"(%29, %53) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %97 = "stablehlo.select"(%95, %5, %96) : (tensor<4x10xi1>, tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %98 = "stablehlo.multiply"(%97, %33) : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %99 = "stablehlo.reduce"(%98, %11) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg13: tensor<f32>, %arg14: tensor<f32>):
      %101 = "stablehlo.add"(%arg13, %arg14) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%101) : (tensor<f32>) -> ()
    }) : (tensor<4x10xf32>, tensor<f32>) -> tensor<f32>
    %100 = "stablehlo.divide"(%99, %35) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%69, %73, %75, %77, %83, %87, %90, %93, %94, %100) : (tensor<16x3x3x3xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<10x16xf32>, tensor<10xf32>, tensor<16xf32>, tensor<16xf32>, tensor<i64>, tensor<f32>) -> ()
  }) : () -> ()
}) {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.use_auto_spmd_partitioning = false} : () -> ()
