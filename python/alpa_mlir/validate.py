"""Check an ``alpa-intra-op-shard`` plan on XLA: numerics and collectives.

For one fixture (or any module), one mesh and one output format:

1. run ``alpa-opt --alpa-inline --alpa-intra-op-shard="mesh=.. format=.. report=.."``;
2. compile the annotated module with XLA's SPMD partitioner on ``N`` virtual
   CPU devices (Shardy for ``sdy``, GSPMD for ``gspmd``), run it, and compare
   every output with the *original* module run on one device (same seeded
   inputs as :mod:`alpa_mlir.run`);
3. compare the collectives XLA inserted (from its optimized HLO) with the
   report's ``collectives``.

Collective matching (:func:`compare_collectives`). Both sides are brought to
one list of *elementary* collectives ``(kind, bytes, axes)``:

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
  (:func:`decomposed_reduce_scatters`); on request (``read_decomposed``,
  ``--read-decomposed-reduce-scatter``) such an all-reduce counts as the
  reduce-scatter it implements, with the same bytes (the reduced buffer);
  by default it stays an all-reduce, which is the volume XLA CPU moves;
* on the report's side (:func:`normalize_report`): nothing to deduplicate,
  the report lists each move of a value's resharding once with the operands
  that share it, as XLA runs it; on request (``merge_gathers``) the
  all-gathers of one resharding over several mesh axes are merged into one.

The comparison reports, from strictest to loosest, whether these agree:
``exact`` (multisets of (kind, bytes, axes)), ``kinds_bytes`` (multisets of
(kind, bytes)), ``kind_totals`` (count and total bytes per kind),
``total_bytes`` (total bytes of all collectives, with the relative difference).

Each XLA collective is also attributed to the op it was emitted for: every
top-level op ``%N`` of the annotated module gets ``loc("alpa_op_N")`` (N =
the report's op index) before compiling, which XLA keeps as HLO metadata
``op_name`` (not for combined all-reduces). ``per_op`` then lists the ops whose
collectives differ. XLA may attribute a shared resharding to another consumer
than the report does: such pairs cancel in the global comparison.

Diagnostics (``--pin-reshardings``): route every operand whose required spec
(the op's strategy in the report) differs from its producer's spec through an
explicit resharding (``custom_call @Sharding`` / ``sdy.sharding_constraint``),
and for sdy also repeat each op's sharding as a ``sdy.sharding_constraint``
(XLA's Shardy import in jaxlib 0.10 drops per-op ``sdy.sharding``). This is
what a plan-faithful emitter would write; it separates what the planner
predicts from what XLA chooses on its own.

Command line::

    python -m alpa_mlir.validate FIXTURE_OR_FILE --mesh 2x4 --format sdy [--opt K=V ...]
        [--pin-reshardings] [--read-decomposed-reduce-scatter] [--require exact] [-v]
        [--keep DIR] [--json]

``FIXTURE_OR_FILE``: a stem of ``lit-tests/inputs`` (``mlp``, ``gpt_tiny``, ...)
or a path. Exit status 0 when the numerics match (and, with
``--require LEVEL``, the collectives agree at that level), 1 otherwise, 2 on an
error (alpa-opt or XLA failing)."""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

from . import run as R

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
INPUTS_DIR = REPO_ROOT / "lit-tests" / "inputs"

LEVELS = ("exact", "kinds_bytes", "kind_totals", "total_bytes")


# ------------------------------------------------------------------ alpa-opt

def alpa_opt_path() -> Path:
    """``$ALPA_OPT`` (relative to the repository root when relative), default
    ``target/release/alpa-opt``. Not checked for existence."""
    p = Path(os.environ.get("ALPA_OPT", "target/release/alpa-opt"))
    return p if p.is_absolute() else REPO_ROOT / p


def resolve_module(name: str | os.PathLike) -> Path:
    p = Path(name)
    if p.exists():
        return p
    q = INPUTS_DIR / f"{name}.mlir"
    if q.exists():
        return q
    raise FileNotFoundError(f"{name}: neither a file nor a fixture of {INPUTS_DIR}")


def parse_mesh(mesh: str | Sequence[int]) -> tuple[int, ...]:
    if isinstance(mesh, str):
        return tuple(int(x) for x in mesh.lower().split("x"))
    return tuple(int(x) for x in mesh)


class AlpaOptError(RuntimeError):
    pass


