"""Where a program's time goes, op by op: one run under JAX's profiler, its trace summed per
XLA op (a fusion, a cuBLAS call, a copy). On a GPU the device's own events are read (each
kernel as the GPU ran it, with the XLA op that launched it); on a CPU, the host threads' op
events. `stage_timing --profile` adds the result to each program's row.
"""

from __future__ import annotations

import gzip
import json
import tempfile
from pathlib import Path
from typing import Callable

DEVICE_PREFIX = "/device:"  # the trace's process name of an accelerator


def op_times(trace: dict, top: int | None = None) -> list[dict]:
    """Per op, how many events and their total seconds, longest first (ties by name), with the
    XLA op (``hlo_op``) that ran it. Device events when the trace has any, keyed by kernel
    name (an XLA op inside a command buffer, a CUDA graph, shows only as the buffer; its
    kernels keep their names); else host events, keyed by XLA op. ``end: ...`` markers are not
    ops."""
    processes = {e["pid"]: e.get("args", {}).get("name", "")
                 for e in trace.get("traceEvents", [])
                 if e.get("ph") == "M" and e.get("name") == "process_name"}
    spans = [e for e in trace.get("traceEvents", [])
             if e.get("ph") == "X" and "hlo_op" in e.get("args", {})
             and not str(e.get("name", "")).startswith("end: ")]
    on_device = [e for e in spans if processes.get(e.get("pid"), "").startswith(DEVICE_PREFIX)]
    totals: dict[str, list] = {}
    for e in on_device or spans:
        key = str(e.get("name")) if on_device else e["args"]["hlo_op"]
        entry = totals.setdefault(key, [0, 0.0, e["args"]["hlo_op"]])
        entry[0] += 1
        entry[1] += float(e.get("dur", 0.0)) * 1e-6  # trace times are microseconds
    rows = [{"op": op, "count": n, "total_s": s, "hlo_op": hlo} for op, (n, s, hlo) in totals.items()]
    rows.sort(key=lambda r: (-r["total_s"], r["op"]))
    return rows[:top] if top is not None else rows


def read_trace(log_dir: Path) -> dict:
    """The newest ``perfetto_trace.json.gz`` JAX wrote under ``log_dir``."""
    traces = sorted(Path(log_dir).glob("plugins/profile/*/perfetto_trace.json.gz"),
                    key=lambda p: p.stat().st_mtime)
    if not traces:
        raise FileNotFoundError(f"no perfetto_trace.json.gz under {log_dir}")
    with gzip.open(traces[-1], "rb") as f:
        return json.load(f)


def profile_ops(run: Callable[[], object], top: int = 20) -> dict:
    """Runs ``run`` (which must block until its results are ready) once under the profiler:
    the ``top`` ops by time, the total over all ops, and how many there were."""
    import jax

    with tempfile.TemporaryDirectory(prefix="alpa-profile-") as log_dir:
        with jax.profiler.trace(log_dir, create_perfetto_trace=True):
            run()
        ops = op_times(read_trace(Path(log_dir)))
    return {"ops_total_s": sum(o["total_s"] for o in ops), "ops_count": len(ops),
            "top_ops": ops[:top]}
