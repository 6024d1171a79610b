// The stage-mesh DP on Alpa's MLP train step (6 Dense layers, Adam) on two hosts of four
// GPUs: three layers, every op marked with its layer, phase and stage; each backward matmul
// runs in the stage of the forward matmul it transposes; the entry records the pipeline; the
// JSON and HTML reports cover the stages, the device grid and the baselines.
// RUN: alpa-opt --alpa-inline --alpa-inter-op-stage="cluster=%inputs/cluster-2xa100.json microbatches=4 layers=3 report=%t.json report-html=%t.html" %inputs/mlp.mlir -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=HTML < %t.html
// The equal-operator baseline's own cost table stops at baseline-time-limit: the plan is the
// same, and the report lists the baseline as not computed, saying why.
// RUN: alpa-opt --alpa-inline --alpa-inter-op-stage="cluster=%inputs/cluster-2xa100.json microbatches=4 layers=3 baseline-time-limit=1e-9 report=%t.cut.json" %inputs/mlp.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=CUT
// RUN: FileCheck %s --check-prefix=CUT-JSON < %t.cut.json
// CUT: equal-operator baseline: planning its own cost table (3 layers of equal op count, at most 0.000000001 s: baseline-time-limit; baselines=false skips it)
// CUT: equal-operator baseline: stopped at baseline-time-limit: the report lists it as not computed
// CUT: remark: alpa-inter-op-stage: 3 stages over 3 layers on two-a100-hosts (4 microbatches)
// CUT-JSON: "name": "equal-operator",
// CUT-JSON-NEXT: "status": "not_computed",
// CUT-JSON: "note": "not computed: its own cost table passed baseline-time-limit=0.000000001 s (0: no limit)"
// CUT-JSON: "name": "equal-layer",
// CUT-JSON-NEXT: "status": "ok",
// REMARK: remark: alpa-inter-op-stage: 3 stages over 3 layers on two-a100-hosts (4 microbatches): iteration {{[0-9.]+}} ms modeled; layers 0..1 on {{.*}}; layers 1..2 on {{.*}}; layers 2..3 on
// The step is sliced: per stage a forward, a backward and an apply function carrying the
// stage's devices and logical mesh; each backward matmul sits in the stage of the forward
// matmul it transposes.
// One Shardy mesh per stage (its logical mesh); every op carries its stage's plan.
// IR: "sdy.mesh"() <{mesh = #sdy.mesh<["x"={{[0-9]+}}, "y"={{[0-9]+}}]>, sym_name = "stage0_mesh"}>
// IR: "sdy.mesh"() <{mesh = #sdy.mesh<["x"={{[0-9]+}}, "y"={{[0-9]+}}]>, sym_name = "stage1_mesh"}>
// IR: "sdy.mesh"() <{mesh = #sdy.mesh<["x"={{[0-9]+}}, "y"={{[0-9]+}}]>, sym_name = "stage2_mesh"}>
// IR-LABEL: func.func private @stage0_forward(%arg0: tensor<32x256xf32>
// IR-SAME: attributes {alpa.devices = array<i64: {{[0-9, ]+}}>, alpa.logical_mesh = array<i64: {{[0-9]+}}, {{[0-9]+}}>, alpa.stage = 0 : i64}
// IR-COUNT-2: "stablehlo.dot_general"{{.*}}alpa.layer = 0 : i64, alpa.phase = "forward", alpa.stage = 0 : i64, sdy.sharding = #sdy.sharding_per_value<[<@stage0_mesh
// IR-LABEL: func.func private @stage1_forward(
// IR-COUNT-2: "stablehlo.dot_general"{{.*}}alpa.layer = 1 : i64, alpa.phase = "forward", alpa.stage = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@stage1_mesh
// IR-LABEL: func.func private @stage2_forward(
// IR-COUNT-2: "stablehlo.dot_general"{{.*}}alpa.layer = 2 : i64, alpa.phase = "forward", alpa.stage = 2 : i64, sdy.sharding = #sdy.sharding_per_value<[<@stage2_mesh
// IR-LABEL: func.func private @stage0_backward(
// IR-COUNT-3: "stablehlo.dot_general"{{.*}}alpa.layer = 0 : i64, alpa.phase = "backward", alpa.stage = 0 : i64, sdy.sharding = #sdy.sharding_per_value<[<@stage0_mesh
// IR-LABEL: func.func private @stage1_backward(
// IR-COUNT-4: "stablehlo.dot_general"{{.*}}alpa.layer = 1 : i64, alpa.phase = "backward", alpa.stage = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@stage1_mesh
// IR-LABEL: func.func private @stage2_backward(
// IR-COUNT-4: "stablehlo.dot_general"{{.*}}alpa.layer = 2 : i64, alpa.phase = "backward", alpa.stage = 2 : i64, sdy.sharding = #sdy.sharding_per_value<[<@stage2_mesh
// Adam's update runs once per iteration, in the apply functions.
// IR-LABEL: func.func private @stage0_apply(
// IR-NOT: "stablehlo.dot_general"
// IR: "stablehlo.sqrt"{{.*}}alpa.phase = "update", alpa.stage = 0 : i64
// IR-LABEL: func.func private @stage2_apply(
// The entry takes the global batch (4 x 32 rows), slices it into microbatches, runs the 1F1B
// schedule (stage 0 warms up with two forwards), marks values crossing stages, averages the
// gradients and applies once.
// IR-LABEL: func.func public @main(
// IR-SAME: %arg37: tensor<128x256xf32>, %arg38: tensor<128x256xf32>)
// IR-SAME: attributes {alpa.microbatches = 4 : i64, alpa.pipeline = [{devices = array<i64: {{[0-9, ]+}}>, latency = {{.*}}, layers = array<i64: 0, 1>, logical_mesh = array<i64: {{.*}}>, submesh = array<i64: {{.*}}>}, {{{.*}}layers = array<i64: 1, 2>{{.*}}}, {{{.*}}layers = array<i64: 2, 3>{{.*}}}]
// IR-COUNT-4: "stablehlo.slice"(%arg37)
// IR: call @stage0_forward
// IR: "alpa.transfer"({{.*}}) {dst_devices = array<i64: {{[0-9, ]+}}>, dst_logical_mesh = array<i64: {{.*}}>, dst_sharding = #sdy.sharding<@stage1_mesh, [{{.*}}]>, dst_stage = 1 : i64, src_devices = array<i64: {{[0-9, ]+}}>, src_logical_mesh = array<i64: {{.*}}>, src_sharding = #sdy.sharding<@stage0_mesh, [{{.*}}]>, src_stage = 0 : i64}
// IR: call @stage0_forward
// IR: call @stage1_forward
// IR: call @stage0_forward
// IR: call @stage1_forward
// IR: call @stage2_forward
// IR: call @stage2_backward
// IR: "stablehlo.divide"
// IR: call @stage0_apply
// IR: call @stage1_apply
// IR: call @stage2_apply
// IR: return
// JSON: "stages": [
// JSON: "layers": [
// JSON-NEXT: 0,
// JSON-NEXT: 1
// JSON: "iteration_time":
// JSON: "baselines": [
// JSON: "name": "equal-operator"
// JSON: "name": "equal-layer"
// JSON: "name": "intra-op only"
// JSON: "name": "inter-op only"
// JSON: "name": "best Megatron"
// HTML-COUNT-8: <td class="dev stage-{{[0-2]}} c{{[0-2]}}" data-device="{{[0-7]}}" data-stage="{{[0-2]}}"
// HTML-NOT: class="dev idle"
