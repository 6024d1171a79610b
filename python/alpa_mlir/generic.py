"""Re-prints StableHLO in MLIR's generic op form, the form alpa-opt reads. The pretty form
that ``jax.jit(f).lower(...).as_text()`` and torch_xla's ``xm.get_stablehlo`` print needs the
StableHLO dialect to parse, which MLIR 22 lacks; jaxlib's parser has it. So do StableHLO
portable artifacts, the versioned bytecode ``jax.export`` serializes
(``Exported.mlir_module_serialized``) and toolchains save as ``.mlirbc``::

    python -m alpa_mlir.generic step.mlir -o step.generic.mlir
    python -m alpa_mlir.generic step.mlirbc -o step.generic.mlir
    python -m alpa_mlir.generic - < step.mlir | alpa-opt --alpa-auto-shard=... -
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from .module_info import jax_ir


MLIR_BYTECODE = b"ML\xefR"


def portable_artifact(data: bytes) -> bool:
    """Whether ``data`` is a StableHLO portable artifact: MLIR bytecode of the VHLO dialect."""
    return data.startswith(MLIR_BYTECODE) and b"vhlo" in data


def to_generic(module_in: str | bytes, debug_info: bool = True) -> str:
    """``module_in`` (a module in any form jaxlib parses: text, MLIR bytecode, a StableHLO
    portable artifact) in generic op form, with its locations unless ``debug_info`` is false.
    Raises ``ValueError`` when it does not parse."""
    jmlir = jax_ir()
    ctx = jmlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    with ctx:
        try:
            if isinstance(module_in, bytes) and portable_artifact(module_in):
                from jax._src.lib import _jax

                module = _jax.mlir.deserialize_portable_artifact(module_in)
            else:
                module = jmlir.ir.Module.parse(module_in)
        except Exception as e:  # noqa: BLE001 - jaxlib raises its own MLIRError, JaxRuntimeError
            raise ValueError(str(e)) from e
        return module.operation.get_asm(print_generic_op_form=True, enable_debug_info=debug_info)


def read_module(data: bytes) -> str | bytes:
    """A module file's contents: MLIR bytecode as it is, anything else as UTF-8 text. Raises
    ``ValueError`` when it is neither."""
    if data.startswith(MLIR_BYTECODE):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"neither module text nor MLIR bytecode ({e})") from e


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m alpa_mlir.generic", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="a module (text or bytecode), or - for standard input")
    p.add_argument("-o", "--output", help="output file (default: standard output)")
    p.add_argument("--no-debug-info", action="store_true", help="drop the locations")
    a = p.parse_args(argv)
    data = sys.stdin.buffer.read() if a.input == "-" else Path(a.input).read_bytes()
    try:
        generic = to_generic(read_module(data), debug_info=not a.no_debug_info)
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
