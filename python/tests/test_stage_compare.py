"""The comparison table of issue 12 (`alpa_mlir.stage_compare`): every timed stage beside its
latency modeled with the preset (read from the timed module) and with the measured cluster
file (the case planned again on it, as one host of as many GPUs as the stages use); the
ratios, the count within 1.5x and the rankings."""

from __future__ import annotations

import json

import pytest

from alpa_mlir.stage_compare import (Case, as_host_of, compare, hbm_bandwidth, markdown,
                                     modeled_latencies, one_tflops_cluster, read_cases)
from conftest import REPO_ROOT

MLP = str(REPO_ROOT / "lit-tests" / "inputs" / "mlp.mlir")
STAGES = "0..1@1x1,1..2@1x1,2..3@1x1,3..4@1x1"
OPTIONS = f"layers=4 stages={STAGES} lower-transfers=false"
MEASURED = REPO_ROOT / "lit-tests" / "inputs" / "cluster-2xa100.json"  # stands in for one


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("stage-compare")
    (tmp / "cases.tsv").write_text("case\tinput\tcluster\toptions\n"
                                   f"mlp\t{MLP}\th100-x1-as-4\t{OPTIONS}\n")
    return read_cases(tmp / "cases.tsv")["mlp"]


def _timings(modeled: list[float], measured: list[float], statuses=None) -> dict:
    """A timing file of the 4 stages of OPTIONS: the first ones with these numbers, the rest
    skipped (a timing file lists every stage of the plan)."""
    statuses = (statuses or ["ok"] * len(modeled)) + ["skipped"] * (4 - len(modeled))
    modeled, measured = modeled + [1.0] * (4 - len(modeled)), measured + [None] * 4
    rows = [{"module": "target/gpu-compare/cases/mlp.planned.mlir", "stage": i,
             "layers": [i, i + 1], "devices": [i], "modeled_s": m,
             "measured_s": t if s == "ok" else None, "status": s}
            for i, (m, t, s) in enumerate(zip(modeled, measured, statuses))]
    return {"rows": rows, "device_kind": "NVIDIA H100 80GB HBM3", "platform": "gpu",
            "jax_version": "0.11.2", "iterations": 10, "date": "2026-11-27"}


def test_cases_are_read_back(case):
    assert case == Case("mlp", MLP, "h100-x1-as-4", OPTIONS)


def test_the_measured_file_becomes_one_host_of_the_stages_gpus():
    cluster = json.loads(MEASURED.read_text())
    host = as_host_of(cluster, 4)
    assert (host["hosts"], host["devices_per_host"]) == (1, 4)
    assert host["name"] == "two-a100-hosts-as-1x4"
    assert host["device"] == cluster["device"]
    assert cluster["hosts"] == 2  # the file read is not changed


def test_each_timed_stage_gets_the_measured_files_modeled_latency(case, tmp_path):
    on_host = tmp_path / "host.json"
    on_host.write_text(json.dumps(as_host_of(json.loads(MEASURED.read_text()), 4)))
    expected = modeled_latencies(case, str(on_host))
    assert len(expected) == 4 and all(t > 0 for t in expected)
    timings = _timings([1e-3, 2e-3, 3e-3, 4e-3], [1.1e-3, 0, 0, 9e-3],
                       ["ok", "skipped", "error", "ok"])
    rows = compare(timings, {"mlp": case}, MEASURED)
    # Only the timed stages, each with its own stage's latency on the measured file.
    assert [r["stage"] for r in rows] == [0, 3]
    assert [r["modeled_measured_s"] for r in rows] == [expected[0], expected[3]]
    assert [r["modeled_preset_s"] for r in rows] == [1e-3, 4e-3]
    assert [r["measured_s"] for r in rows] == [1.1e-3, 9e-3]


