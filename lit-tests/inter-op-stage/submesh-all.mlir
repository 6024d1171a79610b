// submesh-shapes=all yields placed plans: only shapes that tile the hosts in any combination
// enter the DP (one run per chain of widths), so 2x3 + 1x2 on two hosts of 4 is never chosen.
// RUN: alpa-opt --alpa-inline --alpa-inter-op-stage="cluster=%inputs/cluster-2xa100.json microbatches=4 layers=4 submesh-shapes=all" %inputs/mlp.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=FOUR
// RUN: alpa-opt --alpa-inline --alpa-inter-op-stage="cluster=%S/Inputs/cluster-2x6.json microbatches=4 layers=4 submesh-shapes=all" %inputs/mlp.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIX
// The equal-operator baseline plans a table of its own and says so; baselines=false skips it.
// RUN: alpa-opt --alpa-inline --alpa-inter-op-stage="cluster=%inputs/cluster-2xa100.json microbatches=4 layers=4 submesh-shapes=all baselines=false" %inputs/mlp.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOBASE

// FOUR: cost table: 40 (range, submesh) pairs
// FOUR: equal-operator baseline: planning its own cost table (4 layers of equal op count, at most 120 s: baseline-time-limit; baselines=false skips it)
// FOUR-NEXT: cost table: {{[0-9]+}} (range, submesh) pairs
// FOUR: remark: alpa-inter-op-stage: {{[0-9]+}} stages over 4 layers on two-a100-hosts
// FOUR-SAME: devices 0..=
// SIX: cost table: 50 (range, submesh) pairs
// NOBASE: cost table: 40 (range, submesh) pairs
// NOBASE-NOT: equal-operator baseline
// NOBASE: remark: alpa-inter-op-stage: {{[0-9]+}} stages over 4 layers on two-a100-hosts
// SIX: remark: alpa-inter-op-stage: {{[0-9]+}} stages over 4 layers on two-hosts-of-six
// SIX-SAME: on 1x3
