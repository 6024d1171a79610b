"""Modeled against measured stage latency (issue 12), step 3: the table.

Reads what ``scripts/gpu-compare-device.sh`` brought back from the GPU machine
(``timings.json`` from :mod:`alpa_mlir.stage_timing`, and ``measured.json`` from
``alpa-calibrate`` when there was a GPU) and the cases that
``scripts/gpu-compare-prepare.sh`` planned (``cases.tsv``). Each case is planned
again with the same fixed stages on the measured cluster file, so every timed
stage gets two modeled latencies: the preset's (from the timed module itself)
and the measured file's. Prints a markdown table with both ratios, how many
stages are within 1.5x, and whether each model ranks the stages as measured.

    python -m alpa_mlir.stage_compare DIR [--cases target/gpu-compare/cases/cases.tsv]

The measured file describes the machine it ran on (one GPU on the lent
machines); the stages were planned on a cluster of several. A one-device stage
uses no link, so the file is read as one host of as many such GPUs as the plan
needs (``as_host_of``): only its device and per-dtype numbers matter.
"""

from __future__ import annotations

import argparse
import math
import csv
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from .alpa_opt import alpa_opt_path
from .stage_timing import compare_rankings, describe_ranking

WITHIN = 1.5  # the goal: measured / modeled within this factor either way
FLAT_FLOPS = 1e12  # the device of one_tflops_cluster: a stage's modeled seconds * this = FLOPs


def one_tflops_cluster(devices: int) -> dict:
    """One host of ``devices`` devices computing 1 TFLOP/s in every element type, with no
    memory bandwidth (so no roofline memory term): a one-device stage's modeled latency on it is
    the FLOPs the model counts, divided by 1e12."""
    return {"name": "one-tflops", "hosts": 1, "devices_per_host": devices,
            "device": {"name": "flat", "memory_bytes": 1 << 40,
                       "peak_flops": {t: FLAT_FLOPS for t in ("f32", "tf32", "bf16", "f16", "f64")},
                       "peak_flops_fallback": FLAT_FLOPS},
            "intra_host": {"bandwidth_bytes_per_s": 1e11, "latency_s": 1e-6}}


@dataclass
class Case:
    """A planned case: its input, the cluster it was planned on and the other
    ``alpa-auto-shard`` options (with its fixed ``stages=``)."""
    name: str
    input: str
    cluster: str
    options: str


def read_cases(path: Path) -> dict[str, Case]:
    with open(path, newline="") as f:
        return {row["case"]: Case(row["case"], row["input"], row["cluster"], row["options"])
                for row in csv.DictReader(f, delimiter="\t")}


def as_host_of(cluster: dict, devices: int) -> dict:
    """The measured cluster file as one host of ``devices`` such GPUs."""
    out = json.loads(json.dumps(cluster))
    out["name"] = f"{cluster.get('name', 'measured')}-as-1x{devices}"
    out["hosts"] = 1
    out["devices_per_host"] = devices
    return out


def modeled_latencies(case: Case, cluster: str, opt: Path | None = None) -> list[float]:
    """Each fixed stage's modeled latency (seconds) when ``case`` is planned on ``cluster``
    (a preset or a file) with ``alpa-auto-shard``."""
    opt = opt or alpa_opt_path()
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        options = f"cluster={cluster} {case.options} report={report}"
        done = subprocess.run([str(opt), case.input, f"--alpa-auto-shard={options}", "-o",
                               str(Path(tmp) / "planned.mlir")], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"alpa-opt on {case.input} with cluster {cluster} failed:\n"
                               f"{done.stderr[-2000:]}")
        return [s["latency"] for s in json.loads(report.read_text())["stages"]]


def case_of(module: str) -> str:
    return Path(module).name.removesuffix(".planned.mlir")


def with_xla_overheads(cluster: dict, dispatch_s: float, launch_s: float) -> dict:
    """``cluster`` with ``measured.xla`` set by hand: a what-if, not a measurement."""
    measured = cluster.get("measured") or {"gpu_name": cluster["device"]["name"],
                                           "driver_version": "unknown"}
    xla = {"program_dispatch_s": dispatch_s, "kernel_launch_s": launch_s, "runtime": "set by hand"}
    return {**cluster, "measured": {**measured, "xla": xla}}


