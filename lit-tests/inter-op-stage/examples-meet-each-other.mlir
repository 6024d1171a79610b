// Every example meeting every other example of the batch is warned about where they meet:
// contrastive logits (x @ x.T), and pairwise differences written elementwise on the batch
// broadcast into two dimensions (x[:, None] - x[None], as a triplet loss's distances or an MMD
// loss's kernel). Those were taken for values per example along the first dimension: the
// second case got no warning at all (a JAX export's backward pass was warned about later, at a
// sum over the batch, as a batch statistic).
// So is a reduction over the batch by anything but an addition, a maximum or a minimum (a
// product over it, jnp.argmax's value-and-position pairs), which was lost track of: the loss
// was warned about as one this analysis cannot follow.
// RUN: alpa-opt --split-input-file --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x1-slow-link.json microbatches=2 layers=user time-limit=5 shardings=false" %s -o %t.mlir 2>%t.err
// RUN: FileCheck %s --implicit-check-not=warning < %t.err
// CHECK: warning: loc("logits"): alpa-inter-op-stage: every example meets every other example of the batch here (the batch paired with itself: a contrastive loss's logits `a @ b.T`, or pairwise distances or kernels `a[:, None] - b[None]`, as a triplet loss's hardest negative or an MMD loss computes them): each microbatch computes it over its own examples only, so the step differs from the global batch's, as under any gradient accumulation; plan with microbatches=1 to pair every example with the whole batch
// CHECK: warning: loc("pairwise"): alpa-inter-op-stage: every example meets every other example of the batch here (the batch paired with itself: {{.*}}): each microbatch computes it over its own examples only
// CHECK: warning: loc("product"): alpa-inter-op-stage: the examples meet each other here (a reduce along the batch's dimension sorts, selects among, transforms or accumulates them together, as hard-example mining's top-k of the losses or a jnp.argmax over the batch does): each microbatch computes it over its own examples only
func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %logits = "stablehlo.dot_general"(%h, %h) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("logits")
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.reduce"(%logits, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32> loc("loss")
  %g = "stablehlo.dot_general"(%x, %h) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %g) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}

// -----

func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %rows = "stablehlo.broadcast_in_dim"(%h) <{broadcast_dimensions = array<i64: 0, 2>}> : (tensor<4x4xf32>) -> tensor<4x4x4xf32>
  %columns = "stablehlo.broadcast_in_dim"(%h) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<4x4xf32>) -> tensor<4x4x4xf32>
  %pairwise = "stablehlo.subtract"(%rows, %columns) : (tensor<4x4x4xf32>, tensor<4x4x4xf32>) -> tensor<4x4x4xf32> loc("pairwise")
  %squares = "stablehlo.multiply"(%pairwise, %pairwise) : (tensor<4x4x4xf32>, tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %distances = "stablehlo.reduce"(%squares, %zero) <{dimensions = array<i64: 2>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4x4xf32>, tensor<f32>) -> tensor<4x4xf32>
  %far = "stablehlo.constant"() <{value = dense<1.000000e+30> : tensor<f32>}> : () -> tensor<f32>
  %nearest = "stablehlo.reduce"(%distances, %far) <{dimensions = array<i64: 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.minimum"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  %loss = "stablehlo.reduce"(%nearest, %zero) <{dimensions = array<i64: 0>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32> loc("loss")
  %g = "stablehlo.dot_general"(%x, %h) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %g) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}

// -----

func.func @main(%w: tensor<4x4xf32> {tf.aliasing_output = 0 : i32}, %x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %h = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> loc("alpa_layer_0")
  %one = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %product = "stablehlo.reduce"(%h, %one) <{dimensions = array<i64: 0>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.multiply"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32> loc("product")
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %loss = "stablehlo.reduce"(%product, %zero) <{dimensions = array<i64: 0>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32> loc("loss")
  %g = "stablehlo.dot_general"(%x, %h) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %w2 = "stablehlo.subtract"(%w, %g) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %w2, %loss : tensor<4x4xf32>, tensor<f32>
}
