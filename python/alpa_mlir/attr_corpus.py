"""The attribute-forms corpus: StableHLO attributes as jaxlib's own printer
writes them, with the field values they were built from.

``src/ir/attr_text/jaxlib_printed.jsonl`` holds one JSON object per line:
``{"attr": "gather", "text": "#stablehlo.gather<...>", "fields": {...}}``.
The Rust test ``attr_text::tests::reads_every_form_jaxlib_prints`` parses each
``text`` with our reader and compares every field with ``fields``;
``python/tests/test_attr_corpus.py`` checks that the committed file is what the
pinned jaxlib prints today (so the Rust side reads real printer output, zero
integers and empty lists left out included).

Field values are random (seeded) with many zeros and empty lists, plus the
all-default corner of each struct. Regenerate with::

    python -m alpa_mlir.attr_corpus --write
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

CORPUS_PATH = Path(__file__).resolve().parents[2] / "src" / "ir" / "attr_text" / "jaxlib_printed.jsonl"
SEED = 11
CASES_PER_STRUCT = 40

ENUMS = {
    "comparison_direction": ("ComparisonDirectionAttr", ["EQ", "NE", "GE", "GT", "LE", "LT"]),
    "comparison_type": ("ComparisonTypeAttr", ["NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"]),
    "precision": ("PrecisionAttr", ["DEFAULT", "HIGH", "HIGHEST"]),
    "rng_algorithm": ("RngAlgorithmAttr", ["DEFAULT", "THREE_FRY", "PHILOX"]),
    "rng_distribution": ("RngDistributionAttr", ["UNIFORM", "NORMAL"]),
    "fft_type": ("FftTypeAttr", ["FFT", "IFFT", "RFFT", "IRFFT"]),
    "transpose": ("TransposeAttr", ["TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"]),
}


def _dims(rng: random.Random, rank: int, most: int) -> list[int]:
    """Distinct dims below ``rank``, empty about a third of the time."""
    if rng.random() < 0.35:
        return []
    return rng.sample(range(rank), rng.randint(1, min(most, rank)))


def _small(rng: random.Random) -> int:
    """An integer field: 0 (the value the printer leaves out) half the time."""
    return 0 if rng.random() < 0.5 else rng.randint(1, 5)


def _dot(rng):
    nb, nc = rng.randint(0, 2), rng.randint(0, 2)
    lhs, rhs = rng.sample(range(6), nb + nc), rng.sample(range(6), nb + nc)
    return {"lhs_batching_dimensions": lhs[:nb], "rhs_batching_dimensions": rhs[:nb],
            "lhs_contracting_dimensions": lhs[nb:], "rhs_contracting_dimensions": rhs[nb:]}


def _gather(rng):
    nb = rng.randint(0, 1) if rng.random() < 0.3 else 0
    ivd = _small(rng)
    operand = rng.sample(range(6), 6)
    batching = rng.sample([d for d in range(6) if d != ivd], nb)
    return {"offset_dims": _dims(rng, 5, 3), "collapsed_slice_dims": operand[nb:nb + rng.randint(0, 2)],
            "operand_batching_dims": operand[:nb], "start_indices_batching_dims": batching,
            "start_index_map": _dims(rng, 5, 3), "index_vector_dim": ivd}


def _scatter(rng):
    g = _gather(rng)
    return {"update_window_dims": g["offset_dims"], "inserted_window_dims": g["collapsed_slice_dims"],
            "input_batching_dims": g["operand_batching_dims"],
            "scatter_indices_batching_dims": g["start_indices_batching_dims"],
            "scatter_dims_to_operand_dims": g["start_index_map"], "index_vector_dim": g["index_vector_dim"]}


def _layout(rng, n: int) -> tuple[int, int, list[int]]:
    # jaxlib's printer aborts on layouts that are not a permutation of the rank: only those.
    perm = rng.sample(range(n + 2), n + 2)
    return perm[0], perm[1], perm[2:]


def _conv(rng):
    n = rng.choice([0, 1, 1, 2, 2, 3])
    i, k, o = _layout(rng, n), _layout(rng, n), _layout(rng, n)
    return {"input_batch_dimension": i[0], "input_feature_dimension": i[1],
            "input_spatial_dimensions": i[2],
            "kernel_input_feature_dimension": k[0], "kernel_output_feature_dimension": k[1],
            "kernel_spatial_dimensions": k[2],
            "output_batch_dimension": o[0], "output_feature_dimension": o[1],
            "output_spatial_dimensions": o[2]}


STRUCTS = {"dot": _dot, "gather": _gather, "scatter": _scatter, "conv": _conv}

_ALL_DEFAULT = {
    "dot": {"lhs_batching_dimensions": [], "rhs_batching_dimensions": [],
            "lhs_contracting_dimensions": [], "rhs_contracting_dimensions": []},
    "gather": {"offset_dims": [], "collapsed_slice_dims": [], "operand_batching_dims": [],
               "start_indices_batching_dims": [], "start_index_map": [], "index_vector_dim": 0},
    "scatter": {"update_window_dims": [], "inserted_window_dims": [], "input_batching_dims": [],
                "scatter_indices_batching_dims": [], "scatter_dims_to_operand_dims": [],
                "index_vector_dim": 0},
}


def _print_struct(s, attr: str, f: dict) -> str:
    if attr == "dot":
        a = s.DotDimensionNumbers.get(**f)
    elif attr == "gather":
        a = s.GatherDimensionNumbers.get(**f)
    elif attr == "scatter":
        kw = dict(f)
        kw["scattered_dims_to_operand_dims"] = kw.pop("scatter_dims_to_operand_dims")
        a = s.ScatterDimensionNumbers.get(**kw)
    else:
        a = s.ConvDimensionNumbers.get(**f)
    return str(a)


def generate() -> list[dict]:
    """The corpus as jaxlib prints it now (deterministic)."""
    from jaxlib.mlir import ir
    from jaxlib.mlir.dialects import stablehlo as s

    rng = random.Random(SEED)
    rows = []
    ctx = ir.Context()
    s.register_dialect(ctx)
    with ctx:
        for attr, make in STRUCTS.items():
            cases = [_ALL_DEFAULT[attr]] if attr in _ALL_DEFAULT else []
            cases += [make(rng) for _ in range(CASES_PER_STRUCT)]
            for f in cases:
                rows.append({"attr": attr, "text": _print_struct(s, attr, f), "fields": f})
        for attr, (cls, values) in ENUMS.items():
            for v in values:
                rows.append({"attr": attr, "text": str(getattr(s, cls).get(v)), "fields": {"value": v}})
    return rows


def dumps(rows: list[dict]) -> str:
    return "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m alpa_mlir.attr_corpus", description=__doc__.split("\n\n")[0])
    p.add_argument("--write", action="store_true", help=f"rewrite {CORPUS_PATH}")
    a = p.parse_args(argv)
    text = dumps(generate())
    if a.write:
        CORPUS_PATH.write_text(text)
        print(f"wrote {CORPUS_PATH}: {text.count(chr(10))} attributes", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
