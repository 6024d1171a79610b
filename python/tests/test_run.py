"""The runner: single-device runs of the fixtures, agreement with JAX itself,
N-device runs of hand-sharded modules with their collectives, and the parsers
of XLA's HLO text."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from conftest import DATA_DIR, REPO_ROOT, single_device_result

from alpa_mlir import runner
from alpa_mlir.hlo import list_collectives, summarize_collectives
from alpa_mlir.input_domains import make_inputs
from alpa_mlir.module_info import TensorSpec, parse_module, strip_shardings
from alpa_mlir.numerics import compare_outputs
from alpa_mlir.xla_exec import compile_module, execute


def test_fixture_runs_on_one_device(fixture_stem):
    info, inputs, outputs = single_device_result(fixture_stem)
    assert len(outputs) == len(info.outputs)
    for spec, out in zip(info.outputs, outputs):
        assert out.shape == spec.shape
        assert np.all(np.isfinite(out)), spec
    loss = float(outputs[-1])
    assert 0.0 < loss < 100.0
    # The optimizer really updated the (donated) parameters: most aliased
    # float outputs differ from their inputs.
    changed = [not np.array_equal(inputs[i], outputs[o]) for i, o in info.aliases.items()
               if np.issubdtype(outputs[o].dtype, np.floating)]
    assert sum(changed) >= 0.9 * len(changed)


def test_remat_is_a_pure_restructuring():
    """gpt_tiny_remat (jax.checkpoint per block: optimization_barrier in the
    backward pass) computes bit-identical results to gpt_tiny."""
    info, inputs, plain = single_device_result("gpt_tiny")
    rinfo, rinputs, remat = single_device_result("gpt_tiny_remat")
    assert '"stablehlo.optimization_barrier"(' in rinfo.text
    assert '"stablehlo.optimization_barrier"(' not in info.text
    assert [s.describe() for s in rinfo.inputs] == [s.describe() for s in info.inputs]
    assert all(np.array_equal(a, b) for a, b in zip(inputs, rinputs))
    assert compare_outputs(remat, plain)["exact"]


def test_runner_agrees_with_jax():
    """Feeding the exported text to XLA through the runner computes what the
    JAX function computes on the same (flattened) inputs."""
    import jax

    from alpa_mlir import models
    from alpa_mlir.export import export

    step = models.MODELS["gpt"](preset="tiny", layers=1, hidden=32, heads=2, vocab=64)
    text = export(step.step_fn, *step.args, hints=step.hints)
    info = parse_module(text)
    inputs = make_inputs(info.inputs, seed=3)
    ours = execute(compile_module(info.module, 1), inputs, [o.shape for o in info.outputs])

    treedef = jax.tree_util.tree_structure(step.args)
    args = jax.tree_util.tree_unflatten(treedef, [np.array(x) for x in inputs])
    theirs = jax.tree_util.tree_leaves(step.step_fn(*args))
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, np.asarray(b), rtol=1e-5, atol=1e-6)
    # Token ids respected the vocabulary bound recorded by the export.
    assert inputs[-1].max() < 64 and inputs[-2].max() < 64 and inputs[-1].max() > 8


def test_inputs_follow_hints():
    specs = [TensorSpec((1000,), "i32", int_bound=7), TensorSpec((1000,), "f32", nonnegative=True),
             TensorSpec((1000,), "f32"), TensorSpec((10,), "i1"), TensorSpec((), "bf16")]
    a, b, c, d, e = make_inputs(specs, seed=1)
    assert a.dtype == np.int32 and a.min() == 0 and a.max() == 6
    assert b.min() >= 0 and c.min() < 0 and np.abs(c).max() <= 0.1
    assert d.dtype == np.bool_ and e.shape == () and str(e.dtype) == "bfloat16"
    again = make_inputs(specs, seed=1)
    assert all(np.array_equal(x, y) for x, y in zip([a, b, c, d], again))
    assert not np.array_equal(c, make_inputs(specs, seed=2)[2])


# (data file, partitioner, expected collectives: (kind, bytes, groups))
SHARDED = [
    ("matmul_contracting_gspmd.mlir", "gspmd",
     [("all-reduce", 2048, [list(range(8))])]),
    ("matmul_2d_gspmd.mlir", "gspmd",
     [("all-reduce", 1024, [[0, 1, 2, 3], [4, 5, 6, 7]])]),
    ("reshard_all_to_all_gspmd.mlir", "gspmd",
     [("all-reduce", 2048, [list(range(8))]), ("all-to-all", 256, [list(range(8))]),
      ("all-to-all", 256, [list(range(8))])]),
    ("batch_sharded_sdy.mlir", "shardy",
     [("all-gather", 1024, [[0, 1, 2, 3], [4, 5, 6, 7]]),
      ("all-gather", 2048, [[0, 4], [1, 5], [2, 6], [3, 7]])]),
]


@pytest.mark.parametrize("name,partitioner,expected", SHARDED, ids=[s[0] for s in SHARDED])
def test_hand_sharded_module_on_8_devices(name, partitioner, expected):
    report = runner.run((DATA_DIR / name).read_text(), devices=8)
    assert report["partitioner"] == partitioner
    (cmp,) = report["comparisons"]
    assert cmp["lhs"] == "module@8" and cmp["rhs"] == "module@1" and cmp["match"], cmp
    got = sorted((c["kind"], c["bytes"], c["replica_groups"]) for c in report["collectives"])
    assert got == sorted(expected)
    # The sharded run really ran sharded: results agree but come from 8 devices.
    res = report["_results"]
    assert set(res) == {"module@8", "module@1"}


def test_same_module_under_both_partitioners():
    text = (DATA_DIR / "matmul_2d_gspmd.mlir").read_text()
    a = runner.run(text, devices=8, partitioner="gspmd")
    b = runner.run(text, devices=8, partitioner="shardy")
    assert a["ok"] and b["ok"]
    assert [c["kind"] for c in a["collectives"]] == [c["kind"] for c in b["collectives"]]
    np.testing.assert_array_equal(a["_results"]["module@8"][0], b["_results"]["module@8"][0])


def test_strip_shardings_removes_every_annotation():
    for name in ("matmul_2d_gspmd.mlir", "batch_sharded_sdy.mlir"):
        info = parse_module((DATA_DIR / name).read_text())
        assert info.sharded
        text = strip_shardings(info).operation.get_asm(print_generic_op_form=True)
        for word in ("mhlo.sharding", "sdy.", "@Sharding", "Sharding\""):
            assert word not in text, (name, word)
        assert "mhlo.num_partitions = 1" in text
        assert '"stablehlo.tanh"' in text and '"stablehlo.dot_general"' in text


def test_mismatch_is_reported(tmp_path):
    """A module that computes something else fails the --reference check."""
    orig = (DATA_DIR / "matmul_2d_gspmd.mlir").read_text()
    wrong = orig.replace('"stablehlo.tanh"', '"stablehlo.negate"')
    assert wrong != orig
    (tmp_path / "wrong.mlir").write_text(wrong)
    r = subprocess.run([sys.executable, "-m", "alpa_mlir.run", str(tmp_path / "wrong.mlir"),
                        "--devices", "8", "--reference", str(DATA_DIR / "matmul_2d_gspmd.mlir"),
                        "--json"], capture_output=True, text=True, cwd=REPO_ROOT)
    assert r.returncode == 1, r.stderr[-2000:]
    report = json.loads(r.stdout)
    assert not report["ok"]
    by = {(c["lhs"], c["rhs"]): c["match"] for c in report["comparisons"]}
    assert by == {("module@8", "module@1"): True, ("module@8", "reference@1"): False,
                  ("module@1", "reference@1"): False}


def test_cli_sets_device_count_itself(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    r = subprocess.run([sys.executable, "-m", "alpa_mlir.run",
                        str(DATA_DIR / "matmul_contracting_gspmd.mlir"), "--devices", "8", "--json"],
                       capture_output=True, text=True, cwd=REPO_ROOT, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    report = json.loads(r.stdout)
    assert report["ok"] and report["devices"] == 8
    assert report["collective_summary"] == {"all-reduce": {"count": 1, "bytes": 2048}}


def test_wrong_device_count_is_an_error():
    r = subprocess.run([sys.executable, "-m", "alpa_mlir.run",
                        str(DATA_DIR / "matmul_contracting_gspmd.mlir"), "--devices", "4"],
                       capture_output=True, text=True, cwd=REPO_ROOT)
    assert r.returncode == 2
    assert "partitioned for 8 devices" in r.stderr


# ------------------------------------------------------------ HLO text parsing

HLO = """\
HloModule m, is_scheduled=true, num_partitions=8

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %add.1 = f32[] add(%x, %y)
}

