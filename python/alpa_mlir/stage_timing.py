"""Measured stage latency against the inter-op pass's model (issue 12).

``alpa-auto-shard`` records on ``@main``'s ``alpa.pipeline`` each stage's modeled
latency: the intra-op plan cost of all ops of the stage's layers (forward, backward
and apply) for one microbatch. The measured counterpart is the time XLA takes to
run the stage's ``@stage{k}_forward``, ``@stage{k}_backward`` and
``@stage{k}_apply``, each compiled as its own executable with its Shardy
shardings. A stage planned on global devices ``[d0, d1, ...]`` runs on the first
available devices in that order (a stage planned on device 5 runs on device 0 of
a one-GPU machine); a stage needing more devices than available is skipped.

    python -m alpa_mlir.stage_timing PLANNED.mlir [PLANNED.mlir ...] [--devices 8]
        [--warmup 2] [--iterations 10] [--json OUT.json] [--label NAME]
        [--compile-workers N] [--time-limit SECONDS] [--profile]

Works on modules planned with or without ``lower-transfers`` (only the stage
functions are read). Progress goes to stderr, a table to stdout. Exit status: 0
when every stage was timed or skipped, 1 when a stage failed (compilation,
execution, or a non-finite output), 2 when a module cannot be read.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import re
import shlex
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from .pipeline_module import Program, extract_program, parse_functions
from .module_info import arg_hint, jax_ir
from .hints import Hint
from .op_profile import profile_ops

KINDS = ("forward", "backward", "apply")
SEED = 0  # fixed: every run times the same inputs
TIE = 0.01  # relative difference under which two latencies count as tied
_STAGE_FN = re.compile(r"stage(\d+)_(forward|backward|apply)")
# Ops whose result holds some of their first operand's values, rearranged.
_PART_OF_OPERAND = ("stablehlo.slice", "stablehlo.dynamic_slice", "stablehlo.reshape",
                    "stablehlo.transpose")


class StageTimingError(RuntimeError):
    """A stage program could not be compiled or run, or computed non-finite values."""


_STARTED = time.perf_counter()


def progress(msg: str) -> None:
    """A line on stderr with the seconds since the tool started (where a run's time goes)."""
    print(f"[stage-timing] {time.perf_counter() - _STARTED:7.1f}s {msg}", file=sys.stderr,
          flush=True)


# ------------------------------------------------------------------ reading the plan

@dataclass
class PlannedStage:
    index: int
    layers: list[int]
    submesh: list[int]
    logical_mesh: list[int]
    devices: list[int]  # global device ids of the plan
    modeled_s: float
    programs: dict[str, Program] = field(default_factory=dict)  # kind -> program
    # kind -> input index -> where @main takes it from within the stage
    feeds: dict[str, dict[int, "Feed"]] = field(default_factory=dict)
    # kind -> input index -> the domain of the @main argument @main passes it
    arg_domains: dict[str, dict[int, "Hint"]] = field(default_factory=dict)


@dataclass(frozen=True)
class Feed:
    """An input a stage program gets from an earlier program of its stage in @main:
    that program's result ``index`` (``result``) or the value it also takes as its
    input ``index``. A backward program run on random residuals (a softmax sum, a
    normalizer) can overflow where the real step does not; fed from its forward
    it sees the values a pipeline gives it."""
    kind: str
    result: bool
    index: int


@dataclass
class MainCalls:
    """@main's calls of the stage functions, by the SSA names of their values: stage -> kind
    -> (operand names, result names); and the domain (the export's hint) of each value that
    is an argument of @main or a slice, reshape or transpose of one (a microbatch)."""
    calls: dict[int, dict[str, tuple[list[str], list[str]]]]
    domains: dict[str, Hint]


def main_calls(main) -> MainCalls:
    ir = jax_ir().ir
    state = ir.AsmState(main)
    domains: dict[str, Hint] = {}
    if "arg_attrs" in main.attributes:
        for arg, attrs in zip(main.regions[0].blocks[0].arguments,
                              ir.ArrayAttr(main.attributes["arg_attrs"])):
            hint = arg_hint(ir.DictAttr(attrs))
            if hint.int_bound is not None or hint.nonnegative:
                domains[arg.get_name(state)] = hint
    calls: dict[int, dict[str, tuple[list[str], list[str]]]] = {}
    for op in main.regions[0].blocks[0].operations:
        op = op.operation
        if op.name in _PART_OF_OPERAND and op.operands:
            source = op.operands[0].get_name(state)
            if source in domains:
                domains[op.results[0].get_name(state)] = domains[source]
        m = _STAGE_FN.fullmatch(str(op.attributes["callee"]).lstrip("@")) \
            if "callee" in op.attributes else None
        if m:
            calls.setdefault(int(m.group(1)), {})[m.group(2)] = (
                [v.get_name(state) for v in op.operands],
                [v.get_name(state) for v in op.results])
    return MainCalls(calls, domains)


def stage_arg_domains(main: MainCalls) -> dict[int, dict[str, dict[int, Hint]]]:
    """stage -> kind -> input index -> the domain of the @main value passed there: token ids
    drawn from [0, 2) instead of the vocabulary send every row of an embedding gradient's
    scatter-add to two rows, and the contended atomics then take most of a stage's time."""
    return {k: {kind: {i: main.domains[n] for i, n in enumerate(operands) if n in main.domains}
                for kind, (operands, _) in by_kind.items()}
            for k, by_kind in main.calls.items()}


def stage_feeds(main: MainCalls) -> dict[int, dict[str, dict[int, Feed]]]:
    """stage -> kind -> input index -> Feed, from @main's calls of the stage
    functions: each input is looked up among the results, then the inputs, of the
    stage's programs called before it."""
    feeds: dict[int, dict[str, dict[int, Feed]]] = {}
    for k, by_kind in main.calls.items():
        earlier: list[str] = []
        for kind in KINDS:
            if kind not in by_kind:
                continue
            operands, results = by_kind[kind]
            fed = {}
            for i, name in enumerate(operands):
                feed = _find_feed(name, earlier, by_kind)
                if feed is not None:
                    fed[i] = feed
            feeds.setdefault(k, {})[kind] = fed
            earlier.append(kind)
    return feeds


def _find_feed(name: str, earlier: list[str], by_kind: dict) -> Feed | None:
    for result in (True, False):
        for kind in earlier:
            values = by_kind[kind][1 if result else 0]
            if name in values:
                return Feed(kind, result, values.index(name))
    return None


def _pipeline_attr(main) -> list[dict]:
    """The dictionaries of ``alpa.pipeline`` as Python values."""
    ir = jax_ir().ir
    if "alpa.pipeline" not in main.attributes:
        raise ValueError("@main has no alpa.pipeline attribute: plan the module with "
                         "alpa-auto-shard (or alpa-inter-op-stage) first")
    stages = []
    for d in ir.ArrayAttr(main.attributes["alpa.pipeline"]):
        d = ir.DictAttr(d)
        ints = {k: list(ir.DenseI64ArrayAttr(d[k]))
                for k in ("layers", "submesh", "logical_mesh", "devices")}
        stages.append({**ints, "latency": ir.FloatAttr(d["latency"]).value})
    return stages


def read_plan(text: str) -> list[PlannedStage]:
    """The stages of ``alpa.pipeline`` with their stage programs. Unlike
    ``load_pipeline`` this does not need the transfers lowered: @main's schedule
    is not read."""
    parsed = parse_functions(text)
    with parsed.ctx:
        main = parsed.funcs["main"]
        stages = [PlannedStage(i, s["layers"], s["submesh"], s["logical_mesh"], s["devices"],
                               s["latency"])
                  for i, s in enumerate(_pipeline_attr(main))]
        calls = main_calls(main)
        for k, fed in stage_feeds(calls).items():
            if k < len(stages):
                stages[k].feeds = fed
        for k, domains in stage_arg_domains(calls).items():
            if k < len(stages):
                stages[k].arg_domains = domains
    for name in parsed.funcs:
        m = _STAGE_FN.fullmatch(name)
        if not m:
            continue
        k = int(m.group(1))
        if k >= len(stages):
            raise ValueError(f"@{name} but alpa.pipeline has {len(stages)} stages")
        stages[k].programs[m.group(2)] = extract_program(parsed, name, "stage")
    for s in stages:  # pipeline order, whatever the function order in the module
        s.programs = {k: s.programs[k] for k in KINDS if k in s.programs}
    return stages


# ------------------------------------------------------------------ timing

def _compile(prog: Program, devices: list, cache: dict):
    """(ModuleInfo, Compiled) of a program on ``devices``; compiled once per
    (text, devices), as the pipeline runtime shares its executables."""
    from .module_info import parse_module
    from .xla_exec import compile_module

    key = (prog.module_text, tuple(d.id for d in devices))
    if key not in cache:
        t0 = time.perf_counter()
        try:
            info = parse_module(prog.module_text)  # also marks sqrt-bound inputs non-negative
            compiled = compile_module(info.module, len(devices), shardy=True, devices=devices)
        except Exception as e:  # noqa: BLE001 - reported with the program's name
            raise StageTimingError(f"@{prog.name}: compilation failed: {e}") from e
        cache[key] = (info, compiled, time.perf_counter() - t0)
        progress(f"compiled @{prog.name} on devices {[d.id for d in devices]} "
                 f"(plan: {prog.devices}) in {cache[key][2]:.2f}s")
    return cache[key]


def with_domains(specs: Sequence, domains: dict[int, Hint]) -> list:
    """``specs`` with the integer bound and non-negativity of ``domains`` (input index ->
    Hint) where the program's own module does not say."""
    out = list(specs)
    for i, hint in domains.items():
        spec = out[i]
        out[i] = dataclasses.replace(
            spec, int_bound=spec.int_bound if spec.int_bound is not None else hint.int_bound,
            nonnegative=spec.nonnegative or hint.nonnegative)
    return out


def host_inputs(specs: Sequence, cache: dict) -> list:
    """Seeded inputs of ``specs``, one array per distinct (shape, type, domain):
    the layers of a stage share their weights' shapes, and drawing each of a
    billion-parameter stage's arrays anew would take longer than timing it."""
    from .input_domains import make_inputs

    arrays = cache.setdefault("host inputs", {})
    out = []
    for spec in specs:
        key = (tuple(spec.shape), spec.mlir_type, spec.int_bound, spec.nonnegative)
        if key not in arrays:
            arrays[key] = make_inputs([spec], seed=SEED)[0]
        out.append(arrays[key])
    return out


def _device_inputs(compiled, inputs: list) -> list:
    """The inputs (host arrays, or device arrays an earlier program computed)
    placed as the executable's parameters, so that timing sees no host-to-device
    copies."""
    import jax

    from .pipeline import executable_sharding
    from .placement import place

    op_shardings = compiled.executable.get_parameter_shardings()
    args = []
    for i, x in enumerate(inputs):
        sharding = executable_sharding(compiled, op_shardings, i)
        if isinstance(x, np.ndarray):
            args.append(place(x, sharding))
        elif x.sharding.is_equivalent_to(sharding, x.ndim):
            args.append(x)
        else:  # laid out otherwise by the program that computed it: through the host
            args.append(place(np.asarray(x), sharding))
    return jax.block_until_ready(args)


def _run(compiled, args) -> list:
    """One synchronized execution: per output, its per-device arrays."""
    import jax

    outs = compiled.executable.execute_sharded(args).disassemble_into_single_device_arrays()
    return jax.block_until_ready(outs)


def timed_runs(compiled, args, warmup: int, iterations: int) -> tuple[list[float], list]:
    """Seconds of each of ``iterations`` synchronized runs after ``warmup`` untimed ones, and
    the last run's outputs."""
    for _ in range(warmup):
        _run(compiled, args)
    times, outs = [], []
    for _ in range(iterations):
        t0 = time.perf_counter()
        outs = _run(compiled, args)
        times.append(time.perf_counter() - t0)
    return times, outs


def non_finite_outputs(outputs) -> list[str]:
    """``output i: n non-finite`` for each output holding NaN or inf."""
    from .numerics import count_nonfinite

    bad = []
    for i, shards in enumerate(outputs):
        count = sum(count_nonfinite(shard) for shard in shards)
        if count:
            bad.append(f"output {i}: {count} non-finite")
    return bad


@dataclass
class ProgramRun:
    """A timed program: its row for the report, and the last run's inputs and global
    outputs on the devices (what the stage's later programs are fed)."""
    timing: dict
    args: list
    outputs: list


def time_program(prog: Program, devices: list, warmup: int, iterations: int,
                 cache: dict, fed: dict[int, object] | None = None,
                 profile: bool = False, domains: dict[int, Hint] | None = None) -> ProgramRun:
    """Median and minimum seconds of ``iterations`` synchronized runs; ``fed``:
    input index -> the array to use instead of a random one. With ``profile`` one more run
    under JAX's profiler gives the time per XLA op (``op_profile``). ``domains``: input
    index -> the domain of the @main argument it is (integer bound, non-negative)."""
    info, compiled, compile_s = _compile(prog, devices, cache)
    progress(f"timing @{prog.name}: {warmup} warmup + {iterations} runs"
             + (f", {len(fed)} of {len(info.inputs)} inputs from earlier programs" if fed else ""))
    try:
        inputs = host_inputs(with_domains(info.inputs, domains or {}), cache)
        for i, x in (fed or {}).items():
            inputs[i] = x
        args = _device_inputs(compiled, inputs)
        times, outs = timed_runs(compiled, args, warmup, iterations)
        profiled = profile_ops(lambda: _run(compiled, args)) if profile else {}
    except Exception as e:  # noqa: BLE001 - reported with the program's name
        raise StageTimingError(f"@{prog.name}: execution failed: {e}") from e
    bad = non_finite_outputs(outs)  # the same inputs every run: the last outputs tell
    if bad:
        raise StageTimingError(f"@{prog.name}: non-finite results ({'; '.join(bad)})")
    from .pipeline import global_outputs

    timing = {"median_s": statistics.median(times), "min_s": min(times), "times_s": times,
              "compile_s": compile_s, "devices": [d.id for d in devices],
              "fed_inputs": len(fed or {}), **xla_cost(compiled), **profiled}
    progress(f"@{prog.name}: median {timing['median_s'] * 1e3:.3f} ms, min {timing['min_s'] * 1e3:.3f} ms")
    if profiled:
        top = ", ".join(f"{o['op']} {o['total_s'] * 1e3:.2f} ms" for o in profiled["top_ops"][:3])
        progress(f"@{prog.name}: {profiled['ops_count']} ops, {profiled['ops_total_s'] * 1e3:.2f} "
                 f"ms in all; longest: {top}")
    return ProgramRun(timing, args, global_outputs(compiled, outs, info.outputs))


def program_cost(prog: Program, devices: list, cache: dict) -> dict:
    """XLA's FLOPs and bytes of ``prog`` compiled for ``devices`` (compiled once)."""
    return xla_cost(_compile(prog, devices, cache)[1])


def xla_cost(compiled) -> dict:
    """XLA's own count of the executable's FLOPs and bytes accessed (per device),
    to tell compute from memory traffic where modeled and measured differ."""
    try:
        cost = compiled.executable.cost_analysis()
    except Exception:  # noqa: BLE001 - not every backend has one
        return {}
    if isinstance(cost, list):  # older jaxlib: one dict per partition
        cost = cost[0] if cost else {}
    return {f"xla_{key.replace(' ', '_')}": float(cost[key])
            for key in ("flops", "bytes accessed") if key in cost}


def _plan_row(stage: PlannedStage, status: str, reason: str | None = None) -> dict:
    """A stage's row before timing: what the plan says about it."""
    return {"stage": stage.index, "layers": stage.layers, "submesh": stage.submesh,
            "logical_mesh": stage.logical_mesh, "devices": stage.devices,
            "modeled_s": stage.modeled_s, "measured_s": None, "measured_min_s": None,
            "ratio": None, "status": status, "reason": reason, "programs": {}}


def placed_programs(stage: PlannedStage, available: list) -> list[tuple[Program, list]]:
    """Each program of a stage that fits on ``available`` with the devices it runs on: the
    plan's device d_i of the stage runs on ``available[i]``."""
    local = dict(zip(stage.devices, available))
    placed = []
    for prog in stage.programs.values():
        if not set(prog.devices) <= set(local):
            raise StageTimingError(f"@{prog.name} runs on devices {prog.devices}, outside "
                                   f"its stage's {stage.devices}")
        placed.append((prog, [local[d] for d in prog.devices]))
    return placed


def time_stage(stage: PlannedStage, available: list, warmup: int, iterations: int,
               cache: dict, profile: bool = False) -> dict:
    """The stage's row: its plan, and per program its timing; ``status`` is ok
    or skipped (raises StageTimingError on a failing program)."""
    row = _plan_row(stage, "ok")
    if len(stage.devices) > len(available):
        row["status"] = "skipped"
        row["reason"] = f"needs {len(stage.devices)} devices, {len(available)} available"
        progress(f"stage {stage.index} skipped: {row['reason']}")
        return row
    if not stage.programs:
        raise StageTimingError(f"stage {stage.index} has no stage{stage.index}_* functions")
    runs: dict[str, ProgramRun] = {}  # kind -> its run, whose values later programs take
    for prog, devices in placed_programs(stage, available):
        kind = next(k for k, p in stage.programs.items() if p is prog)
        fed = {i: (runs[f.kind].outputs if f.result else runs[f.kind].args)[f.index]
               for i, f in stage.feeds.get(kind, {}).items() if f.kind in runs}
        runs[kind] = time_program(prog, devices, warmup, iterations, cache, fed, profile,
                                  stage.arg_domains.get(kind))
        row["programs"][prog.name] = runs[kind].timing
    runs.clear()  # a stage's activations are freed before the next stage runs
    timed = row["programs"].values()
    row["measured_s"] = sum(p["median_s"] for p in timed)
    row["measured_min_s"] = sum(p["min_s"] for p in timed)
    row["ratio"] = row["measured_s"] / stage.modeled_s if stage.modeled_s > 0 else None
    return row


def precompile(stages: Sequence[PlannedStage], available: list, cache: dict,
               workers: int) -> None:
    """Compile the programs of the stages that fit, ``workers`` at a time (XLA
    compiles without holding the GIL), into ``cache``. A program that fails is
    left out: timing compiles it again and reports the error with its stage."""
    from concurrent.futures import ThreadPoolExecutor

    jobs = []
    for stage in stages:
        try:
            jobs += placed_programs(stage, available) if len(stage.devices) <= len(available) else []
        except StageTimingError:
            pass  # timing reports it with the stage

    def compile_quietly(job) -> None:
        try:
            _compile(*job, cache)
        except StageTimingError:
            pass

    if workers > 1 and len(jobs) > 1:
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(compile_quietly, jobs))


