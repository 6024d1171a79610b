// Transfers alpa-cross-mesh-resharding cannot plan are errors at the op.
// RUN: alpa-opt %s -split-input-file -verify-diagnostics --alpa-cross-mesh-resharding="cluster=p3.16xlarge-x2"

module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=1]>, sym_name = "a"}> : () -> ()
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    // expected-error @+1 {{alpa-cross-mesh-resharding: missing attribute 'dst_devices'}}
    %0 = "alpa.transfer"(%arg0) {dst_logical_mesh = array<i64: 2, 1>, dst_sharding = #sdy.sharding<@a, [{"x"}, {}]>, src_devices = array<i64: 0, 1>, src_logical_mesh = array<i64: 2, 1>, src_sharding = #sdy.sharding<@a, [{"x"}, {}]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

// A transfer from alpa-inter-op-stage with shardings=false has no layouts.
module {
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    // expected-error @+1 {{alpa-cross-mesh-resharding: missing attribute 'src_sharding' (alpa-inter-op-stage writes it unless shardings=false)}}
    %0 = "alpa.transfer"(%arg0) {dst_devices = array<i64: 2, 3>, dst_logical_mesh = array<i64: 2, 1>, src_devices = array<i64: 0, 1>, src_logical_mesh = array<i64: 2, 1>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=1]>, sym_name = "a"}> : () -> ()
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    // expected-error @+1 {{alpa-cross-mesh-resharding: 'dst_sharding' refers to @b, which the module does not declare}}
    %0 = "alpa.transfer"(%arg0) {dst_devices = array<i64: 2, 3>, dst_logical_mesh = array<i64: 2, 1>, dst_sharding = #sdy.sharding<@b, [{"x"}, {}]>, src_devices = array<i64: 0, 1>, src_logical_mesh = array<i64: 2, 1>, src_sharding = #sdy.sharding<@a, [{"x"}, {}]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=1]>, sym_name = "a"}> : () -> ()
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    // expected-error @+1 {{alpa-cross-mesh-resharding: 'dst_logical_mesh' 2x1 does not hold the 3 devices of 'dst_devices'}}
    %0 = "alpa.transfer"(%arg0) {dst_devices = array<i64: 2, 3, 4>, dst_logical_mesh = array<i64: 2, 1>, dst_sharding = #sdy.sharding<@a, [{"x"}, {}]>, src_devices = array<i64: 0, 1>, src_logical_mesh = array<i64: 2, 1>, src_sharding = #sdy.sharding<@a, [{"x"}, {}]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=1]>, sym_name = "a"}> : () -> ()
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    // expected-error @+1 {{alpa-cross-mesh-resharding: 'src_sharding' has rank 1 but the value has rank 2}}
    %0 = "alpa.transfer"(%arg0) {dst_devices = array<i64: 2, 3>, dst_logical_mesh = array<i64: 2, 1>, dst_sharding = #sdy.sharding<@a, [{"x"}, {}]>, src_devices = array<i64: 0, 1>, src_logical_mesh = array<i64: 2, 1>, src_sharding = #sdy.sharding<@a, [{"x"}]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=1]>, sym_name = "a"}> : () -> ()
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    // expected-error @+1 {{device 99}}
    %0 = "alpa.transfer"(%arg0) {dst_devices = array<i64: 2, 99>, dst_logical_mesh = array<i64: 2, 1>, dst_sharding = #sdy.sharding<@a, [{"x"}, {}]>, src_devices = array<i64: 0, 1>, src_logical_mesh = array<i64: 2, 1>, src_sharding = #sdy.sharding<@a, [{"x"}, {}]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=1]>, sym_name = "a"}> : () -> ()
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    // expected-error @+1 {{alpa-cross-mesh-resharding: destination layout: device 2 appears more than once}}
    %0 = "alpa.transfer"(%arg0) {dst_devices = array<i64: 2, 2>, dst_logical_mesh = array<i64: 2, 1>, dst_sharding = #sdy.sharding<@a, [{"x"}, {}]>, src_devices = array<i64: 0, 1>, src_logical_mesh = array<i64: 2, 1>, src_sharding = #sdy.sharding<@a, [{"x"}, {}]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}

// -----

module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=1]>, sym_name = "a"}> : () -> ()
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x8xf32> {
    // expected-error @+1 {{alpa-cross-mesh-resharding: 'alpa.transfer' must return the type it takes}}
    %0 = "alpa.transfer"(%arg0) {dst_devices = array<i64: 2, 3>, dst_logical_mesh = array<i64: 2, 1>, dst_sharding = #sdy.sharding<@a, [{"x"}, {}]>, src_devices = array<i64: 0, 1>, src_logical_mesh = array<i64: 2, 1>, src_sharding = #sdy.sharding<@a, [{"x"}, {}]>} : (tensor<8x16xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}
