"""Issue check: every committed fixture still runs on XLA with identical
results after `alpa-opt --alpa-inline`.

alpa-opt comes from `$ALPA_OPT` (default: target/release/alpa-opt under the
repository root). Without the binary the test is skipped, unless
`ALPA_REQUIRE_OPT=1`, in which case it fails."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT
from pipeline_fixtures import alpa_opt

from alpa_mlir.fixtures import fixture_path




def test_inline_preserves_numerics(fixture_stem, tmp_path):
    opt = alpa_opt()
    src = fixture_path(fixture_stem)
    out = tmp_path / f"{fixture_stem}.inlined.mlir"
    r = subprocess.run([str(opt), "--alpa-inline", str(src), "-o", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    text = out.read_text()
    # Inlining really happened: the fixture calls helpers, the result does not.
    assert "func.call" in src.read_text()
    assert "func.call" not in text
    assert len(re.findall(r'(?:func\.func|"func\.func")', text)) == 1

    r = subprocess.run([sys.executable, "-m", "alpa_mlir.run", str(out), "--devices", "1",
                        "--reference", str(src), "--json"],
                       capture_output=True, text=True, cwd=REPO_ROOT)
    report = json.loads(r.stdout) if r.stdout.strip() else {"error": r.stderr[-3000:]}
    assert r.returncode == 0, report
    (cmp,) = report["comparisons"]
    assert (cmp["lhs"], cmp["rhs"]) == ("module@1", "reference@1")
    # Inlining is a pure restructuring: XLA must compute bit-identical results.
    assert cmp["match"] and cmp["exact"], cmp
    assert [i["type"] for i in report["inputs"]] and len(cmp["outputs"]) == len(report["outputs"])