def time_modules(paths: Sequence[str], available: list, warmup: int = 2,
                 iterations: int = 10, cache: dict | None = None,
                 time_limit: float | None = None,
                 on_row: Callable[[list[dict]], None] | None = None,
                 compile_workers: int = 1, profile: bool = False) -> list[dict]:
    """One row per stage of every planned module; a failing stage becomes a row
    with status ``error`` (the others are still timed). Once ``time_limit``
    seconds have passed, the stages not started yet are skipped. ``on_row`` sees
    the rows so far after each stage (a run cut short keeps what it timed).
    With ``compile_workers`` > 1 each module's programs are compiled in parallel
    before its stages are timed one by one. ``profile``: each program's time per XLA op."""
    cache = {} if cache is None else cache
    start = time.perf_counter()
    over = False  # checked when a stage ends: the first stage always runs
    rows = []
    for path in paths:
        stages = read_plan(Path(path).read_text())
        progress(f"{path}: {len(stages)} stages")
        if not over:
            precompile(stages, available, cache, compile_workers)
        for stage in stages:
            if over:
                rows.append({"module": str(path), **_plan_row(
                    stage, "skipped", f"time limit of {time_limit:g} s reached")})
                continue
            try:
                row = time_stage(stage, available, warmup, iterations, cache, profile)
            except StageTimingError as e:
                progress(f"ERROR {e}")
                row = _plan_row(stage, "error", str(e))
            rows.append({"module": str(path), **row})
            if row["status"] == "ok":
                progress(f"stage {stage.index}: measured {_s(row['measured_s'])}, modeled "
                         f"{_s(row['modeled_s'])}, ratio {row['ratio'] or 0:.3g}")
            if on_row:
                on_row(rows)
            over = time_limit is not None and time.perf_counter() - start > time_limit
    return rows


