"""The StableHLO ops @main of a pipelined module runs between program calls
(microbatch slices, gradient accumulation, constants), as jax.lax functions.
Jitted on committed arrays they run as XLA computations on the devices of
their operands."""

from __future__ import annotations

import re
from typing import Callable

import numpy as np

from .module_info import TensorSpec, jax_ir, parse_tensor_type
from .pipeline_module import PipelineError

_BINARY = {"add": "add", "subtract": "sub", "multiply": "mul", "divide": "div",
           "maximum": "max", "minimum": "min", "power": "pow", "and": "bitwise_and",
           "or": "bitwise_or"}
_UNARY = {"negate": "neg", "abs": "abs", "exponential": "exp", "log": "log",
          "sqrt": "sqrt", "rsqrt": "rsqrt", "tanh": "tanh", "not": "bitwise_not"}
_COMPARE = {"EQ": "eq", "NE": "ne", "LT": "lt", "LE": "le", "GT": "gt", "GE": "ge"}


def _ints(attr) -> tuple[int, ...]:
    """Integers of ``array<i64: 1, 2>`` (``array<i64>``: none), ``3 : i64`` or
    ``dense<[1, 2]> : tensor<2xi64>``."""
    text = str(attr)
    text = text.partition(":")[2] if text.startswith("array<") else text.partition(":")[0]
    return tuple(int(x) for x in re.findall(r"-?\d+", text))


def _result_spec(op) -> TensorSpec:
    return TensorSpec(*parse_tensor_type(str(op.results[0].type)))


def constant_value(op) -> np.ndarray:
    ir = jax_ir().ir
    spec = _result_spec(op)
    attr = ir.DenseElementsAttr(op.attributes["value"])
    if attr.is_splat:
        return np.full(spec.shape, attr.get_splat_value().value, spec.np_dtype)
    return np.array(attr, dtype=spec.np_dtype).reshape(spec.shape)


def op_function(op) -> Callable:
    """A jax function of the op's operands computing its (single) result."""
    from jax import lax

    name = op.name.removeprefix("stablehlo.")
    a = op.attributes
    if name in _BINARY:
        return getattr(lax, _BINARY[name])
    if name in _UNARY:
        return getattr(lax, _UNARY[name])
    spec = _result_spec(op)
    if name == "slice":
        start, limit = _ints(a["start_indices"]), _ints(a["limit_indices"])
        strides = _ints(a["strides"])
        return lambda x: lax.slice(x, start, limit, strides)
    if name == "convert":
        return lambda x: lax.convert_element_type(x, spec.np_dtype)
    if name == "broadcast_in_dim":
        dims = _ints(a["broadcast_dimensions"])
        return lambda x: lax.broadcast_in_dim(x, spec.shape, dims)
    if name == "reshape":
        return lambda x: lax.reshape(x, spec.shape)
    if name == "transpose":
        perm = _ints(a["permutation"])
        return lambda x: lax.transpose(x, perm)
    if name == "concatenate":
        dim = _ints(a["dimension"])[0]
        return lambda *xs: lax.concatenate(xs, dim)
    if name == "select":
        return lax.select
    if name == "compare":
        direction = re.search(r"comparison_direction (\w+)", str(a["comparison_direction"]))
        return getattr(lax, _COMPARE[direction.group(1)])
    raise PipelineError(f"@main op {op.name} is not supported by the pipeline runtime")
