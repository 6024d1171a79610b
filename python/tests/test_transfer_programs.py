"""The lowered form of cross-mesh transfers (what `alpa-lower-transfers` emits),
compiled by XLA (GSPMD partitioner) on explicit CPU device lists and run:
the data lands exactly where the hand-computed plans say, and the optimized HLO
holds exactly the planned collectives.

Also pins what XLA:CPU does not accept, which decides the form: no
``collective_broadcast``, all-gather groups must cover every partition, and a
``collective_permute`` without ``channel_handle`` moves nothing."""

from __future__ import annotations

import re

import jax
import numpy as np
import pytest

from alpa_mlir import transfer_program as T
from alpa_mlir.hlo import list_collectives
from alpa_mlir.module_info import parse_module
from alpa_mlir.xla_exec import compile_module, execute


def _run(text: str, device_ids, blocks: np.ndarray, out_shape):
    devices = [jax.devices()[i] for i in device_ids]
    info = parse_module(text)
    compiled = compile_module(info.module, len(devices), devices=devices)
    out = execute(compiled, [blocks], [out_shape])[0]
    return out, list_collectives(compiled.hlo_text())


def _permutes(colls):
    assert {c["kind"] for c in colls} <= {"collective-permute"}, colls
    return sorted(sorted(map(tuple, c["source_target_pairs"])) for c in colls)


def test_rows_to_columns_between_disjoint_meshes():
    # 4x2 split by rows over devices [0, 1] -> split by columns over [4, 5].
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    plan = T.TransferPlan(4, (2, 2), (4, 1), "f32", (
        T.Round((2, 1), (T.Piece(0, 2, (0, 0), (0, 0)), T.Piece(1, 3, (0, 1), (2, 0)))),
        T.Round((2, 1), (T.Piece(1, 2, (0, 0), (2, 0)), T.Piece(0, 3, (0, 1), (0, 0)))),
    ))
    blocks = np.zeros((4, 2, 2), np.float32)
    blocks[0], blocks[1] = x[:2], x[2:]
    out, colls = _run(T.transfer_program_text(plan), [0, 1, 4, 5], blocks, (4, 4, 1))
    np.testing.assert_array_equal(out[2], x[:, 0:1])
    np.testing.assert_array_equal(out[3], x[:, 1:2])
    assert _permutes(colls) == [[(0, 2), (1, 3)], [(0, 3), (1, 2)]]


def test_overlapping_meshes_mix_local_copies_and_permutes():
    # int32 4x2 split by rows over [3, 4] -> one row each over [3, 4, 5, 6]:
    # device 3 keeps its first row (local copy, no permute) in the round where
    # device 4 forwards its first row to device 5.
    x = np.arange(8, dtype=np.int32).reshape(4, 2) + 100
    plan = T.TransferPlan(4, (2, 2), (1, 2), "i32", (
        T.Round((1, 2), (T.Piece(0, 0, (0, 0), (0, 0)), T.Piece(1, 2, (0, 0), (0, 0)))),
        T.Round((1, 2), (T.Piece(0, 1, (1, 0), (0, 0)), T.Piece(1, 3, (1, 0), (0, 0)))),
    ))
    blocks = np.zeros((4, 2, 2), np.int32)
    blocks[0], blocks[1] = x[:2], x[2:]
    out, colls = _run(T.transfer_program_text(plan), [3, 4, 5, 6], blocks, (4, 1, 2))
    for i in range(4):
        np.testing.assert_array_equal(out[i], x[i:i + 1])
    assert _permutes(colls) == [[(0, 1), (1, 3)], [(1, 2)]]


def test_broadcast_to_a_replicated_mesh_is_one_permute_round_per_receiver():
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
    plan = T.TransferPlan(4, (2, 3), (2, 3), "f32", tuple(
        T.Round((2, 3), (T.Piece(0, k, (0, 0), (0, 0)),)) for k in (1, 2, 3)))
    blocks = np.zeros((4, 2, 3), np.float32)
    blocks[0] = x
    out, colls = _run(T.transfer_program_text(plan), [7, 4, 5, 6], blocks, (4, 2, 3))
    for i in (1, 2, 3):
        np.testing.assert_array_equal(out[i], x)
    assert _permutes(colls) == [[(0, 1)], [(0, 2)], [(0, 3)]]


