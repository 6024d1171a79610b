"""A StableHLO module as the runner sees it, read with jaxlib's MLIR bindings.

:func:`parse_module` reads ``@main``'s argument and result types, the export's input hints
(``alpa.input_int_bound``, ``alpa.input_nonnegative``), donation and aliasing, the partition
count and which sharding annotations the module carries; :func:`strip_shardings` makes the
copy that runs on one device.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .hints import INT_BOUND_ATTR, NONNEG_ATTR, Hint
from .input_domains import nonnegative_arguments

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


def parse_tensor_type(t: str) -> tuple[tuple[int, ...], str]:
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


def jax_ir():
    from jax._src.interpreters import mlir as jmlir

    return jmlir


def arg_hint(attrs) -> Hint:
    """The export's hint in one argument's attribute dictionary (an ``ir.DictAttr``)."""
    ir = jax_ir().ir
    bound = ir.IntegerAttr(attrs[INT_BOUND_ATTR]).value if INT_BOUND_ATTR in attrs else None
    return Hint(bound, NONNEG_ATTR in attrs)


def parse_module(text: str) -> ModuleInfo:
    """Parse module text (generic or pretty form) with the dialects of jaxlib."""
    jmlir = jax_ir()
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
            shape, et = parse_tensor_type(str(t))
            spec = TensorSpec(shape, et)
            if d is not None:
                d = ir.DictAttr(d)
                hint = arg_hint(d)
                spec.int_bound = hint.int_bound
                if hint.nonnegative:
                    spec.nonnegative, spec.nonnegative_reason = True, "hint"
                if "tf.aliasing_output" in d:
                    aliases[i] = ir.IntegerAttr(d["tf.aliasing_output"]).value
                if "tf.aliasing_output" in d or "jax.buffer_donor" in d:
                    donated.append(i)
            inputs.append(spec)
        for i, why in nonnegative_arguments(module).items():
            if not inputs[i].nonnegative and re.fullmatch(r"b?f\d+", inputs[i].mlir_type):
                inputs[i].nonnegative, inputs[i].nonnegative_reason = True, why
        outputs = [TensorSpec(*parse_tensor_type(str(t))) for t in ftype.results]
        nparts = 1
        if "mhlo.num_partitions" in module.operation.attributes:
            nparts = ir.IntegerAttr(module.operation.attributes["mhlo.num_partitions"]).value
    shardy = bool(re.search(r"\bsdy\.", text))
    sharded = shardy or "mhlo.sharding" in text or "@Sharding" in text
    return ModuleInfo(text, module, inputs, outputs, nparts, shardy, sharded, donated, aliases)


_HEAVY_OPS = ("stablehlo.dot_general", "stablehlo.dot", "stablehlo.convolution")


def compute_element_type(info: ModuleInfo) -> str | None:
    """The least precise float element type a matmul or convolution of the module reads
    (``bf16`` for a model that keeps f32 weights but computes in bf16), or None without such
    an op or with only types of unknown precision: how precise the step's arithmetic is."""
    found: list[str] = []

    def visit(block) -> None:
        for op in block.operations:
            op = op.operation
            if op.name in _HEAVY_OPS:
                for v in op.operands:
                    text = str(v.type)
                    m = _TENSOR.match(text)
                    if m and m.group(2) in ("f64", "f32", "f16", "bf16"):
                        found.append(m.group(2))
            for region in op.regions:
                for b in region.blocks:
                    visit(b)

    with info.module.context:
        visit(info.module.body)
    return max(found, key=float_epsilon) if found else None


def float_epsilon(mlir_type: str) -> float:
    """The spacing of floats of `mlir_type` (f32, bf16, ...) just above 1."""
    import ml_dtypes

    return float(ml_dtypes.finfo(TensorSpec((), mlir_type).np_dtype).eps)


def strip_shardings(info: ModuleInfo) -> Any:
    """A copy of the module without any sharding annotation, for one device:
    drops ``mhlo.sharding``/``sdy.*`` attributes, ``sdy.mesh`` ops, and replaces
    sharding ops (``custom_call @Sharding``/``@SPMDFullToShardShape``/
    ``@SPMDShardToFullShape``, ``sdy.sharding_constraint``, ``sdy.reshard``)
    by their operand. Sets ``mhlo.num_partitions = 1``."""
    jmlir = jax_ir()
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
