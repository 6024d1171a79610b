"""The pipeline runtime (`alpa_mlir.pipeline`): a lowered pipelined module runs
as one XLA executable per stage function and transfer program on its own
devices, single- and multi-controller, and computes what the step at global
batch computes. Until `alpa-lower-transfers` lands, the `alpa.transfer`
markers are lowered by the test utility `transfer_lowering` (same form)."""

from __future__ import annotations

import json
import re
import subprocess

import numpy as np
import pytest

from alpa_mlir import transfer_program as T
from alpa_mlir.alpa_opt import alpa_opt_path
from alpa_mlir.input_domains import make_inputs
from alpa_mlir.module_info import parse_module
from alpa_mlir.numerics import compare_step, mismatched_outputs
from alpa_mlir.pipeline import Pipeline
from alpa_mlir.xla_exec import compile_module, execute
from conftest import REPO_ROOT
from pipeline_fixtures import export_step, pipeline, pipeline_cli
from transfer_lowering import lower_transfers

CLUSTER = REPO_ROOT / "lit-tests" / "inputs" / "cluster-2xa100.json"  # 2 hosts x 4 devices


@pytest.fixture(scope="module")
def mlp(tmp_path_factory):
    """(unlowered plan, lowered plan, global-batch step) files of the MLP with 2
    microbatches on 2 hosts x 4 devices."""
    tmp = tmp_path_factory.mktemp("mlp")
    plan = pipeline(export_step("mlp", "alpa-test", {"batch": 8}), tmp,
                    f"cluster={CLUSTER} microbatches=2 layers=3 time-limit=10")
    files = {"plan": tmp / "plan.mlir", "lowered": tmp / "lowered.mlir",
             "step": tmp / "step.mlir"}
    files["plan"].write_text(plan)
    files["lowered"].write_text(lower_transfers(plan))
    files["step"].write_text(export_step("mlp", "alpa-test", {"batch": 16}))
    return files


def _stage_devices(path) -> dict[str, list[int]]:
    """The devices of every stage function of a planned module (the DP's choice among
    equally fast plans decides them)."""
    found = re.findall(r"func\.func \w+ @(stage\w+)\(.*alpa\.devices = array<i64: ([0-9, ]+)>",
                       path.read_text())
    return {name: [int(d) for d in devices.split(",")] for name, devices in found}


def test_pipelined_mlp_matches_the_global_batch_step(mlp):
    step = parse_module(mlp["step"].read_text())
    inputs = make_inputs(step.inputs, seed=0)
    expected = execute(compile_module(step.module, 1), inputs,
                         [o.shape for o in step.outputs])
    pipe = Pipeline(mlp["lowered"].read_text())
    got = pipe.run(inputs)
    cmp = compare_step(step, inputs, got, expected)
    assert cmp["match"], mismatched_outputs(cmp)
    assert pipe.stats["same_stage_reshards"] == 0
    stages = [p for p in pipe.module.programs.values() if p.kind == "stage"]
    assert len(stages) == 9 and len(pipe.module.transfers) >= 6
    for prog in pipe.module.programs.values():
        assert [d.id for d in pipe.executables[prog.name].devices] == prog.devices


def _sharded_gather_module() -> str:
    """Stage 0 on devices [0, 1] (rows split) squares a 4x2 microbatch; the
    transfer sends each destination device one column of its tile, then
    {2, 3} and {4, 5} all-gather it (mesh 2x2, rows over x, replicated over y);
    stage 1 adds one; @main concatenates the two microbatches."""
    send = T.TransferPlan(6, (2, 2), (2, 1), "f32", (
        T.Round((2, 1), (T.Piece(0, 2, (0, 0), (0, 0)), T.Piece(1, 4, (0, 0), (0, 0)))),
        T.Round((2, 1), (T.Piece(0, 3, (0, 1), (0, 0)), T.Piece(1, 5, (0, 1), (0, 0)))),
    ))
    s0 = '#sdy.sharding<@stage0_mesh, [{"y"}, {}]>'
    s1 = '#sdy.sharding<@stage1_mesh, [{"x"}, {}]>'
    t = "tensor<4x2xf32>"

    def stage(name, sharding, devices, mesh, body):
        return (f"  func.func private @{name}(%arg0: {t} {{sdy.sharding = {sharding}}}) -> "
                f"({t} {{sdy.sharding = {sharding}}}) attributes {{alpa.devices = array<i64: "
                f"{devices}>, alpa.logical_mesh = array<i64: {mesh}>}} {{\n{body}\n"
                f"    return %0 : {t}\n  }}\n")

    transfer_attrs = (f"alpa.send_program = @transfer_0_send, alpa.gather_program = "
                      f"@transfer_0_gather, alpa.src_devices = array<i64: 0, 1>, "
                      f"alpa.dst_devices = array<i64: 2, 3, 4, 5>, alpa.src_sharding = {s0}, "
                      f"alpa.dst_sharding = {s1}")
    main = "\n".join([
        "  func.func public @main(%arg0: tensor<8x2xf32>) -> tensor<8x2xf32> {",
        *[f"    %x{i} = stablehlo.slice %arg0 [{4 * i}:{4 * i + 4}, 0:2] : "
          f"(tensor<8x2xf32>) -> {t}\n"
          f"    %a{i} = call @stage0_forward(%x{i}) : ({t}) -> {t}\n"
          f"    %t{i} = call @transfer_0(%a{i}) : ({t}) -> {t}\n"
          f"    %b{i} = call @stage1_forward(%t{i}) : ({t}) -> {t}" for i in range(2)],
        f"    %r = stablehlo.concatenate %b0, %b1, dim = 0 : ({t}, {t}) -> tensor<8x2xf32>",
        "    return %r : tensor<8x2xf32>", "  }\n"])
    return "".join([
        "module {\n",
        '  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=1, "y"=2]>, sym_name = "stage0_mesh"}> : '
        "() -> ()\n",
        '  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "stage1_mesh"}> : '
        "() -> ()\n",
        stage("stage0_forward", s0, "0, 1", "1, 2",
              f"    %0 = stablehlo.multiply %arg0, %arg0 : {t}"),
        stage("stage1_forward", s1, "2, 3, 4, 5", "2, 2",
              f"    %c = stablehlo.constant dense<1.0> : {t}\n"
              f"    %0 = stablehlo.add %arg0, %c : {t}"),
        T.transfer_function_text(send, "transfer_0_send", "private",
                                 "alpa.devices = array<i64: 0, 1, 2, 3, 4, 5>"),
        T.gather_function_text(4, (2, 1), 1, [[0, 1], [2, 3]], "f32", "transfer_0_gather",
                               "private", "alpa.devices = array<i64: 2, 3, 4, 5>", channel=3),
        f"  func.func private @transfer_0(%arg0: {t}) -> {t} attributes {{{transfer_attrs}}} "
        f"{{\n    return %arg0 : {t}\n  }}\n",
        main, "}\n"])


