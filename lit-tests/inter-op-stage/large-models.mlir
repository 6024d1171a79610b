// Settings for large models, on Alpa's MLP train step (6 Dense layers, Adam) in 6 layers on
// two hosts of four GPUs.
//
// compose-stages=2: only ranges of 1 and 2 layers are planned by the ILP (6 + 5 ranges per
// submesh shape); longer ones are composed from their 2-layer windows. The remark's query
// count and the report's "composed" say so.
// sharded-params-variant=true: each (range, logical mesh) is planned twice, the second time
// with no parameter fully replicated.
// RUN: alpa-opt --alpa-inline --alpa-inter-op-stage="cluster=%inputs/cluster-2xa100.json microbatches=4 layers=6 compose-stages=2 sharded-params-variant=true report=%t.json report-html=%t.html" %inputs/mlp.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=HTML < %t.html
// REMARK: remark: alpa-inter-op-stage: {{[0-9]+}} stages over 6 layers on two-a100-hosts (4 microbatches): iteration {{.*}}; {{[0-9]+}} oracle queries, {{[0-9]+}} cache hits
// JSON: "queries": {
// JSON: "composed": {{[1-9][0-9]*}},
// HTML: oracle queries / composed / cache hits
//
// RUN: not alpa-opt --alpa-inter-op-stage="compose-stages=-1" %s 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: alpa-inter-op-stage: compose-stages must be a non-negative integer, got '-1'
func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = "stablehlo.tanh"(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
