#!/usr/bin/env bash
# Benchmark: ILP size and solve time of alpa-intra-op-shard on GPT train steps exported from
# shapes (1.3B: hidden 2048, 24 layers; 39B: hidden 8192, 48 layers) on 2x4 and 8x8 meshes.
# Usage: scripts/bench-intra-op.sh [time-limit-seconds (default 60)]
set -euo pipefail
cd "$(dirname "$0")/.."
limit="${1:-60}"

scripts/setup.sh
cargo build --release --locked
mkdir -p target/bench
for preset in 1.3b 39b; do
  [ -s "target/bench/gpt-$preset.mlir" ] || \
    .venv/bin/python -m alpa_mlir.export gpt --preset "$preset" -o "target/bench/gpt-$preset.mlir"
done

printf '| model | mesh | ops | ILP nodes after merging | after exact preprocessing | MILP size | status | objective (abstract units) | solver seconds | pass seconds | peak memory |\n'
printf '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n'
for preset in 1.3b 39b; do
  for mesh in 2x4 8x8; do
    report="target/bench/intra-$preset-$mesh.json"
    log="target/bench/intra-$preset-$mesh.log"
    start=$(date +%s.%N)
    /usr/bin/time -f '%M' -o target/bench/rss ./target/release/alpa-opt "target/bench/gpt-$preset.mlir" \
      --alpa-inline --alpa-intra-op-shard="mesh=$mesh time-limit=$limit report=$report" -o /dev/null 2>"$log" || true
    end=$(date +%s.%N)
    python3 - "$report" "$preset" "$mesh" "$start" "$end" "$(cat target/bench/rss)" "$log" <<'PY'
import json, re, sys
path, preset, mesh, start, end, rss_kb, log = sys.argv[1:]
seconds = float(end) - float(start)
# The solver's progress line on stderr:
# "[intra] preprocess: A nodes / B edges -> C nodes / D edges (E strategies, F edge entries, ...)"
m = re.search(r"-> (\d+) nodes / \d+ edges \(\d+ strategies, (\d+) edge entries", open(log).read())
reduced = f"{int(m.group(1)):,} nodes, {int(m.group(2)):,} edge entries" if m else "not reported"
try:
    r = json.load(open(path))
except (OSError, ValueError):
    print(f"| GPT-{preset} | {mesh} | failed | | | | | | | {seconds:.1f} | |")
    sys.exit(0)
s = r["solver"]
size = f"{s['variables']:,} vars, {s['constraints']:,} cons" if s["variables"] else "search"
print(f"| GPT-{preset} | {mesh} | {r['ops_before_merging']:,} | {r['ops_after_merging']:,} | {reduced} | {size} | "
      f"{s['status']} | {r['objective']:.6g} | {s['seconds']:.1f} | {seconds:.1f} | {int(rss_kb) / 1024:.0f} MiB |")
PY
  done
done
