"""Re-prints StableHLO text in MLIR's generic op form, the form alpa-opt reads. The pretty form
that ``jax.jit(f).lower(...).as_text()`` and torch_xla's ``xm.get_stablehlo`` print needs the
StableHLO dialect to parse, which MLIR 22 lacks; jaxlib's parser has it::

    python -m alpa_mlir.generic step.mlir -o step.generic.mlir
    python -m alpa_mlir.generic - < step.mlir | alpa-opt --alpa-auto-shard=... -
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from .module_info import jax_ir


def to_generic(text: str, debug_info: bool = True) -> str:
    """``text`` (a module in any form jaxlib parses) in generic op form, with its locations
    unless ``debug_info`` is false. Raises ``ValueError`` when it does not parse."""
    jmlir = jax_ir()
    ctx = jmlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    with ctx:
        try:
            module = jmlir.ir.Module.parse(text)
        except Exception as e:  # noqa: BLE001 - jaxlib raises its own MLIRError
            raise ValueError(str(e)) from e
        return module.operation.get_asm(print_generic_op_form=True, enable_debug_info=debug_info)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m alpa_mlir.generic", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="module text, or - for standard input")
    p.add_argument("-o", "--output", help="output file (default: standard output)")
    p.add_argument("--no-debug-info", action="store_true", help="drop the locations")
    a = p.parse_args(argv)
    text = sys.stdin.read() if a.input == "-" else Path(a.input).read_text()
    try:
        generic = to_generic(text, debug_info=not a.no_debug_info)
    except ValueError as e:
        print(f"error: {a.input} does not parse: {e}", file=sys.stderr)
        return 1
    if a.output:
        Path(a.output).write_text(generic)
    else:
        sys.stdout.write(generic)
    return 0


if __name__ == "__main__":
    sys.exit(main())