def shard_module(src: Path, mesh: str, fmt: str = "sdy", options: Sequence[str] = (),
                 workdir: Path | None = None, opt: Path | None = None,
                 retries: int = 3) -> tuple[str, dict, list[str]]:
    """Run ``alpa-opt --alpa-inline --alpa-intra-op-shard`` on ``src``; returns
    (annotated module text, report, the command). ``options`` are extra
    ``key=value`` pass options. Retries a few times when the binary is missing
    (it may be being rebuilt)."""
    opt = opt or alpa_opt_path()
    own = workdir is None
    wd = Path(tempfile.mkdtemp(prefix="alpa-validate-")) if own else Path(workdir)
    out, rep = wd / "sharded.mlir", wd / "report.json"
    pass_opts = " ".join([f"mesh={mesh}", f"format={fmt}", *options, f"report={rep}"])
    cmd = [str(opt), str(src), "--alpa-inline", f"--alpa-intra-op-shard={pass_opts}",
           "-o", str(out)]
    for attempt in range(retries):
        if opt.exists():
            try:
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
            except OSError:  # e.g. "text file busy" while being rebuilt
                r = None
            if r is not None and r.returncode == 0:
                break
            if r is not None and opt.exists():
                raise AlpaOptError(f"alpa-opt failed ({r.returncode}): {' '.join(cmd)}\n"
                                   f"{r.stderr[-4000:]}")
        time.sleep(5 * (attempt + 1))
    else:
        raise AlpaOptError(f"alpa-opt not found or not runnable at {opt}")
    return out.read_text(), json.loads(rep.read_text()), cmd


def binary_stamp(opt: Path | None = None) -> str:
    """mtime and size of alpa-opt (it may be rebuilt between runs)."""
    opt = opt or alpa_opt_path()
    try:
        st = opt.stat()
    except OSError:
        return "missing"
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(st.st_mtime)) + f" {st.st_size}B"


# ------------------------------------------------------------------ collectives

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
    """Elementary collectives of :func:`alpa_mlir.run.list_collectives`
    entries (see the module docstring). ``decomposed`` names the elements
    ``(all-reduce name, tuple index)`` to read as reduce-scatters (see
    :func:`decomposed_reduce_scatters`); they keep their bytes (the reduced
    buffer, which is a reduce-scatter's operand) and get ``decomposed``."""
    out = []
    for c in colls:
        kind = c["kind"]
        axes = _axes_of_groups(c.get("replica_groups"), mesh, device_ids)
        base = {"kind": kind, "axes": axes, "name": c["name"]}
        if kind == "all-reduce" or kind == "all-gather":
            # Tuple results (combiner): one elementary collective per element.
            for i, s in enumerate(c["result_shapes"]):
                item = {**base, "bytes": R._shape_bytes(s)[0], "shape": s,
                        "combined": len(c["result_shapes"]) > 1}
                if kind == "all-reduce" and decomposed and (c["name"], i) in decomposed:
                    item.update(kind="reduce-scatter", decomposed=True)
                out.append(item)
        elif kind == "reduce-scatter":
            for s in c["operand_shapes"]:
                out.append({**base, "bytes": R._shape_bytes(s)[0], "shape": s,
                            "combined": len(c["operand_shapes"]) > 1})
        elif kind == "all-to-all":
            # Array form: one shape; tuple form: one piece per peer, sum them.
            out.append({**base, "bytes": c["result_bytes"],
                        "shape": ",".join(c["result_shapes"]), "combined": False})
        else:
            out.append({**base, "bytes": c["result_bytes"],
                        "shape": ",".join(c["result_shapes"]), "combined": False})
    return out


# ------------------------------------------------------------------ decomposed reduce-scatters
#
# XLA's CPU pipeline has no reduce-scatter creator (only the GPU one runs
# ReduceScatterCreator): a partial sum that the plan reduce-scatters comes out
# as an all-reduce whose every use is a per-device dynamic-slice of one dim,
# cut into as many parts as the all-reduce's group has devices (the form
# XLA's ReduceScatterDecomposer writes), the slices usually fused into their
# consumers. Semantically that is a reduce-scatter, although it moves an
# all-reduce's volume.

_COMP_HEAD = re.compile(r"^(?:ENTRY\s+)?%?([\w.\-]+)\s*\(.*\)\s*->\s*.*\{\s*$")


