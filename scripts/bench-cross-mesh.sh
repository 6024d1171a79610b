#!/usr/bin/env bash
# Benchmark: modeled time of the cross-mesh transfers at every stage boundary of a pipelined
# plan, per mode (send-recv, local all-gather, broadcast) beside the lower bound (bytes that
# must cross hosts over the hosts' links), paper §6 / Fig. 9 and Zhuang et al. (MLSys'23).
# Each model is planned once with `alpa-auto-shard ... lower-transfers=false` (stages,
# submeshes and every stage's shardings), then `alpa-cross-mesh-resharding` plans every
# transfer in each mode and writes its report; the table sums, per pair of stages and
# iteration (all microbatches), the modeled seconds of the transfers between them, both ways.
#
# Usage: scripts/bench-cross-mesh.sh [step.mlir ...]
#   (default: lit-tests/inputs/wresnet_pipeline.mlir and gpt_pipeline.mlir)
# Environment: CLUSTER (p3.16xlarge-x4: 32 V100s on 4 hosts), MICROBATCHES (16), EXTRA (more
# alpa-auto-shard options).
set -euo pipefail
cd "$(dirname "$0")/.."
py="${PYTHON:-.venv/bin/python}"
[ -x "$py" ] || scripts/setup.sh
cargo build --release --locked >&2
opt=target/release/alpa-opt
cluster="${CLUSTER:-p3.16xlarge-x4}"
microbatches="${MICROBATCHES:-16}"
out=target/bench/cross-mesh
mkdir -p "$out"
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(lit-tests/inputs/wresnet_pipeline.mlir lit-tests/inputs/gpt_pipeline.mlir)

for step in "${steps[@]}"; do
  name="$(basename "$step" .mlir)"
  echo "bench-cross-mesh: planning $name on $cluster, $microbatches microbatches" >&2
  "$opt" "$step" --alpa-auto-shard="cluster=$cluster microbatches=$microbatches lower-transfers=false baselines=false ${EXTRA:-}" \
    -o "$out/$name.staged.mlir" 2> "$out/$name.plan.log"
  grep -o 'remark: alpa-auto-shard: [0-9]* stages.*' "$out/$name.plan.log" | cut -c1-400 >&2 || true
  for mode in send-recv local-all-gather broadcast; do
    "$opt" "$out/$name.staged.mlir" --alpa-cross-mesh-resharding="cluster=$cluster mode=$mode report=$out/$name.$mode.json" -o /dev/null
  done
done

"$py" - "$out" "$microbatches" "$cluster" "${steps[@]}" <<'PY'
import json, os, sys
out, microbatches, cluster, steps = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
modes = ["send-recv", "local-all-gather", "broadcast"]
print(f"Modeled cross-mesh transfer time per pair of stages and iteration ({microbatches} microbatches) on {cluster}, both directions (ms)\n")
print("| model | stages | transfers | MB across hosts: send-recv / local all-gather / broadcast | send-recv | local all-gather | broadcast | lower bound | send-recv / local all-gather |")
print("| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
for step in steps:
    name = os.path.splitext(os.path.basename(step))[0]
    reports = {m: json.load(open(os.path.join(out, f"{name}.{m}.json"))) for m in modes}
    pairs = {}
    for m in modes:
        for t in reports[m]:
            key = tuple(sorted((t["src_stage"], t["dst_stage"])))
            row = pairs.setdefault(key, {"count": 0, "lb": 0.0, **{x: 0.0 for x in modes}, "bytes": {x: 0 for x in modes}})
            row[m] += t["seconds"]
            row["bytes"][m] += t["bytes_across_hosts"]
            if m == modes[0]:
                row["count"] += 1
                row["lb"] += t["lower_bound_seconds"]
    if not pairs:
        print(f"| {name} | (one stage: no transfers) | | | | | | | |")
    for (a, b), row in sorted(pairs.items()):
        ms = lambda s: f"{1e3 * s:.2f}"
        mb = " / ".join(f"{row['bytes'][m] / 1e6:.1f}" for m in modes)
        ratio = row["send-recv"] / row["local-all-gather"] if row["local-all-gather"] > 0 else float("nan")
        print(f"| {name} | {a} <-> {b} | {row['count']} | {mb} | {ms(row['send-recv'])} | {ms(row['local-all-gather'])} "
              f"| {ms(row['broadcast'])} | {ms(row['lb'])} | {ratio:.2f}x |")
PY
