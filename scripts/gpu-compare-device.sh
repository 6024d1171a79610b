#!/usr/bin/env bash
# Modeled against measured stage latency (issue 12), step 2 of 3, on the GPU machine, in a copy
# of the repository with target/gpu-compare carried (scripts/gpu-compare-prepare.sh made it):
# measures the GPU with alpa-calibrate (a cluster file), then times every planned stage with XLA
# (python -m alpa_mlir.stage_timing; the image's python3 has jax with its CUDA plugin). Writes
# to $OUT (the device tool's folder) or target/gpu-compare/out:
#   measured.json   the cluster file alpa-calibrate wrote (absent without a GPU), with XLA's
#                   overheads added by python -m alpa_mlir.xla_overheads
#   calibrate.log   their progress and summaries
#   timings.json    per stage: modeled and measured seconds, per program min and median
#   timings.txt     the same as a table, with the ranking of modeled against measured
#   timing.log      the timing's progress; nvidia-smi.txt the GPU and driver
# Without a GPU alpa-calibrate says so (exit 2) and the stages are timed on the CPU: a dry run
# of the mechanics, not a measurement.
#
# Usage (device tool): run command `bash scripts/gpu-compare-device.sh`, carry target/gpu-compare.
# Environment: PYTHON (python3), ITERATIONS (10), WARMUP (2), TIME_LIMIT (330: seconds after
# which no further stage is started), CASES (every planned case, in cases.tsv's order),
# COMPILE_WORKERS (8: XLA compilations at a time), CALIBRATE_LIMIT (180: seconds for
# alpa-calibrate, 0: no calibration; with TIME_LIMIT's 330 the run fits one 10-minute device call),
# PROFILE (1: each program once more under JAX's profiler, its time per XLA op in timings.json).
set -uo pipefail
cd "$(dirname "$0")/.."
in=target/gpu-compare
out="${OUT:-$in/out}"
py="${PYTHON:-python3}"
mkdir -p "$out"
[ -x "$in/alpa-calibrate" ] || { echo "gpu-compare-device: no $in/alpa-calibrate: run scripts/gpu-compare-prepare.sh and carry $in" >&2; exit 1; }

# cudarc loads libcublas.so, libcublas.so.12, libnccl.so, ...: CUDA 13 ships libcublas.so.13 and
# NCCL libnccl.so.2, so link the newest of each (by file name) under the plain name; cuBLAS's
# own libcublasLt comes from its directory, which goes on the path.
newest() { find /usr /opt -name "$1.so.[0-9]*" 2>/dev/null | awk -F/ '{print $NF "\t" $0}' | sort -V | tail -1 | cut -f2; }
links="$(mktemp -d)"
dirs=""
for lib in libcublas libnccl; do
  found="$(newest "$lib")"
  if [ -n "$found" ]; then
    ln -sf "$found" "$links/$lib.so"
    dirs="$dirs:$(dirname "$found")"
    echo "gpu-compare-device: $lib.so -> $found" >&2
  fi
done
export LD_LIBRARY_PATH="$links$dirs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

nvidia-smi > "$out/nvidia-smi.txt" 2>&1 || echo "no nvidia-smi" > "$out/nvidia-smi.txt"
start=$SECONDS
if [ "${CALIBRATE_LIMIT:-180}" = 0 ]; then
  echo "gpu-compare-device: CALIBRATE_LIMIT=0: no calibration, only the stage timing" >&2
else
  timeout "${CALIBRATE_LIMIT:-180}" "$in/alpa-calibrate" -o "$out/measured.json" 2> "$out/calibrate.log"
  rc=$?
  tail -n 30 "$out/calibrate.log" >&2
  case $rc in
    0) echo "gpu-compare-device: alpa-calibrate took $((SECONDS - start)) s" >&2
       # XLA's own overheads (program dispatch, kernel launch) through the stage timing's runtime.
       PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}" XLA_PYTHON_CLIENT_PREALLOCATE=false \
         "$py" -m alpa_mlir.xla_overheads "$out/measured.json" 2>> "$out/calibrate.log" | tee -a "$out/calibrate.log" >&2 \
         || echo "gpu-compare-device: xla_overheads failed; measured.json has no XLA overheads" >&2 ;;
    2) echo "gpu-compare-device: no GPU: the stages are timed on the CPU (a dry run)" >&2 ;;
    *) echo "gpu-compare-device: alpa-calibrate failed ($rc); timing the stages anyway" >&2 ;;
  esac
fi

modules=()
for name in ${CASES:-$(tail -n +2 "$in/cases/cases.tsv" | cut -f1)}; do
  modules+=("$in/cases/$name.planned.mlir")
done
start=$SECONDS
set -o pipefail
PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}" XLA_PYTHON_CLIENT_PREALLOCATE=false PYTHONUNBUFFERED=1 \
  "$py" -m alpa_mlir.stage_timing "${modules[@]}" --devices 1 --warmup "${WARMUP:-2}" \
  --iterations "${ITERATIONS:-10}" --compile-workers "${COMPILE_WORKERS:-8}" --time-limit "${TIME_LIMIT:-330}" ${PROFILE:+--profile} --json "$out/timings.json" 2> "$out/timing.log" | tee "$out/timings.txt"
timing=$?
tail -n 5 "$out/timing.log" >&2
echo "gpu-compare-device: stage timing took $((SECONDS - start)) s (exit $timing)" >&2
exit $timing