def _hlo_computations(hlo_text: str) -> dict[str, list[dict]]:
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
        m = R._DEF.match(line)
        if not m:
            continue
        name, rtype, opcode, rest = m.groups()
        operands, attrs = R._split_operands(rest)
        comps[cur].append({"name": name, "type": rtype, "opcode": opcode, "raw": operands,
                           "operands": re.findall(r"%([\w.\-]+)", operands), "attrs": attrs})
    return comps


def _dims(shape: str) -> list[int] | None:
    m = R._SHAPE.search(shape)
    return [int(d) for d in m.group(2).split(",") if d] if m else None


def decomposed_reduce_scatters(hlo_text: str) -> set[tuple[str, int]]:
    """The all-reduce results (all-reduce name, tuple index; 0 for an array)
    that are only ever read through dynamic-slices cutting exactly one dim
    into ``group size`` parts, following values into fusions through their
    parameters: reduce-scatters in the form XLA's CPU pipeline emits them."""
    comps = _hlo_computations(hlo_text)
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
            groups, _ = R._replica_groups(ins["attrs"])
            if not groups or len(groups[0]) < 2:
                continue
            n = len(groups[0])
            _, shapes = R._shape_bytes(ins["type"])
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
                dims = _dims(shapes[i]) if i < len(shapes) else None
                if dims and names and all(only_sliced(comp, x, dims, n) for x in names):
                    found.add((ins["name"], i))
    return found


_ENTRY_HEAD = re.compile(r"^ENTRY\s+%?[\w.\-]+\s*\((.*)\)\s*->")


def entry_parameter_shapes(hlo_text: str) -> list[str]:
    """The per-device shapes of the entry computation's parameters, in order."""
    for line in hlo_text.splitlines():
        m = _ENTRY_HEAD.match(line)
        if m:
            return [R._shape_bytes(p.split(":", 1)[1])[1][0] if ":" in p else ""
                    for p in _split_top(m.group(1))]
    return []


def input_output_aliases(hlo_text: str) -> dict[int, int]:
    """``input_output_alias`` of the HLO module: parameter -> output index."""
    head = next((ln for ln in hlo_text.splitlines() if ln.startswith("HloModule")), "")
    return {int(p): int(o) for o, p in re.findall(r"\{(\d+)\}: \((\d+), \{\}", head)}


# `%N = "op"`, and the diagnostic rewrites' `%alpa_pin_N_K` (operand K of op
# N) and `%alpa_cN` (op N's result constraint), which count as op N.
_SSA_DEF = re.compile(r'^    %(?:alpa_pin_|alpa_c)?(\d+)(?:_\d+)?(?::\d+)?\s*=\s*"?([\w.]+)"?')
_REWRITTEN = ("    %alpa_pin_", "    %alpa_c")
_OP_TAG = re.compile(r'metadata=\{[^}]*op_name="[^"]*alpa_op_(\d+)\b')
_DEF_NAME = re.compile(r"^\s*(?:ROOT\s+)?%?([\w.\-]+)\s*=")


def _is_top(line: str) -> bool:
    """A line that starts an op at the top level of @main (4-space indent; not
    a block label ``^bb`` or the ``})`` closing a region)."""
    return len(line) > 4 and line.startswith("    ") and line[4] not in " ^})"


def tag_ops(module_text: str) -> tuple[str, dict[int, str]]:
    """Give every top-level op ``%N = ...`` of ``@main`` the location
    ``loc("alpa_op_N")`` (a pure metadata change) so that XLA's HLO metadata
    (``op_name``, with GSPMD and Shardy alike) names the op each collective
    was emitted for; ``N`` is the op's SSA number, which is its index in the
    report. Returns (text, {N: op name}); the text is unchanged (and the map
    empty) when the module already carries locations or @main is not in the
    expected printed form."""
    if "loc(" in module_text:
        return module_text, {}
    lines = module_text.splitlines()
    start = next((i for i, ln in enumerate(lines) if "func.func" in ln and "@main(" in ln), None)
    if start is None:
        return module_text, {}
    last: tuple[int, int] | None = None  # (line index, op number) of the open op
    names: dict[int, str] = {}

    def close(end: int):
        if last is not None:
            i, n = last
            lines[end] = lines[end] + f' loc("alpa_op_{n}")'

    i = start + 1
    while i < len(lines):
        ln = lines[i]
        if _is_top(ln):  # an op at the top level of @main
            close(i - 1)
            last = None
            m = _SSA_DEF.match(ln)
            if m:
                last = (i, int(m.group(1)))
                if not ln.startswith(_REWRITTEN):
                    names[int(m.group(1))] = m.group(2)
        elif ln.startswith("  }") or ln.strip() == "}":
            close(i - 1)
            break
        i += 1
    return "\n".join(lines) + ("\n" if module_text.endswith("\n") else ""), names


