"""Issue 8, plans that run: the MLP, GPT and Wide-ResNet train steps planned by
`alpa-auto-shard` (several stages on different logical meshes of 8 virtual CPU
devices, small cluster files: 2 hosts x 4 devices and 1 host x 8), their
transfers planned and lowered in each mode, run by the pipeline runtime
(`alpa_mlir.pipeline`):

- the new parameters, optimizer state and loss equal those of the same step
  exported at the global batch and run on one device, in every mode;
- for every transfer, the collectives in XLA's optimized HLO of its compiled
  programs are exactly those its `alpa.transfer_plan` says (kinds, devices,
  bytes);
- two processes of 4 devices each (jax.distributed on loopback, gloo, with a
  timeout) compute what one process of 8 does (MLP and GPT);
- no value is resharded between devices outside a transfer program.

Wide-ResNet's BatchNorm normalises over the examples it sees, so a step split
into microbatches computes something else than the global-batch step (as under
any gradient accumulation). It is planned with microbatches=1, still into
several stages: its @main then takes the exported batch, and the reference is
the exported step itself.

Each model is exported and planned once; its stage functions are compiled once
and shared by the three modes (only the transfer programs differ)."""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jax
import numpy as np
import pytest

from alpa_mlir import transfer_collectives as TC
from alpa_mlir import transfer_program as T
from alpa_mlir.input_domains import make_inputs
from alpa_mlir.module_info import parse_module
from alpa_mlir.numerics import compare_step, mismatched_outputs
from alpa_mlir.pipeline import Pipeline
from alpa_mlir.pipeline_launch import launch
from alpa_mlir.pipeline_module import PipelineError, sdy_dims
from alpa_mlir.xla_exec import compile_module, execute
from conftest import DATA_DIR, REPO_ROOT
from pipeline_fixtures import auto_shard_plans, export_step

MODES = ("send-recv", "local-all-gather", "broadcast")
CLUSTER_2X4 = REPO_ROOT / "lit-tests" / "inputs" / "cluster-2xa100.json"
CLUSTER_1X8 = DATA_DIR / "cluster-1x8.json"


@dataclass(frozen=True)
class Case:
    preset: str
    microbatch: int  # examples per microbatch: the batch of the exported step
    microbatches: int
    cluster: Path


CASES = {
    "mlp": Case("alpa-test", 8, 2, CLUSTER_2X4),
    "gpt": Case("tiny", 2, 2, CLUSTER_1X8),
    "wresnet": Case("tiny", 8, 1, CLUSTER_2X4),
}


@dataclass
class Model:
    plans: dict  # mode -> (planned text, lowered text)
    lowered_paths: dict  # mode -> lowered file
    step_path: Path  # the step at global batch
    step: Any  # that step parsed (module_info.ModuleInfo)
    inputs: list
    expected: list  # the global-batch step's outputs on one device
    compiled: dict = field(default_factory=dict)  # executables shared by the modes
    runs: dict = field(default_factory=dict)  # mode -> (Pipeline, outputs)


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    cache: dict[str, Model] = {}

    def get(name: str) -> Model:
        if name not in cache:
            case = CASES[name]
            tmp = tmp_path_factory.mktemp(name)
            micro = export_step(name, case.preset, {"batch": case.microbatch})
            plans = auto_shard_plans(micro, tmp, f"microbatches={case.microbatches} "
                                     "time-limit=10", case.cluster, MODES)
            step_text = export_step(name, case.preset,
                                    {"batch": case.microbatch * case.microbatches})
            step_path = tmp / "step.mlir"
            step_path.write_text(step_text)
            step = parse_module(step_text)
            inputs = make_inputs(step.inputs, seed=0)
            expected = execute(compile_module(step.module, 1), inputs,
                                 [o.shape for o in step.outputs])
            cache[name] = Model(plans, {m: tmp / f"lowered-{m}.mlir" for m in MODES},
                                step_path, step, inputs, expected)
        return cache[name]

    return get


def _run(model: Model, mode: str) -> tuple[Pipeline, list]:
    if mode not in model.runs:
        pipe = Pipeline(model.plans[mode][1], compiled=model.compiled)
        model.runs[mode] = (pipe, pipe.run(model.inputs))
    return model.runs[mode]


