#!/usr/bin/env bash
# The main job on the bundled example: a GPT train step exported from JAX, read end to end
# (inlined, every op looked up in the op table and costed), with the paper's cluster preset.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cargo build --release --locked
mkdir -p target/example
./target/release/alpa-opt lit-tests/inputs/gpt_tiny.mlir \
  --alpa-inline --alpa-annotate-costs="cluster=p3.16xlarge-x8" \
  -o target/example/gpt_tiny.costs.mlir
echo "annotated module: target/example/gpt_tiny.costs.mlir" >&2

# Then an intra-op plan for one p3.16xlarge host (1 x 8 V100 on NVLink).
./target/release/alpa-opt lit-tests/inputs/gpt_tiny.mlir \
  --alpa-inline --alpa-intra-op-shard="mesh=1x8 cluster=p3.16xlarge-x8 report=target/example/gpt_tiny.plan.json" \
  -o target/example/gpt_tiny.sharded.mlir
python3 - <<'PY' >&2
import json
r = json.load(open("target/example/gpt_tiny.plan.json"))
kinds = {}
for c in r["collectives"]:
    kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
print(f"intra-op plan on mesh {r['mesh']['shape']}: modeled communication {r['objective']:.6g} s, "
      f"{r['ops_before_merging']} -> {r['ops_after_merging']} ILP nodes after merging, "
      f"solver {r['solver']['status']} in {r['solver']['seconds']:.2f} s, collectives {kinds}")
PY
echo "sharded module: target/example/gpt_tiny.sharded.mlir (report: target/example/gpt_tiny.plan.json)" >&2
