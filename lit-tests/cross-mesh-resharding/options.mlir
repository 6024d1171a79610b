// RUN: not alpa-opt %s --alpa-cross-mesh-resharding 2>&1 | FileCheck %s --check-prefix=CLUSTER
// RUN: not alpa-opt %s --alpa-cross-mesh-resharding="cluster=p3.16xlarge-x2 mode=fastest" 2>&1 | FileCheck %s --check-prefix=MODE
// CLUSTER: error: alpa-cross-mesh-resharding: option 'cluster' is required
// MODE: error: alpa-cross-mesh-resharding: mode must be send-recv, local-all-gather, broadcast or auto, got 'fastest'
module {
}
