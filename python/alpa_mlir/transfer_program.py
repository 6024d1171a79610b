"""StableHLO text of the lowered cross-mesh transfer programs.

This is the form `alpa-lower-transfers` emits (generic op syntax, GSPMD
``mhlo.sharding`` strings, shard_map style manual region), written from Python
so that tests can compile and run it on XLA and the runtime can be checked
before the Rust pass exists.

A transfer program runs over the device union U (source devices in order, then
the destination devices not among them). Its argument and result carry a
leading per-device axis of size N = |U|: block i is device U[i]'s local tile.
Per round each partition sends at most one piece and receives at most one
piece, all pieces of a round have one shape; offsets and flags come from a
constant table indexed by ``partition_id``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence


@dataclass(frozen=True)
class Piece:
    src: int  # partition index into U of the sender
    dst: int  # partition index into U of the receiver
    src_offset: tuple[int, ...]  # in the sender's source tile
    dst_offset: tuple[int, ...]  # in the receiver's destination tile


@dataclass(frozen=True)
class Round:
    shape: tuple[int, ...]
    pieces: tuple[Piece, ...]


@dataclass(frozen=True)
class TransferPlan:
    num_partitions: int  # |U|
    src_tile: tuple[int, ...]
    dst_tile: tuple[int, ...]
    element_type: str  # MLIR spelling: f32, bf16, i32, ...
    rounds: tuple[Round, ...]

    def validate(self) -> None:
        n = self.num_partitions
        for r, rnd in enumerate(self.rounds):
            senders, receivers = set(), set()
            for p in rnd.pieces:
                for name, idx in (("source", p.src), ("destination", p.dst)):
                    if not 0 <= idx < n:
                        raise ValueError(f"round {r}: {name} partition {idx} not in 0..{n - 1}")
                if p.src in senders or p.dst in receivers:
                    raise ValueError(f"round {r}: partition {p.src} sends or {p.dst} "
                                     "receives twice")
                senders.add(p.src)
                receivers.add(p.dst)
                _check_fits(rnd.shape, p.src_offset, self.src_tile, f"round {r} source")
                _check_fits(rnd.shape, p.dst_offset, self.dst_tile, f"round {r} destination")


def _check_fits(shape, offset, tile, what):
    if len(offset) != len(tile) or len(shape) != len(tile):
        raise ValueError(f"{what}: rank of piece {shape} at {offset} differs from tile {tile}")
    if any(o < 0 or o + s > t for o, s, t in zip(offset, shape, tile)):
        raise ValueError(f"{what}: piece {shape} at {offset} leaves tile {tile}")


def tensor_type(shape: Sequence[int], element_type: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + element_type + ">"


def block_sharding(n: int, rank: int) -> str:
    """GSPMD sharding of a tensor split into n blocks along its leading axis."""
    return "{devices=[" + ",".join([str(n)] + ["1"] * rank) + f"]<=[{n}]}}"


def channel_handle(handle: int) -> str:
    return f"#stablehlo.channel_handle<handle = {handle}, type = 1>"


def dense_pairs(pairs: Sequence[Sequence[int]]) -> str:
    """An i64 matrix attribute (source_target_pairs, replica_groups)."""
    rows = ", ".join("[" + ", ".join(str(x) for x in row) + "]" for row in pairs)
    width = len(pairs[0]) if pairs else 0
    return f"dense<[{rows}]> : tensor<{len(pairs)}x{width}xi64>"


class _Emitter:
    """Generic-form op lines with fresh SSA names."""

    def __init__(self):
        self.lines: list[str] = []
        self.count = 0

    def op(self, name: str, operands: Sequence[str], in_types: Sequence[str], out_type: str,
           props: str = "", attrs: str = "") -> str:
        value = f"%{self.count}"
        self.count += 1
        props = f" <{{{props}}}>" if props else ""
        attrs = f" {{{attrs}}}" if attrs else ""
        self.lines.append(f'    {value} = "{name}"({", ".join(operands)}){props}{attrs} : '
                          f'({", ".join(in_types)}) -> {out_type}')
        return value

    def constant(self, literal: str, type_: str) -> str:
        return self.op("stablehlo.constant", [], [], type_, f"value = {literal}")

    def custom_call(self, target: str, operand: str, in_type: str, out_type: str,
                    sharding: str) -> str:
        return self.op("stablehlo.custom_call", [operand], [in_type], out_type,
                       f'api_version = 1 : i32, backend_config = "", call_target_name = '
                       f'"{target}", called_computations = [], has_side_effect = false',
                       f'mhlo.sharding = "{sharding}"')

    def reshape(self, operand: str, in_type: str, out_type: str) -> str:
        return self.op("stablehlo.reshape", [operand], [in_type], out_type)


def _enter_manual(e: _Emitter, n: int, tile: tuple[int, ...], ety: str) -> str:
    full = tensor_type((n, *tile), ety)
    one = tensor_type((1, *tile), ety)
    sh = block_sharding(n, len(tile))
    v = e.custom_call("Sharding", "%arg0", full, full, sh)
    v = e.custom_call("SPMDFullToShardShape", v, full, one, "{manual}")
    return e.reshape(v, one, tensor_type(tile, ety))


def _leave_manual(e: _Emitter, value: str, n: int, tile: tuple[int, ...], ety: str) -> str:
    full = tensor_type((n, *tile), ety)
    one = tensor_type((1, *tile), ety)
    v = e.reshape(value, tensor_type(tile, ety), one)
    v = e.custom_call("Sharding", v, one, one, "{manual}")
    return e.custom_call("SPMDShardToFullShape", v, one, full, block_sharding(n, len(tile)))


def _function(name: str, n: int, in_tile, out_tile, ety: str, body: list[str], result: str,
              visibility: str = "public", attributes: str = "") -> str:
    arg_t = tensor_type((n, *in_tile), ety)
    res_t = tensor_type((n, *out_tile), ety)
    attributes = f" attributes {{{attributes}}}" if attributes else ""
    return (
        f"  func.func {visibility} @{name}(%arg0: {arg_t} {{mhlo.sharding = "
        f"\"{block_sharding(n, len(in_tile))}\"}}) -> ({res_t} {{mhlo.sharding = "
        f"\"{block_sharding(n, len(out_tile))}\"}}){attributes} {{\n"
        + "\n".join(body) + "\n"
        f'    "func.return"({result}) : ({res_t}) -> ()\n'
        "  }\n")


def as_module(function_text: str, n: int) -> str:
    return (f"module @transfer attributes {{mhlo.num_partitions = {n} : i32, "
            f"mhlo.num_replicas = 1 : i32}} {{\n{function_text}}}\n")


def _scalars_of_row(e: _Emitter, table: str, table_t: str, pid: str, zero: str,
                    width: int) -> list[str]:
    """The partition's row of an N x width i32 table as width scalars."""
    i32 = "tensor<i32>"
    row_t = f"tensor<1x{width}xi32>"
    row = e.op("stablehlo.dynamic_slice", [table, pid, zero], [table_t, i32, i32], row_t,
               f"slice_sizes = array<i64: 1, {width}>")
    out = []
    for k in range(width):
        s = e.op("stablehlo.slice", [row], [row_t], "tensor<1x1xi32>",
                 f"limit_indices = array<i64: 1, {k + 1}>, start_indices = array<i64: 0, {k}>, "
                 f"strides = array<i64: 1, 1>")
        out.append(e.reshape(s, "tensor<1x1xi32>", i32))
    return out