_SPEC_TOKEN = re.compile(r"R|S\d+")


def parse_spec(spec: str) -> list[tuple[int, ...]]:
    """``RS01R`` -> [(), (0, 1), ()]: the mesh axes (major first) of each dim."""
    toks = _SPEC_TOKEN.findall(spec)
    if "".join(toks) != spec:
        raise ValueError(f"cannot parse sharding spec {spec!r}")
    return [() if t == "R" else tuple(int(c) for c in t[1:]) for t in toks]


def spec_to_sdy(spec: str, axis_names: Sequence[str] = ("x", "y")) -> str:
    dims = ", ".join("{" + ", ".join(f'"{axis_names[a]}"' for a in axes) + "}"
                     for axes in parse_spec(spec))
    return f"#sdy.sharding<@mesh, [{dims}]>"


def spec_to_hlo(spec: str, mesh: Sequence[int], device_ids: Sequence[int] | None = None) -> str:
    """The GSPMD sharding string of a spec on a mesh (explicit device list)."""
    import itertools

    import numpy as np

    dims = parse_spec(spec)
    ids = np.asarray(device_ids if device_ids is not None else range(int(np.prod(mesh))))
    ids = ids.reshape(mesh)
    used = [a for axes in dims for a in axes]
    rest = [a for a in range(len(mesh)) if a not in used]
    tiles = [int(np.prod([mesh[a] for a in axes])) if axes else 1 for axes in dims]
    rep = int(np.prod([mesh[a] for a in rest])) if rest else 1
    if all(t == 1 for t in tiles):
        return "{replicated}"
    arr = np.zeros(tiles + [rep], dtype=np.int64)

    def radix(coord, axes):
        i = 0
        for a in axes:
            i = i * mesh[a] + coord[a]
        return i

    for coord in itertools.product(*[range(m) for m in mesh]):
        arr[tuple(radix(coord, axes) for axes in dims) + (radix(coord, rest),)] = ids[coord]
    shape = tiles + ([rep] if rep > 1 else [])
    flat = ",".join(str(int(x)) for x in arr.reshape(-1))
    return ("{devices=[" + ",".join(map(str, shape)) + "]" + flat
            + (" last_tile_dim_replicate}" if rep > 1 else "}"))


def _split_top(text: str) -> list[str]:
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


def strategy_inputs(strategy: str) -> list[str] | None:
    """``'RRS1 = RRS0 x S0S1 @ allreduce{0}'`` -> ``['RRS0', 'S0S1']`` (None
    for ops without operands, e.g. ``'S1'``)."""
    body = strategy.split(" @ ")[0]
    if " = " not in body:
        return None
    return [x.strip() for x in body.split(" = ", 1)[1].split(" x ")]


