"""Command line of the pipeline runtime (``python -m alpa_mlir.pipeline``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

import numpy as np


def _inputs(pipeline_inputs, seed: int, reference: str | None):
    from .input_domains import make_inputs
    from .module_info import parse_module

    specs = parse_module(Path(reference).read_text()).inputs if reference else pipeline_inputs
    return make_inputs(specs, seed=seed)


def compare_with_reference(outputs, inputs, reference: str, tolerances: dict | None = None) -> dict:
    """The outputs, and the change of each value updated in place, against the reference step
    run on one device (numerics.compare_step)."""
    from .module_info import parse_module
    from .numerics import compare_step
    from .xla_exec import run_on_one_device

    step = parse_module(Path(reference).read_text())
    return compare_step(step, inputs, outputs, run_on_one_device(step, inputs), tolerances)


def report(outputs, inputs, a, extra: dict) -> int:
    from .numerics import mismatched_outputs

    rep = {"outputs": [{"shape": list(o.shape), "dtype": str(o.dtype),
                        "sum": float(np.asarray(o, np.float64).sum())} for o in outputs], **extra}
    ok = True
    if a.reference:
        cmp = compare_with_reference(outputs, inputs, a.reference,
                                     {"rtol": a.rtol, "atol": a.atol,
                                      "update_rtol": a.update_rtol})
        rep["reference"] = {
            "match": cmp["match"], "exact": cmp["exact"],
            "mismatched": [r["index"] for r in cmp["outputs"] if not r["match"]],
            "updates_mismatched": [r["argument"] for r in cmp["updates"] if not r["match"]],
            "compute_type": cmp["compute_type"], "tolerances": cmp["tolerances"]}
        ok = cmp["match"]
        for line in mismatched_outputs(cmp):
            print(f"mismatch: {line}", file=sys.stderr)
    rep["ok"] = ok
    if a.json:
        print(json.dumps(rep, indent=1))
    else:
        print(f"{len(outputs)} outputs" + (f", reference: {'match' if ok else 'MISMATCH'}"
                                           if a.reference else ""))
    return 0 if ok else 1


def _add_common(p):
    p.add_argument("plan", help="lowered pipelined module (.mlir)")
    p.add_argument("--inputs", type=int, default=0, metavar="SEED",
                   help="seed of the random inputs (default 0)")
    p.add_argument("--reference", help="the step at global batch, run on one device and compared")
    p.add_argument("--rtol", type=float, help="relative tolerance of the results against "
                   "--reference (default from the type the step computes in: 2e-4 for f32)")
    p.add_argument("--atol", type=float, help="absolute tolerance of the results (2e-5 for f32)")
    p.add_argument("--update-rtol", type=float,
                   help="tolerance of each in-place update's change, relative to its largest "
                   "change in the reference (1e-3 for f32)")
    p.add_argument("--json", action="store_true")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m alpa_mlir.pipeline")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run on this process's virtual CPU devices")
    _add_common(r)
    r.add_argument("--devices", type=int, default=8)
    la = sub.add_parser("launch", help="run as several processes (jax.distributed, loopback)")
    _add_common(la)
    la.add_argument("--processes", type=int, default=2)
    la.add_argument("--devices-per-process", type=int, default=4)
    la.add_argument("--timeout", type=float, default=300.0)
    w = sub.add_parser("worker", help=argparse.SUPPRESS)
    _add_common(w)
    w.add_argument("--coordinator", required=True)
    w.add_argument("--process-id", type=int, required=True)
    w.add_argument("--processes", type=int, required=True)
    w.add_argument("--devices-per-process", type=int, required=True)
    w.add_argument("--out", required=True)
    a = p.parse_args(argv)
    try:
        if a.command == "run":
            return _run(a)
        if a.command == "launch":
            from .pipeline_launch import launch

            outputs, inputs = launch(a)
            return report(outputs, inputs, a,
                          {"processes": a.processes,
                           "devices_per_process": a.devices_per_process})
        from .pipeline_launch import worker

        return worker(a)
    except Exception as e:  # noqa: BLE001 - every failure is a clean non-zero exit
        msg = f"{type(e).__name__}: {e}"
        if getattr(a, "json", False):
            print(json.dumps({"ok": False, "error": msg}, indent=1))
        print(f"error: {msg}", file=sys.stderr)
        return 2


def _run(a) -> int:
    from .xla_exec import ensure_host_devices

    ensure_host_devices(a.devices)
    import jax

    from .pipeline import Pipeline

    devices = sorted(jax.devices(), key=lambda d: d.id)
    if len(devices) < a.devices:
        raise RuntimeError(f"XLA has {len(devices)} CPU devices, --devices {a.devices} asked")
    pipe = Pipeline(Path(a.plan).read_text(), devices[:a.devices], enable_x64=True)
    inputs = _inputs(pipe.module.inputs, a.inputs, a.reference)
    outputs = pipe.run(inputs)
    return report(outputs, inputs, a, {"devices": a.devices, **pipe.stats})
