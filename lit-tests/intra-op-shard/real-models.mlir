// Plans on real JAX train steps that a person would recognise (checked in the JSON report, which
// names every op by its JAX location).
//
// GPT with few tokens per step on a 1x8 mesh: Megatron-style tensor parallelism. The QKV and
// first MLP projections are column-parallel, attention is split over heads, the output and
// second MLP projections are row-parallel with an all-reduce.
// RUN: alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=1x8 report=%t.gpt.json" %inputs/gpt_tiny.mlir -o /dev/null
// RUN: FileCheck %s --check-prefix=MEGATRON < %t.gpt.json
// MEGATRON: "location": "{{.*}}jvp(GPT)/h_0/attn/qkv/dot_general
// MEGATRON-NEXT: "strategy": "RRS1 = RRR x RS1"
// MEGATRON: "location": "{{.*}}jvp(GPT)/h_0/attn/bqhd,bkhd->bhqk/dot_general
// MEGATRON-NEXT: "strategy": "RRS1R = RS1RR x RRRR"
// MEGATRON: "location": "{{.*}}jvp(GPT)/h_0/attn/out/dot_general
// MEGATRON-NEXT: "strategy": "RRR = RRS1 x S1R @ allreduce{1}"
// MEGATRON: "location": "{{.*}}jvp(GPT)/h_0/ffn/fc_in/dot_general
// MEGATRON-NEXT: "strategy": "RRS1 = RRR x RS1"
// MEGATRON: "location": "{{.*}}jvp(GPT)/h_0/ffn/fc_out/dot_general
// MEGATRON-NEXT: "strategy": "RRR = RRS1 x S1R @ allreduce{1}"
//
// GPT with many tokens per step on an 8x1 mesh: data parallelism. The batch is split, every
// weight is replicated and only the gradients are all-reduced.
// RUN: alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=8x1 report=%t.dp.json" %inputs/gpt_batch.mlir -o %t.dp.mlir
// RUN: FileCheck %s --check-prefix=DATA < %t.dp.json
// RUN: FileCheck %s --check-prefix=DATA-IR < %t.dp.mlir
// DATA: "location": "{{.*}}jvp(GPT)/h_0/attn/qkv/dot_general
// DATA-NEXT: "strategy": "S0RR = S0RR x RR"
// DATA: "location": "{{.*}}jvp(GPT)/h_0/ffn/fc_out/dot_general
// DATA-NEXT: "strategy": "S0RR = S0RR x RR"
// DATA-IR: %arg3: tensor<64x192xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>
// DATA-IR: "stablehlo.dot_general"{{.*}}sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}]>]>{{.*}} -> tensor<64x64x192xf32>
//
// The MoE layer puts its experts on the mesh axis: the expert FFN einsums are split over e.
// RUN: alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=1x8 report=%t.moe.json" %inputs/moe_tiny.mlir -o /dev/null
// RUN: FileCheck %s --check-prefix=MOE < %t.moe.json
// MOE: "location": "{{.*}}jvp(GPT)/h_1/ffn/egcm,emh->egch/dot_general
// MOE-NEXT: "strategy": "S1RRR = S1RRR x S1RR"
// MOE: "location": "{{.*}}jvp(GPT)/h_1/ffn/egch,ehm->egcm/dot_general
// MOE-NEXT: "strategy": "S1RRR = S1RRR x S1RR"
