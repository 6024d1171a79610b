"""Which arguments of ``@main`` must be drawn non-negative for the step to be
valid, without relying on export hints.

An optimizer's second moment (Adam's ``nu``, a batch norm's running
variance) goes through ``sqrt`` in the update: a negative random value makes
the step NaN on every device, and comparing NaN with NaN proves nothing. An
argument is drawn non-negative when

* its name says so: the argument's location name (``s[0].nu['w']``, JAX
  writes one per argument) or the ``jax.result_info`` of the result it is
  donated to; or
* its value flows into ``sqrt``/``rsqrt`` (through any op, called function or
  region), unless squared, ``abs``-ed or ``exp``-ed on the way (then its sign
  does not matter).

Over-marking is harmless (a non-negative value is still a valid value of any
float argument); missing one is what made NaN steps look like matches.

:func:`make_inputs` draws seeded random inputs from each argument's domain.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

_SECOND_MOMENT = re.compile(
    r"(?:^|[^a-z0-9])(?:nu|second_moments?|exp_avg_sq|var|variance|v_hat)(?:$|[^a-z0-9])",
    re.IGNORECASE)
_ROOT_OPS = ("stablehlo.sqrt", "stablehlo.rsqrt")
_SIGN_ERASING = ("stablehlo.abs", "stablehlo.exponential")
_CALLS = ("func.call", "call")


def name_says_nonnegative(name: str | None) -> bool:
    """``s[0].nu['w']``, ``opt_state.exp_avg_sq``, ``batch_stats['bn']['var']``."""
    return bool(name) and bool(_SECOND_MOMENT.search(name))


def _str_attr(op, name: str) -> str | None:
    attrs = op.attributes
    if name not in attrs:
        return None
    text = str(attrs[name])
    return text[1:-1] if text.startswith('"') else text.lstrip("@")


def _location_name(loc) -> str | None:
    m = re.match(r'loc\("([^"]*)"', str(loc))
    return m.group(1) if m else None


class _Flow:
    """Forward taint of argument indices through one module's functions."""

    def __init__(self, module):
        self.funcs = {}
        for op in module.body.operations:
            op = op.operation
            if op.name == "func.func":
                self.funcs[_str_attr(op, "sym_name")] = op
        self.summaries: dict[str, tuple[set[int], list[set[int]]]] = {}

    def summary(self, name: str) -> tuple[set[int], list[set[int]]]:
        """(own argument indices reaching a root, per result the argument indices it carries)."""
        if name in self.summaries:
            return self.summaries[name]
        self.summaries[name] = (set(), [])  # recursion: assume nothing until known
        func = self.funcs[name]
        block = func.regions[0].blocks[0]
        taint: dict[Any, set[int]] = {a: {i} for i, a in enumerate(block.arguments)}
        reached: set[int] = set()
        returned = self._block(block, taint, reached)
        self.summaries[name] = (reached, returned)
        return self.summaries[name]

    def _block(self, block, taint, reached) -> list[set[int]]:
        """Walks the ops of ``block``; returns the taints of its terminator's operands."""
        out: list[set[int]] = []
        for op in block.operations:
            op = op.operation
            ins = [taint.get(v, set()) for v in op.operands]
            every = set().union(*ins) if ins else set()
            if op.name in _ROOT_OPS:
                reached |= every
            if op.name in _CALLS:
                callee = _str_attr(op, "callee")
                if callee in self.funcs:
                    sub_reached, sub_results = self.summary(callee)
                    for i in sub_reached:
                        reached |= ins[i] if i < len(ins) else set()
                    for r, carried in zip(op.results, sub_results):
                        taint[r] = set().union(*(ins[i] for i in carried if i < len(ins)))
                    continue
            if op.name == "stablehlo.optimization_barrier":
                # The identity on each operand (jax.checkpoint's fence): no mixing.
                for r, t in zip(op.results, ins):
                    taint[r] = set(t)
                continue
            if op.name in _SIGN_ERASING or (op.name == "stablehlo.multiply"
                                            and len(op.operands) == 2
                                            and op.operands[0] == op.operands[1]):
                for r in op.results:
                    taint[r] = set()
                continue
            from_regions: set[int] = set()
            for region in op.regions:
                for inner in region.blocks:
                    for a in inner.arguments:
                        taint[a] = set(every)
                    for t in self._block(inner, taint, reached):
                        from_regions |= t
            for r in op.results:
                taint[r] = every | from_regions
            if op.name in ("func.return", "stablehlo.return", "return"):
                out = ins
        return out


def nonnegative_arguments(module) -> dict[int, str]:
    """Argument index -> why it must be drawn non-negative (``name``/``sqrt``)."""
    flow = _Flow(module)
    main = flow.funcs.get("main")
    if main is None:
        return {}
    why: dict[int, str] = {}
    args = main.regions[0].blocks[0].arguments
    result_names: list[str | None] = []
    if "res_attrs" in main.attributes:
        for d in main.attributes["res_attrs"]:
            m = re.search(r'jax\.result_info\s*=\s*"((?:[^"\\]|\\.)*)"', str(d))
            result_names.append(m.group(1) if m else None)
    alias_of: dict[int, int] = {}
    if "arg_attrs" in main.attributes:
        for i, d in enumerate(main.attributes["arg_attrs"]):
            m = re.search(r"tf\.aliasing_output\s*=\s*(\d+)", str(d))
            if m:
                alias_of[i] = int(m.group(1))
    for i, a in enumerate(args):
        names = [_location_name(a.location)]
        if i in alias_of and alias_of[i] < len(result_names):
            names.append(result_names[alias_of[i]])
        if any(name_says_nonnegative(n) for n in names):
            why[i] = "name"
    reached, _ = flow.summary("main")
    for i in sorted(reached):
        why.setdefault(i, "sqrt")
    return why


def make_inputs(specs: Sequence, seed: int = 0, default_int_bound: int = 2,
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
