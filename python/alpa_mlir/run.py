"""Run a StableHLO module (any op form) with XLA on virtual CPU devices.

* compiles the module on N devices (``num_partitions = N`` with the SPMD
  partitioner: GSPMD for ``mhlo.sharding`` annotations, Shardy when the module
  carries ``sdy`` attributes) and on one device (sharding annotations
  stripped);
* feeds both identical seeded random inputs (integers in the range recorded by
  the export's ``alpa.input_int_bound``, floats small, non-negative where the
  export said ``alpa.input_nonnegative`` or where :mod:`alpa_mlir.input_domains`
  finds an optimizer's second moment: by name, or flowing into ``sqrt``);
* compares the outputs, optionally also against a ``--reference`` module run
  on one device (e.g. the module before an ``alpa-opt`` rewrite); a NaN or inf
  where the other side has none (or a different one) is a mismatch;
* lists the collectives in XLA's optimized HLO of the N-device executable.

Command line::

    python -m alpa_mlir.run MODULE.mlir --devices 8 [--reference ORIG.mlir] --json

Exit status 0 when every comparison matched, 1 when one did not, 2 on a usage
or compilation error or when XLA crashed: the CLI compiles and runs in a child
process, so a crash (a signal) is reported as an error, not as a dead runner.
The CLI sets
``XLA_FLAGS=--xla_force_host_platform_device_count=8`` (or more, for
``--devices``) before JAX is imported when the variable does not already ask
for a device count. Library users must do that themselves before importing
JAX; :func:`ensure_host_devices` helps.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from .hints import INT_BOUND_ATTR, NONNEG_ATTR
from .input_domains import nonnegative_arguments

_DEVICE_FLAG = "--xla_force_host_platform_device_count"


def ensure_host_devices(n: int = 8) -> None:
    """Ask XLA's CPU client for ``n`` virtual devices, unless ``XLA_FLAGS``
    already names a count. Must run before JAX initialises its backends."""
    flags = os.environ.get("XLA_FLAGS", "")
    if _DEVICE_FLAG not in flags:
        os.environ["XLA_FLAGS"] = (flags + f" {_DEVICE_FLAG}={n}").strip()


# ----------------------------------------------------------------- module info

_TENSOR = re.compile(r"^tensor<(?:((?:\d+x)*))([a-z0-9<>]+)>$")

_NP_DTYPES = {
    "f64": "float64", "f32": "float32", "f16": "float16", "bf16": "bfloat16",
    "i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "ui8": "uint8", "ui16": "uint16", "ui32": "uint32", "ui64": "uint64",
    "complex<f32>": "complex64", "complex<f64>": "complex128",
}


@dataclass
class TensorSpec:
    shape: tuple[int, ...]
    mlir_type: str  # element type as MLIR spells it, e.g. f32, i32, i1
    int_bound: int | None = None
    nonnegative: bool = False
    nonnegative_reason: str | None = None  # hint, name or sqrt

    @property
    def np_dtype(self):
        import ml_dtypes
        import numpy as np

        name = _NP_DTYPES.get(self.mlir_type)
        if name is None:
            raise ValueError(f"unsupported element type {self.mlir_type}")
        if name == "bfloat16":
            return np.dtype(ml_dtypes.bfloat16)
        return np.dtype(name)

    def describe(self) -> str:
        return "tensor<" + "".join(f"{d}x" for d in self.shape) + self.mlir_type + ">"


def _parse_tensor_type(t: str) -> tuple[tuple[int, ...], str]:
    m = _TENSOR.match(t.strip())
    if not m:
        raise ValueError(f"only statically shaped tensors are supported, got {t}")
    dims = tuple(int(d) for d in (m.group(1) or "").split("x") if d)
    return dims, m.group(2)


@dataclass
class ModuleInfo:
    text: str
    module: Any  # jaxlib ir.Module
    inputs: list[TensorSpec]
    outputs: list[TensorSpec]
    num_partitions: int
    shardy: bool
    sharded: bool
    donated: list[int] = field(default_factory=list)
    aliases: dict[int, int] = field(default_factory=dict)  # argument -> result


def _ir():
    from jax._src.interpreters import mlir as jmlir

    return jmlir


def parse_module(text: str) -> ModuleInfo:
    """Parse module text (generic or pretty form) with the dialects of jaxlib."""
    jmlir = _ir()
    ir = jmlir.ir
    ctx = jmlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    with ctx:
        module = ir.Module.parse(text)
        main = None
        for op in module.body.operations:
            op = op.operation
            if op.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == "main":
                main = op
        if main is None:
            raise ValueError("module has no @main function")
        ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
        arg_attrs = (list(ir.ArrayAttr(main.attributes["arg_attrs"]))
                     if "arg_attrs" in main.attributes else [None] * len(ftype.inputs))
        inputs, donated, aliases = [], [], {}
        for i, (t, d) in enumerate(zip(ftype.inputs, arg_attrs)):
            shape, et = _parse_tensor_type(str(t))
            spec = TensorSpec(shape, et)
            if d is not None:
                d = ir.DictAttr(d)
                if INT_BOUND_ATTR in d:
                    spec.int_bound = ir.IntegerAttr(d[INT_BOUND_ATTR]).value
                if NONNEG_ATTR in d:
                    spec.nonnegative, spec.nonnegative_reason = True, "hint"
                if "tf.aliasing_output" in d:
                    aliases[i] = ir.IntegerAttr(d["tf.aliasing_output"]).value
                if "tf.aliasing_output" in d or "jax.buffer_donor" in d:
                    donated.append(i)
            inputs.append(spec)
        for i, why in nonnegative_arguments(module).items():
            if not inputs[i].nonnegative and re.fullmatch(r"b?f\d+", inputs[i].mlir_type):
                inputs[i].nonnegative, inputs[i].nonnegative_reason = True, why
        outputs = [TensorSpec(*_parse_tensor_type(str(t))) for t in ftype.results]
        nparts = 1
        if "mhlo.num_partitions" in module.operation.attributes:
            nparts = ir.IntegerAttr(module.operation.attributes["mhlo.num_partitions"]).value
    shardy = bool(re.search(r"\bsdy\.", text))
    sharded = shardy or "mhlo.sharding" in text or "@Sharding" in text
    return ModuleInfo(text, module, inputs, outputs, nparts, shardy, sharded, donated, aliases)


def strip_shardings(info: ModuleInfo) -> Any:
    """A copy of the module without any sharding annotation, for one device:
    drops ``mhlo.sharding``/``sdy.*`` attributes, ``sdy.mesh`` ops, and replaces
    sharding ops (``custom_call @Sharding``/``@SPMDFullToShardShape``/
    ``@SPMDShardToFullShape``, ``sdy.sharding_constraint``, ``sdy.reshard``)
    by their operand. Sets ``mhlo.num_partitions = 1``."""
    jmlir = _ir()
    ir = jmlir.ir
    with info.module.context:
        module = ir.Module.parse(str(info.module.operation.get_asm(print_generic_op_form=True)))
        to_erase = []

        def drop_attrs(op):
            names = [a if isinstance(a, str) else a.name for a in op.attributes]
            for n in names:
                if n == "mhlo.sharding" or n.startswith("sdy."):
                    del op.attributes[n]
            for key in ("arg_attrs", "res_attrs"):
                if key in op.attributes:
                    new = []
                    for d in ir.ArrayAttr(op.attributes[key]):
                        d = ir.DictAttr(d)
                        kept = {d[i].name: d[i].attr for i in range(len(d))
                                if d[i].name != "mhlo.sharding" and not d[i].name.startswith("sdy.")}
                        new.append(ir.DictAttr.get(kept))
                    op.attributes[key] = ir.ArrayAttr.get(new)

        def visit(op):
            op = op.operation
            name = op.name
            if name == "sdy.mesh":
                to_erase.append(op)
            elif name in ("sdy.sharding_constraint", "sdy.reshard"):
                to_erase.append(op)
            elif name == "stablehlo.custom_call":
                target = ir.StringAttr(op.attributes["call_target_name"]).value
                if target in ("Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape"):
                    to_erase.append(op)
            drop_attrs(op)
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        for op in to_erase:
            if op.results:
                if len(op.operands) != 1 or len(op.results) != 1:
                    raise ValueError(f"cannot strip {op.name} with {len(op.operands)} operands")
                if op.operands[0].type != op.results[0].type:
                    raise ValueError(f"cannot strip {op.name}: it changes the type "
                                     "(manual-sharding regions are not supported on one device)")
                op.results[0].replace_all_uses_with(op.operands[0])
            op.erase()
        i32 = ir.IntegerType.get_signless(32)
        module.operation.attributes["mhlo.num_partitions"] = ir.IntegerAttr.get(i32, 1)
    return module


# ---------------------------------------------------------------- inputs

def make_inputs(specs: Sequence[TensorSpec], seed: int = 0, default_int_bound: int = 2,
                scale: float = 0.1):
    """Seeded random inputs: floats in [-scale, scale) (or [0, scale) when
    non-negative), integers in [0, bound), booleans uniform."""
    import numpy as np

    rng = np.random.default_rng(seed)
    out = []
    for s in specs:
        dt = s.np_dtype
        if dt == np.bool_:
            a = rng.integers(0, 2, size=s.shape).astype(np.bool_)
        elif np.issubdtype(dt, np.integer):
            hi = s.int_bound if s.int_bound is not None else default_int_bound
            a = rng.integers(0, max(hi, 1), size=s.shape, dtype=np.int64).astype(dt)
        elif np.issubdtype(dt, np.complexfloating):
            a = (rng.uniform(-scale, scale, s.shape)
                 + 1j * rng.uniform(-scale, scale, s.shape)).astype(dt)
        else:
            lo = 0.0 if s.nonnegative else -scale
            a = rng.uniform(lo, scale, size=s.shape).astype(np.float32).astype(dt)
        out.append(np.asarray(a))
    return out


# ---------------------------------------------------------------- compile + run

@dataclass
class Compiled:
    executable: Any
    devices: list
    num_partitions: int

    def hlo_text(self) -> str:
        return "\n".join(m.to_string() for m in self.executable.hlo_modules())


def compile_module(module, num_devices: int, shardy: bool = False,
                   devices: Sequence | None = None) -> Compiled:
    """Compile an ``ir.Module`` for ``num_devices`` partitions (SPMD) with
    ``backend.compile_and_load`` of the CPU client, as JAX itself does.
    Partition i runs on ``devices[i]`` (default: the first local devices)."""
    import numpy as np
    from jax._src.lib import xla_client as xc
    from jax.extend.backend import get_backend

    backend = get_backend("cpu")
    if devices is None:
        devices = backend.local_devices()
        if len(devices) < num_devices:
            raise RuntimeError(
                f"need {num_devices} CPU devices but XLA has {len(devices)}: set "
                f"XLA_FLAGS={_DEVICE_FLAG}={num_devices} before importing jax")
    if len(devices) < num_devices:
        raise ValueError(f"{num_devices} partitions but {len(devices)} devices given")
    devices = list(devices)[:num_devices]
    opts = xc.CompileOptions()
    opts.num_replicas = 1
    opts.num_partitions = num_devices
    opts.device_assignment = xc.DeviceAssignment.create(
        np.array([[d.id for d in devices]], dtype=np.int64))
    build = opts.executable_build_options
    build.use_spmd_partitioning = num_devices > 1
    build.use_shardy_partitioner = bool(shardy)
    exe = backend.compile_and_load(module, xc.DeviceList(tuple(devices)), opts)
    return Compiled(exe, devices, num_devices)


def execute(compiled: Compiled, inputs, output_shapes: Sequence[tuple[int, ...]]):
    """Run with numpy inputs; returns the outputs as full numpy arrays
    (``output_shapes`` are the global shapes of the results of ``@main``)."""
    import jax
    import numpy as np
    from jax._src.sharding_impls import GSPMDSharding

    exe, devices = compiled.executable, compiled.devices
    if compiled.num_partitions == 1:
        args = [jax.device_put(x, devices[0]) for x in inputs]
    else:
        shardings = exe.get_parameter_shardings()
        if len(shardings) != len(inputs):
            raise RuntimeError(f"executable takes {len(shardings)} parameters, "
                               f"{len(inputs)} inputs given")
        args = []
        for x, op_sh in zip(inputs, shardings):
            sh = GSPMDSharding(devices, op_sh)
            idx = sh.devices_indices_map(x.shape)
            pieces = [jax.device_put(np.array(x[idx[d]], copy=True), d) for d in devices]
            args.append(jax.make_array_from_single_device_arrays(x.shape, sh, pieces))
    results = exe.execute_sharded(args)
    per_output = results.disassemble_into_single_device_arrays()
    if len(per_output) != len(output_shapes):
        raise RuntimeError(f"executable returned {len(per_output)} outputs, "
                           f"@main declares {len(output_shapes)}")
    if compiled.num_partitions == 1:
        return [np.asarray(shards[0]) for shards in per_output]
    outs = []
    for shards, op_sh, shape in zip(per_output, exe.get_output_shardings(), output_shapes):
        sh = GSPMDSharding(devices, op_sh)
        idx = sh.devices_indices_map(tuple(shape))
        full = None
        for s in shards:
            (d,) = s.devices()
            piece = np.asarray(s)
            if full is None:
                full = np.zeros(tuple(shape), piece.dtype)
            full[idx[d]] = piece
        outs.append(full)
    return outs


# ---------------------------------------------------------------- collectives

_COLLECTIVE_KINDS = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all",
                     "collective-permute", "collective-broadcast", "ragged-all-to-all")
_DTYPE_BYTES = {"pred": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "f16": 2, "bf16": 2,
                "s32": 4, "u32": 4, "f32": 4, "s64": 8, "u64": 8, "f64": 8,
                "c64": 8, "c128": 16, "s4": 1, "u4": 1, "f8e4m3fn": 1, "f8e5m2": 1}
_SHAPE = re.compile(r"\b([a-z]+[0-9]*[a-z0-9]*)\[([0-9,]*)\]")
_DEF = re.compile(r"^\s*(?:ROOT\s+)?%?([\w.\-]+)\s*=\s*(.+?)\s+([a-z][\w\-]*)\((.*)$")


def _shape_bytes(text: str) -> tuple[int, list[str]]:
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


def _iota(spec: str):
    """``[2,4]<=[8]`` / ``[4,2]<=[2,4]T(1,0)`` -> numpy array of ids (or None)."""
    import numpy as np

    m = re.fullmatch(r"\s*\[([\d,]+)\]<=\[([\d,]+)\](?:T\(([\d,]+)\))?\s*", spec)
    if not m:
        return None
    out_dims = [int(x) for x in m.group(1).split(",")]
    in_dims = [int(x) for x in m.group(2).split(",")]
    ids = np.arange(int(np.prod(in_dims))).reshape(in_dims)
    if m.group(3):
        ids = ids.transpose([int(x) for x in m.group(3).split(",")])
    return ids.reshape(out_dims)


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
        short = re.fullmatch(r"\s*\[([\d,]+)\](?:T\(([\d,]+)\))?\s*", m.group(2))
        if ids is None and short:
            # TileAssignment's short iota form: reshape dims, optional transpose.
            dims = [int(x) for x in short.group(1).split(",")]
            ids = np.arange(int(np.prod(dims))).reshape(dims)
            if short.group(2):
                ids = ids.transpose([int(x) for x in short.group(2).split(",")])
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


def _replica_groups(attrs: str):
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
    mi = re.match(r"\[[\d,]+\]<=\[[\d,]+\](?:T\([\d,]+\))?", rest)
    if mi:
        return _iota(mi.group(0)).tolist(), mi.group(0)
    mm = re.match(r"mesh\[[^\]]*\](?:,\s*device_ids=\(.*?\))?\s*\{[^}]*\}", rest)
    if mm:
        return _mesh_groups(mm.group(0)), mm.group(0)
    mx = re.match(r"maximal_mesh\[device_id=(\d+)\]", rest)
    if mx:
        return [[int(mx.group(1))]], mx.group(0)
    return None, rest.split(",", 1)[0]


def _split_operands(rest: str) -> tuple[str, str]:
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
        operands, attrs = _split_operands(rest)
        operand_names = re.findall(r"%([\w.\-]+)", operands)
        if operand_names:
            obytes, oshapes = _shape_bytes(" ".join(types.get(n, "") for n in operand_names))
        else:
            obytes, oshapes = _shape_bytes(operands)
        rbytes, rshapes = _shape_bytes(result_type)
        if is_start and len(rshapes) > len(oshapes) and oshapes:
            # An async start returns (operands, results[, scratch]): keep the results.
            n = len(oshapes)
            rshapes = rshapes[n:2 * n]
            rbytes = sum(_shape_bytes(s)[0] for s in rshapes)
        groups, raw = _replica_groups(attrs)
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


# ---------------------------------------------------------------- compare

def default_tolerance(dtype) -> tuple[float, float]:
    """(rtol, atol) for comparing results computed with different reduction
    orders (sharded vs. unsharded)."""
    import numpy as np

    name = np.dtype(dtype).name
    if name in ("bfloat16",):
        return 2e-2, 2e-2
    if name == "float16":
        return 5e-3, 5e-3
    if name == "float64":
        return 1e-9, 1e-12
    return 2e-4, 2e-6


def nonfinite_mismatches(x, y) -> int:
    """Places where ``x`` or ``y`` is NaN or inf and the other is not the same
    special value (NaN vs NaN and +inf vs +inf agree; anything else does not)."""
    import numpy as np

    special = ~np.isfinite(x) | ~np.isfinite(y)
    same = (np.isnan(x) & np.isnan(y)) | (np.isinf(x) & np.isinf(y) & (x == y))
    return int(np.sum(special & ~same))


def compare_outputs(a: Sequence, b: Sequence, rtol: float | None = None,
                    atol: float | None = None) -> dict:
    import numpy as np

    if len(a) != len(b):
        return {"match": False, "error": f"{len(a)} outputs vs {len(b)}", "outputs": []}
    rows, ok = [], True
    for i, (x, y) in enumerate(zip(a, b)):
        row = {"index": i, "shape": list(x.shape), "dtype": str(x.dtype)}
        if x.shape != y.shape or x.dtype != y.dtype:
            row.update(match=False, error=f"{x.dtype}{list(x.shape)} vs {y.dtype}{list(y.shape)}")
        elif np.issubdtype(x.dtype, np.integer) or x.dtype == np.bool_:
            eq = bool(np.array_equal(x, y))
            row.update(match=eq, exact=eq, mismatches=int(np.sum(x != y)))
        else:
            rt, at = default_tolerance(x.dtype)
            rt = rtol if rtol is not None else rt
            at = atol if atol is not None else at
            xf, yf = x.astype(np.complex128 if np.iscomplexobj(x) else np.float64), \
                y.astype(np.complex128 if np.iscomplexobj(y) else np.float64)
            finite = np.isfinite(xf) & np.isfinite(yf)
            special_mismatch = nonfinite_mismatches(xf, yf)
            with np.errstate(invalid="ignore"):  # inf - inf: not read, `finite` masks it
                diff = np.abs(xf - yf)
                scale = np.abs(yf)
                rel = diff / np.maximum(scale, np.finfo(np.float64).tiny)
            max_abs = float(diff[finite].max()) if finite.any() else 0.0
            max_rel = float(rel[finite & (scale > at)].max()) if (finite & (scale > at)).any() else 0.0
            close = special_mismatch == 0 and bool(
                np.allclose(xf[finite], yf[finite], rtol=rt, atol=at))
            row.update(match=close, exact=bool(np.array_equal(x, y, equal_nan=True)),
                       max_abs_err=max_abs, max_rel_err=max_rel, rtol=rt, atol=at,
                       nonfinite=int((~np.isfinite(xf)).sum()),
                       nonfinite_mismatches=special_mismatch)
            if special_mismatch:
                row["error"] = (f"{special_mismatch} NaN/inf value(s) not at the same place "
                                "(or not the same) on the other side")
        ok &= row["match"]
        rows.append(row)
    return {"match": ok, "exact": all(r.get("exact", False) for r in rows), "outputs": rows}


# ---------------------------------------------------------------- driver

def choose_partitioner(info: ModuleInfo, requested: str = "auto") -> str:
    """``shardy`` for modules with ``sdy`` annotations, ``gspmd`` for modules
    with only ``mhlo.sharding`` ones, ``shardy`` (XLA's default) otherwise."""
    if requested in ("shardy", "gspmd"):
        return requested
    if requested != "auto":
        raise ValueError(f"unknown partitioner {requested!r}")
    if info.shardy:
        return "shardy"
    return "gspmd" if info.sharded else "shardy"


def run(module_text: str, devices: int | None = None, reference_text: str | None = None,
        seed: int = 0, rtol: float | None = None, atol: float | None = None,
        default_int_bound: int = 2, with_hlo: bool = False,
        partitioner: str = "auto", progress=None) -> dict:
    """Run ``module_text`` on ``devices`` partitions and on one device (and the
    reference on one device); return a JSON-able report. The raw outputs are
    under the key ``_results`` (dropped by the CLI). ``progress(stage)`` is
    called before each compilation and execution."""
    stage = progress or (lambda _: None)
    info = parse_module(module_text)
    part = choose_partitioner(info, partitioner)
    n = devices if devices is not None else max(info.num_partitions, 1)
    if info.num_partitions > 1 and n != info.num_partitions:
        raise ValueError(f"module is partitioned for {info.num_partitions} devices, "
                         f"--devices {n} asked")
    inputs = make_inputs(info.inputs, seed, default_int_bound)
    report: dict[str, Any] = {
        "devices": n,
        "num_partitions_attr": info.num_partitions,
        "partitioner": part if n > 1 else "none",
        "sharding_annotations": info.sharded,
        "inputs": [{"index": i, "type": s.describe(),
                    **({"int_bound": s.int_bound} if s.int_bound is not None else {}),
                    **({"nonnegative": s.nonnegative_reason} if s.nonnegative else {}),
                    **({"donated": True} if i in info.donated else {})}
                   for i, s in enumerate(info.inputs)],
        "outputs": [{"index": i, "type": s.describe()} for i, s in enumerate(info.outputs)],
        "comparisons": [],
    }

    results = {}
    single_module = strip_shardings(info) if info.sharded else info.module
    out_shapes = [o.shape for o in info.outputs]
    stage("compiling and running the module on 1 device")
    results["module@1"] = execute(compile_module(single_module, 1), inputs, out_shapes)
    if n > 1:
        stage(f"compiling the module for {n} devices ({part})")
        comp = compile_module(info.module, n, shardy=(part == "shardy"))
        stage(f"running the module on {n} devices")
        results[f"module@{n}"] = execute(comp, inputs, out_shapes)
        hlo = comp.hlo_text()
        colls = list_collectives(hlo)
        report["collectives"] = colls
        report["collective_summary"] = summarize_collectives(colls)
        if with_hlo:
            report["hlo"] = hlo
        c = compare_outputs(results[f"module@{n}"], results["module@1"], rtol, atol)
        report["comparisons"].append({"lhs": f"module@{n}", "rhs": "module@1", **c})
    if reference_text is not None:
        ref = parse_module(reference_text)
        if [s.describe() for s in ref.inputs] != [s.describe() for s in info.inputs]:
            raise ValueError("reference module takes different arguments: "
                             f"{[s.describe() for s in ref.inputs]} vs "
                             f"{[s.describe() for s in info.inputs]}")
        ref_module = strip_shardings(ref) if ref.sharded else ref.module
        stage("compiling and running the reference on 1 device")
        results["reference@1"] = execute(compile_module(ref_module, 1), inputs,
                                         [o.shape for o in ref.outputs])
        for lhs in [k for k in results if k.startswith("module@")]:
            c = compare_outputs(results[lhs], results["reference@1"], rtol, atol)
            report["comparisons"].append({"lhs": lhs, "rhs": "reference@1", **c})
    report["ok"] = all(c["match"] for c in report["comparisons"])
    report["_results"] = results
    return report


_STAGE_PREFIX = "alpa_mlir.run stage: "
_IN_CHILD_FLAG = "--in-process"


def child_command(argv: Sequence[str]) -> list[str]:
    """The command that runs ``argv`` in a child Python process."""
    return [sys.executable, "-m", "alpa_mlir.run", *argv, _IN_CHILD_FLAG]


def run_in_child(cmd: Sequence[str], as_json: bool) -> int:
    """Runs ``cmd`` (a runner that compiles and executes with XLA), passing its
    output through; a child killed by a signal (an XLA crash: SIGSEGV,
    SIGABRT from a failed check) is reported as an error with exit status 2,
    naming the stage it was in."""
    import signal
    import subprocess

    env = dict(os.environ)
    pkg_root = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (pkg_root, env.get("PYTHONPATH")) if p)
    r = subprocess.run(list(cmd), capture_output=True, text=True, env=env)
    stages = [line[len(_STAGE_PREFIX):] for line in r.stderr.splitlines()
              if line.startswith(_STAGE_PREFIX)]
    other_err = "\n".join(line for line in r.stderr.splitlines()
                          if not line.startswith(_STAGE_PREFIX))
    if r.returncode >= 0:
        sys.stdout.write(r.stdout)
        if other_err:
            print(other_err, file=sys.stderr)
        return r.returncode
    try:
        sig = signal.Signals(-r.returncode).name
    except ValueError:
        sig = f"signal {-r.returncode}"
    where = f" while {stages[-1]}" if stages else ""
    msg = f"XLA crashed: the runner process died of {sig}{where}"
    tail = other_err.strip()[-2000:]
    if as_json:
        print(json.dumps({"ok": False, "error": msg, "crash": {"signal": sig, "stage": stages[-1]
                                                                if stages else None,
                                                                "stderr_tail": tail}}, indent=1))
    else:
        print(f"error: {msg}" + (f"\n{tail}" if tail else ""), file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    a = _argument_parser().parse_args(argv)  # usage errors are reported here, not by the child
    if a.in_process:
        return _main_in_process(a)
    return run_in_child(child_command(argv), a.json)


def _argument_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m alpa_mlir.run",
        description="Compile a StableHLO module with XLA on N virtual CPU devices and on "
                    "one device, compare outputs, list collectives.")
    p.add_argument("module", help="module text (.mlir, generic or pretty form)")
    p.add_argument("--devices", type=int, default=None,
                   help="partitions for the SPMD run (default: the module's mhlo.num_partitions)")
    p.add_argument("--reference", help="a second module run on one device and compared")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rtol", type=float)
    p.add_argument("--atol", type=float)
    p.add_argument("--int-bound", type=int, default=2, dest="int_bound",
                   help="upper bound for integer inputs without alpa.input_int_bound (default 2)")
    p.add_argument("--partitioner", choices=("auto", "shardy", "gspmd"), default="auto",
                   help="SPMD partitioner for the N-device run (auto: shardy for sdy "
                        "annotations or none, gspmd for mhlo.sharding)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--hlo", action="store_true", help="include XLA's optimized HLO in the report")
    p.add_argument(_IN_CHILD_FLAG, action="store_true", dest="in_process",
                   help="compile and run in this process (an XLA crash then kills the runner "
                        "without a report)")
    return p