def pin_reshardings(module_text: str, report: dict, fmt: str) -> tuple[str, int]:
    """DIAGNOSTIC: make every resharding of the plan explicit. For each op of
    the report, each operand whose required spec (the op's ``strategy``,
    ``OUT = IN0 x IN1 ...``) differs from the spec its producer was given (the
    producer op's ``results`` or the entry's ``arguments``) is routed through
    an explicit resharding to the required spec (``sdy.sharding_constraint``
    for sdy, ``custom_call @Sharding`` for gspmd), free slices included, so
    that XLA cannot pick another algorithm for the op. Returns (text, pins).
    This is what an emitter that leaves XLA no choice would write; comparing
    the collectives with and without it separates plan bugs from XLA's own
    choices."""
    mesh = report["mesh"]["shape"]
    dev = report["mesh"].get("device_ids")
    mm = re.search(r"#sdy\.mesh<\[([^\]]*)\]>", module_text)
    axis_names = tuple(re.findall(r'"(\w+)"\s*=', mm.group(1))) if mm else ("x", "y")
    ops = report.get("ops", [])
    args = report.get("arguments", [])
    want: dict[int, list[str]] = {}
    for o in ops:
        ins = strategy_inputs(o.get("strategy", ""))
        if ins:
            want[int(o["index"])] = ins

    def produced(tok: str) -> str | None:
        m = re.fullmatch(r"%arg(\d+)", tok)
        if m:
            k = int(m.group(1))
            return args[k] if k < len(args) else None
        m = re.fullmatch(r"%(\d+)(?:#(\d+))?", tok)
        if m:
            k, j = int(m.group(1)), int(m.group(2) or 0)
            if k < len(ops) and j < len(ops[k].get("results", [])):
                return ops[k]["results"][j]
        return None

    lines = module_text.splitlines()
    out, pins, i = [], 0, 0
    while i < len(lines):
        ln = lines[i]
        m = _SSA_DEF.match(ln)
        if not (m and int(m.group(1)) in want) or ln.startswith(_REWRITTEN):
            out.append(ln)
            i += 1
            continue
        n = int(m.group(1))
        # The op's last line holds its type signature: `: (T0, T1, ...) -> R`.
        j = i
        while j + 1 < len(lines) and not _is_top(lines[j + 1]) and \
                not lines[j + 1].startswith("  }"):
            j += 1
        sig = re.search(r":\s*\((.*)\)\s*->\s*[^()]*$", lines[j]) or \
            re.search(r":\s*\((.*)\)\s*->\s*\(.*\)\s*$", lines[j])
        opm = re.match(r'^(\s*%[\w:]+\s*=\s*"[\w.]+"\()([^)]*)(\).*)$', ln)
        if not sig or not opm:
            raise ValueError(f"cannot pin operands of op {n}: {ln[:120]}")
        types = _split_top(sig.group(1))
        operands = _split_top(opm.group(2))
        req = want[n]
        if len(req) != len(operands) or len(types) != len(operands):
            raise ValueError(f"op {n}: strategy has {len(req)} inputs, op {len(operands)} operands")
        for k, spec in enumerate(req):
            have = produced(operands[k])
            if have is None or have == spec or spec == "[]":
                continue
            name = f"%alpa_pin_{n}_{k}"
            t = types[k]
            if fmt == "sdy":
                out.append(f'    {name} = "sdy.sharding_constraint"({operands[k]}) '
                           f'<{{sharding = {spec_to_sdy(spec, axis_names)}}}> : ({t}) -> {t}')
            else:
                hs = spec_to_hlo(spec, mesh, dev)
                out.append(f'    {name} = "stablehlo.custom_call"({operands[k]}) '
                           f'<{{call_target_name = "Sharding"}}> {{mhlo.sharding = "{hs}"}}'
                           f' : ({t}) -> {t}')
            operands[k] = name
            pins += 1
        out.append(opm.group(1) + ", ".join(operands) + opm.group(3))
        i += 1
    return "\n".join(out) + ("\n" if module_text.endswith("\n") else ""), pins


_SDY_PER_VALUE = re.compile(r"sdy\.sharding = #sdy\.sharding_per_value<\[<@(\w+), (\[.*?\])>\]>")
_RESULT_TYPE = re.compile(r"->\s*(tensor<[^>]*>)\s*(?:loc\(.*\))?$")


def constrain_results(module_text: str) -> tuple[str, int]:
    """DIAGNOSTIC (sdy format): after every single-result op of ``@main``
    with ``sdy.sharding``, add ``sdy.sharding_constraint`` with the same
    sharding and make every later use read the constraint. XLA's Shardy import
    (jaxlib 0.10) keeps function argument/result shardings and
    ``sdy.sharding_constraint`` ops but drops per-op ``sdy.sharding``
    attributes, then re-propagates; constraints force the plan's shardings."""
    lines = module_text.splitlines()
    ren: dict[str, str] = {}
    use = re.compile(r"%(\d+)\b(?![#:])")

    def sub_uses(text: str) -> str:
        return use.sub(lambda m: ren.get(m.group(0), m.group(0)), text)

    out, count, i = [], 0, 0
    while i < len(lines):
        ln = lines[i]
        m = _SSA_DEF.match(ln)
        if not m or ln.startswith(_REWRITTEN):
            out.append(sub_uses(ln) if ln.startswith(("    ", "  ")) and "@main(" not in ln
                       else ln)
            i += 1
            continue
        # gather the op's lines (regions included)
        j = i
        while j + 1 < len(lines) and not _is_top(lines[j + 1]) and \
                not lines[j + 1].startswith("  }"):
            j += 1
        head, eq, rest = ln.partition("=")
        block = [head + eq + sub_uses(rest)] + [sub_uses(x) for x in lines[i + 1:j + 1]]
        out.extend(block)
        sh = _SDY_PER_VALUE.search(block[-1] if j > i else block[0])
        rt = _RESULT_TYPE.search(block[-1])
        name = head.strip()
        if sh and rt and ":" not in name and sh.group(2).count("[") >= 1:
            new = f"%alpa_c{name[1:]}"
            out.append(f'    {new} = "sdy.sharding_constraint"({name}) <{{sharding = '
                       f'#sdy.sharding<@{sh.group(1)}, {sh.group(2)}>}}> : '
                       f'({rt.group(1)}) -> {rt.group(1)}')
            ren[name] = new
            count += 1
        i = j + 1
    return "\n".join(out) + ("\n" if module_text.endswith("\n") else ""), count


