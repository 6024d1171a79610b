"""Shared setup: 8 virtual CPU devices (before JAX is imported anywhere), paths,
and a cache of single-device results of the committed fixtures so that each
fixture is compiled by XLA at most once per session for them."""

from __future__ import annotations

import functools
import os
from pathlib import Path

from alpa_mlir.xla_exec import ensure_host_devices

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
    from alpa_mlir.fixtures import fixture_path
    from alpa_mlir.input_domains import make_inputs
    from alpa_mlir.module_info import parse_module
    from alpa_mlir.xla_exec import run_on_one_device

    info = parse_module(fixture_path(stem).read_text())
    inputs = make_inputs(info.inputs, seed=0)
    return info, inputs, run_on_one_device(info, inputs)


@pytest.fixture(params=fixture_stems())
def fixture_stem(request):
    return request.param
