"""Export a JAX function to StableHLO text in MLIR's generic op form.

The text is what ``alpa-opt`` reads: ``"stablehlo.add"(%a, %b) : (...) -> ...``
with JAX's own structure kept (a public ``@main`` that may call private
helpers), donated arguments marked the way JAX marks them
(``tf.aliasing_output`` / ``jax.buffer_donor``), and real source locations.

Library use::

    from alpa_mlir.export import export
    text = export(jax.jit(step, donate_argnums=(0,)), params_shapes, batch_shapes)

Examples may be arrays or ``jax.ShapeDtypeStruct`` values; with the latter no
weights are ever materialised, so paper-sized models export too.

Command line::

    python -m alpa_mlir.export gpt --preset 1.3b -o gpt13b.mlir
    python -m alpa_mlir.export mlp --hidden 256 --layers 6 --batch 32 -o mlp.mlir

Besides JAX's own attributes, the export may add discardable argument
attributes from the hints: two that tell :mod:`alpa_mlir.run` how to draw
meaningful random inputs, ``alpa.input_int_bound = N : i64`` (integer argument,
values in ``[0, N)``, e.g. token ids below the vocabulary size) and
``alpa.input_nonnegative`` (a float argument that must be >= 0, e.g. Adam's
second moment), which carry no semantics for the computation itself; and
``alpa.batch_dim = D : i64``, the dim the pipeline splits the argument on into
microbatches (-1: shared by every microbatch).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from .hints import ANY, BATCH_DIM_ATTR, INT_BOUND_ATTR, NONNEG, NONNEG_ATTR, Hint, int_bound  # noqa: F401

_PKG_DIR = Path(__file__).resolve().parent
_REPO_ROOT = _PKG_DIR.parent.parent


def lower(fn: Callable, *args: Any):
    """``jax.jit(fn).lower(*args)``; ``fn`` may already be a jitted function.

    A plain function is jitted with ``keep_unused=True`` so that every flattened
    argument stays a parameter of ``@main`` (JAX otherwise drops unused ones)."""
    import jax

    if not hasattr(fn, "lower"):
        fn = jax.jit(fn, keep_unused=True)
    return fn.lower(*args)


def _main_func(module):
    for op in module.body.operations:
        if op.operation.name == "func.func":
            attrs = op.operation.attributes
            if "sym_name" in attrs and str(attrs["sym_name"]).strip('"') == "main":
                return op.operation
    raise ValueError("module has no @main function")


def _flat_hints(args: Sequence[Any], hints: Any) -> list[Hint]:
    import jax

    is_leaf = lambda x: isinstance(x, Hint)  # noqa: E731
    flat_h = jax.tree_util.tree_leaves(hints, is_leaf=is_leaf)
    flat_a = jax.tree_util.tree_leaves(tuple(args))
    if len(flat_h) != len(flat_a):
        raise ValueError(
            f"hints describe {len(flat_h)} leaves but the arguments have {len(flat_a)}")
    for h in flat_h:
        if not isinstance(h, Hint):
            raise TypeError(f"hint leaves must be alpa_mlir.export.Hint, got {type(h)}")
    return flat_h


def _attach_hints(module, hints: list[Hint]) -> None:
    from jax._src.interpreters import mlir as jmlir

    ir = jmlir.ir
    with module.context:
        main = _main_func(module)
        ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
        n = len(ftype.inputs)
        if n != len(hints):
            raise ValueError(
                f"@main has {n} arguments but {len(hints)} hints were given "
                "(were unused arguments dropped? jit with keep_unused=True)")
        if "arg_attrs" in main.attributes:
            old = list(ir.ArrayAttr(main.attributes["arg_attrs"]))
        else:
            old = [ir.DictAttr.get({}) for _ in range(n)]
        i64 = ir.IntegerType.get_signless(64)
        new = []
        for d, h in zip(old, hints):
            d = ir.DictAttr(d)
            entries = {d[i].name: d[i].attr for i in range(len(d))}
            if h.int_bound is not None:
                entries[INT_BOUND_ATTR] = ir.IntegerAttr.get(i64, h.int_bound)
            if h.nonnegative:
                entries[NONNEG_ATTR] = ir.UnitAttr.get()
            if h.batch_dim is not None:
                entries[BATCH_DIM_ATTR] = ir.IntegerAttr.get(i64, h.batch_dim)
            new.append(ir.DictAttr.get(entries))
        main.attributes["arg_attrs"] = ir.ArrayAttr.get(new)


_LOC_FILE = re.compile(r'loc\("([^"]+)":(\d+)')


def _relativize_locations(text: str) -> str:
    """Make file names in ``loc(...)`` independent of where this checkout and
    the virtualenv live: ``<repo>/python/x.py`` -> ``python/x.py`` and
    ``.../site-packages/flax/y.py`` -> ``site-packages/flax/y.py``."""
    root = str(_REPO_ROOT) + os.sep

    def fix(m: re.Match) -> str:
        path = m.group(1)
        k = path.rfind("site-packages" + os.sep)
        if k >= 0:
            path = path[k:]
        elif path.startswith(root):
            path = path[len(root):]
        return f'loc("{path}":{m.group(2)}'

    return _LOC_FILE.sub(fix, text)


def module_to_generic_text(module, debug_info: bool = True) -> str:
    """Print an ``ir.Module`` in generic op form (optionally with locations)."""
    text = module.operation.get_asm(print_generic_op_form=True,
                                    enable_debug_info=debug_info)
    if debug_info:
        text = _relativize_locations(text)
    return text


def export(fn: Callable, *args: Any, hints: Any = None, debug_info: bool = True) -> str:
    """Lower ``fn(*args)`` and return generic-form StableHLO text.

    ``fn`` may be a ``jax.jit``-wrapped function (keep its ``donate_argnums``)
    or a plain function. ``hints`` is an optional pytree matching ``args`` whose
    leaves are :class:`Hint` values, recorded as argument attributes."""
    lowered = lower(fn, *args)
    module = lowered.compiler_ir("stablehlo")
    if hints is not None:
        _attach_hints(module, _flat_hints(args, hints))
    return module_to_generic_text(module, debug_info=debug_info)


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------

def _add_model_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--preset", help="named configuration of the model (see --list-presets)")
    p.add_argument("--list-presets", action="store_true", help="print the presets of MODEL and exit")
    p.add_argument("--batch", type=int)
    p.add_argument("--hidden", type=int)
    p.add_argument("--layers", type=int)
    p.add_argument("--heads", type=int)
    p.add_argument("--seq", type=int)
    p.add_argument("--vocab", type=int)
    p.add_argument("--experts", type=int, help="moe: number of experts")
    p.add_argument("--top-k", type=int, dest="top_k", help="moe: 1 (Switch) or 2 (GShard)")
    p.add_argument("--group-size", type=int, dest="group_size", help="moe: tokens per gating group")
    p.add_argument("--capacity-factor", type=float, dest="capacity_factor")
    p.add_argument("--image", type=int, help="wresnet: image height = width")
    p.add_argument("--width", type=int, help="wresnet: channels of the first stage")
    p.add_argument("--width-factor", type=int, dest="width_factor", help="wresnet: widening factor")
    p.add_argument("--blocks", help="wresnet: residual blocks per stage, comma separated, e.g. 3,4,6,3")
    p.add_argument("--classes", type=int, help="wresnet: number of classes")
    p.add_argument("--dtype", help="compute dtype (float32, bfloat16, float16); params stay float32")
    p.add_argument("--untied", action="store_true", help="gpt/moe: separate LM head instead of tied embedding")
    p.add_argument("--mark-layers", action="store_true", dest="mark_layers",
                   help="gpt: mark each block as one user layer (alpa_mlir.layers.layer)")
    p.add_argument("--remat", action="store_true",
                   help="gpt/moe: rematerialise each block in the backward pass (jax.checkpoint)")
    p.add_argument("--scan", action="store_true",
                   help="gpt: the blocks as one flax nn.scan over stacked weights (a stablehlo.while)")


def main(argv: Sequence[str] | None = None) -> int:
    from . import models

    p = argparse.ArgumentParser(
        prog="python -m alpa_mlir.export",
        description="Export a model's train step (forward, loss, backward, optimizer "
                    "update) to generic-form StableHLO text.")
    p.add_argument("model", choices=sorted(models.MODELS))
    p.add_argument("-o", "--output", help="output file (default: stdout)")
    p.add_argument("--no-debug-info", action="store_true",
                   help="print without loc(...) source locations")
    _add_model_args(p)
    a = p.parse_args(argv)

    gen = models.MODELS[a.model]
    if a.list_presets:
        for name, cfg in models.PRESETS[a.model].items():
            print(f"{name}: " + " ".join(
                f"{k}={','.join(map(str, v)) if isinstance(v, tuple) else v}"
                for k, v in cfg.items()))
        return 0
    overrides = {k: v for k, v in vars(a).items()
                 if k not in ("model", "output", "no_debug_info", "preset", "list_presets")
                 and v not in (None, False)}
    if "blocks" in overrides:
        overrides["blocks"] = tuple(int(x) for x in overrides["blocks"].split(","))
    if overrides.pop("untied", False):
        overrides["tied"] = False

    t0 = time.perf_counter()
    step = gen(preset=a.preset, **overrides)
    text = export(step.step_fn, *step.args, hints=step.hints,
                  debug_info=not a.no_debug_info)
    dt = time.perf_counter() - t0
    if a.output:
        Path(a.output).write_text(text)
        print(f"wrote {a.output}: {len(text)} bytes, {step.describe()}, "
              f"{dt:.1f} s", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
