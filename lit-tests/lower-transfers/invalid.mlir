// Plans alpa-lower-transfers cannot lower are errors at the op.
// RUN: alpa-opt %s -split-input-file -verify-diagnostics --alpa-lower-transfers

module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=1]>, sym_name = "a"}> : () -> ()
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    // expected-error @+1 {{alpa-lower-transfers: this transfer has no plan: run alpa-cross-mesh-resharding first}}
    %0 = "alpa.transfer"(%arg0) {dst_devices = array<i64: 2, 3>, dst_logical_mesh = array<i64: 2, 1>, dst_sharding = #sdy.sharding<@a, [{"x"}, {}]>, src_devices = array<i64: 0, 1>, src_logical_mesh = array<i64: 2, 1>, src_sharding = #sdy.sharding<@a, [{"x"}, {}]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=1]>, sym_name = "a"}> : () -> ()
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    // expected-error @+1 {{alpa-lower-transfers: 'mode' must be resolved (send-recv, local-all-gather or broadcast), not auto}}
    %0 = "alpa.transfer_plan"(%arg0) {mode = "auto", pieces = [], gathers = [], dst_devices = array<i64: 2, 3>, dst_logical_mesh = array<i64: 2, 1>, dst_sharding = #sdy.sharding<@a, [{"x"}, {}]>, src_devices = array<i64: 0, 1>, src_logical_mesh = array<i64: 2, 1>, src_sharding = #sdy.sharding<@a, [{"x"}, {}]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=1]>, sym_name = "a"}> : () -> ()
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    // expected-error @+1 {{alpa-lower-transfers: missing attribute 'pieces'}}
    %0 = "alpa.transfer_plan"(%arg0) {mode = "send-recv", gathers = [], dst_devices = array<i64: 2, 3>, dst_logical_mesh = array<i64: 2, 1>, dst_sharding = #sdy.sharding<@a, [{"x"}, {}]>, src_devices = array<i64: 0, 1>, src_logical_mesh = array<i64: 2, 1>, src_sharding = #sdy.sharding<@a, [{"x"}, {}]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=1]>, sym_name = "a"}> : () -> ()
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    // expected-error @+1 {{alpa-lower-transfers: a piece at [0, 0] of sizes [8, 16] lies outside device 0's source tile}}
    %0 = "alpa.transfer_plan"(%arg0) {mode = "send-recv", pieces = [{src = 0 : i64, dsts = array<i64: 2>, offset = array<i64: 0, 0>, sizes = array<i64: 8, 16>}], gathers = [], dst_devices = array<i64: 2, 3>, dst_logical_mesh = array<i64: 2, 1>, dst_sharding = #sdy.sharding<@a, [{"x"}, {}]>, src_devices = array<i64: 0, 1>, src_logical_mesh = array<i64: 2, 1>, src_sharding = #sdy.sharding<@a, [{"x"}, {}]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=1]>, sym_name = "a"}> : () -> ()
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    // expected-error @+1 {{alpa-lower-transfers: device 5 is not a destination}}
    %0 = "alpa.transfer_plan"(%arg0) {mode = "send-recv", pieces = [{src = 0 : i64, dsts = array<i64: 5>, offset = array<i64: 0, 0>, sizes = array<i64: 4, 16>}], gathers = [], dst_devices = array<i64: 2, 3>, dst_logical_mesh = array<i64: 2, 1>, dst_sharding = #sdy.sharding<@a, [{"x"}, {}]>, src_devices = array<i64: 0, 1>, src_logical_mesh = array<i64: 2, 1>, src_sharding = #sdy.sharding<@a, [{"x"}, {}]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=1]>, sym_name = "a"}> : () -> ()
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    // expected-error @+1 {{alpa-lower-transfers: a piece is relayed by device 3, which never receives it}}
    %0 = "alpa.transfer_plan"(%arg0) {mode = "broadcast", pieces = [{src = 0 : i64, dsts = array<i64: 2>, from = array<i64: 3>, offset = array<i64: 0, 0>, sizes = array<i64: 4, 16>}], gathers = [], dst_devices = array<i64: 2, 3>, dst_logical_mesh = array<i64: 2, 1>, dst_sharding = #sdy.sharding<@a, [{"x"}, {}]>, src_devices = array<i64: 0, 1>, src_logical_mesh = array<i64: 2, 1>, src_sharding = #sdy.sharding<@a, [{"x"}, {}]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=1, "y"=2]>, sym_name = "a"}> : () -> ()
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    // expected-error @+1 {{alpa-lower-transfers: a local all-gather along dimension 5 in groups of 2 does not split the destination tile [8, 16] evenly}}
    %0 = "alpa.transfer_plan"(%arg0) {mode = "local-all-gather", pieces = [], gathers = [{devices = array<i64: 2, 3>, dim = 5 : i64, offset = array<i64: 0, 0>, sizes = array<i64: 8, 16>, parts = [{offset = array<i64: 0, 0>, sizes = array<i64: 8, 8>}, {offset = array<i64: 0, 8>, sizes = array<i64: 8, 8>}]}], dst_devices = array<i64: 2, 3>, dst_logical_mesh = array<i64: 1, 2>, dst_sharding = #sdy.sharding<@a, [{}, {}]>, src_devices = array<i64: 0, 1>, src_logical_mesh = array<i64: 1, 2>, src_sharding = #sdy.sharding<@a, [{}, {}]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=1, "y"=2]>, sym_name = "a"}> : () -> ()
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    // expected-error @+1 {{alpa-lower-transfers: gather part 1 at [0, 4] of sizes [8, 8] is not its even share of the tile}}
    %0 = "alpa.transfer_plan"(%arg0) {mode = "local-all-gather", pieces = [], gathers = [{devices = array<i64: 2, 3>, dim = 1 : i64, offset = array<i64: 0, 0>, sizes = array<i64: 8, 16>, parts = [{offset = array<i64: 0, 0>, sizes = array<i64: 8, 8>}, {offset = array<i64: 0, 4>, sizes = array<i64: 8, 8>}]}], dst_devices = array<i64: 2, 3>, dst_logical_mesh = array<i64: 1, 2>, dst_sharding = #sdy.sharding<@a, [{}, {}]>, src_devices = array<i64: 0, 1>, src_logical_mesh = array<i64: 1, 2>, src_sharding = #sdy.sharding<@a, [{}, {}]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}