def attribute_to_ops(actual: list[dict], hlo_text: str, names: dict[int, str]) -> None:
    """Set ``op`` (the report's op index) and ``op_name`` on XLA collectives
    whose HLO metadata carries a tag of :func:`tag_ops`. Collectives XLA made
    up itself or merged (the all-reduce combiner drops metadata) keep None."""
    tags = {}
    for ln in hlo_text.splitlines():
        m = _OP_TAG.search(ln)
        if m:
            d = _DEF_NAME.match(ln)
            if d:
                tags[d.group(1)] = int(m.group(1))
    for c in actual:
        # The all-reduce combiner keeps one member's metadata: unreliable.
        op = None if c.get("combined") else tags.get(c["name"])
        c["op"] = op
        c["op_name"] = names.get(op) if op is not None else None


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
        for key, items in units.items():
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


# ------------------------------------------------------------------ numerics

_REF_CACHE: dict[str, tuple] = {}


def reference_run(src: Path, seed: int = 0):
    """(ModuleInfo, inputs, outputs) of the original module on one device;
    cached per path and seed."""
    key = f"{Path(src).resolve()}@{seed}"
    if key not in _REF_CACHE:
        info = R.parse_module(Path(src).read_text())
        inputs = R.make_inputs(info.inputs, seed)
        mod = R.strip_shardings(info) if info.sharded else info.module
        outputs = R.execute(R.compile_module(mod, 1), inputs, [o.shape for o in info.outputs])
        _REF_CACHE[key] = (info, inputs, outputs)
    return _REF_CACHE[key]


def run_sharded(text: str, inputs, devices: int) -> tuple[list, str, R.ModuleInfo]:
    """Compile ``text`` for ``devices`` partitions (partitioner chosen by the
    annotations) and run it; returns (outputs, optimized HLO, info)."""
    info = R.parse_module(text)
    part = R.choose_partitioner(info)
    comp = R.compile_module(info.module, devices, shardy=(part == "shardy"))
    outs = R.execute(comp, inputs, [o.shape for o in info.outputs])
    return outs, comp.hlo_text(), info