def test_without_a_measured_file_only_the_preset_is_compared(case):
    rows = compare(_timings([1e-3, 2e-3], [1.2e-3, 5e-3]), {"mlp": case}, None)
    assert [r["modeled_measured_s"] for r in rows] == [None, None]
    text = markdown(rows, _timings([1e-3], [1e-3]), "h100-x1", None)
    assert "| mlp | 0 | 0..1 | 1 | - | 1.2 | 1.2 | - |" in text
    assert "| mlp | 1 | 1..2 | 2 | - | 5 | 2.5 | - |" in text
    assert "- preset `h100-x1`: 1 of 2 stages within 1.5x; ranks the stages as measured (0 of 1 " \
           "pairs swapped, ties within 1% may swap; Kendall's tau 1.00)" in text
    assert "- measured file: not available" in text
    assert "NVIDIA H100 80GB HBM3" in text


def test_the_summary_counts_ratios_and_swapped_pairs():
    rows = [{"case": "c", "stage": i, "layers": [i, i + 1], "modeled_preset_s": m,
             "modeled_measured_s": mm, "measured_s": t}
            for i, (m, mm, t) in enumerate([(1.0, 2.0, 2.0), (2.0, 1.0, 1.0), (3.0, 3.0, 3.1)])]
    text = markdown(rows, {}, "p", "measured")
    # preset: 2.0/1.0 = 2 is out, 1.0/2.0 = 0.5 is out, 3.1/3.0 in; stages 0 and 1 swap.
    assert "- preset `p`: 1 of 3 stages within 1.5x; ranks the stages unlike measured " \
           "(1 of 3 pairs swapped" in text
    assert "- measured file: 3 of 3 stages within 1.5x; ranks the stages as measured " \
           "(0 of 3 pairs swapped, ties within 1% may swap; Kendall's tau 1.00)" in text


def test_each_case_gets_its_own_ranking():
    rows = [{"case": case, "stage": i, "layers": [i, i + 1], "modeled_preset_s": m,
             "modeled_measured_s": m, "measured_s": t}
            for case, stages in (("a", [(1.0, 1.0), (2.0, 2.0)]), ("b", [(1.0, 9.0), (2.0, 3.0)]),
                                 ("c", [(5.0, 5.0)]))
            for i, (m, t) in enumerate(stages)]
    text = markdown(rows, {}, "p", "measured")
    # Together a's and b's stages swap pairs; each case alone: a as measured, b swapped
    # (9 against 1 is out of 1.5x, 3 against 2 is in).
    assert "- preset `p`: 4 of 5 stages within 1.5x; ranks the stages unlike measured" in text
    assert "  - `a`, preset: 2 of 2 stages within 1.5x; ranks the stages as measured (0 of 1" in text
    assert "  - `b`, measured file: 1 of 2 stages within 1.5x; ranks the stages unlike measured " \
           "(1 of 1 pairs swapped" in text
    assert "`c`" not in text  # one stage: no order to compare
    assert "when timed" not in text


def test_a_timing_files_own_model_is_compared_too():
    """A timing file planned again by a later model keeps modeled_when_timed_s: the report
    shows both, each with its ratio and ranking."""
    timings = _timings([1e-3, 2e-3], [2e-3, 4e-3])
    for r, then in zip(timings["rows"], [4e-3, 1e-3]):
        r["modeled_when_timed_s"] = then
    rows = [{**r, "case": "mlp", "modeled_preset_s": r["modeled_s"], "modeled_measured_s": None}
            for r in timings["rows"] if r["status"] == "ok"]
    text = markdown(rows, timings, "p", None)
    assert "| measured / model when timed |" in text
    assert "| mlp | 0 | 0..1 | 1 | - | 2 | 2 | - | 0.5 |" in text
    assert "| mlp | 1 | 1..2 | 2 | - | 4 | 2 | - | 4 |" in text
    assert "- the model when timed: 0 of 2 stages within 1.5x; ranks the stages unlike measured" in text
    assert "  - `mlp`, when timed: 0 of 2" in text


