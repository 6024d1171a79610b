// `alpa-opt --help` shows every alpa pass option with its default (Passes.td's AlpaOption).
// RUN: alpa-opt --help | FileCheck %s
// The option lines under the alpa passes: there are some, and none lacks its default.
// RUN: alpa-opt --help | awk '/^      --alpa-/{p=1;next} /^      --/{p=0} p' | grep -c -- '--' | FileCheck %s --check-prefix=SOME
// RUN: alpa-opt --help | awk '/^      --alpa-/{p=1;next} /^      --/{p=0} p' | not grep -v '(default: '

// CHECK:      --alpa-inline
// CHECK-NEXT:   --entry=<string> {{.*}} (default: "main")
// CHECK:      --alpa-intra-op-shard
// CHECK:        --memory-budget=<string> {{.*}}(empty: unlimited) (default: "")
// CHECK:        --mesh=<string> {{.*}} (default: "")
// CHECK:        --time-limit=<number> {{.*}} (default: 60.0)
// SOME: {{[1-9][0-9]+}}
