"""The stage timing tool (`alpa_mlir.stage_timing`, issue 12): every stage of a plan's
`alpa.pipeline` is timed as its forward, backward and apply programs on the first devices,
with the modeled latency beside it; stages that do not fit are skipped, non-finite results
and compilation failures are errors naming the program; and the ranking comparison."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys

import jax
import numpy as np
import pytest

from alpa_mlir.module_info import TensorSpec
from alpa_mlir.op_profile import op_times
from alpa_mlir.hints import Hint
from alpa_mlir.stage_timing import (KINDS, Feed, StageTimingError, compare_rankings, host_inputs,
                                    precompile, read_plan, time_modules, time_program, time_stage,
                                    with_domains)
from conftest import DATA_DIR, REPO_ROOT
from pipeline_fixtures import run_alpa_opt

CLUSTER = DATA_DIR / "cluster-1x8.json"  # one host of 8 devices
PYTHON_DIR = REPO_ROOT / "python"


@pytest.fixture(scope="module")
def planned(tmp_path_factory):
    """The MLP fixture planned in 4 layers on 8 devices, transfers not lowered (at the time
    of writing: stages on 4, 2, 1 and 1 devices)."""
    tmp = tmp_path_factory.mktemp("stage-timing")
    out = tmp / "planned.mlir"
    run_alpa_opt(REPO_ROOT / "lit-tests" / "inputs" / "mlp.mlir", out,
                 f"--alpa-auto-shard=cluster={CLUSTER} microbatches=2 layers=4 "
                 "lower-transfers=false")
    return out


@pytest.fixture(scope="module")
def compiled():
    """Executables shared by the in-process runs of this file."""
    return {}


def _pipeline_attr(text: str) -> list[tuple[float, list[int]]]:
    """(latency, devices) of each stage of @main's alpa.pipeline, read from the text."""
    body = re.search(r"alpa\.pipeline = \[(.*?)\]", text).group(1)
    return [(float(lat), [int(d) for d in devs.split(",")])
            for devs, lat in re.findall(r"devices = array<i64: ([0-9, ]+)>, latency = (\S+) : f64",
                                        body)]