def validate(module: str | os.PathLike, mesh: str, fmt: str = "sdy",
             options: Sequence[str] = (), seed: int = 0, workdir: Path | None = None,
             keep_hlo: bool = False, pin: bool = False, constrain: bool = False,
             read_decomposed: bool = False) -> dict:
    """Everything above for one combination; returns a JSON-able dict with
    ``numerics`` (run.compare_outputs against the original on one device),
    ``collectives`` (compare_collectives), the normalized lists, the report
    summary and timings. With ``read_decomposed``, XLA's all-reduces that are
    only read through per-device slices count as reduce-scatters (see
    :func:`decomposed_reduce_scatters`); how many there are is reported
    either way."""
    src = resolve_module(module)
    shape = parse_mesh(mesh)
    n = 1
    for s in shape:
        n *= s
    t0 = time.time()
    text, report, cmd = shard_module(src, mesh, fmt, options, workdir)
    pins = 0
    if pin and fmt == "sdy":
        constrain = True  # XLA drops per-op sdy shardings: pins alone do not hold
    if pin:
        text, pins = pin_reshardings(text, report, fmt)
        if workdir is not None:
            (Path(workdir) / "sharded.pinned.mlir").write_text(text)
    if constrain:
        if fmt != "sdy":
            raise ValueError("constrain_results is for the sdy format")
        text, _ = constrain_results(text)
        if workdir is not None:
            (Path(workdir) / "sharded.constrained.mlir").write_text(text)
    tagged, op_names = tag_ops(text)
    t1 = time.time()
    ref_info, inputs, ref_out = reference_run(src, seed)
    t2 = time.time()
    res: dict[str, Any] = {
        "module": str(src), "mesh": mesh, "format": fmt, "options": list(options),
        "command": cmd,
        "alpa_opt_build": binary_stamp(),
        "pinned_reshardings": pins if pin else None,
        "constrained_results": bool(constrain),
        "objective": report.get("objective"),
        "solver": report.get("solver"),
        "num_partitions_attr": R.parse_module(text).num_partitions,
    }
    try:
        outs, hlo, info = run_sharded(tagged, inputs, n)
    except Exception as e:  # noqa: BLE001 - reported to the caller
        res.update(ok=False, error=f"XLA: {type(e).__name__}: {e}",
                   seconds={"alpa_opt": t1 - t0, "reference": t2 - t1,
                            "xla": time.time() - t2})
        return res
    t3 = time.time()
    res["partitioner"] = R.choose_partitioner(info)
    num = R.compare_outputs(outs, ref_out)
    for row in num["outputs"]:
        row["type"] = ref_info.outputs[row["index"]].describe()
    res["numerics"] = num
    decomposed = decomposed_reduce_scatters(hlo)
    res["decomposed_reduce_scatters"] = len(decomposed)
    res["read_decomposed"] = read_decomposed
    res["weight_update"] = report.get("weight_update")
    res["arguments"] = report.get("arguments")
    res["entry_parameter_shapes"] = entry_parameter_shapes(hlo)
    res["input_output_aliases"] = input_output_aliases(hlo)
    xla = normalize_xla(R.list_collectives(hlo), shape, report["mesh"].get("device_ids"),
                        decomposed if read_decomposed else None)
    pred = normalize_report(report)
    attribute_to_ops(xla, hlo, op_names)
    res["collectives"] = compare_collectives(pred, xla)
    if any(c["op"] is not None for c in xla):
        res["per_op"] = per_op_differences(pred, xla)
    res["predicted"] = pred
    res["actual"] = xla
    res["ok"] = bool(num["match"])
    res["seconds"] = {"alpa_opt": t1 - t0, "reference": t2 - t1, "xla": t3 - t2}
    if keep_hlo:
        res["hlo"] = hlo
    return res


def mismatched_outputs(num: dict) -> list[str]:
    rows = []
    for o in num.get("outputs", []):
        if not o["match"]:
            rows.append(f"output {o['index']} {o.get('type', '')}: "
                        + ", ".join(f"{k}={o[k]}" for k in
                                    ("max_abs_err", "max_rel_err", "mismatches", "nonfinite",
                                     "error") if k in o))
    if num.get("error"):
        rows.append(num["error"])
    return rows