def _main_in_process(a: argparse.Namespace) -> int:
    ensure_host_devices(max(8, a.devices or 0))
    try:
        report = run(Path(a.module).read_text(), a.devices,
                     Path(a.reference).read_text() if a.reference else None,
                     a.seed, a.rtol, a.atol, a.int_bound, a.hlo, a.partitioner,
                     progress=lambda s: print(_STAGE_PREFIX + s, file=sys.stderr, flush=True))
    except Exception as e:  # noqa: BLE001 - report as a clean CLI error
        msg = f"{type(e).__name__}: {e}"
        if a.json:
            print(json.dumps({"ok": False, "error": msg}, indent=1))
        else:
            print(f"error: {msg}", file=sys.stderr)
        return 2
    report.pop("_results", None)
    report["module"] = a.module
    if a.reference:
        report["reference"] = a.reference
    if a.json:
        print(json.dumps(report, indent=1))
    else:
        _print_human(report)
    return 0 if report["ok"] else 1


def _print_human(r: dict) -> None:
    print(f"{r['module']}: {len(r['inputs'])} inputs, {len(r['outputs'])} outputs, "
          f"{r['devices']} device(s), partitioner {r['partitioner']}")
    for c in r["comparisons"]:
        worst = max((o.get("max_abs_err", 0.0) for o in c["outputs"]), default=0.0)
        state = "exact" if c.get("exact") else ("match" if c["match"] else "MISMATCH")
        print(f"  {c['lhs']} vs {c['rhs']}: {state} (max abs err {worst:.3g})")
        for o in c["outputs"]:
            if not o["match"]:
                print(f"    output {o['index']}: {o}")
            elif o.get("nonfinite"):
                print(f"    output {o['index']}: {o['nonfinite']} NaN/inf value(s), "
                      "the same on both sides")
    if "collectives" in r:
        print(f"  collectives: {len(r['collectives'])}")
        for c in r["collectives"]:
            print(f"    {c['kind']:<20} {c['bytes']:>12} B  {c['result_shapes']}  "
                  f"groups={c['replica_groups']}")
    print("OK" if r["ok"] else "FAILED")


if __name__ == "__main__":
    sys.exit(main())
