"""Check an ``alpa-intra-op-shard`` plan on XLA: numerics and collectives.

For one fixture (or any module), one mesh and one output format:

1. run ``alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=.. format=.. report=.."``
   (:mod:`alpa_mlir.alpa_opt`);
2. compile the annotated module with XLA's SPMD partitioner on ``N`` virtual
   CPU devices (Shardy for ``sdy``, GSPMD for ``gspmd``), run it, and compare
   every output with the *original* module run on one device (same seeded
   inputs as :mod:`alpa_mlir.runner`; :mod:`alpa_mlir.numerics`);
3. compare the collectives XLA inserted (from its optimized HLO,
   :mod:`alpa_mlir.hlo`) with the report's ``collectives``
   (:mod:`alpa_mlir.collectives`, which says how both sides are normalised),
   and attribute each XLA collective to the op it was emitted for
   (:mod:`alpa_mlir.op_attribution`); ``per_op`` lists the ops whose
   collectives differ.

Command line::

    python -m alpa_mlir.validate FIXTURE_OR_FILE --mesh 2x4 --format sdy [--opt K=V ...]
        [--read-decomposed-reduce-scatter] [--require exact] [-v] [--keep DIR] [--json]

``FIXTURE_OR_FILE``: a stem of :data:`alpa_mlir.fixtures.FIXTURES` (``mlp``,
``gpt_tiny``, ...) or a path. Exit status 0 when the numerics match (and, with
``--require LEVEL``, the collectives agree at that level), 1 otherwise, 2 on an
error (alpa-opt or XLA failing)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from .alpa_opt import AlpaOptError, binary_stamp, shard_module
from .collectives import (LEVELS, compare_collectives, describe_comparison, normalize_report,
                          normalize_xla, per_op_differences)
from .fixtures import FIXTURES, fixture_file
from .hlo import (decomposed_reduce_scatters, entry_parameter_shapes, input_output_aliases,
                  list_collectives)
from .input_domains import make_inputs
from .module_info import ModuleInfo, parse_module
from .numerics import compare_results, mismatched_outputs, update_tolerance
from .op_attribution import attribute_to_ops, tag_ops
from .xla_exec import (choose_partitioner, compile_module, ensure_host_devices, execute,
                       run_on_one_device)


def resolve_module(name: str | os.PathLike) -> Path:
    p = Path(name)
    if p.exists():
        return p
    if str(name) in FIXTURES:
        return fixture_file(str(name))
    raise FileNotFoundError(f"{name}: neither a file nor a fixture ({', '.join(FIXTURES)})")


def parse_mesh(mesh: str | Sequence[int]) -> tuple[int, ...]:
    if isinstance(mesh, str):
        return tuple(int(x) for x in mesh.lower().split("x"))
    return tuple(int(x) for x in mesh)


# "{resolved path}@{seed}" -> (ModuleInfo, inputs, outputs); callers that already ran a
# module on one device may fill it.
REFERENCE_RUNS: dict[str, tuple] = {}


def reference_run(src: Path, seed: int = 0):
    """(ModuleInfo, inputs, outputs) of the original module on one device;
    cached per path and seed."""
    key = f"{Path(src).resolve()}@{seed}"
    if key not in REFERENCE_RUNS:
        info = parse_module(Path(src).read_text())
        inputs = make_inputs(info.inputs, seed)
        REFERENCE_RUNS[key] = (info, inputs, run_on_one_device(info, inputs))
    return REFERENCE_RUNS[key]


def run_sharded(text: str, inputs, devices: int) -> tuple[list, str, ModuleInfo]:
    """Compile ``text`` for ``devices`` partitions (partitioner chosen by the
    annotations) and run it; returns (outputs, optimized HLO, info)."""
    info = parse_module(text)
    part = choose_partitioner(info)
    comp = compile_module(info.module, devices, shardy=(part == "shardy"))
    outs = execute(comp, inputs, [o.shape for o in info.outputs])
    return outs, comp.hlo_text(), info


def validate(module: str | os.PathLike, mesh: str, fmt: str = "sdy",
             options: Sequence[str] = (), seed: int = 0, workdir: Path | None = None,
             keep_hlo: bool = False, read_decomposed: bool = False) -> dict:
    """Everything above for one combination; returns a JSON-able dict with
    ``numerics`` (compare_results against the original on one device),
    ``collectives`` (compare_collectives), the normalized lists, the report
    summary and timings. With ``read_decomposed``, XLA's all-reduces that are
    only read through per-device slices count as reduce-scatters (see
    :func:`alpa_mlir.hlo.decomposed_reduce_scatters`); how many there are is
    reported either way."""
    src = resolve_module(module)
    shape = parse_mesh(mesh)
    n = 1
    for s in shape:
        n *= s
    t0 = time.time()
    text, report, cmd = shard_module(src, mesh, fmt, options, workdir)
    tagged, op_names = tag_ops(text)
    t1 = time.time()
    ref_info, inputs, ref_out = reference_run(src, seed)
    t2 = time.time()
    res: dict[str, Any] = {
        "module": str(src), "mesh": mesh, "format": fmt, "options": list(options),
        "command": cmd,
        "alpa_opt_build": binary_stamp(),
        "objective": report.get("objective"),
        "solver": report.get("solver"),
        "num_partitions_attr": parse_module(text).num_partitions,
    }
    try:
        outs, hlo, info = run_sharded(tagged, inputs, n)
    except Exception as e:  # noqa: BLE001 - reported to the caller
        res.update(ok=False, error=f"XLA: {type(e).__name__}: {e}",
                   seconds={"alpa_opt": t1 - t0, "reference": t2 - t1,
                            "xla": time.time() - t2})
        return res
    t3 = time.time()
    res["partitioner"] = choose_partitioner(info)
    num = compare_results(outs, ref_out, inputs, ref_info.aliases,
                          update_rtol=update_tolerance(ref_info))
    for row in num["outputs"]:
        row["type"] = ref_info.outputs[row["index"]].describe()
    res["numerics"] = num
    decomposed = decomposed_reduce_scatters(hlo)
    res["decomposed_reduce_scatters"] = len(decomposed)
    res["read_decomposed"] = read_decomposed
    res["weight_update"] = report.get("weight_update")
    res["arguments"] = report.get("arguments")
    res["argument_axes"] = report.get("argument_axes")
    res["entry_parameter_shapes"] = entry_parameter_shapes(hlo)
    res["input_output_aliases"] = input_output_aliases(hlo)
    xla = normalize_xla(list_collectives(hlo), shape, report["mesh"].get("device_ids"),
                        decomposed if read_decomposed else None)
    pred = normalize_report(report)
    attribute_to_ops(xla, hlo, op_names)
    res["collectives"] = compare_collectives(pred, xla)
    if any(c["op"] is not None for c in xla):
        res["per_op"] = per_op_differences(pred, xla)
    res["predicted"] = pred
    res["actual"] = xla
    res["ok"] = bool(num["match"])
    res["seconds"] = {"alpa_opt": t1 - t0, "reference": t2 - t1, "xla": t3 - t2}
    if keep_hlo:
        res["hlo"] = hlo
    return res


def format_result(r: dict, verbose: bool = False) -> str:
    lines = [f"{Path(r['module']).stem} mesh={r['mesh']} format={r['format']}"
             + (f" {' '.join(r['options'])}" if r["options"] else "")
             + f": objective {r.get('objective')}, solver {(r.get('solver') or {}).get('status')}"]
    if "error" in r:
        lines.append(f"  ERROR {r['error']}")
        return "\n".join(lines)
    num = r["numerics"]
    worst = max((o.get("max_abs_err", 0.0) for o in num["outputs"]), default=0.0)
    lines.append(f"  numerics vs original on 1 device ({r['partitioner']}): "
                 f"{'exact' if num['exact'] else 'match' if num['match'] else 'MISMATCH'}"
                 f" (max abs err {worst:.3g})")
    lines += ["    " + x for x in mismatched_outputs(num)]
    if r.get("decomposed_reduce_scatters"):
        lines.append(f"  XLA side: {r['decomposed_reduce_scatters']} all-reduce results only read "
                     "through per-device slices (a reduce-scatter in XLA CPU's form)"
                     + (", read as reduce-scatters" if r.get("read_decomposed") else
                        "; --read-decomposed-reduce-scatter reads them as reduce-scatters"))
    lines.append("  " + describe_comparison(r["collectives"]).replace("\n", "\n  "))
    if not verbose and r.get("per_op"):
        lines.append(f"  ({len(r['per_op'])} ops differ; -v lists them)")
    if verbose:
        lines.append("  report collectives:")
        for c in r["predicted"]:
            lines.append(f"    {c['kind']:<18} {c['bytes']:>9} B axes={c['axes']} op={c['op']} "
                         f"{c['reason']}")
        lines.append("  XLA collectives:")
        for c in r["actual"]:
            where = f" op={c['op']} ({c['op_name']})" if c.get("op") is not None else ""
            lines.append(f"    {c['kind']:<18} {c['bytes']:>9} B axes={c['axes']} {c['shape']} "
                         f"{c['name']}{' (combined)' if c['combined'] else ''}{where}")
        if "per_op" in r:
            lines.append("  per-op differences (report vs XLA, by the op XLA attributes to):")
            for d in r["per_op"]:
                lines.append(f"    op {d['op']} {d['op_name'] or ''}: report {d['only_predicted']}"
                             f" vs XLA {d['only_actual']}  {'; '.join(d['reasons'])}")
    s = r["seconds"]
    lines.append(f"  time: alpa-opt {s['alpa_opt']:.1f}s, reference {s['reference']:.1f}s, "
                 f"XLA {s['xla']:.1f}s")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m alpa_mlir.validate", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("module", help=f"fixture ({', '.join(FIXTURES)}) or a .mlir path")
    p.add_argument("--mesh", default="2x4", help="NxM (default 2x4)")
    p.add_argument("--format", default="sdy", choices=("sdy", "gspmd"))
    p.add_argument("--opt", action="append", default=[], metavar="KEY=VALUE",
                   help="extra alpa-intra-op-shard option (repeatable), e.g. --opt cluster=...")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--require", choices=LEVELS,
                   help="also fail unless the collectives agree at this level (or stricter)")
    p.add_argument("--keep", type=Path, metavar="DIR",
                   help="write sharded.mlir, report.json (and hlo.txt) into DIR")
    p.add_argument("--read-decomposed-reduce-scatter", action="store_true",
                   dest="read_decomposed",
                   help="count XLA all-reduces that are only read through per-device "
                        "slices of one dim (XLA CPU's form of a reduce-scatter) as "
                        "reduce-scatters")
    p.add_argument("-v", "--verbose", action="store_true", help="list every collective")
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)

    mesh = parse_mesh(a.mesh)
    n = 1
    for s in mesh:
        n *= s
    ensure_host_devices(max(8, n))
    if a.keep:
        a.keep.mkdir(parents=True, exist_ok=True)
    try:
        r = validate(a.module, a.mesh, a.format, a.opt, a.seed, a.keep, keep_hlo=bool(a.keep),
                     read_decomposed=a.read_decomposed)
    except (AlpaOptError, FileNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if a.keep and "hlo" in r:
        (a.keep / "hlo.txt").write_text(r.pop("hlo"))
    if a.json:
        print(json.dumps(r, indent=1, default=str))
    else:
        print(format_result(r, a.verbose))
    if "error" in r:
        return 2
    ok = r["ok"]
    if a.require:
        level = r["collectives"]["level"]
        ok = ok and level is not None and LEVELS.index(level) <= LEVELS.index(a.require)
    return 0 if ok else 1

