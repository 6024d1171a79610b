// stages= fixes the stages instead of the stage DP (Alpa's manual stage option): the DP's own
// plan of the MLP step, given back as fixed stages, is planned with one oracle query per stage
// and gives the same stages, devices and modeled times; the report says the stages were fixed
// and has no baselines.
// RUN: alpa-opt --alpa-inline --alpa-inter-op-stage="cluster=%inputs/cluster-2xa100.json microbatches=4 layers=3" %inputs/mlp.mlir -o /dev/null 2> %t.log
// RUN: alpa-opt --alpa-inline --alpa-inter-op-stage="cluster=%inputs/cluster-2xa100.json microbatches=4 layers=3 stages=0..1@1x2,1..2@1x2,2..3@1x4 report=%t.json report-html=%t.html" %inputs/mlp.mlir -o %t.mlir 2>> %t.log
// RUN: FileCheck %s --check-prefix=SAME < %t.log
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: FileCheck %s --check-prefix=HTML < %t.html
// HTML: <h2>Baselines</h2>
// HTML-NEXT: <p class="muted no-baselines">None computed (see the notes).</p>
// SAME: remark: alpa-inter-op-stage: 3 stages over 3 layers on two-a100-hosts (4 microbatches): iteration [[T:[0-9.]+ ms]] modeled; [[STAGES:layers 0..1 on 1x2 \(logical 1x2, devices 4..=5\) .* ms; layers 1..2 on 1x2 \(logical 1x2, devices 6..=7\) .* ms; layers 2..3 on 1x4 \(logical 1x4, devices 0..=3\) [0-9.]+ ms]]; 9 oracle queries
// SAME-NOT: stage DP
// SAME: remark: alpa-inter-op-stage: 3 stages over 3 layers on two-a100-hosts (4 microbatches): iteration [[T]] modeled; [[STAGES]]; 3 oracle queries, 0 cache hits
// JSON: "baselines": [],
// JSON: "notes": [
// JSON-NEXT: "stages=0..1@1x2,1..2@1x2,2..3@1x4: the stages are fixed (no stage DP, no baselines)"
// The stage functions are sliced as usual, on the fixed stages' devices and logical meshes.
// IR-LABEL: func.func private @stage0_forward(
// IR-SAME: alpa.devices = array<i64: 4, 5>, alpa.logical_mesh = array<i64: 1, 2>
// IR-LABEL: func.func private @stage2_forward(
// IR-SAME: alpa.devices = array<i64: 0, 1, 2, 3>, alpa.logical_mesh = array<i64: 1, 4>

// A given logical mesh is kept: the last stage as 2x2.
// RUN: alpa-opt --alpa-inline --alpa-inter-op-stage="cluster=%inputs/cluster-2xa100.json microbatches=4 layers=3 stages=0..1@1x2,1..2@1x2,2..3@1x4:2x2" %inputs/mlp.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=MESH
// MESH: layers 2..3 on 1x4 (logical 2x2, devices 0..=3)

// What it rejects, with the reason.
// RUN: not alpa-opt --alpa-inline --alpa-inter-op-stage="cluster=%inputs/cluster-2xa100.json layers=3 stages=0..1@1x2,1..3" %inputs/mlp.mlir 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: error: alpa-inter-op-stage: stages: cannot read `1..3` (START..END@HOSTSxDEVICES[:AxB], e.g. 0..4@1x4:2x2,4..8@1x4): no `@`
// RUN: not alpa-opt --alpa-inline --alpa-inter-op-stage="cluster=%inputs/cluster-2xa100.json layers=3 stages=0..3@1x4:3x1" %inputs/mlp.mlir 2>&1 | FileCheck %s --check-prefix=LOGICAL
// LOGICAL: error: alpa-inter-op-stage: stages: cannot read `0..3@1x4:3x1` {{.*}}: logical mesh 3x1 does not have the 4 devices of submesh 1x4
// RUN: not alpa-opt --alpa-inline --alpa-inter-op-stage="cluster=%inputs/cluster-2xa100.json layers=3 stages=0..1@1x4,2..3@1x4" %inputs/mlp.mlir 2>&1 | FileCheck %s --check-prefix=GAP
// GAP: error: alpa-inter-op-stage: {{.*}}stages: stage 2..3@1x4 should start at layer 1: the stages must tile the layers
// RUN: not alpa-opt --alpa-inline --alpa-inter-op-stage="cluster=%inputs/cluster-2xa100.json layers=3 stages=0..1@1x4,1..2@1x4" %inputs/mlp.mlir 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: error: alpa-inter-op-stage: {{.*}}stages: the stages cover layers 0..2, the model has 3 (layers= sets the count)
// RUN: not alpa-opt --alpa-inline --alpa-inter-op-stage="cluster=%inputs/cluster-2xa100.json layers=3 stages=0..1@1x2,1..3@1x4" %inputs/mlp.mlir 2>&1 | FileCheck %s --check-prefix=DEVICES
// DEVICES: error: alpa-inter-op-stage: {{.*}}placement failed: the submeshes use 6 devices, the cluster has 8
// RUN: not alpa-opt --alpa-inline --alpa-inter-op-stage="cluster=%inputs/cluster-2xa100.json layers=3 stages=0..1@1x2:2x1,1..2@1x2,2..3@1x4" %inputs/mlp.mlir 2>&1 | FileCheck %s --check-prefix=UNPLANNED
// UNPLANNED: error: alpa-inter-op-stage: {{.*}}stages: stage 0..1@1x2:2x1: the intra-op pass has no plan on that logical mesh, only on 1x2 (a d x 1 mesh is planned as 1 x d)
// RUN: not alpa-opt --alpa-inline --alpa-inter-op-stage="cluster=%inputs/cluster-tiny-memory.json layers=2 stages=0..1@1x4,1..2@1x4" %inputs/mlp.mlir 2>&1 | FileCheck %s --check-prefix=MEMORY
// MEMORY: error: alpa-inter-op-stage: {{.*}}no plan of stage 0..1@1x4 fits in device memory at pipeline depth 2
