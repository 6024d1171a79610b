// The same input and options give byte-identical output (annotations and report).
// RUN: alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=2x4 report=%t.a.json" %inputs/gpt_tiny.mlir -o %t.a.mlir
// RUN: alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=2x4 report=%t.b.json" %inputs/gpt_tiny.mlir -o %t.b.mlir
// RUN: diff %t.a.mlir %t.b.mlir
// RUN: grep -v '"seconds"' %t.a.json > %t.a.txt && grep -v '"seconds"' %t.b.json > %t.b.txt && diff %t.a.txt %t.b.txt
// RUN: alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=4x2 format=gspmd" %inputs/wresnet_tiny.mlir -o %t.c.mlir
// RUN: alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=4x2 format=gspmd" %inputs/wresnet_tiny.mlir -o %t.d.mlir
// RUN: diff %t.c.mlir %t.d.mlir
// RUN: FileCheck %s < %t.a.mlir
// CHECK: sdy.sharding_constraint