def transfer_program_text(plan: TransferPlan, first_channel: int = 1) -> str:
    """The transfer program of ``plan`` as a module whose @main is the program."""
    return as_module(transfer_function_text(plan, first_channel=first_channel),
                     plan.num_partitions)


def transfer_function_text(plan: TransferPlan, name: str = "main", visibility: str = "public",
                           attributes: str = "", first_channel: int = 1) -> str:
    """The transfer program of ``plan`` as ``func.func @name``."""
    plan.validate()
    n, ety = plan.num_partitions, plan.element_type
    src_t, dst_t = tensor_type(plan.src_tile, ety), tensor_type(plan.dst_tile, ety)
    rank = len(plan.src_tile)
    e = _Emitter()
    src = _enter_manual(e, n, plan.src_tile, ety)
    zero_lit = "dense<0.000000e+00>" if ety.startswith(("f", "bf")) else (
        "dense<false>" if ety == "i1" else "dense<0>")
    dst = e.op("stablehlo.broadcast_in_dim", [e.constant(f"{zero_lit} : tensor<{ety}>",
                                                         f"tensor<{ety}>")],
               [f"tensor<{ety}>"], dst_t, "broadcast_dimensions = array<i64>")
    pid_u = e.op("stablehlo.partition_id", [], [], "tensor<ui32>")
    pid = e.op("stablehlo.convert", [pid_u], ["tensor<ui32>"], "tensor<i32>")
    zero = e.constant("dense<0> : tensor<i32>", "tensor<i32>")
    channel = first_channel
    for rnd in plan.rounds:
        # columns: source offset, destination offset, receives, receives a local copy
        width = 2 * rank + 2
        rows = [[0] * width for _ in range(n)]
        for p in rnd.pieces:
            rows[p.src][:rank] = list(p.src_offset)
            rows[p.dst][rank:2 * rank] = list(p.dst_offset)
            rows[p.dst][2 * rank] = 1
            rows[p.dst][2 * rank + 1] = int(p.src == p.dst)
        table_t = f"tensor<{n}x{width}xi32>"
        table = e.constant("dense<[" + ", ".join(
            "[" + ", ".join(map(str, r)) + "]" for r in rows) + f"]> : {table_t}", table_t)
        cols = _scalars_of_row(e, table, table_t, pid, zero, width)
        piece_t = tensor_type(rnd.shape, ety)
        piece = e.op("stablehlo.dynamic_slice", [src, *cols[:rank]],
                     [src_t] + ["tensor<i32>"] * rank, piece_t,
                     f"slice_sizes = array<i64{': ' if rank else ''}"
                     f"{', '.join(map(str, rnd.shape))}>")
        pairs = [[p.src, p.dst] for p in rnd.pieces if p.src != p.dst]
        moved = piece
        if pairs:
            moved = e.op("stablehlo.collective_permute", [piece], [piece_t], piece_t,
                         f"channel_handle = {channel_handle(channel)}, "
                         f"source_target_pairs = {dense_pairs(pairs)}")
            channel += 1
            if len(pairs) < len(rnd.pieces):
                local = e.op("stablehlo.compare", [cols[2 * rank + 1], zero],
                             ["tensor<i32>", "tensor<i32>"], "tensor<i1>",
                             "comparison_direction = #stablehlo<comparison_direction NE>")
                moved = e.op("stablehlo.select", [local, piece, moved],
                             ["tensor<i1>", piece_t, piece_t], piece_t)
        updated = e.op("stablehlo.dynamic_update_slice", [dst, moved, *cols[rank:2 * rank]],
                       [dst_t, piece_t] + ["tensor<i32>"] * rank, dst_t)
        receives = e.op("stablehlo.compare", [cols[2 * rank], zero],
                        ["tensor<i32>", "tensor<i32>"], "tensor<i1>",
                        "comparison_direction = #stablehlo<comparison_direction NE>")
        dst = e.op("stablehlo.select", [receives, updated, dst],
                   ["tensor<i1>", dst_t, dst_t], dst_t)
    result = _leave_manual(e, dst, n, plan.dst_tile, ety)
    return _function(name, n, plan.src_tile, plan.dst_tile, ety, e.lines, result, visibility,
                     attributes)