# ------------------------------------------------------------------ rankings

def _tied(a: float, b: float, tolerance: float) -> bool:
    return abs(a - b) <= tolerance * max(abs(a), abs(b))


def compare_rankings(rows: Sequence[dict], tolerance: float = TIE) -> dict:
    """Does ordering the rows by ``modeled_s`` give their order by ``measured_s``?

    Pairwise: the orders agree when no pair is ordered one way by the model and
    the other way by the measurement; a pair tied (within ``tolerance``,
    relative) in either may go either way. ``kendall_tau`` is Kendall's tau-b
    with those ties (None when every pair is tied in one of the two)."""
    pairs = [(r["modeled_s"], r["measured_s"]) for r in rows]
    concordant = discordant = tied_modeled = tied_measured = 0
    for i in range(len(pairs)):
        for j in range(i + 1, len(pairs)):
            (m1, t1), (m2, t2) = pairs[i], pairs[j]
            tm, tt = _tied(m1, m2, tolerance), _tied(t1, t2, tolerance)
            tied_modeled += tm
            tied_measured += tt
            if tm or tt:
                continue
            if (m1 < m2) == (t1 < t2):
                concordant += 1
            else:
                discordant += 1
    n0 = len(pairs) * (len(pairs) - 1) // 2
    denom = math.sqrt((n0 - tied_modeled) * (n0 - tied_measured))
    return {"same_order": discordant == 0, "kendall_tau": (concordant - discordant) / denom
            if denom else None, "pairs": n0, "concordant": concordant,
            "discordant": discordant, "tolerance": tolerance}


