"""The stage model's compute against XLA's own count (issue 12, the part that needs no GPU).

A one-device stage's modeled latency is its compute alone, FLOPs over the device's peak; on a
device of 1 TFLOP/s in every type it is the stage's FLOPs / 1e12. XLA's cost analysis of the
stage's forward, backward and apply executables counts the work XLA will run. The two agree
within 2% on every stage of the GPT and Wide-ResNet pipeline fixtures: dots, and convolutions
with strides and padding whose gradients are lhs-dilated (the model once counted the taps on
padding and dilation holes too: 1.06 to 1.81 times XLA's count on these Wide-ResNet stages).
With ``-s`` each stage's ratio is printed.
"""

from __future__ import annotations

import json

import jax
import pytest

from alpa_mlir.stage_compare import FLAT_FLOPS, one_tflops_cluster
from alpa_mlir.stage_timing import program_cost, read_plan
from conftest import REPO_ROOT
from pipeline_fixtures import run_alpa_opt

LAYERS = 4
TOLERANCE = 0.02


def _cluster(tmp_path) -> str:
    path = tmp_path / "one-tflops.json"
    path.write_text(json.dumps(one_tflops_cluster(LAYERS)))
    return str(path)


@pytest.mark.parametrize("fixture", ["gpt_pipeline", "wresnet_pipeline"])
def test_modeled_stage_flops_match_xla_cost_analysis(fixture, tmp_path):
    stages = ",".join(f"{k}..{k + 1}@1x1" for k in range(LAYERS))
    out = tmp_path / "planned.mlir"
    run_alpa_opt(REPO_ROOT / "lit-tests" / "inputs" / f"{fixture}.mlir", out,
                 f"--alpa-auto-shard=cluster={_cluster(tmp_path)} layers={LAYERS} "
                 f"stages={stages} lower-transfers=false")
    planned = read_plan(out.read_text())
    assert len(planned) == LAYERS
    device, cache = jax.devices()[:1], {}
    ratios = {}
    for stage in planned:
        assert set(stage.programs) == {"forward", "backward", "apply"}
        xla = sum(program_cost(p, device, cache)["xla_flops"] for p in stage.programs.values())
        modeled = stage.modeled_s * FLAT_FLOPS
        assert modeled > 1e6
        ratios[stage.index] = modeled / xla
        print(f"{fixture} stage {stage.index}: modeled {modeled:.4g} FLOPs, XLA {xla:.4g}, "
              f"modeled / XLA {modeled / xla:.4f}")
    off = {k: r for k, r in ratios.items() if abs(r - 1) > TOLERANCE}
    assert not off, f"modeled / XLA FLOPs off by more than {TOLERANCE:.0%}: {off}"