def gather_program_text(num_partitions: int, part: tuple[int, ...], dim: int,
                        groups: Sequence[Sequence[int]], element_type: str,
                        channel: int = 1) -> str:
    """The gather program as a module whose @main is the program."""
    return as_module(gather_function_text(num_partitions, part, dim, groups, element_type,
                                          channel=channel), num_partitions)


def gather_function_text(num_partitions: int, part: tuple[int, ...], dim: int,
                         groups: Sequence[Sequence[int]], element_type: str,
                         name: str = "main", visibility: str = "public", attributes: str = "",
                         channel: int = 1) -> str:
    """Local all-gather over D: each partition's ``part`` becomes the tile of its
    replica group (parts concatenated along ``dim`` in group order)."""
    n, ety = num_partitions, element_type
    k = len(groups[0])
    if any(len(g) != k for g in groups):
        raise ValueError("all-gather groups must have one size")
    tile = tuple(d * k if i == dim else d for i, d in enumerate(part))
    e = _Emitter()
    v = _enter_manual(e, n, part, ety)
    v = e.op("stablehlo.all_gather", [v], [tensor_type(part, ety)], tensor_type(tile, ety),
             f"all_gather_dim = {dim} : i64, channel_handle = {channel_handle(channel)}, "
             f"replica_groups = {dense_pairs(groups)}, use_global_device_ids")
    result = _leave_manual(e, v, n, tile, ety)
    return _function(name, n, part, tile, ety, e.lines, result, visibility, attributes)


def broadcast_program_text(num_partitions: int, tile: tuple[int, ...],
                           groups: Sequence[Sequence[int]], element_type: str,
                           channel: int = 1) -> str:
    """``stablehlo.collective_broadcast``: the first partition of each group
    sends its tile to the others of the group."""
    n, ety = num_partitions, element_type
    e = _Emitter()
    v = _enter_manual(e, n, tile, ety)
    t = tensor_type(tile, ety)
    v = e.op("stablehlo.collective_broadcast", [v], [t], t,
             f"channel_handle = {channel_handle(channel)}, "
             f"replica_groups = {dense_pairs(groups)}")
    result = _leave_manual(e, v, n, tile, ety)
    return as_module(_function("main", n, tile, tile, ety, e.lines, result), n)
