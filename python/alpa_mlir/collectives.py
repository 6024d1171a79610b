"""Comparing the collectives a plan's report predicts with those XLA ran.

Both sides are brought to one list of *elementary* collectives ``(kind, bytes, axes)``:

* bytes are per device, in Alpa's convention: all-reduce = the (per-device)
  result tile, all-gather = the per-device tile after the gather, all-to-all =
  the per-device tile, reduce-scatter = the per-device tile before the scatter
  (its operand), collective-permute = the tile sent;
* XLA's all-reduce/all-gather combiners merge several collectives that share
  replica groups into one tuple-shaped op: such an op is split back into one
  elementary collective per tuple element (sound: a combined op is by
  definition the same collective on each element);
* ``axes`` are the mesh axes a collective spans, read from XLA's replica groups
  (a group = the devices that agree on every coordinate outside the axes);
  mesh axes of size 1 are dropped on both sides; groups that are no union of
  mesh axes read as ``None`` ("irregular");
* reduce-scatters: XLA's CPU pipeline writes a reduce-scatter as an
  all-reduce read only through per-device dynamic-slices of one dim
  (:func:`alpa_mlir.hlo.decomposed_reduce_scatters`); on request
  (``decomposed``) such an all-reduce counts as the reduce-scatter it
  implements, with the same bytes (the reduced buffer); by default it stays an
  all-reduce, which is the volume XLA CPU moves;
* on the report's side (:func:`normalize_report`): nothing to deduplicate,
  the report lists each move of a value's resharding once with the operands
  that share it, as XLA runs it; on request (``merge_gathers``) the
  all-gathers of one resharding over several mesh axes are merged into one.

:func:`compare_collectives` reports, from strictest to loosest, whether these agree:
``exact`` (multisets of (kind, bytes, axes)), ``kinds_bytes`` (multisets of
(kind, bytes)), ``kind_totals`` (count and total bytes per kind),
``total_bytes`` (total bytes of all collectives, with the relative difference).
"""

from __future__ import annotations

import collections
from typing import Sequence

from .hlo import shape_bytes

LEVELS = ("exact", "kinds_bytes", "kind_totals", "total_bytes")


def _axes_of_groups(groups, mesh: Sequence[int], device_ids: Sequence[int] | None):
    """The mesh axes (sorted tuple, size-1 axes dropped) whose groups are the
    given replica groups, or None when no union of axes gives them."""
    import itertools

    import numpy as np

    if groups is None:
        return None
    n = int(np.prod(mesh))
    ids = np.asarray(device_ids if device_ids is not None else range(n)).reshape(mesh)
    real = [k for k, s in enumerate(mesh) if s > 1]
    want = sorted(sorted(g) for g in groups)
    if want == [] or want == [[]]:
        return ()
    for r in range(len(real) + 1):
        for axes in itertools.combinations(real, r):
            rest = [k for k in range(len(mesh)) if k not in axes]
            perm = list(rest) + list(axes)
            arr = ids.transpose(perm).reshape(-1, int(np.prod([mesh[a] for a in axes] or [1])))
            mine = sorted(sorted(int(x) for x in row) for row in arr)
            if mine == want:
                return tuple(axes)
    return None


def normalize_xla(colls: list[dict], mesh: Sequence[int],
                  device_ids: Sequence[int] | None = None,
                  decomposed: set[tuple[str, int]] | None = None) -> list[dict]:
    """Elementary collectives of :func:`alpa_mlir.hlo.list_collectives`
    entries (see the module docstring). ``decomposed`` names the elements
    ``(all-reduce name, tuple index)`` to read as reduce-scatters (see
    :func:`alpa_mlir.hlo.decomposed_reduce_scatters`); they keep their bytes (the reduced
    buffer, which is a reduce-scatter's operand) and get ``decomposed``."""
    out = []
    for c in colls:
        kind = c["kind"]
        axes = _axes_of_groups(c.get("replica_groups"), mesh, device_ids)
        base = {"kind": kind, "axes": axes, "name": c["name"]}
        if kind == "all-reduce" or kind == "all-gather":
            # Tuple results (combiner): one elementary collective per element.
            for i, s in enumerate(c["result_shapes"]):
                item = {**base, "bytes": shape_bytes(s)[0], "shape": s,
                        "combined": len(c["result_shapes"]) > 1}
                if kind == "all-reduce" and decomposed and (c["name"], i) in decomposed:
                    item.update(kind="reduce-scatter", decomposed=True)
                out.append(item)
        elif kind == "reduce-scatter":
            for s in c["operand_shapes"]:
                out.append({**base, "bytes": shape_bytes(s)[0], "shape": s,
                            "combined": len(c["operand_shapes"]) > 1})
        else:
            # An all-to-all's tuple form has one piece per peer: their sum is the tile.
            out.append({**base, "bytes": c["result_bytes"],
                        "shape": ",".join(c["result_shapes"]), "combined": False})
    return out


