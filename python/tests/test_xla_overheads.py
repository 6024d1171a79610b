"""The XLA overheads calibration (`alpa_mlir.xla_overheads`): kernels counted from optimized
HLO, the probe chain, the measurement on the CPU backend, and the command line that writes
`measured.xla` into a cluster file which alpa-opt then reads.

alpa-opt comes from `$ALPA_OPT` (default target/release/alpa-opt); without it the test that
runs it skips, unless `ALPA_REQUIRE_OPT=1`."""

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

from alpa_mlir.module_info import parse_module
from alpa_mlir.stage_timing import _device_inputs, _run
from alpa_mlir.xla_exec import compile_module
from alpa_mlir.xla_overheads import (count_kernels, kernel_count, main, measure,
                                     probe_module)
from conftest import REPO_ROOT
from pipeline_fixtures import alpa_opt

PYTHON_DIR = REPO_ROOT / "python"
CLUSTER = REPO_ROOT / "crates" / "alpa-cluster" / "measured" / "h200-x1-2026-11-27.json"
XLA_KEYS = ["program_dispatch_s", "kernel_launch_s", "runtime"]

# Optimized HLO as XLA prints it, with each kind of instruction: 7 kernels in ENTRY (3
# fusions, a copy, a custom-call, an all-reduce pair, a copy pair) and 2 more in the
# command buffer it calls. The fused computation's instructions are not kernels.
HLO = """\
HloModule jit_step, entry_computation_layout={(f32[1024]{0}, f32[16,16]{1,0})->(f32[1024]{0}, f32[])}

%region_0.1 (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %add.1 = f32[] add(%a, %b)
}

%fused_computation (param_0: f32[1024], param_1: f32[]) -> (f32[1024], f32[]) {
  %param_0 = f32[1024]{0} parameter(0)
  %param_1 = f32[] parameter(1)
  %broadcast.1 = f32[1024]{0} broadcast(%param_1), dimensions={}
  %subtract.1 = f32[1024]{0} subtract(%param_0, %broadcast.1)
  %reduce.1 = f32[] reduce(%subtract.1, %param_1), dimensions={0}, to_apply=%region_0.1
  ROOT %tuple.1 = (f32[1024]{0}, f32[]) tuple(%subtract.1, %reduce.1)
}

%command_buffer (p0: f32[1024], p1: f32[]) -> f32[1024] {
  %p0 = f32[1024]{0} parameter(0)
  %p1 = f32[] parameter(1)
  %loop_fusion.1 = f32[1024]{0} fusion(%p0, %p1), kind=kLoop, calls=%fused_computation.2
  ROOT %loop_fusion.2 = f32[1024]{0} fusion(%loop_fusion.1, %p1), kind=kLoop, calls=%fused_computation.3
}

ENTRY %main.9 (Arg_0.1: f32[1024], Arg_1.2: f32[16,16]) -> (f32[1024], f32[]) {
  %Arg_0.1 = f32[1024]{0} parameter(0)
  %Arg_1.2 = f32[16,16]{1,0} parameter(1)
  %constant.3 = f32[] constant(0)
  %multi_fusion = (f32[1024]{0}, /*index=1*/f32[]) fusion(%Arg_0.1, %constant.3), kind=kInput, calls=%fused_computation
  %get-tuple-element.1 = f32[1024]{0} get-tuple-element(%multi_fusion), index=0
  %get-tuple-element.2 = f32[] get-tuple-element(%multi_fusion), index=1
  %bitcast.1 = f32[256]{0} bitcast(%Arg_1.2)
  %copy.1 = f32[256]{0} copy(%bitcast.1)
  %cublas-gemm.1 = (f32[16,16]{1,0}, s8[0]{0}) custom-call(%Arg_1.2, %Arg_1.2), custom_call_target="__cublas$gemm"
  %all-reduce-start = f32[1024]{0} all-reduce-start(%get-tuple-element.1), replica_groups={}, to_apply=%region_0.1
  %all-reduce-done = f32[1024]{0} all-reduce-done(%all-reduce-start)
  %copy-start = (f32[1024]{0}, f32[1024]{0}, u32[]) copy-start(%all-reduce-done)
  %copy-done = f32[1024]{0} copy-done(%copy-start)
  %call = f32[1024]{0} call(%copy-done, %get-tuple-element.2), to_apply=%command_buffer
  %fusion.1 = f32[1024]{0:T(256)} fusion(%call, %copy.1), kind=kLoop, calls=%fused_computation.4
  %fusion.2 = f32[] fusion(%fusion.1), kind=kInput, calls=%fused_computation.5
  ROOT %tuple.2 = (f32[1024]{0}, f32[]) tuple(%fusion.1, %fusion.2)
}
"""


def test_count_kernels_of_fixed_hlo():
    assert count_kernels(HLO) == 9
    # Only what ENTRY launches: the called command buffer's 2 fusions are kernels, the
    # computation a fusion calls is not.
    without_call = HLO.replace("%call = f32[1024]{0} call(%copy-done, %get-tuple-element.2), "
                               "to_apply=%command_buffer",
                               "%call = f32[1024]{0} bitcast(%copy-done)")
    assert count_kernels(without_call) == 7


def test_count_kernels_rejects_a_missing_callee():
    with pytest.raises(ValueError, match="command_buffer"):
        count_kernels(HLO.replace("%command_buffer (p0", "%other_buffer (p0"))


def _compiled_probe(steps: int):
    info = parse_module(probe_module(steps))
    return compile_module(info.module, 1, shardy=True, devices=jax.devices()[:1])


