"""Test utility: lowers the ``alpa.transfer`` markers of a pipelined module by
hand into transfer programs of the lowered form (a simple greedy plan: each
destination tile's pieces taken from source tiles, a replicated source used
round-robin, rounds filled greedily), so the runtime can be tested before
`alpa-lower-transfers` is done. The form is that pass's: each marker becomes
``func.call @transfer_<k>(%v)`` of an identity function that names
``alpa.send_program = @transfer_<k>_send`` and carries the move's attributes."""

from __future__ import annotations

import itertools
import re

import numpy as np

from alpa_mlir import transfer_program as T
from alpa_mlir.pipeline_module import Mesh, sdy_dims

_MARKER = re.compile(r'"alpa\.transfer"\((%[\w#]+)\) \{(.*?)\} : \((tensor<[^>]*>)\) -> '
                     r'(tensor<[^>]*>)')
_MESH = re.compile(r'"sdy\.mesh"\(\) <\{mesh = #sdy\.mesh<\[(.*?)\]>, sym_name = "(\w+)"\}>')


def _attr(attrs: str, key: str) -> str:
    m = re.search(rf"\b{key} = (array<i64[^>]*>|#sdy\.sharding<@\w+, \[.*?\]>)", attrs)
    return m.group(1)


def _ints(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"\d+", text.split(":", 1)[1])]


def _regions(shape, sharding: str, meshes, devices) -> dict[int, tuple[slice, ...]]:
    """device id -> its tile's index region (numpy slices)."""
    mesh_name, dims = sdy_dims(sharding)
    mesh = meshes[mesh_name]
    coords = np.arange(len(devices)).reshape(mesh.sizes)
    out = {}
    for pos, dev in enumerate(devices):
        c = dict(zip(mesh.axes, np.argwhere(coords == pos)[0]))
        region = []
        for size, axes in zip(shape, dims):
            parts, index = 1, 0
            for a in axes:  # major to minor
                k = mesh.sizes[mesh.axes.index(a)]
                index, parts = index * k + int(c[a]), parts * k
            step = size // parts
            region.append(slice(index * step, (index + 1) * step))
        out[dev] = tuple(region)
    return out


def plan_transfer(shape, src_regions, dst_regions, union, element_type) -> T.TransferPlan:
    pieces = []  # (shape, Piece)
    turn = itertools.count()
    for d, dreg in dst_regions.items():
        by_region: dict[tuple, list[int]] = {}
        for s, sreg in src_regions.items():
            inter = tuple(slice(max(a.start, b.start), min(a.stop, b.stop))
                          for a, b in zip(sreg, dreg))
            if all(sl.start < sl.stop for sl in inter):
                key = tuple((sl.start, sl.stop) for sl in inter)
                by_region.setdefault(key, []).append(s)
        for key, owners in sorted(by_region.items()):
            s = d if d in owners else owners[next(turn) % len(owners)]
            sreg = src_regions[s]
            piece = T.Piece(union.index(s), union.index(d),
                            tuple(a - r.start for (a, _), r in zip(key, sreg)),
                            tuple(a - r.start for (a, _), r in zip(key, dreg)))
            pieces.append((tuple(b - a for a, b in key), piece))
    rounds: list[tuple[tuple, list]] = []
    for pshape, p in pieces:
        for rshape, members in rounds:
            if rshape == pshape and all(p.src != q.src and p.dst != q.dst for q in members):
                members.append(p)
                break
        else:
            rounds.append((pshape, [p]))
    tile = lambda reg: tuple(sl.stop - sl.start for sl in next(iter(reg.values())))  # noqa: E731
    return T.TransferPlan(len(union), tile(src_regions), tile(dst_regions), element_type,
                          tuple(T.Round(s, tuple(m)) for s, m in rounds))


def lower_transfers(text: str) -> str:
    meshes = {name: Mesh(re.findall(r'"(\w+)"', body), [int(x) for x in
                                                         re.findall(r"=(\d+)", body)])
              for body, name in _MESH.findall(text)}
    functions = []
    numbers = itertools.count()

    def lower(m: re.Match) -> str:
        value, attrs, in_t, out_t = m.groups()
        k = next(numbers)
        src, dst = _ints(_attr(attrs, "src_devices")), _ints(_attr(attrs, "dst_devices"))
        union = src + [d for d in dst if d not in src]
        dims, ety = re.fullmatch(r"tensor<((?:\d+x)*)(\w+)>", in_t).groups()
        shape = tuple(int(x) for x in dims.split("x") if x)
        src_sh, dst_sh = _attr(attrs, "src_sharding"), _attr(attrs, "dst_sharding")
        plan = plan_transfer(shape, _regions(shape, src_sh, meshes, src),
                             _regions(shape, dst_sh, meshes, dst), union, ety)
        fattrs = ", ".join([
            f"alpa.send_program = @transfer_{k}_send",
            f"alpa.src_devices = {_attr(attrs, 'src_devices')}",
            f"alpa.dst_devices = {_attr(attrs, 'dst_devices')}",
            f"alpa.src_sharding = {src_sh}", f"alpa.dst_sharding = {dst_sh}",
            f"alpa.src_logical_mesh = {_attr(attrs, 'src_logical_mesh')}",
            f"alpa.dst_logical_mesh = {_attr(attrs, 'dst_logical_mesh')}"])
        functions.append(T.transfer_function_text(
            plan, f"transfer_{k}_send", "private",
            f"alpa.devices = array<i64: {', '.join(map(str, union))}>"))
        identity = f'    "func.return"(%arg0) : ({in_t}) -> ()'
        functions.append(f"  func.func private @transfer_{k}(%arg0: {in_t}) -> {out_t} "
                         f"attributes {{{fattrs}}} {{\n{identity}\n  }}\n")
        return f'"func.call"({value}) <{{callee = @transfer_{k}}}> : ({in_t}) -> {out_t}'

    body = _MARKER.sub(lower, text)
    end = body.rstrip().rindex("}")
    return body[:end] + "".join(functions) + "}\n"
