"""Shared setup: 8 virtual CPU devices (before JAX is imported anywhere), paths,
and a cache of single-device results of the committed fixtures so that each
fixture is compiled by XLA at most once per session for them."""

from __future__ import annotations

import functools
import os
from pathlib import Path

from alpa_mlir.run import ensure_host_devices

ensure_host_devices(8)

import pytest  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]
DATA_DIR = Path(__file__).resolve().parent / "data"
MLIR_OPT = Path(os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")) / "mlir-opt"


def fixture_stems():
    from alpa_mlir.fixtures import FIXTURES

    return list(FIXTURES)


@functools.lru_cache(maxsize=None)
def single_device_result(stem: str):
    """(ModuleInfo, inputs, outputs) of a committed fixture run on one device."""
    from alpa_mlir import run as R
    from alpa_mlir.fixtures import fixture_path

    info = R.parse_module(fixture_path(stem).read_text())
    inputs = R.make_inputs(info.inputs, seed=0)
    outputs = R.execute(R.compile_module(info.module, 1), inputs,
                        [o.shape for o in info.outputs])
    return info, inputs, outputs


@pytest.fixture(params=fixture_stems())
def fixture_stem(request):
    return request.param
