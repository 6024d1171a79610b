"""Issue 4, explicit layer boundaries: the bridge marks them (`alpa_mlir.layers.layer`),
the passes honour them."""

from __future__ import annotations

import re
import subprocess

import pytest

from alpa_mlir.alpa_opt import alpa_opt_path


def _export(**overrides) -> str:
    from alpa_mlir import models
    from alpa_mlir.export import export

    step = models.MODELS["gpt"](preset="small", **overrides)
    return export(step.step_fn, *step.args, hints=step.hints)


def _cluster(text: str, tmp_path, options: str = "") -> str:
    opt = alpa_opt_path()
    if not opt.exists():
        pytest.skip(f"alpa-opt not found at {opt}")
    src = tmp_path / "step.mlir"
    src.write_text(text)
    flag = f"--alpa-cluster-layers={options}" if options else "--alpa-cluster-layers"
    r = subprocess.run([str(opt), str(src), "--alpa-inline", flag, "-o", str(tmp_path / "out.mlir")],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stderr


def test_marked_blocks_become_the_layers(tmp_path):
    marked = _export(mark_layers=True)
    assert "alpa_layer_3" in marked
    remark = _cluster(marked, tmp_path, "layers=user devices=2")
    m = re.search(r"alpa-cluster-layers: (\d+) layers", remark)
    assert m and int(m.group(1)) == 4, remark
    # Each block's matmuls, forward and backward, land in the block's layer: the blocks are
    # alike, so layers 0-2 hold as many; the tied LM head follows the last block into layer 3.
    out = (tmp_path / "out.mlir").read_text()
    counts = [len(re.findall(r'"stablehlo.dot_general".*alpa.layer = %d : i64' % k, out)) for k in range(4)]
    assert counts[0] == counts[1] == counts[2] > 0 and counts[3] > counts[2], counts
    # layers=auto also honours the marks; an unmarked export falls back to Eq. 6.
    auto = _cluster(marked, tmp_path, "devices=2")
    assert "4 layers" in auto
    unmarked = _cluster(_export(), tmp_path, "devices=2")
    assert re.search(r"alpa-cluster-layers: \d+ layers", unmarked)


def test_layer_rejects_bad_indices():
    from alpa_mlir.layers import layer

    with pytest.raises(ValueError):
        layer(-1)