def compare(timings: dict, cases: dict[str, Case], measured_cluster: Path | None,
            opt: Path | None = None, xla_overheads: tuple[float, float] | None = None) -> list[dict]:
    """The timed stages with ``modeled_preset_s`` (what the timed module says),
    ``modeled_measured_s`` (None without a measured file) and ``measured_s``.
    ``xla_overheads`` (dispatch, launch seconds) replaces the measured file's ``measured.xla``."""
    rows = [r for r in timings["rows"] if r["status"] == "ok"]
    devices: dict[str, int] = {}  # per case, the devices of all its stages, timed or not
    for r in timings["rows"]:
        devices[case_of(r["module"])] = devices.get(case_of(r["module"]), 0) + len(r["devices"])
    names = sorted({case_of(r["module"]) for r in rows})
    remodeled: dict[str, list[float]] = {}
    if measured_cluster is not None:
        cluster = json.loads(measured_cluster.read_text())
        if xla_overheads is not None:
            cluster = with_xla_overheads(cluster, *xla_overheads)
        for name in names:
            remodeled[name] = _latencies_on(cases[name], as_host_of(cluster, devices[name]), opt)
    flops = {name: [t * FLAT_FLOPS for t in
                    _latencies_on(cases[name], one_tflops_cluster(devices[name]), opt)]
             for name in names}
    out = []
    for r in rows:
        name = case_of(r["module"])
        again = remodeled.get(name)
        out.append({"case": name, "stage": r["stage"], "layers": r["layers"],
                    "modeled_preset_s": r["modeled_s"],
                    "modeled_measured_s": again[r["stage"]] if again else None,
                    "measured_s": r["measured_s"],
                    # a timing file whose modeled_s was planned again by a later model keeps
                    # the one timed here (docs/gpu-runs)
                    "modeled_when_timed_s": r.get("modeled_when_timed_s"),
                    "model_flops": flops[name][r["stage"]] if len(r["devices"]) == 1 else None,
                    "xla_flops": _program_sum(r, "xla_flops"),
                    "xla_bytes": _program_sum(r, "xla_bytes_accessed"),
                    "profiled": {n: p for n, p in r.get("programs", {}).items() if "top_ops" in p}})
    return out


def _latencies_on(case: Case, cluster: dict, opt: Path | None) -> list[float]:
    """``modeled_latencies`` of ``case`` on a cluster given as a dictionary."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(cluster, f)
    try:
        return modeled_latencies(case, f.name, opt)
    finally:
        Path(f.name).unlink()


def _program_sum(row: dict, key: str) -> float | None:
    """The sum of ``key`` over the stage's programs; None when one lacks it."""
    values = [p.get(key) for p in row.get("programs", {}).values()]
    return sum(values) if values and None not in values else None


def hbm_bandwidth(measured_cluster: dict | None) -> float | None:
    """The measured device-to-device copy bandwidth (bytes/s) of a cluster file, if any."""
    return ((measured_cluster or {}).get("measured") or {}).get("hbm_bytes_per_s")


