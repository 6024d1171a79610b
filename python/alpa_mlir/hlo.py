"""Reading the optimized HLO text of an XLA executable: collectives, computations,
entry parameters, aliasing and the op tags of HLO metadata.

XLA writes replica groups as explicit lists, iota lists (``[2,4]<=[8]``) or mesh axes
(``mesh['x'=2,'y'=4] {'y'}``): :func:`replica_groups` expands all three to device ids.
"""

from __future__ import annotations

import collections
import re

_COLLECTIVE_KINDS = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all",
                     "collective-permute", "collective-broadcast", "ragged-all-to-all")
_DTYPE_BYTES = {"pred": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "f16": 2, "bf16": 2,
                "s32": 4, "u32": 4, "f32": 4, "s64": 8, "u64": 8, "f64": 8,
                "c64": 8, "c128": 16, "s4": 1, "u4": 1, "f8e4m3fn": 1, "f8e5m2": 1}
_SHAPE = re.compile(r"\b([a-z]+[0-9]*[a-z0-9]*)\[([0-9,]*)\]")
_DEF = re.compile(r"^\s*(?:ROOT\s+)?%?([\w.\-]+)\s*=\s*(.+?)\s+([a-z][\w\-]*)\((.*)$")


def shape_bytes(text: str) -> tuple[int, list[str]]:
    """Total bytes and the shapes (``f32[4,8]``) of the array types in ``text``."""
    total, shapes = 0, []
    for dt, dims in _SHAPE.findall(text):
        if dt not in _DTYPE_BYTES:
            continue
        n = 1
        for d in (x for x in dims.split(",") if x):
            n *= int(d)
        total += n * _DTYPE_BYTES[dt]
        shapes.append(f"{dt}[{dims}]")
    return total, shapes


_IOTA = re.compile(r"\[([\d,]+)\](?:<=\[([\d,]+)\])?(?:T\(([\d,]+)\))?")


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


def _iota(text: str):
    """XLA's iota device lists as a numpy array of ids, or None: ``[2,4]<=[8]`` and
    ``[4,2]<=[2,4]T(1,0)`` (arange reshaped to the dims after ``<=``, transposed, reshaped to
    the leading dims), and a mesh's short form ``[2,4]T(1,0)`` (arange reshaped to the dims,
    transposed; flat)."""
    import numpy as np

    m = _IOTA.fullmatch(text.strip())
    if not m:
        return None
    reshape = _ints(m.group(2) or m.group(1))
    ids = np.arange(int(np.prod(reshape))).reshape(reshape)
    if m.group(3):
        ids = ids.transpose(_ints(m.group(3)))
    return ids.reshape(_ints(m.group(1))) if m.group(2) else ids.reshape(-1)