@pytest.mark.parametrize("name", CASES)
def test_plan_spans_stages_meshes_and_a_replicated_destination(models, name):
    pipe, _ = _run(models(name), MODES[0])
    mod = pipe.module
    stages = [p for p in mod.programs.values() if p.kind == "stage"]
    assert len({tuple(p.devices) for p in stages}) >= 2, "fewer than 2 stages"
    assert len({tuple(p.int_list("alpa.logical_mesh")) for p in stages}) >= 2, \
        "every stage has the same logical mesh"

    def replicated(transfer) -> bool:
        mesh_name, dims = sdy_dims(transfer.attrs["alpa.dst_sharding"])
        mesh = mod.meshes[mesh_name]
        used = {axis for d in dims for axis in d}
        return any(size > 1 and axis not in used for axis, size in zip(mesh.axes, mesh.sizes))

    assert any(replicated(t) for t in mod.transfers.values()), \
        "no transfer lands on a destination replicated over several devices"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", CASES)
def test_runtime_matches_the_global_batch_step(models, name, mode):
    model = models(name)
    pipe, got = _run(model, mode)
    cmp = compare_step(model.step, model.inputs, got, model.expected)
    assert cmp["match"], mismatched_outputs(cmp)[:5]
    assert pipe.stats["same_stage_reshards"] == 0
    for prog in pipe.module.programs.values():
        assert [d.id for d in pipe.executables[prog.name].devices] == prog.devices


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", CASES)
def test_xla_runs_the_planned_collectives(models, name, mode):
    model = models(name)
    pipe, _ = _run(model, mode)
    plans = TC.read_transfer_plans(model.plans[mode][0])
    calls = [s.callee for s in pipe.module.steps if s.kind == "transfer"]
    assert len(calls) == len(plans) > 0
    for callee, plan in zip(calls, plans):
        transfer = pipe.module.transfers[callee]
        executed = Counter()
        for prog_name in filter(None, (transfer.send, transfer.gather)):
            executed += TC.executed_collectives(pipe.executables[prog_name].hlo_text(),
                                                pipe.module.programs[prog_name].devices)
        assert executed == TC.expected_collectives(plan), \
            f"@{callee} ({plan.mode})"
    # each mode shows what makes it differ
    gathers = sum(len(p.gathers) for p in plans)
    fan_out = sum(len(piece.dsts) > 1 for p in plans for piece in p.pieces)
    assert {"send-recv": gathers == fan_out == 0, "local-all-gather": gathers > 0,
            "broadcast": fan_out > 0}[mode]


@pytest.mark.parametrize("name", ["mlp", "gpt"])
def test_two_processes_compute_what_one_does(models, name):
    mode = "local-all-gather"
    model = models(name)
    _, one_process = _run(model, mode)
    args = argparse.Namespace(plan=model.lowered_paths[mode], processes=2,
                              devices_per_process=4, inputs=0, reference=model.step_path,
                              timeout=240.0)
    outputs, inputs = launch(args)
    for a, b in zip(inputs, model.inputs):
        np.testing.assert_array_equal(a, b)
    # Not bit for bit: XLA:CPU's reductions may round differently in another
    # process (about 1e-6 relative seen); the global-batch step's tolerance.
    cmp = compare_step(model.step, model.inputs, outputs, one_process)
    assert cmp["match"], mismatched_outputs(cmp)[:5]


# ---------------------------------------------------------------- pieces

def test_expected_collectives_of_a_plan():
    plan = TC.PlannedTransfer("local-all-gather", 4, (
        TC.PlannedPiece(0, (0, 4, 5), (2, 3)),  # kept on 0, sent to 4 and 5
        TC.PlannedPiece(1, (6,), (2, 3)),
    ), (TC.PlannedGather((4, 5), (4, 3)),))
    assert TC.expected_collectives(plan) == Counter({
        ("collective-permute", (0, 4), 24): 1, ("collective-permute", (0, 5), 24): 1,
        ("collective-permute", (1, 6), 24): 1, ("all-gather", (4, 5), 48): 1})