def test_scalar_transfer():
    plan = T.TransferPlan(2, (), (), "f32", (T.Round((), (T.Piece(0, 1, (), ()),)),))
    blocks = np.array([3.25, 0.0], np.float32)
    out, colls = _run(T.transfer_program_text(plan), [2, 6], blocks, (2,))
    assert out[1] == np.float32(3.25)
    assert _permutes(colls) == [[(0, 1)]]


def test_parts_then_local_all_gather_builds_replicated_tiles():
    # 4x2 rows over [0, 1] -> mesh 2x2 of [4, 5, 6, 7], rows over the first axis,
    # replicated over the second: each device first receives one column of its
    # tile, then the groups {4, 5} and {6, 7} all-gather along dimension 1.
    x = np.arange(8, dtype=np.float32).reshape(4, 2) * 0.5
    plan = T.TransferPlan(6, (2, 2), (2, 1), "f32", (
        T.Round((2, 1), (T.Piece(0, 2, (0, 0), (0, 0)), T.Piece(1, 4, (0, 0), (0, 0)))),
        T.Round((2, 1), (T.Piece(0, 3, (0, 1), (0, 0)), T.Piece(1, 5, (0, 1), (0, 0)))),
    ))
    blocks = np.zeros((6, 2, 2), np.float32)
    blocks[0], blocks[1] = x[:2], x[2:]
    parts, colls = _run(T.transfer_program_text(plan), [0, 1, 4, 5, 6, 7], blocks, (6, 2, 1))
    assert _permutes(colls) == [[(0, 2), (1, 4)], [(0, 3), (1, 5)]]
    gather = T.gather_program_text(4, (2, 1), 1, [[0, 1], [2, 3]], "f32")
    tiles, colls = _run(gather, [4, 5, 6, 7], parts[2:], (4, 2, 2))
    for i in range(4):
        np.testing.assert_array_equal(tiles[i], x[:2] if i < 2 else x[2:])
    assert [(c["kind"], c["replica_groups"], c["dimensions"]) for c in colls] == [
        ("all-gather", [[0, 1], [2, 3]], [1])]


def test_plan_validation_rejects_a_partition_sending_twice_in_a_round():
    plan = T.TransferPlan(3, (2,), (2,), "f32", (
        T.Round((1,), (T.Piece(0, 1, (0,), (0,)), T.Piece(0, 2, (1,), (0,)))),))
    with pytest.raises(ValueError, match="sends or"):
        T.transfer_program_text(plan)


# ---- what XLA:CPU does not accept (decides the form above)

def test_xla_cpu_has_no_collective_broadcast():
    text = T.broadcast_program_text(2, (2,), [[0, 1]], "f32")
    with pytest.raises(Exception, match="collective-broadcast"):
        _run(text, [0, 1], np.zeros((2, 2), np.float32), (2, 2))


def test_all_gather_groups_must_cover_every_partition():
    text = T.gather_program_text(4, (2,), 0, [[1, 2]], "f32")
    with pytest.raises(Exception, match="not seen in replica groups"):
        parse_module(text)


def test_collective_permute_without_channel_handle_moves_nothing():
    plan = T.TransferPlan(2, (2,), (2,), "f32", (T.Round((2,), (T.Piece(0, 1, (0,), (0,)),)),))
    text = re.sub(r"channel_handle = #stablehlo.channel_handle<[^>]*>, ", "",
                  T.transfer_program_text(plan))
    assert "channel_handle" not in text
    blocks = np.array([[1.0, 2.0], [0.0, 0.0]], np.float32)
    out, _ = _run(text, [0, 1], blocks, (2, 2))
    np.testing.assert_array_equal(out[1], [0.0, 0.0])