def normalize_report(report: dict, merge_gathers: bool = False) -> list[dict]:
    """The report's collectives as elementary ``(kind, bytes, axes)`` items.

    The report lists a move of a value's resharding once, with the operands
    that share it (``resharding``: value, from, to, consumers), as the emitter
    shares the constraint and XLA runs it once: nothing to deduplicate here.

    With ``merge_gathers``, the all-gathers of one value's resharding for the
    same operands over different mesh axes (``S10 -> R`` is a gather over axis
    0, then one over axis 1) become one all-gather over the union of the axes
    with the final tile's bytes. Off by default: the emitter pins every step
    of a resharding, and XLA then runs one all-gather per step, as reported."""
    mesh = report["mesh"]["shape"]
    out = []
    units: dict[tuple, list] = {}
    for c in report.get("collectives", []):
        axes = tuple(sorted(a for a in c.get("axes", []) if mesh[a] > 1))
        item = {"kind": c["kind"], "bytes": int(c["bytes"]), "axes": axes,
                "op": c.get("op"), "reason": c.get("reason")}
        move = c.get("resharding")
        if move:
            consumers = tuple((u["op"], u["operand"]) for u in move["consumers"])
            units.setdefault((move["value"], move["result"], consumers), []).append(item)
        out.append(item)
    if merge_gathers:
        for items in units.values():
            ags = [i for i in items if i["kind"] == "all-gather"]
            axes = [a for i in ags for a in i["axes"]]
            if len(ags) > 1 and len(axes) == len(set(axes)):
                ags[0]["axes"] = tuple(sorted(axes))
                ags[0]["bytes"] = max(i["bytes"] for i in ags)
                ags[0]["merged"] = len(ags)
                for i in ags[1:]:
                    i["dropped"] = True
        out = [c for c in out if not c.get("dropped")]
    return out


def _totals(items: list[dict]) -> dict[str, dict]:
    t: dict[str, dict] = {}
    for c in items:
        s = t.setdefault(c["kind"], {"count": 0, "bytes": 0})
        s["count"] += 1
        s["bytes"] += c["bytes"]
    return dict(sorted(t.items()))


def _multiset_diff(a: list, b: list) -> tuple[list, list]:
    ca, cb = collections.Counter(a), collections.Counter(b)
    only_a, only_b = ca - cb, cb - ca
    return sorted(only_a.elements(), key=str), sorted(only_b.elements(), key=str)


def compare_collectives(predicted: list[dict], actual: list[dict]) -> dict:
    """Compare normalized predicted (report) and actual (XLA) collectives at
    every level of :data:`LEVELS`; ``level`` is the strictest that holds
    (None if even the total bytes differ)."""
    key3 = lambda c: (c["kind"], c["bytes"], c["axes"])  # noqa: E731
    key2 = lambda c: (c["kind"], c["bytes"])  # noqa: E731
    p3, a3 = _multiset_diff([key3(c) for c in predicted], [key3(c) for c in actual])
    p2, a2 = _multiset_diff([key2(c) for c in predicted], [key2(c) for c in actual])
    tp, ta = _totals(predicted), _totals(actual)
    bp, ba = sum(c["bytes"] for c in predicted), sum(c["bytes"] for c in actual)
    res = {
        "exact": not p3 and not a3,
        "kinds_bytes": not p2 and not a2,
        "kind_totals": tp == ta,
        "total_bytes": bp == ba,
        "predicted_totals": tp,
        "actual_totals": ta,
        "predicted_bytes": bp,
        "actual_bytes": ba,
        "bytes_rel_diff": (ba - bp) / bp if bp else (0.0 if ba == 0 else float("inf")),
        "only_predicted": [list(x) for x in p3],
        "only_actual": [list(x) for x in a3],
    }
    res["level"] = next((lv for lv in LEVELS if res[lv]), None)
    return res