def where_the_time_goes(rows: list[dict], hbm_bytes_per_s: float | None) -> str:
    """Per stage, the FLOPs the model counts (a one-device stage: its latency on a 1 TFLOP/s
    device) and the rate they ran at, XLA's own FLOPs and bytes of the executables timed; with
    a measured HBM bandwidth, the time those bytes take at it. XLA's FLOPs on a GPU leave out
    the matmuls it hands to cuBLAS or Triton (on the CPU the model agrees with XLA within 2%:
    test_stage_flops_vs_xla.py), so the rate achieved is the model's FLOPs over the measured
    time. A stage whose measured time is near its bytes' time is memory-bound: the summary
    says how the model would fare with XLA's bytes as a floor, beside the model's own memory
    term (its fused-traffic estimate, ir/fused_traffic.rs)."""
    lines = ["| case | stage | model GFLOP | TFLOP/s achieved | XLA GFLOP | XLA GB accessed "
             "| GB/s achieved | bytes at measured HBM bandwidth (ms) | measured (ms) |",
             "|---|---|---|---|---|---|---|---|---|"]
    floored = []
    for r in rows:
        model, flops, data, t = r.get("model_flops"), r.get("xla_flops"), r.get("xla_bytes"), \
            r["measured_s"]
        memory_s = data / hbm_bytes_per_s if data is not None and hbm_bytes_per_s else None
        lines.append(
            f"| {r['case']} | {r['stage']} | {_scaled(model, 1e9)} | "
            f"{_scaled(model / t if model is not None else None, 1e12)} | "
            f"{_scaled(flops, 1e9)} | {_scaled(data, 1e9)} | "
            f"{_scaled(data / t if data is not None else None, 1e9)} | {_ms(memory_s)} | {_ms(t)} |")
        modeled = r["modeled_measured_s"] or r["modeled_preset_s"]
        floored.append({**r, "floored_s": max(modeled, memory_s) if modeled and memory_s else None})
    text = "\n".join(lines) + "\n"
    if any(r["floored_s"] for r in floored):
        text += "\n" + _model_summary(
            floored, "floored_s", "with the bytes' time as a floor (max of the model and "
            "XLA's bytes at the measured HBM bandwidth, beside the model's own memory term)") + "\n"
    return text


def _scaled(x: float | None, unit: float) -> str:
    return "-" if x is None else f"{x / unit:.4g}"


def _ms(x: float | None) -> str:
    return "-" if x is None else f"{x * 1e3:.4g}"


def _ratio(measured: float, modeled: float | None) -> str:
    return "-" if not modeled else f"{measured / modeled:.3g}"


def _model_summary(rows: list[dict], key: str, label: str) -> str:
    with_model = [r for r in rows if r.get(key)]
    if not with_model:
        return f"- {label}: not available"
    within = sum(1 for r in with_model if 1 / WITHIN <= r["measured_s"] / r[key] <= WITHIN)
    line = f"- {label}: {within} of {len(with_model)} stages within {WITHIN}x"
    if len(with_model) >= 2:
        rank = compare_rankings([{"modeled_s": r[key], "measured_s": r["measured_s"]}
                                 for r in with_model])
        line += f"; {describe_ranking(rank)}"
    return line


def markdown(rows: list[dict], timings: dict, preset: str, measured_name: str | None,
             hbm_bytes_per_s: float | None = None, measured_note: str | None = None) -> str:
    head = (f"Stages timed on {timings.get('device_kind', '?')} ({timings.get('platform', '?')}, "
            f"jax {timings.get('jax_version', '?')}, median of {timings.get('iterations', '?')} "
            f"runs, {timings.get('date', '?')}); modeled with `{preset}` and with "
            f"`{measured_name or 'no measured file'}`"
            f"{f', {measured_note}' if measured_note else ''}.\n\n")
    if timings.get("complete") is False:
        head += "The timing run was cut short: only the stages it finished are listed.\n\n"
    lines = ["| case | stage | layers | modeled, preset (ms) | modeled, measured file (ms) "
             "| measured (ms) | measured / preset | measured / measured file |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['case']} | {r['stage']} | {r['layers'][0]}..{r['layers'][1]} | "
                     f"{_ms(r['modeled_preset_s'])} | {_ms(r['modeled_measured_s'])} | "
                     f"{_ms(r['measured_s'])} | {_ratio(r['measured_s'], r['modeled_preset_s'])} "
                     f"| {_ratio(r['measured_s'], r['modeled_measured_s'])} |")
    models = [("modeled_preset_s", f"preset `{preset}`", "preset"),
              ("modeled_measured_s", "measured file", "measured file")]
    if any(r.get("modeled_when_timed_s") for r in rows):
        models.append(("modeled_when_timed_s", "the model when timed", "when timed"))
        lines[0] += " measured / model when timed |"
        lines[1] += "---|"
        for i, r in enumerate(rows):
            lines[2 + i] += f" {_ratio(r['measured_s'], r.get('modeled_when_timed_s'))} |"
    summary = [_model_summary(rows, key, label) for key, label, _ in models]
    # Within a case the stages share their shapes' scale: the order the DP relies on.
    for case in dict.fromkeys(r["case"] for r in rows):
        own = [r for r in rows if r["case"] == case]
        if len(own) >= 2:
            summary += ["  " + _model_summary(own, key, f"`{case}`, {short}") for key, _, short in models]
    return (head + "\n".join(lines) + "\n\n" + "\n".join(summary) + "\n\n"
            + where_the_time_goes(rows, hbm_bytes_per_s) + kernel_time(rows))


