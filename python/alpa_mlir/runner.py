"""The runner: run a StableHLO module (any op form) with XLA on virtual CPU devices.

* compiles the module on N devices (``num_partitions = N`` with the SPMD
  partitioner: GSPMD for ``mhlo.sharding`` annotations, Shardy when the module
  carries ``sdy`` attributes) and on one device (sharding annotations
  stripped);
* feeds both identical seeded random inputs (integers in the range recorded by
  the export's ``alpa.input_int_bound``, floats small, non-negative where the
  export said ``alpa.input_nonnegative`` or where :mod:`alpa_mlir.input_domains`
  finds an optimizer's second moment: by name, or flowing into ``sqrt``);
* compares the outputs, and the change of each value updated in place (a
  donated argument aliased to a result: a wrong gradient hides within the
  tolerance on the new value), optionally also against a ``--reference`` module
  run on one device (e.g. the module before an ``alpa-opt`` rewrite); a NaN or
  inf where the other side has none (or a different one) is a mismatch;
* lists the collectives in XLA's optimized HLO of the N-device executable.

Command line::

    python -m alpa_mlir.run MODULE.mlir --devices 8 [--reference ORIG.mlir] --json

Exit status 0 when every comparison matched, 1 when one did not, 2 on a usage
or compilation error or when XLA crashed: the CLI compiles and runs in a child
process, so a crash (a signal) is reported as an error, not as a dead runner.
The CLI sets
``XLA_FLAGS=--xla_force_host_platform_device_count=8`` (or more, for
``--devices``) before JAX is imported when the variable does not already ask
for a device count. Library users must do that themselves before importing
JAX; :func:`alpa_mlir.xla_exec.ensure_host_devices` helps.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, Sequence

from .hlo import list_collectives, summarize_collectives
from .input_domains import make_inputs
from .module_info import parse_module
from .numerics import compare_results, mismatched_updates, update_tolerance
from .xla_exec import (choose_partitioner, compile_module, ensure_host_devices, execute,
                       run_on_one_device)


def run(module_text: str, devices: int | None = None, reference_text: str | None = None,
        seed: int = 0, rtol: float | None = None, atol: float | None = None,
        default_int_bound: int = 2, with_hlo: bool = False,
        partitioner: str = "auto", progress=None, update_rtol: float | None = None) -> dict:
    """Run ``module_text`` on ``devices`` partitions and on one device (and the
    reference on one device); return a JSON-able report. The raw outputs are
    under the key ``_results`` (dropped by the CLI). ``progress(stage)`` is
    called before each compilation and execution. Each value the module updates
    in place is also compared by its change (numerics.compare_updates), within
    ``update_rtol`` (default from the type the module computes in)."""
    stage = progress or (lambda _: None)
    info = parse_module(module_text)
    part = choose_partitioner(info, partitioner)
    n = devices if devices is not None else max(info.num_partitions, 1)
    if info.num_partitions > 1 and n != info.num_partitions:
        raise ValueError(f"module is partitioned for {info.num_partitions} devices, "
                         f"--devices {n} asked")
    inputs = make_inputs(info.inputs, seed, default_int_bound)
    report: dict[str, Any] = {
        "devices": n,
        "num_partitions_attr": info.num_partitions,
        "partitioner": part if n > 1 else "none",
        "sharding_annotations": info.sharded,
        "inputs": [{"index": i, "type": s.describe(),
                    **({"int_bound": s.int_bound} if s.int_bound is not None else {}),
                    **({"nonnegative": s.nonnegative_reason} if s.nonnegative else {}),
                    **({"donated": True} if i in info.donated else {})}
                   for i, s in enumerate(info.inputs)],
        "outputs": [{"index": i, "type": s.describe()} for i, s in enumerate(info.outputs)],
        "comparisons": [],
    }

    if update_rtol is None:
        update_rtol = update_tolerance(info)
    results: dict[str, list] = {}

    def compare(lhs: str, rhs: str) -> dict:
        return {"lhs": lhs, "rhs": rhs, **compare_results(results[lhs], results[rhs], inputs,
                                                          info.aliases, rtol, atol, update_rtol)}

    out_shapes = [o.shape for o in info.outputs]
    stage("compiling and running the module on 1 device")
    results["module@1"] = run_on_one_device(info, inputs)
    if n > 1:
        stage(f"compiling the module for {n} devices ({part})")
        comp = compile_module(info.module, n, shardy=(part == "shardy"))
        stage(f"running the module on {n} devices")
        results[f"module@{n}"] = execute(comp, inputs, out_shapes)
        hlo = comp.hlo_text()
        colls = list_collectives(hlo)
        report["collectives"] = colls
        report["collective_summary"] = summarize_collectives(colls)
        if with_hlo:
            report["hlo"] = hlo
        report["comparisons"].append(compare(f"module@{n}", "module@1"))
    if reference_text is not None:
        ref = parse_module(reference_text)
        if [s.describe() for s in ref.inputs] != [s.describe() for s in info.inputs]:
            raise ValueError("reference module takes different arguments: "
                             f"{[s.describe() for s in ref.inputs]} vs "
                             f"{[s.describe() for s in info.inputs]}")
        stage("compiling and running the reference on 1 device")
        results["reference@1"] = run_on_one_device(ref, inputs)
        for lhs in [k for k in results if k.startswith("module@")]:
            report["comparisons"].append(compare(lhs, "reference@1"))
    report["ok"] = all(c["match"] for c in report["comparisons"])
    report["_results"] = results
    return report


_STAGE_PREFIX = "alpa_mlir.run stage: "
_IN_CHILD_FLAG = "--in-process"


def child_command(argv: Sequence[str]) -> list[str]:
    """The command that runs ``argv`` in a child Python process."""
    return [sys.executable, "-m", "alpa_mlir.run", *argv, _IN_CHILD_FLAG]


def run_in_child(cmd: Sequence[str], as_json: bool) -> int:
    """Runs ``cmd`` (a runner that compiles and executes with XLA), passing its
    output through; a child killed by a signal (an XLA crash: SIGSEGV,
    SIGABRT from a failed check) is reported as an error with exit status 2,
    naming the stage it was in."""
    import signal
    import subprocess

    env = dict(os.environ)
    pkg_root = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (pkg_root, env.get("PYTHONPATH")) if p)
    r = subprocess.run(list(cmd), capture_output=True, text=True, env=env)
    stages = [line[len(_STAGE_PREFIX):] for line in r.stderr.splitlines()
              if line.startswith(_STAGE_PREFIX)]
    other_err = "\n".join(line for line in r.stderr.splitlines()
                          if not line.startswith(_STAGE_PREFIX))
    if r.returncode >= 0:
        sys.stdout.write(r.stdout)
        if other_err:
            print(other_err, file=sys.stderr)
        return r.returncode
    try:
        sig = signal.Signals(-r.returncode).name
    except ValueError:
        sig = f"signal {-r.returncode}"
    where = f" while {stages[-1]}" if stages else ""
    msg = f"XLA crashed: the runner process died of {sig}{where}"
    tail = other_err.strip()[-2000:]
    if as_json:
        print(json.dumps({"ok": False, "error": msg, "crash": {"signal": sig, "stage": stages[-1]
                                                                if stages else None,
                                                                "stderr_tail": tail}}, indent=1))
    else:
        print(f"error: {msg}" + (f"\n{tail}" if tail else ""), file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    a = _argument_parser().parse_args(argv)  # usage errors are reported here, not by the child
    if a.in_process:
        return _main_in_process(a)
    return run_in_child(child_command(argv), a.json)


def _argument_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m alpa_mlir.run",
        description="Compile a StableHLO module with XLA on N virtual CPU devices and on "
                    "one device, compare outputs, list collectives.")
    p.add_argument("module", help="module text (.mlir, generic or pretty form)")
    p.add_argument("--devices", type=int, default=None,
                   help="partitions for the SPMD run (default: the module's mhlo.num_partitions)")
    p.add_argument("--reference", help="a second module run on one device and compared")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rtol", type=float)
    p.add_argument("--atol", type=float)
    p.add_argument("--update-rtol", type=float, dest="update_rtol",
                   help="tolerance of each in-place update's change, relative to its largest "
                        "change (default 1e-3, wider for bf16 or f16 compute)")
    p.add_argument("--int-bound", type=int, default=2, dest="int_bound",
                   help="upper bound for integer inputs without alpa.input_int_bound (default 2)")
    p.add_argument("--partitioner", choices=("auto", "shardy", "gspmd"), default="auto",
                   help="SPMD partitioner for the N-device run (auto: shardy for sdy "
                        "annotations or none, gspmd for mhlo.sharding)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--hlo", action="store_true", help="include XLA's optimized HLO in the report")
    p.add_argument(_IN_CHILD_FLAG, action="store_true", dest="in_process",
                   help="compile and run in this process (an XLA crash then kills the runner "
                        "without a report)")
    return p


def _main_in_process(a: argparse.Namespace) -> int:
    ensure_host_devices(max(8, a.devices or 0))
    try:
        report = run(Path(a.module).read_text(), a.devices,
                     Path(a.reference).read_text() if a.reference else None,
                     a.seed, a.rtol, a.atol, a.int_bound, a.hlo, a.partitioner,
                     progress=lambda s: print(_STAGE_PREFIX + s, file=sys.stderr, flush=True),
                     update_rtol=a.update_rtol)
    except Exception as e:  # noqa: BLE001 - report as a clean CLI error
        msg = f"{type(e).__name__}: {e}"
        if a.json:
            print(json.dumps({"ok": False, "error": msg}, indent=1))
        else:
            print(f"error: {msg}", file=sys.stderr)
        return 2
    report.pop("_results", None)
    report["module"] = a.module
    if a.reference:
        report["reference"] = a.reference
    if a.json:
        print(json.dumps(report, indent=1))
    else:
        _print_human(report)
    return 0 if report["ok"] else 1


def _print_human(r: dict) -> None:
    print(f"{r['module']}: {len(r['inputs'])} inputs, {len(r['outputs'])} outputs, "
          f"{r['devices']} device(s), partitioner {r['partitioner']}")
    for c in r["comparisons"]:
        worst = max((o.get("max_abs_err", 0.0) for o in c["outputs"]), default=0.0)
        state = "exact" if c.get("exact") else ("match" if c["match"] else "MISMATCH")
        print(f"  {c['lhs']} vs {c['rhs']}: {state} (max abs err {worst:.3g})")
        for o in c["outputs"]:
            if not o["match"]:
                print(f"    output {o['index']}: {o}")
            elif o.get("nonfinite"):
                print(f"    output {o['index']}: {o['nonfinite']} NaN/inf value(s), "
                      "the same on both sides")
        for line in mismatched_updates(c["updates"]):
            print(f"    {line}")
    if "collectives" in r:
        print(f"  collectives: {len(r['collectives'])}")
        for c in r["collectives"]:
            print(f"    {c['kind']:<20} {c['bytes']:>12} B  {c['result_shapes']}  "
                  f"groups={c['replica_groups']}")
    print("OK" if r["ok"] else "FAILED")


if __name__ == "__main__":
    sys.exit(main())