# ------------------------------------------------------------------ output

def _s(x) -> str:
    return "-" if x is None else f"{x:.3e}"


def _dims(v: list[int]) -> str:
    return "x".join(map(str, v))


def table(rows: list[dict]) -> str:
    """The rows as aligned columns; a skipped or failed stage's reason follows the table."""
    head = ["module", "stage", "layers", "submesh", "logical", "modeled s", "measured s",
            "ratio", "forward s", "backward s", "apply s"]
    lines, notes = [head], []
    for r in rows:
        medians = {name.rsplit("_", 1)[1]: p["median_s"] for name, p in r["programs"].items()}
        measured, ratio = _s(r["measured_s"]), "-" if r["ratio"] is None else f"{r['ratio']:.3g}"
        if r["status"] != "ok":
            measured, ratio = r["status"].upper(), ""
            notes.append(f"{Path(r['module']).name} stage {r['stage']}: {r['status']}: "
                         f"{r['reason']}")
        lines.append([Path(r["module"]).name, str(r["stage"]), "{}..{}".format(*r["layers"]),
                      _dims(r["submesh"]), _dims(r["logical_mesh"]), _s(r["modeled_s"]),
                      measured, ratio, *(_s(medians.get(k)) for k in KINDS)])
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    text = ["  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() for line in lines]
    return "\n".join(text + notes)


def describe_ranking(rank: dict) -> str:
    """A :func:`compare_rankings` result in words (the stage timing's summary and the
    comparison table's)."""
    tau = "undefined" if rank["kendall_tau"] is None else f"{rank['kendall_tau']:.2f}"
    return (f"ranks the stages {'as' if rank['same_order'] else 'unlike'} measured "
            f"({rank['discordant']} of {rank['pairs']} pairs swapped, ties within "
            f"{rank['tolerance']:.0%} may swap; Kendall's tau {tau})")


def summary(rows: list[dict]) -> tuple[str, dict | None]:
    timed = [r for r in rows if r["status"] == "ok"]
    if len(timed) < 2:
        return f"{len(timed)} stage(s) timed: no ranking", None
    rank = compare_rankings(timed)
    return f"{len(timed)} timed stages: the model {describe_ranking(rank)}", rank


def environment(available: list) -> dict:
    import jax
    import jaxlib

    d = available[0] if available else jax.devices()[0]
    return {"backend": jax.default_backend(), "platform": d.platform,
            "device_kind": d.device_kind, "devices_used": len(available),
            "jax_version": jax.__version__, "jaxlib_version": jaxlib.__version__,
            "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "command": shlex.join([Path(sys.executable).name, "-m", "alpa_mlir.stage_timing",
                                   *sys.argv[1:]])}


