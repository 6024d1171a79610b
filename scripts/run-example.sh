#!/usr/bin/env bash
# The main job on the bundled example: Alpa end to end (alpa-auto-shard) on a GPT train step
# exported from JAX at microbatch size (lit-tests/inputs/gpt_pipeline.mlir: 4 blocks, hidden
# 1024, 16 sequences of 512 tokens per microbatch), for two p3.16xlarge hosts (16 V100s) and
# 16 microbatches: 4 layers, the stage-mesh DP over intra-op plans, stage functions with their
# shardings, the 1F1B schedule in @main. Prints the plan; writes the module and the reports.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cargo build --release --locked
out=target/example
mkdir -p "$out"
name=gpt_pipeline
start=$SECONDS
./target/release/alpa-opt "lit-tests/inputs/$name.mlir" \
  --alpa-auto-shard="cluster=p3.16xlarge-x2 microbatches=16 layers=4 report=$out/$name.plan.json report-html=$out/$name.plan.html" \
  -o "$out/$name.pipelined.mlir" 2> "$out/$name.log" || { cat "$out/$name.log" >&2; exit 1; }
grep -v '^\[' "$out/$name.log" >&2 || true
python3 - "$out/$name.plan.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
c = r["cluster"]
print(f"cluster {c['name']}: {c['hosts']} x {c['devices_per_host']} devices; "
      f"{r['options']['microbatches']} microbatches; modeled iteration {r['iteration_time'] * 1e3:.4f} ms")
print(f"{'stage':>5}  {'layers':>7}  {'submesh':>7}  {'logical':>7}  {'devices':<16} {'latency ms':>10}  {'memory MiB':>10}")
for s in r["stages"]:
    lo, hi = s["layers"]
    sub = f"{s['submesh']['hosts']}x{s['submesh']['devices_per_host']}"
    log = "x".join(map(str, s["logical_mesh"]))
    devs = ",".join(map(str, s["devices"]))
    print(f"{s['index']:>5}  {lo:>3}..{hi:<3}  {sub:>7}  {log:>7}  {devs:<16} {s['latency'] * 1e3:>10.4f}  {s['memory'] / 2**20:>10.1f}")
for b in r["baselines"]:
    t = str(b["status"]).replace("_", " ") if b["iteration_time"] is None else f"{b['iteration_time'] * 1e3:.4f} ms"
    print(f"baseline {b['name']}: {t}")
PY
echo "planned in $((SECONDS - start)) s" >&2
echo "module: $out/$name.pipelined.mlir; reports: $out/$name.plan.json, $out/$name.plan.html (progress log: $out/$name.log)" >&2