def format_result(r: dict, verbose: bool = False) -> str:
    lines = [f"{Path(r['module']).stem} mesh={r['mesh']} format={r['format']}"
             + (f" {' '.join(r['options'])}" if r["options"] else "")
             + f": objective {r.get('objective')}, solver {(r.get('solver') or {}).get('status')}"]
    if "error" in r:
        lines.append(f"  ERROR {r['error']}")
        return "\n".join(lines)
    num = r["numerics"]
    worst = max((o.get("max_abs_err", 0.0) for o in num["outputs"]), default=0.0)
    lines.append(f"  numerics vs original on 1 device ({r['partitioner']}): "
                 f"{'exact' if num['exact'] else 'match' if num['match'] else 'MISMATCH'}"
                 f" (max abs err {worst:.3g})")
    lines += ["    " + x for x in mismatched_outputs(num)]
    if r.get("pinned_reshardings") is not None:
        lines.append(f"  diagnostic rewrite: {r['pinned_reshardings']} operands pinned"
                     + (", results constrained" if r.get("constrained_results") else ""))
    folded = [f"{r[k]} {w}" for k, w in (("report_gathers_merged", "multi-axis gathers merged"),
                                          ("report_reshardings_deduped",
                                           "repeated reshardings counted once"))
              if r.get(k)]
    if folded:
        lines.append("  report side: " + ", ".join(folded))
    if r.get("decomposed_reduce_scatters"):
        lines.append(f"  XLA side: {r['decomposed_reduce_scatters']} all-reduce results only read "
                     "through per-device slices (a reduce-scatter in XLA CPU's form)"
                     + (", read as reduce-scatters" if r.get("read_decomposed") else
                        "; --read-decomposed-reduce-scatter reads them as reduce-scatters"))
    lines.append("  " + describe_comparison(r["collectives"]).replace("\n", "\n  "))
    if not verbose and r.get("per_op"):
        lines.append(f"  ({len(r['per_op'])} ops differ; -v lists them)")
    if verbose:
        lines.append("  report collectives:")
        for c in r["predicted"]:
            lines.append(f"    {c['kind']:<18} {c['bytes']:>9} B axes={c['axes']} op={c['op']} "
                         f"{c['reason']}")
        lines.append("  XLA collectives:")
        for c in r["actual"]:
            where = f" op={c['op']} ({c['op_name']})" if c.get("op") is not None else ""
            lines.append(f"    {c['kind']:<18} {c['bytes']:>9} B axes={c['axes']} {c['shape']} "
                         f"{c['name']}{' (combined)' if c['combined'] else ''}{where}")
        if "per_op" in r:
            lines.append("  per-op differences (report vs XLA, by the op XLA attributes to):")
            for d in r["per_op"]:
                lines.append(f"    op {d['op']} {d['op_name'] or ''}: report {d['only_predicted']}"
                             f" vs XLA {d['only_actual']}  {'; '.join(d['reasons'])}")
    s = r["seconds"]
    lines.append(f"  time: alpa-opt {s['alpa_opt']:.1f}s, reference {s['reference']:.1f}s, "
                 f"XLA {s['xla']:.1f}s")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m alpa_mlir.validate", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("module", help="fixture stem of lit-tests/inputs or a .mlir path")
    p.add_argument("--mesh", default="2x4", help="NxM (default 2x4)")
    p.add_argument("--format", default="sdy", choices=("sdy", "gspmd"))
    p.add_argument("--opt", action="append", default=[], metavar="KEY=VALUE",
                   help="extra alpa-intra-op-shard option (repeatable), e.g. --opt cluster=...")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--require", choices=LEVELS,
                   help="also fail unless the collectives agree at this level (or stricter)")
    p.add_argument("--keep", type=Path, metavar="DIR",
                   help="write sharded.mlir, report.json (and hlo.txt) into DIR")
    p.add_argument("--pin-reshardings", action="store_true", dest="pin",
                   help="diagnostic: route every operand whose required spec differs from "
                        "its producer's through an explicit resharding (sdy: "
                        "sdy.sharding_constraint, implies --constrain-results; gspmd: "
                        "custom_call @Sharding) before running XLA")
    p.add_argument("--constrain-results", action="store_true", dest="constrain",
                   help="diagnostic (sdy): repeat every op's sharding as an "
                        "sdy.sharding_constraint on its result")
    p.add_argument("--read-decomposed-reduce-scatter", action="store_true",
                   dest="read_decomposed",
                   help="count XLA all-reduces that are only read through per-device "
                        "slices of one dim (XLA CPU's form of a reduce-scatter) as "
                        "reduce-scatters")
    p.add_argument("-v", "--verbose", action="store_true", help="list every collective")
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)

    mesh = parse_mesh(a.mesh)
    n = 1
    for s in mesh:
        n *= s
    R.ensure_host_devices(max(8, n))
    if a.keep:
        a.keep.mkdir(parents=True, exist_ok=True)
    try:
        r = validate(a.module, a.mesh, a.format, a.opt, a.seed, a.keep, keep_hlo=bool(a.keep),
                     pin=a.pin, constrain=a.constrain, read_decomposed=a.read_decomposed)
    except (AlpaOptError, FileNotFoundError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if a.keep and "hlo" in r:
        (a.keep / "hlo.txt").write_text(r.pop("hlo"))
    if a.json:
        print(json.dumps(r, indent=1, default=str))
    else:
        print(format_result(r, a.verbose))
    if "error" in r:
        return 2
    ok = r["ok"]
    if a.require:
        level = r["collectives"]["level"]
        ok = ok and level is not None and LEVELS.index(level) <= LEVELS.index(a.require)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
