"""The collectives a planned transfer should make XLA run, and those XLA's
optimized HLO of its lowered programs does run, in one comparable form: a
multiset of ``(kind, devices, bytes)``.

From the plan (``alpa.transfer_plan``, written by `alpa-cross-mesh-resharding`):
every piece sent to a device other than its source is one point-to-point move
``("collective-permute", (source, destination), piece bytes)`` (a broadcast
piece: one move into each destination host, relayed inside it); every gather
is ``("all-gather", its devices, tile bytes)``. From HLO: each pair of each
collective-permute is a move (partition indices mapped to the program's
devices), each replica group of each all-gather a gather."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from .hlo import list_collectives
from .module_info import TensorSpec, jax_ir, parse_tensor_type

TRANSFER_PLAN = "alpa.transfer_plan"


@dataclass(frozen=True)
class PlannedPiece:
    src: int
    dsts: tuple[int, ...]
    sizes: tuple[int, ...]
    senders: tuple[int, ...] = ()  # per receiver; empty: the source sends to all


@dataclass(frozen=True)
class PlannedGather:
    devices: tuple[int, ...]
    sizes: tuple[int, ...]  # the tile each device of the group ends with


@dataclass(frozen=True)
class PlannedTransfer:
    mode: str
    element_bytes: int
    pieces: tuple[PlannedPiece, ...]
    gathers: tuple[PlannedGather, ...]


def expected_collectives(plan: PlannedTransfer) -> Counter:
    """What XLA should execute for ``plan``: each receiver of a piece gets it
    from its sender (the plan's ``from``: a broadcast piece enters each
    destination host once and a receiver there relays it), a sender that is
    the receiver itself moving nothing."""
    out = Counter()
    for p in plan.pieces:
        size = int(np.prod(p.sizes, dtype=np.int64)) * plan.element_bytes
        for sender, dst in zip(p.senders or (p.src,) * len(p.dsts), p.dsts):
            if sender != dst:
                out[("collective-permute", (sender, dst), size)] += 1
    for g in plan.gathers:
        size = int(np.prod(g.sizes, dtype=np.int64)) * plan.element_bytes
        out[("all-gather", tuple(g.devices), size)] += 1
    return out


def executed_collectives(hlo_text: str, devices: list[int]) -> Counter:
    """What the optimized HLO of a program over ``devices`` (partition i runs
    on ``devices[i]``) executes; kinds other than the two above are kept as
    ``(kind, (), bytes)`` so that they show up as differences."""
    out = Counter()
    for c in list_collectives(hlo_text):
        if c["kind"] == "collective-permute":
            for s, t in c["source_target_pairs"]:
                out[("collective-permute", (devices[s], devices[t]), c["bytes"])] += 1
        elif c["kind"] == "all-gather" and c["replica_groups"]:
            for group in c["replica_groups"]:
                out[("all-gather", tuple(devices[i] for i in group), c["result_bytes"])] += 1
        else:
            out[(c["kind"], (), c["bytes"])] += 1
    return out


def _ints(attr) -> tuple[int, ...]:
    ir = jax_ir().ir
    return tuple(ir.DenseI64ArrayAttr(attr))


def _plan_of(op) -> PlannedTransfer:
    ir = jax_ir().ir
    attrs = op.attributes
    spec = TensorSpec(*parse_tensor_type(str(op.operands[0].type)))
    pieces = tuple(
        PlannedPiece(ir.IntegerAttr(d["src"]).value, _ints(d["dsts"]), _ints(d["sizes"]),
                     _ints(d["from"]) if "from" in d else ())
        for d in map(ir.DictAttr, ir.ArrayAttr(attrs["pieces"])))
    gathers = tuple(PlannedGather(_ints(d["devices"]), _ints(d["sizes"]))
                    for d in map(ir.DictAttr, ir.ArrayAttr(attrs["gathers"])))
    return PlannedTransfer(ir.StringAttr(attrs["mode"]).value,
                           np.dtype(spec.np_dtype).itemsize, pieces, gathers)


def read_transfer_plans(text: str) -> list[PlannedTransfer]:
    """The ``alpa.transfer_plan`` ops of @main, in order. `alpa-lower-transfers`
    replaces each, in place, by a call of its transfer function, so the k-th
    plan is the k-th transfer @main calls after lowering."""
    jmlir = jax_ir()
    ir = jmlir.ir
    with jmlir.make_ir_context() as ctx:
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(text)
        for op in module.body.operations:
            op = op.operation
            if op.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == "main":
                return [_plan_of(o.operation) for o in op.regions[0].blocks[0].operations
                        if o.operation.name == TRANSFER_PLAN]
    raise ValueError("module has no @main")
