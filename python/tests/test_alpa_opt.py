"""Where the bridge finds alpa-opt: `$ALPA_OPT`, else `alpa-opt` on PATH, else the checkout's
build; and a missing binary is a clear AlpaOptError."""

from __future__ import annotations

import pytest

from alpa_mlir import alpa_opt


def _fake_binary(directory):
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "alpa-opt"
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return path


def test_env_then_path_then_checkout(monkeypatch, tmp_path):
    on_path = _fake_binary(tmp_path / "bin")
    monkeypatch.setenv("PATH", str(on_path.parent))
    monkeypatch.setenv("ALPA_OPT", str(tmp_path / "chosen" / "alpa-opt"))
    assert alpa_opt.alpa_opt_path() == tmp_path / "chosen" / "alpa-opt"
    monkeypatch.delenv("ALPA_OPT")
    assert alpa_opt.alpa_opt_path() == on_path
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert alpa_opt.alpa_opt_path() == alpa_opt._CHECKOUT_BUILD


def test_relative_env_is_relative_to_the_working_directory(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ALPA_OPT", "build/alpa-opt")
    assert alpa_opt.alpa_opt_path() == tmp_path / "build" / "alpa-opt"


def test_missing_binary_is_an_error(tmp_path):
    src = tmp_path / "m.mlir"
    src.write_text("module {}\n")
    with pytest.raises(alpa_opt.AlpaOptError, match="not found or not runnable"):
        alpa_opt.shard_module(src, "2x4", opt=tmp_path / "missing", workdir=tmp_path, retries=1)