# ------------------------------------------------------------------ command line

def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m alpa_mlir.stage_timing",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("plans", nargs="+", metavar="PLANNED.mlir",
                   help="modules planned by alpa-auto-shard")
    p.add_argument("--devices", type=int, default=8,
                   help="use at most the first N devices (on CPU: N virtual devices)")
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--iterations", type=int, default=10)
    p.add_argument("--json", metavar="OUT.json", help="write rows, ranking and environment")
    p.add_argument("--label", help="name of this run (table heading and JSON)")
    p.add_argument("--compile-workers", type=int, default=1, metavar="N",
                   help="compile each module's programs N at a time before timing them")
    p.add_argument("--time-limit", type=float, metavar="SECONDS",
                   help="start no stage after this long (the rest are listed as skipped)")
    p.add_argument("--profile", action="store_true",
                   help="after the timed runs, one run of each program under JAX's profiler: "
                        "its time per XLA op (top_ops in the JSON, the longest on stderr)")
    a = p.parse_args(argv)
    if a.iterations < 1 or a.warmup < 0 or a.devices < 1 or a.compile_workers < 1:
        p.error("--iterations, --devices and --compile-workers must be >= 1, --warmup >= 0")

    from .xla_exec import ensure_host_devices

    ensure_host_devices(a.devices)  # CPU only; before JAX starts
    import jax

    available = sorted(jax.devices(), key=lambda d: d.id)[:a.devices]
    env = environment(available)
    progress(f"{len(available)} {env['platform']} device(s) ({env['device_kind']}), "
             f"jax {env['jax_version']}")

    def write_json(rows: list[dict], complete: bool) -> None:
        if a.json:
            errors = [r for r in rows if r["status"] == "error"]
            rank = summary(rows)[1]
            out = {"label": a.label, **env, "warmup": a.warmup, "iterations": a.iterations,
                   "seed": SEED, "rows": rows, "ranking": rank,
                   "ok": complete and not errors, "complete": complete}
            Path(a.json).write_text(json.dumps(out, indent=1) + "\n")

    try:
        rows = time_modules(a.plans, available, a.warmup, a.iterations,
                            time_limit=a.time_limit,
                            on_row=lambda rows: write_json(rows, complete=False),
                            compile_workers=a.compile_workers, profile=a.profile)
    except (OSError, ValueError) as e:
        print(f"error: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    line, rank = summary(rows)
    if a.label:
        print(a.label)
    print(table(rows))
    print(line)
    errors = [r for r in rows if r["status"] == "error"]
    write_json(rows, complete=True)
    for r in errors:
        print(f"error: stage {r['stage']} of {r['module']}: {r['reason']}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
