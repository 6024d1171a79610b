"""The JAX exports committed under ``lit-tests/inputs/``.

Regenerate them all (after changing a model or the pinned JAX)::

    python -m alpa_mlir.fixtures            # writes lit-tests/inputs/*.mlir
    python -m alpa_mlir.fixtures --check    # exit 1 if a committed file is stale

``--check`` compares modulo source locations (line numbers of the model code
may move without changing the program)."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
INPUTS_DIR = REPO_ROOT / "lit-tests" / "inputs"

# file stem -> (model, preset[, overrides]); the export CLI equivalent is
# `python -m alpa_mlir.export MODEL --preset PRESET [--OPTION ...] -o lit-tests/inputs/STEM.mlir`.
FIXTURES = {
    "mlp": ("mlp", "alpa-test"),
    # Alpa's test MLP with a large batch and a small hidden size: data parallelism wins
    "mlp_dp": ("mlp", "alpa-test", {"batch": 1024, "hidden": 32}),
    "gpt_tiny": ("gpt", "tiny"),
    "gpt_tiny_remat": ("gpt", "tiny", {"remat": True}),
    # many tokens per step for its size: data parallelism beats Megatron's tensor parallelism
    "gpt_batch": ("gpt", "tiny", {"batch": 64, "seq": 64}),
    "moe_tiny": ("moe", "tiny"),
    "wresnet_tiny": ("wresnet", "tiny"),
    # Big enough that compute outweighs collective latencies and a pipeline pays off on two
    # hosts (tests/inter_claims.rs); few blocks keep the files small.
    "gpt_pipeline": ("gpt", "tiny", {"batch": 16, "seq": 512, "vocab": 8192, "hidden": 1024,
                                     "layers": 4, "heads": 16}),
    "wresnet_pipeline": ("wresnet", "tiny", {"batch": 32, "image": 64, "blocks": (1, 1, 1, 1),
                                             "width": 64, "width_factor": 2, "classes": 1024}),
}


def fixture_path(stem: str) -> Path:
    return INPUTS_DIR / f"{stem}.mlir"


def fixture_file(stem: str) -> Path:
    """The committed export in a checkout; elsewhere (an installed package) a fresh export of
    the same model into a temporary file (the same program: ``--check`` keeps them equal)."""
    committed = fixture_path(stem)
    if committed.exists():
        return committed
    out = Path(tempfile.mkdtemp(prefix="alpa-fixture-")) / f"{stem}.mlir"
    out.write_text(export_fixture(stem))
    return out


def export_fixture(stem: str, debug_info: bool = True) -> str:
    from . import models
    from .export import export

    model, preset, *rest = FIXTURES[stem]
    step = models.MODELS[model](preset=preset, **(rest[0] if rest else {}))
    return export(step.step_fn, *step.args, hints=step.hints, debug_info=debug_info)


def without_locations(text: str) -> str:
    """Re-print module text in generic form without locations."""
    from .generic import to_generic

    return to_generic(text, debug_info=False)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m alpa_mlir.fixtures", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--check", action="store_true", help="only compare, write nothing")
    p.add_argument("-o", "--out-dir", type=Path, default=INPUTS_DIR)
    p.add_argument("names", nargs="*", help=f"subset of {', '.join(FIXTURES)}")
    a = p.parse_args(argv)
    stale = 0
    for stem in a.names or FIXTURES:
        text = export_fixture(stem)
        path = a.out_dir / f"{stem}.mlir"
        if a.check:
            ok = path.exists() and without_locations(path.read_text()) == without_locations(text)
            print(f"{path}: {'up to date' if ok else 'STALE'}")
            stale += not ok
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            print(f"wrote {path} ({len(text)} bytes)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