def test_probes_run_finite_and_the_long_one_has_more_kernels():
    x = np.random.default_rng(0).standard_normal(1024).astype(np.float32)
    kernels = {}
    for steps in (1, 8):
        compiled = _compiled_probe(steps)
        kernels[steps] = kernel_count(compiled)
        (out,) = _run(compiled, _device_inputs(compiled, [x]))
        got = np.asarray(out[0])
        expected = x.astype(np.float64)
        for _ in range(steps):
            expected = np.tanh(expected - expected.mean())
        assert np.isfinite(got).all()
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)
    assert kernels[1] >= 1
    assert kernels[8] > kernels[1]


def test_probe_needs_a_step():
    with pytest.raises(ValueError):
        probe_module(0)


def test_measure_gives_finite_nonnegative_overheads():
    result = measure(jax.devices()[:1], iterations=30, warmup=3)
    small, large = result["probes"]
    assert (small["steps"], large["steps"]) == (1, 64)
    assert large["kernels"] > small["kernels"] >= 1
    assert math.isfinite(result["kernel_launch_s"]) and result["kernel_launch_s"] > 0
    assert math.isfinite(result["program_dispatch_s"]) and result["program_dispatch_s"] >= 0
    # The model reproduces the short probe's time (up to the clamp at 0 dispatch).
    assert (result["program_dispatch_s"] + small["kernels"] * result["kernel_launch_s"]
            >= small["median_s"] * (1 - 1e-9))


# ------------------------------------------------------------------ command line

def _cli(*args, timeout=300):
    env = dict(os.environ, PYTHONPATH=str(PYTHON_DIR))
    return subprocess.run([sys.executable, "-m", "alpa_mlir.xla_overheads", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, env=env)


def _assert_xla_section(xla: dict):
    assert list(xla) == XLA_KEYS
    for key in XLA_KEYS[:2]:
        assert isinstance(xla[key], float) and math.isfinite(xla[key]) and xla[key] >= 0
    assert xla["kernel_launch_s"] > 0
    assert re.fullmatch(r"jax \S+, cpu \(cpu\)", xla["runtime"])


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """(input, output) of one run of the command line on a copy of the H200 cluster file."""
    tmp = tmp_path_factory.mktemp("xla-overheads")
    src, out = tmp / "cluster.json", tmp / "out.json"
    src.write_text(CLUSTER.read_text())
    r = _cli(src, "-o", out, "--iterations", 20, "--warmup", 2)
    assert r.returncode == 0, r.stderr
    assert "[xla-overheads]" in r.stderr
    assert re.fullmatch(r"program dispatch \S+ us, kernel launch \S+ us \(\d+ kernels?: \S+ us, "
                        r"\d+ kernels: \S+ us; jax \S+, cpu \(cpu\)\)\n", r.stdout), r.stdout
    return src, out


def test_cli_writes_only_the_xla_section(written):
    src, out = written
    assert src.read_text() == CLUSTER.read_text()  # -o leaves the input alone
    before, after = json.loads(src.read_text()), json.loads(out.read_text())
    xla = after["measured"].pop("xla")
    _assert_xla_section(xla)
    assert after == before
    assert list(after) == list(before) and list(after["measured"]) == list(before["measured"])


def test_cli_adds_a_measured_section_in_place(tmp_path, capsys):
    cluster = json.loads(CLUSTER.read_text())
    del cluster["measured"]
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(cluster, indent=2) + "\n")
    assert main([str(path), "--iterations", "20", "--warmup", "2"]) == 0
    assert capsys.readouterr().out.startswith("program dispatch ")
    after = json.loads(path.read_text())
    measured = after.pop("measured")
    assert after == cluster
    assert list(measured) == ["gpu_name", "driver_version", "xla"]
    assert measured["gpu_name"] == jax.devices()[0].device_kind
    assert isinstance(measured["driver_version"], str) and measured["driver_version"]
    _assert_xla_section(measured["xla"])


@pytest.mark.parametrize("content", [None, "{not json", "[1, 2]", '{"measured": 3}'],
                         ids=["missing", "invalid", "not-an-object", "measured-not-an-object"])
def test_cli_refuses_unreadable_cluster_files(tmp_path, capsys, content):
    path = tmp_path / "cluster.json"
    if content is not None:
        path.write_text(content)
    assert main([str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: cannot read cluster file") and "Traceback" not in err
    assert content is None or path.read_text() == content


def test_cli_exit_status_without_traceback(tmp_path):
    r = _cli(tmp_path / "missing.json", timeout=120)
    assert r.returncode == 1
    assert "error: cannot read cluster file" in r.stderr and "Traceback" not in r.stderr
    assert r.stdout == ""


def test_alpa_opt_reads_the_written_cluster(written, tmp_path):
    """The written file prices a module with alpa-opt; the same file with a key the Rust
    reader does not know is refused (so the first run did read measured.xla)."""
    opt = alpa_opt()
    module = tmp_path / "dot.mlir"
    module.write_text(
        "func.func @main(%a: tensor<64x128xf32>, %b: tensor<128x256xf32>) -> tensor<64x256xf32> {\n"
        '  %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<'
        "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : "
        "(tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>\n"
        "  return %0 : tensor<64x256xf32>\n}\n")

    def annotate(cluster):
        return subprocess.run([str(opt), str(module),
                               f"--alpa-annotate-costs=cluster={cluster} summary=true",
                               "-o", str(tmp_path / "annotated.mlir")],
                              capture_output=True, text=True, timeout=120)

    r = annotate(written[1])
    assert r.returncode == 0, r.stderr
    assert "alpa-annotate-costs: @main" in r.stderr
    bad = json.loads(written[1].read_text())
    bad["measured"]["xla"]["extra"] = 1.0
    bad_path = tmp_path / "bad.json"
    bad_path.write_text(json.dumps(bad, indent=2))
    r = annotate(bad_path)
    assert r.returncode != 0 and "extra" in r.stderr, r.stderr