def _mesh_groups(text: str):
    """Replica groups of XLA's mesh-axes form:
    ``mesh['x'=2,'y'=4][, device_ids=(...)] {'y'}`` (a group = the devices that
    agree on every coordinate outside the listed axes; ``'x':(pre)size`` names a
    sub-axis). Returns explicit groups or None when the text is not understood."""
    import itertools

    import numpy as np

    m = re.match(r"mesh\[([^\]]*)\](?:,\s*device_ids=\((.*?)\))?\s*\{([^}]*)\}", text)
    if not m:
        return None
    axes = []
    for item in filter(None, (x.strip() for x in m.group(1).split(","))):
        name, _, size = item.rpartition("=")
        axes.append((name.strip().strip("'\""), int(size)))
    sizes = [s for _, s in axes]
    names = [n for n, _ in axes]
    n_dev = int(np.prod(sizes)) if sizes else 1
    if m.group(2):
        ids = _iota(m.group(2))
        if ids is None:
            nums = [int(x) for x in re.findall(r"\d+", m.group(2))]
            if len(nums) < n_dev:
                return None
            ids = np.array(nums[-n_dev:])
        ids = np.asarray(ids).reshape(sizes)
    else:
        ids = np.arange(n_dev).reshape(sizes)
    group_axes = []  # (mesh axis index, pre, size)
    for item in filter(None, (x.strip() for x in m.group(3).split(","))):
        sm = re.fullmatch(r"['\"]?([^'\":]+)['\"]?(?::\((\d+)\)(\d+))?", item)
        if not sm or sm.group(1) not in names:
            return None
        k = names.index(sm.group(1))
        if sm.group(2):
            group_axes.append((k, int(sm.group(2)), int(sm.group(3))))
        else:
            group_axes.append((k, 1, sizes[k]))
    groups: dict[tuple, list[tuple[tuple, int]]] = {}
    for coord in itertools.product(*[range(s) for s in sizes]):
        rest = list(coord)
        within = []
        for k, pre, size in group_axes:
            c = (coord[k] // pre) % size
            within.append(c)
            rest[k] -= c * pre
        groups.setdefault(tuple(rest), []).append((tuple(within), int(ids[coord])))
    return [[d for _, d in sorted(members)] for _, members in sorted(groups.items())]


def replica_groups(attrs: str):
    """(explicit groups or None, raw text or None) of an instruction's attributes."""
    m = re.search(r"replica_groups=", attrs)
    if not m:
        return None, None
    rest = attrs[m.end():]
    if rest.startswith("{"):
        depth, end = 0, 0
        for i, ch in enumerate(rest):
            depth += ch == "{"
            depth -= ch == "}"
            if depth == 0:
                end = i + 1
                break
        raw = rest[:end]
        return [[int(x) for x in grp.split(",") if x]
                for grp in re.findall(r"\{([\d,]*)\}", raw[1:-1])], raw
    mi = _IOTA.match(rest)
    if mi and mi.group(2):
        return _iota(mi.group(0)).tolist(), mi.group(0)
    mm = re.match(r"mesh\[[^\]]*\](?:,\s*device_ids=\(.*?\))?\s*\{[^}]*\}", rest)
    if mm:
        return _mesh_groups(mm.group(0)), mm.group(0)
    mx = re.match(r"maximal_mesh\[device_id=(\d+)\]", rest)
    if mx:
        return [[int(mx.group(1))]], mx.group(0)
    return None, rest.split(",", 1)[0]


def split_operands(rest: str) -> tuple[str, str]:
    """Split ``operands), attrs`` at the closing parenthesis of the call."""
    depth = 1
    for i, ch in enumerate(rest):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return rest[:i], rest[i + 1:]
    return rest, ""


def list_collectives(hlo_text: str) -> list[dict]:
    """Collectives in optimized HLO text.

    For each: ``kind`` (all-reduce, all-gather, reduce-scatter, all-to-all,
    collective-permute, ...), ``name``, ``async`` (a ``-start`` op),
    result/operand shapes and bytes, ``bytes`` = the larger of the two (the
    full, unsharded buffer: an all-gather's result, a reduce-scatter's
    operand), ``replica_groups`` as explicit device-id lists (XLA prints
    explicit lists, iota ``[2,4]<=[8]`` or mesh-axes ``mesh['x'=2,'y'=4] {'y'}``
    forms; ``replica_groups_text`` keeps the original), ``channel_id``,
    ``dimensions`` and ``source_target_pairs`` when present."""
    types: dict[str, str] = {}
    found = []
    for line in hlo_text.splitlines():
        m = _DEF.match(line)
        if not m:
            continue
        name, result_type, opcode, rest = m.groups()
        types[name] = result_type
        kind = opcode[:-len("-start")] if opcode.endswith("-start") else opcode
        if kind in _COLLECTIVE_KINDS:
            found.append((name, result_type, kind, opcode.endswith("-start"), rest))
    out = []
    for name, result_type, kind, is_start, rest in found:
        operands, attrs = split_operands(rest)
        operand_names = re.findall(r"%([\w.\-]+)", operands)
        if operand_names:
            obytes, oshapes = shape_bytes(" ".join(types.get(n, "") for n in operand_names))
        else:
            obytes, oshapes = shape_bytes(operands)
        rbytes, rshapes = shape_bytes(result_type)
        if is_start and len(rshapes) > len(oshapes) and oshapes:
            # An async start returns (operands, results[, scratch]): keep the results.
            n = len(oshapes)
            rshapes = rshapes[n:2 * n]
            rbytes = sum(shape_bytes(s)[0] for s in rshapes)
        groups, raw = replica_groups(attrs)
        entry = {
            "kind": kind,
            "name": name,
            "async": is_start,
            "result_shapes": rshapes,
            "operand_shapes": oshapes,
            "result_bytes": rbytes,
            "operand_bytes": obytes,
            "bytes": max(rbytes, obytes),
            "replica_groups": groups,
            "replica_groups_text": raw,
        }
        cm = re.search(r"channel_id=(\d+)", attrs)
        if cm:
            entry["channel_id"] = int(cm.group(1))
        dm = re.search(r"dimensions=\{([\d,]*)\}", attrs)
        if dm:
            entry["dimensions"] = [int(x) for x in dm.group(1).split(",") if x]
        pm = re.search(r"source_target_pairs=\{((?:\{\d+,\d+\},?)*)\}", attrs)
        if pm:
            entry["source_target_pairs"] = [[int(a), int(b)] for a, b in
                                            re.findall(r"\{(\d+),(\d+)\}", pm.group(1))]
        out.append(entry)
    return out


def summarize_collectives(colls: list[dict]) -> dict:
    summary: dict[str, dict] = {}
    for c in colls:
        s = summary.setdefault(c["kind"], {"count": 0, "bytes": 0})
        s["count"] += 1
        s["bytes"] += c["bytes"]
    return summary


# XLA's CPU pipeline has no reduce-scatter creator (only the GPU one runs
# ReduceScatterCreator): a partial sum that the plan reduce-scatters comes out
# as an all-reduce whose every use is a per-device dynamic-slice of one dim,
# cut into as many parts as the all-reduce's group has devices (the form
# XLA's ReduceScatterDecomposer writes), the slices usually fused into their
# consumers. Semantically that is a reduce-scatter, although it moves an
# all-reduce's volume.

_COMP_HEAD = re.compile(r"^(?:ENTRY\s+)?%?([\w.\-]+)\s*\(.*\)\s*->\s*.*\{\s*$")


def hlo_computations(hlo_text: str) -> dict[str, list[dict]]:
    """Instructions (name, type, opcode, operand names, raw operands, attrs)
    of every computation of an HLO module's text."""
    comps: dict[str, list[dict]] = {}
    cur = None
    for line in hlo_text.splitlines():
        if cur is None:
            m = _COMP_HEAD.match(line)
            if m:
                cur = m.group(1)
                comps[cur] = []
            continue
        if line.strip() == "}":
            cur = None
            continue
        m = _DEF.match(line)
        if not m:
            continue
        name, rtype, opcode, rest = m.groups()
        operands, attrs = split_operands(rest)
        comps[cur].append({"name": name, "type": rtype, "opcode": opcode, "raw": operands,
                           "operands": re.findall(r"%([\w.\-]+)", operands), "attrs": attrs})
    return comps


def shape_dims(shape: str) -> list[int] | None:
    m = _SHAPE.search(shape)
    return [int(d) for d in m.group(2).split(",") if d] if m else None


def decomposed_reduce_scatters(hlo_text: str) -> set[tuple[str, int]]:
    """The all-reduce results (all-reduce name, tuple index; 0 for an array)
    that are only ever read through dynamic-slices cutting exactly one dim
    into ``group size`` parts, following values into fusions through their
    parameters: reduce-scatters in the form XLA's CPU pipeline emits them."""
    comps = hlo_computations(hlo_text)
    users: dict[str, dict[str, list[tuple[dict, int]]]] = {}
    for comp, instrs in comps.items():
        u = users.setdefault(comp, collections.defaultdict(list))
        for ins in instrs:
            for pos, op in enumerate(ins["operands"]):
                u[op].append((ins, pos))

    def param(comp: str, index: int) -> dict | None:
        return next((i for i in comps.get(comp, []) if i["opcode"] == "parameter"
                     and i["raw"].strip() == str(index)), None)

    def only_sliced(comp: str, name: str, dims: list[int], n: int, depth: int = 0) -> bool:
        uses = users.get(comp, {}).get(name, [])
        if not uses or depth > 8:
            return False
        for ins, pos in uses:
            if ins["opcode"] == "dynamic-slice" and pos == 0:
                m = re.search(r"dynamic_slice_sizes=\{([\d,]*)\}", ins["attrs"])
                sizes = [int(x) for x in m.group(1).split(",") if x] if m else []
                cut = [d for d, (a, b) in enumerate(zip(dims, sizes)) if a != b]
                if len(sizes) != len(dims) or len(cut) != 1 or sizes[cut[0]] * n != dims[cut[0]]:
                    return False
            elif ins["opcode"] == "fusion":
                m = re.search(r"calls=%?([\w.\-]+)", ins["attrs"])
                p = param(m.group(1), pos) if m else None
                if p is None or not only_sliced(m.group(1), p["name"], dims, n, depth + 1):
                    return False
            else:
                return False
        return True

    found = set()
    for comp, instrs in comps.items():
        for ins in instrs:
            if ins["opcode"] != "all-reduce":
                continue
            groups, _ = replica_groups(ins["attrs"])
            if not groups or len(groups[0]) < 2:
                continue
            n = len(groups[0])
            _, shapes = shape_bytes(ins["type"])
            if ins["type"].lstrip().startswith("("):
                elements: dict[int, list[str]] = collections.defaultdict(list)
                for u, _ in users[comp].get(ins["name"], []):
                    m = re.search(r"index=(\d+)", u["attrs"])
                    if u["opcode"] != "get-tuple-element" or not m:
                        elements.clear()  # read whole: no element is only sliced
                        break
                    elements[int(m.group(1))].append(u["name"])
            else:
                elements = {0: [ins["name"]]}
            for i, names in elements.items():
                dims = shape_dims(shapes[i]) if i < len(shapes) else None
                if dims and names and all(only_sliced(comp, x, dims, n) for x in names):
                    found.add((ins["name"], i))
    return found


_ENTRY_HEAD = re.compile(r"^ENTRY\s+%?[\w.\-]+\s*\((.*)\)\s*->")


def entry_parameter_shapes(hlo_text: str) -> list[str]:
    """The per-device shapes of the entry computation's parameters, in order."""
    for line in hlo_text.splitlines():
        m = _ENTRY_HEAD.match(line)
        if m:
            return [shape_bytes(p.split(":", 1)[1])[1][0] if ":" in p else ""
                    for p in _split_top_level(m.group(1))]
    return []


def input_output_aliases(hlo_text: str) -> dict[int, int]:
    """``input_output_alias`` of the HLO module: parameter -> output index."""
    head = next((ln for ln in hlo_text.splitlines() if ln.startswith("HloModule")), "")
    return {int(p): int(o) for o, p in re.findall(r"\{(\d+)\}: \((\d+), \{\}", head)}


def _split_top_level(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


_OP_TAG = re.compile(r'metadata=\{[^}]*op_name="[^"]*alpa_op_(\d+)\b')
_DEF_NAME = re.compile(r"^\s*(?:ROOT\s+)?%?([\w.\-]+)\s*=")


def op_tags(hlo_text: str) -> dict[str, int]:
    """Instruction name -> N for the instructions whose metadata ``op_name`` carries the tag
    ``alpa_op_N`` (see :func:`alpa_mlir.op_attribution.tag_ops`)."""
    tags = {}
    for ln in hlo_text.splitlines():
        m = _OP_TAG.search(ln)
        if m:
            d = _DEF_NAME.match(ln)
            if d:
                tags[d.group(1)] = int(m.group(1))
    return tags