def test_expected_collectives_of_a_broadcast_follow_its_senders():
    # device 1 broadcasts to 2 (its host) and to 4, 5, 6 (host 1), entering host 1
    # at 4, which relays to 5 and 6; device 0's piece enters at 5, which relays to 4
    plan = TC.PlannedTransfer("broadcast", 2, (
        TC.PlannedPiece(1, (2, 4, 5, 6), (3,), (1, 1, 4, 4)),
        TC.PlannedPiece(0, (4, 5), (1,), (5, 0)),
    ), ())
    assert TC.expected_collectives(plan) == Counter({
        ("collective-permute", (1, 2), 6): 1, ("collective-permute", (1, 4), 6): 1,
        ("collective-permute", (4, 5), 6): 1, ("collective-permute", (4, 6), 6): 1,
        ("collective-permute", (0, 5), 2): 1, ("collective-permute", (5, 4), 2): 1})


def test_executed_collectives_of_a_compiled_program_match_its_plan():
    # rows of a 4x2 array on devices [1, 2] to device 5 (two pieces, one round
    # each) and to device 2 (kept there): partitions [1, 2, 5]
    program = T.TransferPlan(3, (2, 2), (4, 2), "f32", (
        T.Round((2, 2), (T.Piece(0, 2, (0, 0), (0, 0)), T.Piece(1, 1, (0, 0), (2, 0)))),
        T.Round((2, 2), (T.Piece(1, 2, (0, 0), (2, 0)), T.Piece(0, 1, (0, 0), (0, 0)))),
    ))
    devices = [1, 2, 5]
    info = parse_module(T.transfer_program_text(program))
    compiled = compile_module(info.module, 3, devices=[jax.devices()[i] for i in devices])
    plan = TC.PlannedTransfer("send-recv", 4, (
        TC.PlannedPiece(1, (5, 2), (2, 2)), TC.PlannedPiece(2, (5, 2), (2, 2))), ())
    executed = TC.executed_collectives(compiled.hlo_text(), devices)
    assert executed == TC.expected_collectives(plan)


def _two_stage_module(out_sharding: str, in_sharding: str) -> str:
    """Stage 0 squares a 4x2 value, stage 1 adds one, both on devices [0, 1]
    (mesh x=2), with no transfer between them."""
    t = "tensor<4x2xf32>"

    def stage(name, sharding, body):
        s = f"#sdy.sharding<@m, {sharding}>"
        return (f"  func.func private @{name}(%arg0: {t} {{sdy.sharding = {s}}}) -> ({t} "
                f"{{sdy.sharding = {s}}}) attributes {{alpa.devices = array<i64: 0, 1>, "
                f"alpa.logical_mesh = array<i64: 2>}} {{\n    {body}\n    return %0 : {t}\n  }}\n")

    return ("module {\n  sdy.mesh @m = <[\"x\"=2]>\n"
            + stage("stage0_forward", out_sharding, f"%0 = stablehlo.multiply %arg0, %arg0 : {t}")
            + stage("stage1_forward", in_sharding,
                    f"%c = stablehlo.constant dense<1.0> : {t}\n"
                    f"    %0 = stablehlo.add %arg0, %c : {t}")
            + f"  func.func public @main(%arg0: {t}) -> {t} {{\n"
              f"    %a = call @stage0_forward(%arg0) : ({t}) -> {t}\n"
              f"    %b = call @stage1_forward(%a) : ({t}) -> {t}\n"
              f"    return %b : {t}\n  }}\n}}\n")


def test_a_same_stage_reshard_that_only_slices_is_counted():
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    pipe = Pipeline(_two_stage_module("[{}, {}]", '[{"x"}, {}]'))
    (got,) = pipe.run([x])
    np.testing.assert_array_equal(got, x * x + 1)
    assert pipe.stats["same_stage_reshards"] == 1


def test_a_same_stage_reshard_that_moves_data_is_an_error():
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    pipe = Pipeline(_two_stage_module('[{"x"}, {}]', "[{}, {}]"))
    with pytest.raises(PipelineError, match="moves data between the stage's devices"):
        pipe.run([x])
