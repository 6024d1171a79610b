"""Issue 13 item 1, layers inside loops: the GPT whose blocks are one flax
``nn.scan`` over stacked weights (preset ``tiny-scan``: one ``stablehlo.while``
forward, one backward) beside its unrolled twin (preset ``tiny``).

- ``alpa-unroll-loops`` leaves no loop and computes what the loop did (XLA, one
  device);
- ``alpa-intra-op-shard`` on a 2x4 mesh (which unrolls first) plans the scan
  step within 10% of the twin's objective, and the sharded step runs on 8
  virtual devices with the outputs of the unsharded scan step and exactly the
  collectives its report predicts. Measured (jaxlib 0.10.2, this repository's
  solver, 2-core CPU): objective 105818.52 for the scan, 111505.97 for the twin
  (the scan's stacked weights update with one collective per stacked tensor
  where the twin needs one per layer);
- the pipeline through ``alpa-auto-shard`` is a strict xfail: the stage
  slicing refuses the plan (see ``test_pipeline_of_the_scan_runs``)."""

from __future__ import annotations

import subprocess

import pytest

from alpa_mlir import run as R
from alpa_mlir import validate as V
from conftest import DATA_DIR
from pipeline_fixtures import alpa_opt, export_step

OBJECTIVE_TOLERANCE = 0.10


@pytest.fixture(scope="module")
def steps(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("scan")
    paths = {}
    for preset in ("tiny", "tiny-scan"):
        paths[preset] = tmp / f"gpt-{preset}.mlir"
        paths[preset].write_text(export_step("gpt", preset, {}))
    return tmp, paths


def test_the_scan_step_has_loops_and_the_twin_none(steps):
    _, paths = steps
    assert paths["tiny-scan"].read_text().count('"stablehlo.while"') == 2
    assert '"stablehlo.while"' not in paths["tiny"].read_text()


def test_unrolling_keeps_the_numerics(steps):
    tmp, paths = steps
    unrolled = tmp / "unrolled.mlir"
    r = subprocess.run([str(alpa_opt()), str(paths["tiny-scan"]), "--alpa-inline",
                        "--alpa-unroll-loops", "-o", str(unrolled)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-4000:]
    assert "unrolled 2 loops into 4 copies" in r.stderr
    text = unrolled.read_text()
    assert '"stablehlo.while"' not in text and '"stablehlo.dynamic_slice"' not in text
    scan = R.parse_module(paths["tiny-scan"].read_text())
    flat = R.parse_module(text)
    inputs = R.make_inputs(scan.inputs, seed=0)
    want = R.execute(R.compile_module(scan.module, 1), inputs, [o.shape for o in scan.outputs])
    got = R.execute(R.compile_module(flat.module, 1), inputs, [o.shape for o in flat.outputs])
    cmp = R.compare_outputs(got, want, rtol=1e-5, atol=1e-6)
    assert cmp["match"], [o for o in cmp["outputs"] if not o["match"]][:5]


@pytest.fixture(scope="module")
def intra_plans(steps):
    alpa_opt()
    tmp, paths = steps
    out = {}
    for preset, path in paths.items():
        wd = tmp / f"intra-{preset}"
        wd.mkdir()
        out[preset] = V.validate(path, "2x4", "sdy", ("time-limit=30",), workdir=wd)
    return out


def test_intra_op_plan_of_the_scan_matches_its_twin(intra_plans):
    scan, twin = intra_plans["tiny-scan"], intra_plans["tiny"]
    assert "error" not in scan, scan.get("error")
    relative = abs(scan["objective"] - twin["objective"]) / twin["objective"]
    assert relative <= OBJECTIVE_TOLERANCE, (scan["objective"], twin["objective"])


def test_intra_op_scan_runs_on_xla_as_planned(intra_plans):
    scan = intra_plans["tiny-scan"]
    assert "error" not in scan, scan.get("error")
    assert scan["numerics"]["match"], V.mismatched_outputs(scan["numerics"])
    assert scan["collectives"]["exact"], V.describe_comparison(scan["collectives"])


@pytest.mark.xfail(strict=True, reason=(
    "alpa-auto-shard on the unrolled scan: 'the stage assignment makes @stage1_backward need "
    "a result of @stage0_backward before the schedule computes it' (measured with microbatches=2 "
    "on cluster-1x8): values the loop carried unchanged (broadcast constants) are shared by "
    "every copy and backward ops of one block land in different layers"))
def test_pipeline_of_the_scan_runs(steps):
    tmp, _ = steps
    micro = tmp / "micro.mlir"
    micro.write_text(export_step("gpt", "tiny-scan", {"batch": 2}))
    r = subprocess.run([str(alpa_opt()), str(micro),
                        f"--alpa-auto-shard=cluster={DATA_DIR / 'cluster-1x8.json'} microbatches=2 "
                        "time-limit=10 lower-transfers=false", "-o", str(tmp / "marked.mlir")],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
