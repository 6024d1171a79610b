// Clustering real train steps: the forward ops are clustered (Eq. 6), backward and update ops
// go with their forward counterparts (paper §5.1), and each op is marked with its phase.
// RUN: alpa-opt --alpa-inline --alpa-cluster-layers="layers=3" %inputs/mlp.mlir -o %t.mlp.mlir 2>&1 | FileCheck %s --check-prefix=MLP
// RUN: FileCheck %s --check-prefix=DOTS < %t.mlp.mlir
// RUN: alpa-opt --alpa-inline --alpa-cluster-layers %inputs/gpt_tiny.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO
// MLP: remark: alpa-cluster-layers: 3 layers (delta 0.5) of the train step's forward ops, backward and update ops placed with their forward counterparts; ops per layer [14, 14, 17]
// The six Dense layers go two per layer; the backward matmuls (in reverse order) follow them:
// 2 + 2 in layer 2, 2 + 2 in layer 1, and 2 + 1 in layer 0 (no input gradient for layer 1).
// DOTS-COUNT-2: "stablehlo.dot_general"{{.*}}alpa.layer = 0 : i64, alpa.phase = "forward"
// DOTS-COUNT-2: "stablehlo.dot_general"{{.*}}alpa.layer = 1 : i64, alpa.phase = "forward"
// DOTS-COUNT-2: "stablehlo.dot_general"{{.*}}alpa.layer = 2 : i64, alpa.phase = "forward"
// DOTS-COUNT-4: "stablehlo.dot_general"{{.*}}alpa.layer = 2 : i64, alpa.phase = "backward"
// DOTS-COUNT-4: "stablehlo.dot_general"{{.*}}alpa.layer = 1 : i64, alpa.phase = "backward"
// DOTS-COUNT-3: "stablehlo.dot_general"{{.*}}alpa.layer = 0 : i64, alpa.phase = "backward"
// DOTS-NOT: "stablehlo.dot_general"
// Adam's update of the first weight stays with the first layer.
// DOTS: "stablehlo.subtract"(%arg1, {{.*}}alpa.layer = 0 : i64, alpa.phase = "update"
// layers=auto picks from min(heavy ops, devices) downwards.
// AUTO: remark: alpa-cluster-layers: {{[4-8]}} layers (delta 0.5) chosen by layers=auto of the train step's forward ops

// A model whose few heavy ops differ greatly in size (2 blocks of hidden 64, an untied LM head
// over a vocabulary of 32768, 95% of the forward FLOPs): no count of layers in auto's range
// meets the default delta, and none from 2 up either. layers=auto still yields a clustering,
// at the least delta that admits two layers, and says so; an explicit count may fail.
// RUN: alpa-opt --alpa-inline --alpa-cluster-layers="devices=16" %inputs/gpt_bighead.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BIGHEAD
// RUN: not alpa-opt --alpa-inline --alpa-cluster-layers="devices=16 layers=8" %inputs/gpt_bighead.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BIGHEAD-FIXED
// A delta the user gives is never raised, even under layers=auto: it may fail too.
// RUN: not alpa-opt --alpa-inline --alpa-cluster-layers="devices=16 delta=0.5" %inputs/gpt_bighead.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BIGHEAD-DELTA
// BIGHEAD: remark: alpa-cluster-layers: 2 layers (delta 0.906{{[0-9]*}}) chosen by layers=auto: no count of layers meets delta 0.5, and 0.9063 is the least that admits 2 of the train step's forward ops
// BIGHEAD-DELTA: error: alpa-cluster-layers: layers=auto found no clustering whose layers stay within delta=0.5 you gave; the least delta that admits 2 layers is 0.906{{[0-9]}} (leave delta unset to let layers=auto raise it)
// BIGHEAD-FIXED: error: alpa-cluster-layers: no clustering into 8 layers keeps every layer within (1 + delta) x FLOP_total / L with delta = 0.5