def kernel_time(rows: list[dict]) -> str:
    """For the programs timed with ``--profile``: their kernels' own time (the device's
    events, summed) beside their median, and the longest kernel; per program kind the range of
    kernels over median. The rest of a program's time is the gaps between its kernels and its
    launch. Empty when nothing was profiled."""
    lines, shares = [], {}
    for r in rows:
        for name, p in r.get("profiled", {}).items():
            share = p["ops_total_s"] / p["median_s"]
            shares.setdefault(name.rsplit("_", 1)[-1], []).append(share)
            top = p["top_ops"][0] if p["top_ops"] else None
            lines.append(f"| {r['case']} | {r['stage']} | {name} | {_ms(p['median_s'])} | "
                         f"{_ms(p['ops_total_s'])} | {share:.3g} | "
                         f"{top['op'] if top else '-'} | {_ms(top['total_s'] if top else None)} |")
    if not lines:
        return ""
    head = ["", "| case | stage | program | median (ms) | kernels (ms) | kernels / median "
            "| longest kernel | its time (ms) |", "|---|---|---|---|---|---|---|---|"]
    ranges = [f"- kernels / median, {kind}: {min(v):.2f} to {max(v):.2f} ({len(v)} programs)"
              for kind, v in shares.items()]
    return "\n".join(head + lines) + "\n\n" + "\n".join(ranges) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m alpa_mlir.stage_compare",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("dir", type=Path, help="what gpu-compare-device.sh wrote")
    p.add_argument("--cases", type=Path, default=Path("target/gpu-compare/cases/cases.tsv"))
    p.add_argument("--json", type=Path, help="also write the rows here")
    p.add_argument("--xla-overheads", metavar="DISPATCH_S,LAUNCH_S",
                   help="what if the measured file's XLA overheads (measured.xla) were these: "
                        "program dispatch and kernel launch seconds, set by hand")
    a = p.parse_args(argv)
    what_if = None
    if a.xla_overheads is not None:
        try:
            what_if = tuple(float(x) for x in a.xla_overheads.split(","))
            if len(what_if) != 2 or not all(math.isfinite(x) and x >= 0 for x in what_if):
                raise ValueError
        except ValueError:
            p.error(f"--xla-overheads takes two non-negative seconds, got {a.xla_overheads!r}")
    measured = a.dir / "measured.json"
    measured = measured if measured.exists() else None
    try:
        timings = json.loads((a.dir / "timings.json").read_text())
        cases = read_cases(a.cases)
        missing = sorted({case_of(r["module"]) for r in timings["rows"]} - set(cases))
        if missing:
            raise ValueError(f"{a.cases} has no case {', '.join(missing)} (timed in {a.dir})")
        if what_if is not None and measured is None:
            raise ValueError(f"--xla-overheads needs a measured file ({a.dir / 'measured.json'})")
        rows = compare(timings, cases, measured, xla_overheads=what_if)
    except (OSError, KeyError, ValueError, RuntimeError) as e:
        print(f"error: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    if not rows:
        print("no stage was timed", file=sys.stderr)
        return 1
    presets = sorted({cases[r["case"]].cluster for r in rows})
    measured_cluster = json.loads(measured.read_text()) if measured else None
    name = measured_cluster.get("name") if measured_cluster else None
    note = None if what_if is None else (
        f"its XLA overheads set by hand (a what-if, not measured: program dispatch "
        f"{what_if[0] * 1e6:g} us, kernel launch {what_if[1] * 1e6:g} us)")
    print(markdown(rows, timings, ", ".join(presets), name, hbm_bandwidth(measured_cluster),
                   measured_note=note), end="")
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