def describe_comparison(cmp: dict) -> str:
    lines = [f"collectives agree at level: {cmp['level']}",
             f"  predicted (report): {cmp['predicted_totals']}  total {cmp['predicted_bytes']} B",
             f"  actual (XLA HLO):   {cmp['actual_totals']}  total {cmp['actual_bytes']} B"]
    if cmp["only_predicted"]:
        lines.append("  only in the report (kind, bytes, axes): "
                     + ", ".join(map(str, cmp["only_predicted"])))
    if cmp["only_actual"]:
        lines.append("  only in XLA (kind, bytes, axes): "
                     + ", ".join(map(str, cmp["only_actual"])))
    return "\n".join(lines)


def per_op_differences(predicted: list[dict], actual: list[dict],
                        only_global: bool = True) -> list[dict]:
    """Ops whose (kind, bytes, axes) multisets differ between the report and
    the XLA collectives attributed to them. XLA collectives without an op
    (combined all-reduces) first cancel against what is left of the report's
    after the per-op matching; the rest are listed under op None. With
    ``only_global``, only items that also differ in the global comparison are
    kept (the rest are shared reshardings XLA attributes to another consumer)."""
    key = lambda c: (c["kind"], c["bytes"], c["axes"])  # noqa: E731
    by_p: dict = collections.defaultdict(list)
    by_a: dict = collections.defaultdict(list)
    for c in predicted:
        by_p[c.get("op")].append(c)
    for c in actual:
        by_a[c.get("op")].append(c)
    diffs = {}
    for op in set(by_p) | set(by_a):
        if op is not None:
            diffs[op] = _multiset_diff([key(c) for c in by_p[op]], [key(c) for c in by_a[op]])
    pool = collections.Counter(key(c) for c in by_a[None])
    for op in sorted(diffs):
        ps, xs = diffs[op]
        left = []
        for k in ps:
            if pool[k] > 0:
                pool[k] -= 1
            else:
                left.append(k)
        diffs[op] = (left, xs)
    if by_p[None]:
        diffs[None] = _multiset_diff([key(c) for c in by_p[None]], list(pool.elements()))
    else:
        diffs[None] = ([], sorted(pool.elements(), key=str))
    rows = []
    for op in sorted(diffs, key=lambda x: (x is None, x or 0)):
        ps, xs = diffs[op]
        if ps or xs:
            rows.append({"op": op,
                         "op_name": next((c.get("op_name") for c in by_a[op] if c.get("op_name")),
                                         None),
                         "reasons": sorted({c["reason"] for c in by_p[op] if c.get("reason")}),
                         "only_predicted": [list(x) for x in ps],
                         "only_actual": [list(x) for x in xs]})
    if only_global:
        # Keep only what also differs globally: an item missing on one op and
        # present on another is the same collective attributed to another
        # consumer of a shared resharding.
        gp, ga = _multiset_diff([key(c) for c in predicted], [key(c) for c in actual])
        bp, ba = collections.Counter(gp), collections.Counter(ga)


        def take(items, budget):
            out = []
            for x in items:
                if budget[tuple(x)] > 0:
                    budget[tuple(x)] -= 1
                    out.append(x)
            return out

        kept = []
        for r in rows:
            ps, xs = take(r["only_predicted"], bp), take(r["only_actual"], ba)
            if ps or xs:
                kept.append({**r, "only_predicted": ps, "only_actual": xs})
        rows = kept
    return rows