def test_sharded_transfer_with_local_all_gather_lands_on_the_destination_layout():
    pipe = Pipeline(_sharded_gather_module())
    x = np.arange(16, dtype=np.float32).reshape(8, 2) / 4
    (got,) = pipe.run([x])
    np.testing.assert_array_equal(got, x * x + 1)
    assert [p.kind for p in pipe.module.programs.values()] == ["stage", "send", "gather",
                                                                 "stage"]
    assert pipe.stats["same_stage_reshards"] == 0


def test_cli_run_compares_with_the_reference(mlp):
    r = pipeline_cli("run", mlp["lowered"], "--devices", 8, "--reference", mlp["step"], "--json")
    assert r.returncode == 0, r.stderr[-3000:]
    rep = json.loads(r.stdout)
    assert rep["ok"] and rep["reference"]["match"]
    devices = ", ".join(map(str, _stage_devices(mlp["lowered"])["stage0_forward"]))
    assert f"compiled stage @stage0_forward on devices [{devices}]" in r.stderr
    assert "transfer @transfer_0" in r.stderr


def test_unlowered_transfers_are_an_error(mlp):
    r = pipeline_cli("run", mlp["plan"], "--devices", 8)
    assert r.returncode == 2
    assert "run alpa-lower-transfers" in r.stderr


def test_a_module_without_stage_functions_is_an_error(mlp):
    r = pipeline_cli("run", mlp["step"], "--devices", 8)
    assert r.returncode == 2
    assert "no stage function" in r.stderr


def test_fewer_devices_than_the_plan_needs_is_an_error(mlp):
    r = pipeline_cli("run", mlp["lowered"], "--devices", 4)
    assert r.returncode == 2
    assert "only 4 devices exist" in r.stderr


def test_two_processes_run_the_plan_like_one(mlp):
    r = pipeline_cli("launch", "--processes", 2, "--devices-per-process", 4, mlp["lowered"],
             "--reference", mlp["step"], "--json", "--timeout", 240, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    rep = json.loads(r.stdout)
    assert rep["ok"] and rep["reference"]["match"] and rep["processes"] == 2
    # each process compiled only the programs that touch its devices (4 per process)
    stages = _stage_devices(mlp["lowered"])
    assert {d // 4 for devices in stages.values() for d in devices} == {0, 1}
    for name, devices in stages.items():
        for process in (0, 1):
            compiled = f"[pipeline p{process}] compiled stage @{name} " in r.stderr
            assert compiled == any(d // 4 == process for d in devices), (name, process)


@pytest.mark.parametrize("mode", ["send-recv", "local-all-gather", "broadcast"])
def test_plan_lowered_by_alpa_opt_matches_the_global_batch_step(mlp, mode, tmp_path):
    out = tmp_path / "lowered.mlir"
    r = subprocess.run([str(alpa_opt_path()), str(mlp["plan"]),
                        f"--alpa-cross-mesh-resharding=cluster={CLUSTER} mode={mode}",
                        "--alpa-lower-transfers", "-o", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    r = pipeline_cli("run", out, "--devices", 8, "--reference", mlp["step"], "--json")
    assert r.returncode == 0, (r.stdout + r.stderr)[-3000:]
    assert json.loads(r.stdout)["reference"]["match"]


def test_main_ops_read_integer_arrays_empty_ones_too():
    """A scalar broadcast in @main has `broadcast_dimensions = array<i64>`: no integers."""
    from alpa_mlir.main_ops import _ints

    assert _ints("array<i64>") == ()
    assert _ints("array<i64: 1, 2>") == (1, 2)
    assert _ints("3 : i64") == (3,)
    assert _ints("dense<[1, 2]> : tensor<2xi64>") == (1, 2)
