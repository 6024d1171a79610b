// Clustering real train steps: every op gets a layer, layers are contiguous and in order.
// RUN: alpa-opt --alpa-inline --alpa-cluster-layers="layers=3" %inputs/mlp.mlir -o %t.mlp.mlir 2>&1 | FileCheck %s --check-prefix=MLP
// RUN: grep -o 'alpa.layer = [0-9]*' %t.mlp.mlir | uniq | FileCheck %s --check-prefix=ORDER
// RUN: alpa-opt --alpa-inline --alpa-cluster-layers %inputs/gpt_tiny.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO
// MLP: remark: alpa-cluster-layers: 3 layers (delta 0.5)
// ORDER: alpa.layer = 0
// ORDER-NEXT: alpa.layer = 1
// ORDER-NEXT: alpa.layer = 2
// ORDER-NOT: alpa.layer
// layers=auto picks from min(heavy ops, devices) downwards.
// AUTO: remark: alpa-cluster-layers: {{[4-8]}} layers
