"""Pipelined modules for the tests: a model exported at microbatch size and run
through `alpa-inline` + `alpa-inter-op-stage`."""

from __future__ import annotations

import subprocess

import pytest

from alpa_mlir import validate as V


def export_step(model: str, preset: str, overrides: dict) -> str:
    from alpa_mlir import models
    from alpa_mlir.export import export

    step = models.MODELS[model](preset=preset, **overrides)
    return export(step.step_fn, *step.args, hints=step.hints, debug_info=False)


def pipeline(text: str, tmp_path, options: str) -> str:
    opt = V.alpa_opt_path()
    if not opt.exists():
        pytest.skip(f"alpa-opt not found at {opt}")
    src = tmp_path / "micro.mlir"
    out = tmp_path / "pipelined.mlir"
    src.write_text(text)
    cmd = [str(opt), str(src), "--alpa-inline", f"--alpa-inter-op-stage={options}", "-o", str(out)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-4000:]
    return out.read_text()