def _compare_cli(*args):
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT / "python"))
    return subprocess.run([sys.executable, "-m", "alpa_mlir.stage_compare", *map(str, args)],
                          capture_output=True, text=True, timeout=120, env=env)


def test_missing_files_and_unknown_cases_are_clean_errors(case, tmp_path):
    r = _compare_cli(tmp_path, "--cases", tmp_path / "cases.tsv")
    assert r.returncode == 2 and "error: FileNotFoundError" in r.stderr and "timings.json" in r.stderr
    assert "Traceback" not in r.stderr
    (tmp_path / "timings.json").write_text(json.dumps(_timings([1e-3], [1e-3])))
    (tmp_path / "cases.tsv").write_text("case\tinput\tcluster\toptions\n")
    r = _compare_cli(tmp_path, "--cases", tmp_path / "cases.tsv")
    assert r.returncode == 2 and "has no case mlp" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_model_and_xla_counts_are_summed_per_stage_and_shown_as_rates(case, tmp_path):
    timings = _timings([1e-3, 2e-3], [2e-3, 4e-3])
    for r, (flops, data) in zip(timings["rows"], [(3e12, 6e9), (1e12, 8e9)]):
        r["programs"] = {"stage_forward": {"xla_flops": flops / 3, "xla_bytes_accessed": data / 2},
                         "stage_backward": {"xla_flops": 2 * flops / 3,
                                            "xla_bytes_accessed": data / 2}}
    rows = compare(timings, {"mlp": case}, None)
    assert [(r["xla_flops"], r["xla_bytes"]) for r in rows] == [(3e12, 6e9), (1e12, 8e9)]
    # The model's FLOPs: each stage's latency on a device of 1 TFLOP/s in every type.
    flat = tmp_path / "flat.json"
    flat.write_text(json.dumps(one_tflops_cluster(4)))
    model = [t * 1e12 for t in modeled_latencies(case, str(flat))]
    assert [r["model_flops"] for r in rows] == model[:2] and min(model) > 0
    text = markdown(rows, timings, "h100-x1", None, hbm_bytes_per_s=4e12)
    # stage 0: the model's FLOPs in 2 ms; XLA's 3 TFLOP; 6 GB in 2 ms = 3000 GB/s, 6 GB at
    # 4 TB/s = 1.5 ms.
    assert (f"| mlp | 0 | {model[0] / 1e9:.4g} | {model[0] / 2e-3 / 1e12:.4g} "
            "| 3000 | 6 | 3000 | 1.5 | 2 |") in text
    assert (f"| mlp | 1 | {model[1] / 1e9:.4g} | {model[1] / 4e-3 / 1e12:.4g} "
            "| 1000 | 8 | 2000 | 2 | 4 |") in text
    # Floored by the bytes' time: max(1, 1.5) = 1.5 ms against 2 measured (within 1.5x),
    # max(2, 2) = 2 ms against 4 (not); the preset alone: 2x and 2x, none within.
    assert "- preset `h100-x1`: 0 of 2 stages within 1.5x" in text
    assert "- with the bytes' time as a floor (max of the model and XLA's bytes at the " \
           "measured HBM bandwidth, beside the model's own memory term): 1 of 2 stages within 1.5x" in text
    assert "as a floor" not in markdown(rows, timings, "h100-x1", None)  # no bandwidth
    # A program without counts (an older timing file): nothing is made up.
    del timings["rows"][0]["programs"]["stage_backward"]["xla_flops"]
    rows = compare(timings, {"mlp": case}, None)
    assert rows[0]["xla_flops"] is None and rows[0]["xla_bytes"] == 6e9
    assert f"| {model[0] / 2e-3 / 1e12:.4g} | - | 6 | 3000 | - | 2 |" in markdown(
        rows, timings, "p", None)
    assert hbm_bandwidth({"measured": {"hbm_bytes_per_s": 3e12}}) == 3e12
    assert hbm_bandwidth(None) is None and hbm_bandwidth({"name": "h100-x1"}) is None


