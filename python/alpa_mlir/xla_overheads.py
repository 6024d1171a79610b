"""The fixed costs of running XLA programs, for the ``measured.xla`` section of a cluster file.

A small stage measured on a GPU takes far longer than its FLOPs and bytes say: every XLA
program costs a dispatch (the call until its results are ready) and every kernel a least time
(its launch and the gap to the next). Both are measured here through the path the stage timing
(``alpa_mlir.stage_timing``) takes: StableHLO text parsed and compiled with
``compile_module``, inputs placed on the device with ``_device_inputs``, and synchronized runs
timed by ``timed_runs``, warmup runs first, the median kept.

The probe is a chain of ``steps`` steps XLA cannot fuse into one kernel (``x <- tanh(x -
mean(x))``: a reduction over the vector, then the vector shifted and squashed), compiled at two
lengths; XLA's optimized HLO says how many
kernels each launches. With times t and kernel counts k of the short and the long probe::

    kernel_launch_s    = (t_long - t_short) / (k_long - k_short)
    program_dispatch_s = max(0, t_short - k_short * kernel_launch_s)

    python -m alpa_mlir.xla_overheads CLUSTER.json [-o OUT.json] [--iterations N] [--warmup N]

measures on the first device of JAX's default backend and writes ``measured.xla`` into the
cluster file (in place unless ``-o``), every other field kept. Progress goes to stderr, a
summary line to stdout. Exit status 1 when the file cannot be read or the measurement fails.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Sequence

VECTOR = "tensor<1024xf32>"
SCALAR = "tensor<f32>"
DEFAULT_STEPS = (1, 64)
# Instructions that launch nothing: values already in place, views and bookkeeping. The
# second half of an asynchronous pair (``*-done``, ``async-update``) is the same kernel or
# copy as its ``*-start``.
NO_KERNEL = frozenset({"parameter", "constant", "tuple", "get-tuple-element", "bitcast",
                       "after-all", "add-dependency", "opt-barrier", "domain"})
_INSTRUCTION = re.compile(r"\s*(?:ROOT\s+)?%?[\w.\-]+\s*=\s*(.*)")
_COMPUTATION = re.compile(r"(ENTRY\s+)?%?([\w.\-]+)\s*\(.*\{\s*$")
_OPCODE = re.compile(r"([\w\-]+)\(")
_TO_APPLY = re.compile(r"\bto_apply=%?([\w.\-]+)")


class XlaOverheadsError(RuntimeError):
    """A probe could not be compiled or run, or the timings give no valid overheads."""


_STARTED = time.perf_counter()


def progress(msg: str) -> None:
    """A line on stderr with the seconds since the tool started, as the stage timing's."""
    print(f"[xla-overheads] {time.perf_counter() - _STARTED:7.1f}s {msg}", file=sys.stderr,
          flush=True)


# ------------------------------------------------------------------ the probe

def probe_module(steps: int) -> str:
    """StableHLO text of ``@main(x: tensor<1024xf32>)`` running ``steps`` dependent steps
    ``x <- tanh(x - mean(x))``. Each step's reduction needs all of the previous step's
    vector, so no two steps share a kernel; the tanh (expensive, to XLA) keeps a step from
    being recomputed inside the next one's kernels, so each kernel does the same small work
    however long the chain; and it keeps every value in [-1, 1]."""
    if steps < 1:
        raise ValueError(f"a probe needs at least 1 step, got {steps}")
    lines = ["module {",
             f"  func.func public @main(%arg0: {VECTOR}) -> {VECTOR} {{",
             f"    %zero = stablehlo.constant dense<0.0> : {SCALAR}",
             f"    %inv_n = stablehlo.constant dense<9.765625e-04> : {SCALAR}"]  # 1/1024
    x = "%arg0"
    for i in range(steps):
        lines += [
            f"    %sum{i} = stablehlo.reduce({x} init: %zero) applies stablehlo.add across "
            f"dimensions = [0] : ({VECTOR}, {SCALAR}) -> {SCALAR}",
            f"    %mean{i} = stablehlo.multiply %sum{i}, %inv_n : {SCALAR}",
            f"    %shift{i} = stablehlo.broadcast_in_dim %mean{i}, dims = [] : "
            f"({SCALAR}) -> {VECTOR}",
            f"    %centered{i} = stablehlo.subtract {x}, %shift{i} : {VECTOR}",
            f"    %x{i} = stablehlo.tanh %centered{i} : {VECTOR}"]
        x = f"%x{i}"
    lines += [f"    return {x} : {VECTOR}", "  }", "}"]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ counting kernels

