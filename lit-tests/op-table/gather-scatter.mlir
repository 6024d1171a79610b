// gather and scatter: the gathered (indexed) operand dim needs replication; the batch of
// indices and the slice dims that are taken whole pass through.
// RUN: alpa-opt --alpa-test-print-op-rules="mesh=2x2" %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=remark

// gather of rows: the indexed operand dim k needs replication; the index batch i and the
// slice dim j taken whole pass through.
// CHECK: remark: stablehlo.gather: ([k,j], [i,1]) -> [i,j] {i=4, j=8, k=16}, need-replication {k};
// CHECK-SAME: 11 strategies on 2x2:
// CHECK-SAME: RR = RR x RR | S1R = RR x S1R | RS1 = RS1 x RR | S0R = RR x S0R |
// CHECK-SAME: S01R = RR x S01R | S10R = RR x S10R | S0S1 = RS1 x S0R | RS0 = RS0 x RR |
// CHECK-SAME: S1S0 = RS0 x S1R | RS01 = RS01 x RR | RS10 = RS10 x RR{{$}}

// scatter-add of rows: the updated operand dim i needs replication; the update batch k is a
// reduction (updates split over devices are partial sums); j passes through.
// CHECK: remark: stablehlo.scatter: ([i,j], [k,1], [k,j]) -> [i,j] {i=16, j=8, k=4}, reduction {k}, need-replication {i};
// CHECK-SAME: 11 strategies on 2x2:
// CHECK-SAME: RR = RR x RR x RR | RS1 = RS1 x RR x RS1 | RR = RR x S1R x S1R @ allreduce{1} | RS0 = RS0 x RR x RS0 |
// CHECK-SAME: RS01 = RS01 x RR x RS01 | RS10 = RS10 x RR x RS10 | RS0 = RS0 x S1R x S1S0 @ allreduce{1} | RR = RR x S0R x S0R @ allreduce{0} |
// CHECK-SAME: RS1 = RS1 x S0R x S0S1 @ allreduce{0} | RR = RR x S01R x S01R @ allreduce{0,1} | RR = RR x S10R x S10R @ allreduce{0,1}{{$}}

func.func @main(%table: tensor<16x8xf32>, %ids: tensor<4x1xi32>, %upd: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<16x8xf32>) {
  %0 = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  %1 = "stablehlo.scatter"(%table, %ids, %upd) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<16x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>) -> tensor<16x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<16x8xf32>
}