def test_a_timing_run_cut_short_says_so(case):
    timings = _timings([1e-3], [1e-3])
    rows = compare(timings, {"mlp": case}, None)
    assert "cut short" not in markdown(rows, timings, "p", None)
    timings["complete"] = False
    assert "The timing run was cut short" in markdown(rows, timings, "p", None)


def test_profiled_programs_show_their_kernels_share_of_the_median(case):
    timings = _timings([1e-3, 2e-3], [2e-3, 4e-3])
    top = [{"op": "gemm", "count": 2, "total_s": 6e-4, "hlo_op": "dot.1"},
           {"op": "softmax", "count": 1, "total_s": 2e-4, "hlo_op": "fusion.3"}]
    timings["rows"][0]["programs"] = {
        "stage0_forward": {"median_s": 1e-3, "ops_total_s": 9e-4, "ops_count": 3, "top_ops": top},
        "stage0_apply": {"median_s": 1e-3, "ops_total_s": 5e-4, "ops_count": 1, "top_ops": top[1:]},
        "stage0_backward": {"median_s": 1e-3}}  # not profiled: left out
    rows = compare(timings, {"mlp": case}, None)
    text = markdown(rows, timings, "p", None)
    assert "| mlp | 0 | stage0_forward | 1 | 0.9 | 0.9 | gemm | 0.6 |" in text
    assert "| mlp | 0 | stage0_apply | 1 | 0.5 | 0.5 | softmax | 0.2 |" in text
    assert "stage0_backward" not in text
    assert "- kernels / median, forward: 0.90 to 0.90 (1 programs)" in text
    assert "- kernels / median, apply: 0.50 to 0.50 (1 programs)" in text
    del timings["rows"][0]["programs"]
    assert "kernels / median" not in markdown(compare(timings, {"mlp": case}, None), timings, "p", None)


def test_xla_overheads_set_by_hand_add_each_programs_dispatch_and_say_so(case, tmp_path):
    timings = _timings([1e-3, 2e-3, 3e-3, 4e-3], [1e-3, 2e-3, 3e-3, 4e-3])
    plain = compare(timings, {"mlp": case}, MEASURED)
    dispatch = 0.25  # seconds: far above anything the stages compute
    what_if = compare(timings, {"mlp": case}, MEASURED, xla_overheads=(dispatch, 0.0))
    for before, after in zip(plain, what_if):
        # Each stage of the train step runs three programs: forward, backward, apply.
        assert after["modeled_measured_s"] == pytest.approx(before["modeled_measured_s"] + 3 * dispatch)
    # A launch time far above every kernel's: each stage's latency is its kernels' count times it.
    launches = compare(timings, {"mlp": case}, MEASURED, xla_overheads=(0.0, 1.0))
    counts = [r["modeled_measured_s"] for r in launches]
    assert all(c >= 3 and c == pytest.approx(round(c), abs=1e-3) for c in counts), counts
    (tmp_path / "timings.json").write_text(json.dumps(timings))
    (tmp_path / "measured.json").write_text(MEASURED.read_text())
    cases = tmp_path / "cases.tsv"
    cases.write_text(f"case\tinput\tcluster\toptions\nmlp\t{MLP}\th100-x1-as-4\t{OPTIONS}\n")
    r = _compare_cli(tmp_path, "--cases", cases, "--xla-overheads", "1e-4,3e-6")
    assert r.returncode == 0, r.stderr
    assert "its XLA overheads set by hand (a what-if, not measured: program dispatch 100 us, " \
           "kernel launch 3 us)" in r.stdout
    r = _compare_cli(tmp_path, "--cases", cases, "--xla-overheads", "1,-2")
    assert r.returncode == 2 and "two non-negative seconds" in r.stderr