def _opcode(rest: str) -> str | None:
    """The opcode of an instruction's text after ``name =``: past the shape (which may be a
    tuple with nested parentheses, layouts in braces and ``/*index=N*/`` comments), the word
    before the operands' parenthesis."""
    depth, i = 0, 0
    while i < len(rest):
        if rest.startswith("/*", i):
            end = rest.find("*/", i)
            i = len(rest) if end < 0 else end + 2
            continue
        c = rest[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c.isspace() and depth == 0:
            break
        i += 1
    m = _OPCODE.match(rest[i:].lstrip())
    return m.group(1) if m else None


def _computations(hlo_text: str) -> list[tuple[dict[str, list[tuple[str, str]]], list[str]]]:
    """Per HLO module of the text: computation name -> its instructions as (opcode, text),
    and the names of its ENTRY computations."""
    modules: list[tuple[dict, list]] = []
    comps, entries, current = {}, [], None
    for line in hlo_text.splitlines():
        if line.startswith("HloModule"):
            comps, entries, current = {}, [], None
            modules.append((comps, entries))
            continue
        if not modules:
            modules.append((comps, entries))
        head = _COMPUTATION.match(line) if line[:1] not in ("", " ", "\t", "}") else None
        if head:
            current = comps.setdefault(head.group(2), [])
            if head.group(1):
                entries.append(head.group(2))
        elif line.startswith("}"):
            current = None
        elif current is not None:
            m = _INSTRUCTION.match(line)
            opcode = _opcode(m.group(1)) if m else None
            if opcode:
                current.append((opcode, m.group(1)))
    return modules


def _count(comps: dict, name: str, callers: tuple[str, ...] = ()) -> int:
    """Kernels of computation ``name``, the computations it calls expanded."""
    if name in callers or name not in comps:
        raise ValueError(f"HLO computation {name} is missing or calls itself")
    n = 0
    for opcode, text in comps[name]:
        if opcode == "call" and (callee := _TO_APPLY.search(text)):
            n += _count(comps, callee.group(1), callers + (name,))
        elif not (opcode in NO_KERNEL or opcode.endswith("-done") or opcode == "async-update"):
            n += 1
    return n


def count_kernels(hlo_text: str) -> int:
    """Kernels the ENTRY computation(s) of optimized HLO text launch, once each.

    Every instruction counts but those of ``NO_KERNEL`` and the ``*-done``/``async-update``
    halves of asynchronous pairs. A ``call`` counts the instructions of the computation it
    calls: XLA's GPU compiler outlines runs of kernels into called ``command_buffer``
    computations (run as one CUDA graph, still one node per kernel). A fusion, custom-call,
    while or conditional counts as one (a loop's body is not counted per trip)."""
    return sum(_count(comps, entry) for comps, entries in _computations(hlo_text)
               for entry in entries)


def kernel_count(compiled) -> int:
    """Kernels an executable (``xla_exec.Compiled``) launches per run, from its optimized HLO."""
    return count_kernels(compiled.hlo_text())


# ------------------------------------------------------------------ measuring

def time_probe(steps: int, devices: list, warmup: int, iterations: int) -> dict:
    """Kernel count and median seconds of ``iterations`` synchronized runs of the probe of
    ``steps`` steps, compiled, fed and run as the stage timing runs a stage program."""
    from .module_info import parse_module
    from .stage_timing import _device_inputs, host_inputs, non_finite_outputs, timed_runs
    from .xla_exec import compile_module

    try:
        t0 = time.perf_counter()
        info = parse_module(probe_module(steps))
        compiled = compile_module(info.module, len(devices), shardy=True, devices=devices)
        compile_s = time.perf_counter() - t0
        kernels = kernel_count(compiled)
        progress(f"probe of {steps} step(s): compiled in {compile_s:.2f}s, {kernels} kernel(s); "
                 f"timing {warmup} warmup + {iterations} runs")
        args = _device_inputs(compiled, host_inputs(info.inputs, {}))
        times, outs = timed_runs(compiled, args, warmup, iterations)
    except Exception as e:  # noqa: BLE001 - reported with the probe's length
        raise XlaOverheadsError(f"probe of {steps} step(s) failed: {e}") from e
    bad = non_finite_outputs(outs)
    if bad:
        raise XlaOverheadsError(f"probe of {steps} step(s): non-finite results ({'; '.join(bad)})")
    median = statistics.median(times)
    progress(f"probe of {steps} step(s): median {median * 1e6:.1f} us, "
             f"min {min(times) * 1e6:.1f} us")
    return {"steps": steps, "kernels": kernels, "median_s": median, "min_s": min(times),
            "compile_s": compile_s}


def measure(devices: Sequence, iterations: int = 100, warmup: int = 10,
            steps: tuple[int, int] = DEFAULT_STEPS) -> dict:
    """``program_dispatch_s`` and ``kernel_launch_s`` on ``devices`` (one device: the
    overheads are per device), with the probes' raw numbers (``probes``: steps, kernels,
    median and minimum seconds). Raises XlaOverheadsError when the long probe launches no
    more kernels than the short one, or the timings give a non-finite or non-positive
    launch time: a calibration must not write a meaningless number."""
    if iterations < 1 or warmup < 0:
        raise ValueError(f"iterations must be >= 1 and warmup >= 0, got {iterations}, {warmup}")
    small_steps, large_steps = steps
    devices = list(devices)
    small = time_probe(small_steps, devices, warmup, iterations)
    large = time_probe(large_steps, devices, warmup, iterations)
    if large["kernels"] <= small["kernels"]:
        raise XlaOverheadsError(
            f"the probe of {large_steps} steps launches {large['kernels']} kernel(s), the probe "
            f"of {small_steps} {small['kernels']}: XLA fused the steps, the launch time cannot "
            "be told from the work")
    launch = (large["median_s"] - small["median_s"]) / (large["kernels"] - small["kernels"])
    dispatch = max(0.0, small["median_s"] - small["kernels"] * launch)
    if not (math.isfinite(launch) and math.isfinite(dispatch)):
        raise XlaOverheadsError(f"non-finite overheads: kernel launch {launch}, "
                                f"program dispatch {dispatch}")
    if launch <= 0:
        raise XlaOverheadsError(
            f"the probe of {large['kernels']} kernels ran no slower than the one of "
            f"{small['kernels']} ({large['median_s'] * 1e6:.1f} us against "
            f"{small['median_s'] * 1e6:.1f} us): too noisy, raise --iterations")
    return {"program_dispatch_s": dispatch, "kernel_launch_s": launch,
            "probes": [small, large], "iterations": iterations, "warmup": warmup}


# ------------------------------------------------------------------ the cluster file

def read_cluster(path: Path) -> dict:
    """The cluster file as a dict in its key order; ValueError when it is not a JSON object
    or its ``measured`` section is not one."""
    cluster = json.loads(Path(path).read_text())
    if not isinstance(cluster, dict):
        raise ValueError(f"{path}: a cluster file is a JSON object, got {type(cluster).__name__}")
    if not isinstance(cluster.get("measured", {}), dict):
        raise ValueError(f"{path}: \"measured\" is not a JSON object")
    return cluster


def runtime_label(device) -> str:
    """``jax 0.11.2, gpu (NVIDIA H200)``: what the overheads hold for."""
    import jax

    return f"jax {jax.__version__}, {jax.default_backend()} ({device.device_kind})"


def with_overheads(cluster: dict, result: dict, device) -> dict:
    """``cluster`` with ``measured.xla`` set from a :func:`measure` result (exactly the keys
    the Rust reader accepts); a file without a ``measured`` section gets one naming the
    device and its driver."""
    measured = cluster.get("measured")
    if measured is None:
        version = getattr(device.client, "platform_version", None)
        measured = {"gpu_name": device.device_kind,
                    "driver_version": version if isinstance(version, str) and version else
                    "unknown"}
    measured = {**measured, "xla": {"program_dispatch_s": result["program_dispatch_s"],
                                    "kernel_launch_s": result["kernel_launch_s"],
                                    "runtime": runtime_label(device)}}
    return {**cluster, "measured": measured}


def summary(result: dict, runtime: str) -> str:
    small, large = result["probes"]

    def probe(p: dict) -> str:
        kernels = f"{p['kernels']} kernel{'s' if p['kernels'] != 1 else ''}"
        return f"{kernels}: {p['median_s'] * 1e6:.1f} us"

    return (f"program dispatch {result['program_dispatch_s'] * 1e6:.1f} us, kernel launch "
            f"{result['kernel_launch_s'] * 1e6:.2f} us ({probe(small)}, {probe(large)}; "
            f"{runtime})")


# ------------------------------------------------------------------ command line

def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m alpa_mlir.xla_overheads",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("cluster", metavar="CLUSTER.json", help="cluster file (alpa-calibrate's)")
    p.add_argument("-o", "--output", metavar="OUT.json",
                   help="where to write the cluster file (default: CLUSTER.json in place)")
    p.add_argument("--iterations", type=int, default=100, help="timed runs of each probe")
    p.add_argument("--warmup", type=int, default=10, help="untimed runs of each probe first")
    a = p.parse_args(argv)
    if a.iterations < 1 or a.warmup < 0:
        p.error("--iterations must be >= 1, --warmup >= 0")
    try:
        cluster = read_cluster(Path(a.cluster))
    except (OSError, ValueError) as e:  # JSONDecodeError is a ValueError
        print(f"error: cannot read cluster file: {e}", file=sys.stderr)
        return 1

    import jax

    device = jax.devices()[0]
    runtime = runtime_label(device)
    progress(f"measuring on device {device.id} ({runtime})")
    try:
        result = measure([device], iterations=a.iterations, warmup=a.warmup)
    except (XlaOverheadsError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    out = Path(a.output or a.cluster)
    try:
        out.write_text(json.dumps(with_overheads(cluster, result, device), indent=2) + "\n")
    except OSError as e:
        print(f"error: cannot write {out}: {e}", file=sys.stderr)
        return 1
    progress(f"wrote measured.xla to {out}")
    print(summary(result, runtime))
    return 0


if __name__ == "__main__":
    sys.exit(main())