ENTRY %main (p0: f32[2,64], p1: bf16[8,32]) -> f32[16,32] {
  %p0 = f32[2,64]{1,0} parameter(0), sharding={devices=[8,1]<=[8]}
  %p1 = bf16[8,32]{1,0} parameter(1)
  %all-gather = bf16[64,32]{1,0} all-gather(%p1), channel_id=1, replica_groups=[2,4]<=[4,2]T(1,0), dimensions={0}, use_global_device_ids=true
  %ar = f32[2,64]{1,0} all-reduce(%p0), channel_id=2, replica_groups={{0,1},{2,3},{4,5},{6,7}}, to_apply=%add
  %ar2 = f32[2,64]{1,0} all-reduce(%ar), channel_id=3, replica_groups=mesh['x'=2,'y'=4] {'y'}, to_apply=%add
  %ags = (f32[2,64]{1,0}, f32[16,64]{1,0}) all-gather-start(%ar2), channel_id=4, replica_groups=mesh['a'=8] {'a':(2)2}, dimensions={0}
  %agd = f32[16,64]{1,0} all-gather-done(%ags)
  %cp = f32[2,64]{1,0} collective-permute(%ar2), channel_id=5, source_target_pairs={{0,1},{1,0}}
  ROOT %a2a = f32[2,64]{1,0} all-to-all(%cp), channel_id=6, replica_groups=mesh['x'=2,'y'=4], device_ids=([2,4]T(1,0)) {'x'}, dimensions={1}
}
"""


def test_collectives_parsed_from_hlo_text():
    cs = list_collectives(HLO)
    assert [c["kind"] for c in cs] == ["all-gather", "all-reduce", "all-reduce", "all-gather",
                                       "collective-permute", "all-to-all"]
    ag, ar, ar2, ags, cp, a2a = cs
    assert ag["bytes"] == 64 * 32 * 2 and ag["operand_bytes"] == 8 * 32 * 2
    assert ag["replica_groups"] == [[0, 2, 4, 6], [1, 3, 5, 7]] and ag["dimensions"] == [0]
    assert ar["replica_groups"] == [[0, 1], [2, 3], [4, 5], [6, 7]] and ar["bytes"] == 512
    assert ar["channel_id"] == 2 and not ar["async"]
    assert ar2["replica_groups"] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert ags["async"] and ags["result_shapes"] == ["f32[16,64]"] and ags["bytes"] == 4096
    assert ags["replica_groups"] == [[0, 2], [1, 3], [4, 6], [5, 7]]
    assert cp["source_target_pairs"] == [[0, 1], [1, 0]] and cp["replica_groups"] is None
    # device ids = iota(8).reshape(2,4).T.reshape(2,4) = [[0,4,1,5],[2,6,3,7]]
    assert a2a["replica_groups"] == [[0, 2], [4, 6], [1, 3], [5, 7]]
    assert summarize_collectives(cs)["all-reduce"] == {"count": 2, "bytes": 1024}


def test_compare_outputs_tolerances():
    a = [np.array([1.0, 2.0], np.float32), np.array([1, 2], np.int32)]
    assert compare_outputs(a, [x.copy() for x in a])["exact"]
    near = [a[0] * (1 + 1e-6), a[1]]
    c = compare_outputs(a, near)
    assert c["match"] and not c["exact"]
    far = [a[0] * 1.01, a[1]]
    assert not compare_outputs(a, far)["match"]
    assert not compare_outputs(a, [a[0], a[1] + 1])["match"]
    assert not compare_outputs(a, [a[0][:1], a[1]])["match"]
