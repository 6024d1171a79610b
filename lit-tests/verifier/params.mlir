// RUN: alpa-opt --alpa-annotate-costs="summary=false" -split-input-file -verify-diagnostics %s

// Argument attributes are checked before planning, at the argument that carries them.
func.func @main(
    // expected-error @+1 {{argument #0: tf.aliasing_output = 1, but the function has 1 results}}
    %x: tensor<8xf32> {tf.aliasing_output = 1 : i32}) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

// -----

func.func @main(%x: tensor<8xf32> {tf.aliasing_output = 0 : i32},
    // expected-error @+1 {{arguments #0 and #1 both alias result #0 (tf.aliasing_output)}}
    %y: tensor<8xf32> {tf.aliasing_output = 0 : i32}) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

// -----

func.func @main(
    // expected-error @+1 {{argument #0 (tensor<8xf32>) is aliased to result #0 of another type (tensor<4xf32>) (tf.aliasing_output)}}
    %x: tensor<8xf32> {tf.aliasing_output = 0 : i32}) -> tensor<4xf32> {
  %0 = "stablehlo.slice"(%x) {start_indices = array<i64: 0>, limit_indices = array<i64: 4>, strides = array<i64: 1>} : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @main(%w: tensor<8x8xf32>,
    // expected-error @+1 {{argument #1: alpa.batch_dim = 2 is not a dim of a rank-2 argument (nor -1)}}
    %x: tensor<32x8xf32> {alpa.batch_dim = 2 : i64}) -> tensor<32x8xf32> {
  return %x : tensor<32x8xf32>
}

// -----

// Without a location of its own (loc(unknown)) the function's is used, never <unknown>:0.
// expected-error @+1 {{argument #0: tf.aliasing_output must be an integer result index}}
func.func @main(%x: tensor<8xf32> {tf.aliasing_output = "0"} loc(unknown)) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

// -----

// A stale mhlo.sharding beside the sdy.sharding Shardy reads is reported, not an error.
func.func @main(
    // expected-remark @+1 {{argument #0 has both mhlo.sharding and sdy.sharding: the sdy.sharding is read, the mhlo.sharding is a stale leftover}}
    %x: tensor<8xf32> {mhlo.sharding = "{replicated}", sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}