def _cli(*args, timeout=300):
    env = dict(os.environ, PYTHONPATH=str(PYTHON_DIR))
    return subprocess.run([sys.executable, "-m", "alpa_mlir.stage_timing", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, env=env)


def test_every_stage_is_timed_beside_its_modeled_latency(planned, compiled):
    stages = _pipeline_attr(planned.read_text())
    assert len(stages) >= 2
    rows = time_modules([planned], sorted(jax.devices(), key=lambda d: d.id)[:8],
                        warmup=1, iterations=3, cache=compiled)
    assert [r["stage"] for r in rows] == list(range(len(stages)))
    assert [r["modeled_s"] for r in rows] == [lat for lat, _ in stages]
    assert [r["devices"] for r in rows] == [devs for _, devs in stages]
    for r in rows:
        assert r["status"] == "ok", r["reason"]
        progs = r["programs"].values()
        for p in progs:
            assert len(p["times_s"]) == 3
            assert 0 < p["min_s"] <= p["median_s"] and math.isfinite(p["median_s"])
        assert r["measured_s"] == pytest.approx(sum(p["median_s"] for p in progs))
        assert r["measured_min_s"] == pytest.approx(sum(p["min_s"] for p in progs))
        assert r["ratio"] == pytest.approx(r["measured_s"] / r["modeled_s"])


def test_each_program_carries_xla_flops_and_bytes(planned, compiled):
    rows = time_modules([planned], sorted(jax.devices(), key=lambda d: d.id)[:8],
                        warmup=0, iterations=1, cache=compiled)
    forward = rows[0]["programs"]["stage0_forward"]
    assert forward["xla_flops"] > 0 and forward["xla_bytes_accessed"] > 0


def test_rows_so_far_are_handed_on_after_each_stage(planned, compiled):
    seen = []
    rows = time_modules([planned], sorted(jax.devices(), key=lambda d: d.id)[:8],
                        warmup=0, iterations=1, cache=compiled,
                        on_row=lambda so_far: seen.append([r["stage"] for r in so_far]))
    assert seen == [[r["stage"] for r in rows[:n]] for n in range(1, len(rows) + 1)]


def test_parallel_compilation_fills_the_cache_the_timing_uses(planned):
    available = sorted(jax.devices(), key=lambda d: d.id)[:8]
    stages = read_plan(planned.read_text())
    cache = {}
    precompile(stages, available, cache, workers=3)
    programs = [p for s in stages for p in s.programs.values()]
    assert len([k for k in cache if isinstance(k, tuple) and len(k) == 2]) == len(programs)
    before = dict(cache)
    rows = time_modules([planned], available, warmup=0, iterations=1, cache=cache,
                        compile_workers=3)
    assert all(r["status"] == "ok" for r in rows)
    assert all(cache[k] is before[k] for k in before)  # nothing compiled twice


def test_precompile_leaves_failures_to_the_timing():
    body = ('    %r = stablehlo.custom_call @no_such_target_for_stage_timing(%arg0) : '
            '(tensor<4xf32>) -> tensor<4xf32>')
    stages = read_plan(_hand_planned(body))
    cache = {}
    precompile(stages, jax.devices()[:2], cache, workers=2)  # raises nothing
    device = (jax.devices()[0].id,)  # both stages are one-device stages: the first device
    compiled = {name for s in stages for name, prog in
                ((p.name, p) for p in s.programs.values()) if (prog.module_text, device) in cache}
    assert compiled == {f"stage{k}_{kind}" for k in (0, 1) for kind in KINDS} - {"stage0_backward"}
    with pytest.raises(StageTimingError, match="@stage0_backward: compilation failed"):
        time_stage(stages[0], jax.devices()[:1], 0, 1, cache)


def test_host_inputs_are_drawn_once_per_shape_type_and_domain():
    cache = {}
    w = TensorSpec((3, 4), "f32")
    specs = [w, TensorSpec((3, 4), "f32"), TensorSpec((3, 4), "f32", nonnegative=True),
             TensorSpec((3, 4), "bf16"), TensorSpec((2,), "i32", int_bound=5)]
    a = host_inputs(specs, cache)
    assert a[0] is a[1]  # same shape, type and domain: one array
    assert len({id(x) for x in a}) == 4
    assert (a[2] >= 0).all() and str(a[3].dtype) == "bfloat16"
    assert ((0 <= a[4]) & (a[4] < 5)).all()
    assert all(x is y for x, y in zip(host_inputs(specs, cache), a))  # drawn once
    again = host_inputs(specs, {})
    assert all((x == y).all() for x, y in zip(again, a))  # seeded


def test_the_programs_timed_are_the_stage_functions_on_the_first_devices(planned, compiled):
    text = planned.read_text()
    functions = set(re.findall(r"func\.func private @(stage\d+_\w+)\(", text))
    rows = time_modules([planned], sorted(jax.devices(), key=lambda d: d.id)[:8],
                        warmup=0, iterations=1, cache=compiled)
    timed = set()
    for r in rows:
        k = r["stage"]
        assert list(r["programs"]) == [f"stage{k}_{kind}" for kind in KINDS]
        timed |= set(r["programs"])
        for p in r["programs"].values():  # global devices [d0, d1, ...] run on 0, 1, ...
            assert p["devices"] == list(range(len(r["devices"])))
    assert timed == functions
    # The mapping is exercised: some stage was planned away from device 0.
    assert any(r["devices"][0] != 0 for r in rows)


def test_stages_after_the_time_limit_are_skipped(planned, compiled):
    available = sorted(jax.devices(), key=lambda d: d.id)[:8]
    rows = time_modules([planned], available, warmup=0, iterations=1, cache=compiled,
                        time_limit=0.0)
    # The first stage always runs; when it ends the limit has passed, so no other starts.
    assert rows[0]["status"] == "ok"
    assert len(rows) > 1 and all(r["status"] == "skipped" for r in rows[1:])
    assert all(r["reason"] == "time limit of 0 s reached" for r in rows[1:])


def test_a_stage_with_more_devices_than_available_is_skipped(planned, compiled):
    sizes = [len(devs) for _, devs in _pipeline_attr(planned.read_text())]
    assert max(sizes) > min(sizes), "the fixture plan should mix stage sizes"
    available = sorted(jax.devices(), key=lambda d: d.id)[:max(sizes) - 1]
    rows = time_modules([planned], available, warmup=0, iterations=1, cache=compiled)
    for r, size in zip(rows, sizes):
        if size > len(available):
            assert r["status"] == "skipped"
            assert r["reason"] == f"needs {size} devices, {len(available)} available"
            assert r["programs"] == {} and r["measured_s"] is None
        else:
            assert r["status"] == "ok" and r["measured_s"] > 0


def test_command_line_table_and_json(planned, tmp_path):
    out = tmp_path / "timing.json"
    r = _cli(planned, "--devices", 2, "--warmup", 0, "--iterations", 2, "--json", out,
             "--label", "cpu check")
    assert r.returncode == 0, r.stderr[-3000:]
    assert "[stage-timing]" in r.stderr
    rep = json.loads(out.read_text())
    assert rep["ok"] is True and rep["complete"] is True and rep["label"] == "cpu check"
    assert rep["platform"] == "cpu" and rep["device_kind"] == jax.devices()[0].device_kind
    assert rep["jax_version"] == jax.__version__ and rep["devices_used"] == 2
    assert "alpa_mlir.stage_timing" in rep["command"] and "--devices 2" in rep["command"]
    statuses = [row["status"] for row in rep["rows"]]
    assert "skipped" in statuses and statuses.count("ok") >= 2
    assert rep["ranking"]["pairs"] == math.comb(statuses.count("ok"), 2)
    lines = r.stdout.splitlines()
    assert lines[0] == "cpu check" and lines[1].split()[:3] == ["module", "stage", "layers"]
    table = [line for line in lines if re.match(r"planned\.mlir +\d+ +\d+\.\.\d+ ", line)]
    assert len(table) == len(rep["rows"])
    skipped = [row for row in rep["rows"] if row["status"] == "skipped"]
    assert sum("SKIPPED" in line for line in table) == len(skipped)
    assert f"planned.mlir stage {skipped[0]['stage']}: skipped: needs" in r.stdout
    assert "Kendall's tau" in lines[-1]


# ------------------------------------------------------------- honesty

def _hand_planned(backward_body: str) -> str:
    """Two one-device stages (planned on devices 3 and 5); stage 0's backward is
    ``backward_body`` (from %arg0 to %r), everything else is finite."""
    t = "tensor<4xf32>"

    def fn(name, device, body):
        return (f"  func.func private @{name}(%arg0: {t}) -> {t} attributes "
                f"{{alpa.devices = array<i64: {device}>}} {{\n{body}\n    return %r : {t}\n  }}\n")

    double = f"    %r = stablehlo.add %arg0, %arg0 : {t}"
    stages = [fn(f"stage{k}_{kind}", dev, backward_body if (k, kind) == (0, "backward")
                 else double) for k, dev in ((0, 3), (1, 5)) for kind in KINDS]
    pipeline = ", ".join(f"{{devices = array<i64: {d}>, latency = {lat} : f64, layers = "
                         f"array<i64: {k}, {k + 1}>, logical_mesh = array<i64: 1, 1>, "
                         f"submesh = array<i64: 1, 1>}}"
                         for k, (d, lat) in enumerate(((3, 1.0e-3), (5, 2.0e-3))))
    return ("module {\n" + "".join(stages)
            + f"  func.func public @main(%arg0: {t}) -> {t} attributes "
              f"{{alpa.pipeline = [{pipeline}]}} {{\n"
              f"    %0 = call @stage0_forward(%arg0) : ({t}) -> {t}\n"
              f"    %r = call @stage1_forward(%0) : ({t}) -> {t}\n    return %r : {t}\n  }}\n}}\n")


# sqrt(x - 1) of inputs in [0, 0.1): NaN whatever the seed.
NAN_BODY = ("    %c = stablehlo.constant dense<1.0> : tensor<4xf32>\n"
            "    %0 = stablehlo.subtract %arg0, %c : tensor<4xf32>\n"
            "    %r = stablehlo.sqrt %0 : tensor<4xf32>")


def test_finite_hand_written_plan_is_timed(compiled):
    stages = read_plan(_hand_planned("    %r = stablehlo.multiply %arg0, %arg0 : tensor<4xf32>"))
    assert [(s.devices, s.modeled_s) for s in stages] == [([3], 1.0e-3), ([5], 2.0e-3)]
    row = time_stage(stages[0], jax.devices()[:1], 0, 2, compiled)
    assert row["status"] == "ok" and row["programs"]["stage0_backward"]["median_s"] > 0


def test_non_finite_results_fail_the_stage_naming_the_program(compiled):
    stage0, stage1 = read_plan(_hand_planned(NAN_BODY))
    with pytest.raises(StageTimingError, match=r"@stage0_backward: non-finite results "
                                               r"\(output 0: 4 non-finite\)"):
        time_stage(stage0, jax.devices()[:1], 0, 2, compiled)
    assert time_stage(stage1, jax.devices()[:1], 0, 2, compiled)["status"] == "ok"


def test_command_line_exits_non_zero_on_a_non_finite_stage(tmp_path):
    plan = tmp_path / "nan.mlir"
    plan.write_text(_hand_planned(NAN_BODY))
    out = tmp_path / "nan.json"
    r = _cli(plan, "--devices", 1, "--warmup", 0, "--iterations", 1, "--json", out)
    assert r.returncode == 1, r.stdout + r.stderr[-3000:]
    assert "@stage0_backward: non-finite" in r.stderr
    rep = json.loads(out.read_text())
    assert rep["ok"] is False
    assert [row["status"] for row in rep["rows"]] == ["error", "ok"]
    assert "ERROR" in r.stdout


def _forward_backward_plan(forward_body: str, backward_body: str) -> str:
    """One stage on device 0 whose @main feeds the forward's result to the backward and
    both to the apply (each body goes from %arg0 to %r)."""
    t = "tensor<4xf32>"

    def fn(kind, body):
        return (f"  func.func private @stage0_{kind}(%arg0: {t}) -> {t} attributes "
                f"{{alpa.devices = array<i64: 0>}} {{\n{body}\n    return %r : {t}\n  }}\n")

    add = f"    %r = stablehlo.add %arg0, %arg0 : {t}"
    return ("module {\n" + fn("forward", forward_body) + fn("backward", backward_body)
            + fn("apply", add)
            + f"  func.func public @main(%arg0: {t}) -> {t} attributes {{alpa.pipeline = "
              "[{devices = array<i64: 0>, latency = 1.0e-3 : f64, layers = array<i64: 0, 1>, "
              "logical_mesh = array<i64: 1, 1>, submesh = array<i64: 1, 1>}]} {\n"
              f"    %0 = call @stage0_forward(%arg0) : ({t}) -> {t}\n"
              f"    %1 = call @stage0_backward(%0) : ({t}) -> {t}\n"
              f"    %r = call @stage0_apply(%arg0) : ({t}) -> {t}\n    return %r : {t}\n  }}\n}}\n")


# log of a residual the forward makes positive: NaN on half the random values in [-0.1, 0.1).
EXP = "    %r = stablehlo.exponential %arg0 : tensor<4xf32>"
LOG = "    %r = stablehlo.log %arg0 : tensor<4xf32>"


def test_the_backward_runs_on_its_forwards_results():
    (stage,) = read_plan(_forward_backward_plan(EXP, LOG))
    assert stage.feeds == {"forward": {}, "backward": {0: Feed("forward", True, 0)},
                           "apply": {0: Feed("forward", False, 0)}}
    row = time_stage(stage, jax.devices()[:1], 0, 1, {})
    assert row["status"] == "ok"
    assert [p["fed_inputs"] for p in row["programs"].values()] == [0, 1, 1]


def test_a_backward_on_random_residuals_is_what_goes_non_finite():
    """The same programs with @main not feeding the backward: the check that the feed
    above is what keeps the log finite (the random draw makes it NaN)."""
    (stage,) = read_plan(_forward_backward_plan(EXP, LOG).replace(
        "call @stage0_backward(%0)", "call @stage0_backward(%arg0)"))
    assert stage.feeds["backward"] == {0: Feed("forward", False, 0)}
    stage.feeds = {}
    with pytest.raises(StageTimingError, match="@stage0_backward: non-finite"):
        time_stage(stage, jax.devices()[:1], 0, 1, {})


def test_compilation_failure_names_the_program(compiled):
    body = ('    %r = stablehlo.custom_call @no_such_target_for_stage_timing(%arg0) : '
            '(tensor<4xf32>) -> tensor<4xf32>')
    stage0 = read_plan(_hand_planned(body))[0]
    with pytest.raises(StageTimingError, match="@stage0_backward: compilation failed"):
        time_stage(stage0, jax.devices()[:1], 0, 1, compiled)


def test_a_module_without_alpa_pipeline_is_refused():
    text = _hand_planned(NAN_BODY)
    text = re.sub(r" attributes \{alpa\.pipeline = \[.*\]\}", "", text)
    with pytest.raises(ValueError, match="no alpa.pipeline"):
        read_plan(text)


# ------------------------------------------------------------- rankings

def _rows(modeled, measured):
    return [{"modeled_s": m, "measured_s": t, "stage": i}
            for i, (m, t) in enumerate(zip(modeled, measured))]


@pytest.mark.parametrize("modeled, measured, same, tau", [
    ([1, 2, 3], [10, 20, 30], True, 1.0),
    ([1, 2, 3], [30, 20, 10], False, -1.0),
    ([3, 1, 2], [0.3, 0.1, 0.2], True, 1.0),         # the rows' own order does not matter
    ([1, 2, 3], [10, 30, 20], False, 1 / 3),         # 2 concordant, 1 discordant pair
    ([1.0, 1.005, 2.0], [20, 10, 30], True, 2 / math.sqrt(6)),  # tie in modeled: may swap
    ([1, 2, 3], [10, 10.05, 30], True, 2 / math.sqrt(6)),       # tie in measured
    ([1, 2, 3], [10, 10.05, 5], False, -2 / math.sqrt(6)),      # a tie does not excuse others
    ([1.0, 1.02], [2.0, 1.0], False, -1.0),          # 2% apart is no tie
    ([1.0, 1.001], [5.0, 6.0], True, None),           # every pair tied in modeled
])
def test_compare_rankings(modeled, measured, same, tau):
    got = compare_rankings(_rows(modeled, measured))
    assert got["same_order"] is same
    if tau is None:
        assert got["kendall_tau"] is None
    else:
        assert got["kendall_tau"] == pytest.approx(tau)


# ------------------------------------------------------------- time per XLA op

def _trace(*events):
    meta = [{"ph": "M", "pid": 1, "name": "process_name", "args": {"name": "/host:CPU"}},
            {"ph": "M", "pid": 2, "name": "process_name", "args": {"name": "/device:GPU:0"}}]
    return {"traceEvents": meta + list(events)}


def _span(pid, name, dur_us, op=None):
    return {"ph": "X", "pid": pid, "tid": 1, "ts": 0.0, "dur": dur_us, "name": name,
            "args": {"hlo_op": op} if op else {}}


def test_op_times_sum_each_kernels_device_events_longest_first():
    trace = _trace(_span(2, "kernel_a", 300.0, "command_buffer"), _span(2, "gemm", 50.0, "dot.2"),
                   _span(2, "kernel_a", 100.0, "command_buffer"), _span(1, "launch", 999.0, "dot.2"),
                   _span(1, "python", 5000.0))
    assert op_times(trace) == [
        {"op": "kernel_a", "count": 2, "total_s": pytest.approx(400e-6), "hlo_op": "command_buffer"},
        {"op": "gemm", "count": 1, "total_s": pytest.approx(50e-6), "hlo_op": "dot.2"}]
    assert [o["op"] for o in op_times(trace, top=1)] == ["kernel_a"]


def test_op_times_read_host_events_by_xla_op_without_a_device_and_skip_end_markers():
    trace = _trace(_span(1, "dot", 20.0, "dot.3"), _span(1, "end: dot", 1.0, "dot.3"),
                   _span(1, "python", 5000.0))
    assert op_times(trace) == [{"op": "dot.3", "count": 1, "total_s": pytest.approx(20e-6),
                                "hlo_op": "dot.3"}]
    assert op_times({"traceEvents": []}) == []


def test_profile_gives_each_program_its_time_per_xla_op(planned, compiled):
    rows = time_modules([planned], sorted(jax.devices(), key=lambda d: d.id)[:8],
                        warmup=0, iterations=1, cache=compiled, profile=True)
    for row in rows:
        for name, p in row["programs"].items():
            ops = p["top_ops"]
            assert ops and p["ops_count"] >= len(ops), name
            assert all(o["total_s"] > 0 and o["count"] >= 1 for o in ops), name
            assert [o["total_s"] for o in ops] == sorted((o["total_s"] for o in ops), reverse=True)
            assert p["ops_total_s"] >= sum(o["total_s"] for o in ops) * (1 - 1e-9)
    # Without the option no run is profiled.
    plain = time_modules([planned], sorted(jax.devices(), key=lambda d: d.id)[:8],
                         warmup=0, iterations=1, cache=compiled)
    assert all("top_ops" not in p for r in plain for p in r["programs"].values())


# ------------------------------------------------------------- argument domains

def _ids_plan(main_arg_attrs: str, microbatch: bool = False) -> str:
    """One stage whose forward returns the largest of 4096 token ids @main passes it (with
    ``microbatch``: the first half of its 8192 ids, sliced as a microbatch is)."""
    ids, out = "tensor<4096xi32>", "tensor<i32>"
    body = ("    %c = stablehlo.constant dense<0> : tensor<i32>\n"
            f"    %r = stablehlo.reduce(%arg0 init: %c) applies stablehlo.maximum across dimensions = [0]"
            f" : ({ids}, {out}) -> {out}\n")
    fns = "".join(
        f"  func.func private @stage0_{kind}(%arg0: {ids}) -> {out} attributes "
        f"{{alpa.devices = array<i64: 0>}} {{\n{body}    return %r : {out}\n  }}\n" for kind in KINDS)
    pipeline = ("{devices = array<i64: 0>, latency = 1.0e-3 : f64, layers = array<i64: 0, 1>, "
                "logical_mesh = array<i64: 1, 1>, submesh = array<i64: 1, 1>}")
    return ("module {\n" + fns
            + f"  func.func public @main(%arg0: {'tensor<8192xi32>' if microbatch else ids}"
              f"{main_arg_attrs}) -> {out} attributes {{alpa.pipeline = [{pipeline}]}} {{\n"
            + (f"    %s = \"stablehlo.slice\"(%arg0) {{limit_indices = array<i64: 4096>, start_indices "
               f"= array<i64: 0>, strides = array<i64: 1>}} : (tensor<8192xi32>) -> {ids}\n"
               if microbatch else "")
            + f"    %0 = call @stage0_forward({'%s' if microbatch else '%arg0'}) : ({ids}) -> {out}\n"
              f"    return %0 : {out}\n  }}\n}}\n")


def test_inputs_from_main_arguments_are_drawn_from_their_domain():
    (stage,) = read_plan(_ids_plan(" {alpa.input_int_bound = 51200 : i64}"))
    assert stage.arg_domains["forward"][0].int_bound == 51200
    (sliced,) = read_plan(_ids_plan(" {alpa.input_int_bound = 51200 : i64}", microbatch=True))
    assert sliced.arg_domains["forward"][0].int_bound == 51200
    assert "backward" not in stage.arg_domains  # @main does not call it
    run = time_program(stage.programs["forward"], jax.devices()[:1], 0, 1, {},
                       domains=stage.arg_domains["forward"])
    largest = int(np.asarray(run.outputs[0]))
    assert 51200 * 0.9 < largest < 51200, largest
    # Without the hint the ids come from [0, 2), as before: the domain is what changed.
    (plain,) = read_plan(_ids_plan(""))
    assert plain.arg_domains == {"forward": {}}
    run = time_program(plain.programs["forward"], jax.devices()[:1], 0, 1, {})
    assert int(np.asarray(run.outputs[0])) <= 1


def test_a_programs_own_bound_wins_over_mains():
    specs = [TensorSpec((4,), "i32", int_bound=7), TensorSpec((4,), "i32"), TensorSpec((4,), "f32")]
    out = with_domains(specs, {0: Hint(100), 1: Hint(100), 2: Hint(None, True)})
    assert [(s.int_bound, s.nonnegative) for s in out] == [(7, False), (100, False), (None, True)]
    assert specs[1].int_bound is None  # the program's cached specs are left alone
