"""The export: committed fixtures are JAX train steps in generic op form with
JAX's own structure, and paper-sized models export from shapes alone."""

from __future__ import annotations

import re
import resource
import subprocess
import sys
import time

import pytest
from conftest import MLIR_OPT, REPO_ROOT

from alpa_mlir import fixtures
from alpa_mlir.module_info import parse_module

# A pretty-printed op looks like `%0 = stablehlo.add %a, %b` or `func.func @f`;
# in generic form every op name is quoted: `%0 = "stablehlo.add"(%a, %b)`.
PRETTY_OP = re.compile(r"^\s*(?:%[\w#:]+\s*=\s*)?(?:stablehlo|chlo|func|sdy)\.[a-z_]+[\s(@]", re.M)


def _text(stem):
    return fixtures.fixture_path(stem).read_text()


def test_fixture_is_generic_form_with_public_main(fixture_stem):
    text = _text(fixture_stem)
    assert len(text) < 1_000_000
    body = "\n".join(l for l in text.splitlines() if not l.startswith("#loc"))
    assert body.startswith('"builtin.module"()')
    assert 'sym_name = "main", sym_visibility = "public"' in text
    assert PRETTY_OP.search(text) is None, PRETTY_OP.search(text).group(0)
    assert '"stablehlo.dot_general"(' in text or '"stablehlo.convolution"(' in text
    info = parse_module(text)
    assert info.num_partitions == 1 and not info.sharded
    # (state..., batch of 2) -> (new state..., loss)
    assert len(info.inputs) > 10 and len(info.outputs) == len(info.inputs) - 1


def test_fixture_parses_with_stock_mlir_opt(fixture_stem, tmp_path):
    if not MLIR_OPT.exists():
        pytest.skip(f"{MLIR_OPT} not installed")
    out = subprocess.run([str(MLIR_OPT), "--allow-unregistered-dialect",
                          "--mlir-print-debuginfo", str(fixtures.fixture_path(fixture_stem))],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    # Locations survive the round trip.
    assert 'loc("python/alpa_mlir/models/' in out.stdout


def test_fixture_donates_parameters_and_optimizer_state(fixture_stem):
    info = parse_module(_text(fixture_stem))
    text = _text(fixture_stem)
    aliases = [int(x) for x in re.findall(r"tf\.aliasing_output = (\d+) : i32", text)]
    # Everything but the batch is donated and aliased to an output of the same
    # type; the loss (last output) is not aliased.
    n_batch = 2
    assert len(aliases) == len(info.inputs) - n_batch
    assert sorted(aliases) == list(range(len(aliases)))
    assert len(info.donated) == len(aliases) == len(info.aliases)
    for i, o in info.aliases.items():
        assert info.inputs[i].describe() == info.outputs[o].describe()
    assert info.outputs[-1].shape == () and len(info.outputs) - 1 not in info.aliases.values()


def test_fixture_keeps_jax_private_helpers(fixture_stem):
    text = _text(fixture_stem)
    private = set(re.findall(r'sym_name = "([\w.]+)", sym_visibility = "private"', text))
    callees = set(re.findall(r"callee = @([\w.]+)", text))
    assert private, "JAX's helpers should stay private functions"
    assert callees == private, (callees, private)


def _pinned_jax() -> str:
    text = (REPO_ROOT / "python" / "requirements.txt").read_text()
    return re.search(r"^jax==(\S+)$", text, re.M).group(1)


def test_fixtures_are_up_to_date():
    """The committed files are what the models export now (modulo locations), with the
    pinned jax that made them. Regenerate with `python -m alpa_mlir.fixtures`. Another
    supported jax prints other text (op forms, helper names): there the export must still
    have the fixture's interface, argument for argument and result for result."""
    import jax

    exact = jax.__version__ == _pinned_jax()
    for stem in fixtures.FIXTURES:
        fresh, committed = fixtures.export_fixture(stem), _text(stem)
        if exact:
            assert fixtures.without_locations(fresh) == fixtures.without_locations(committed), stem
        else:
            a, b = parse_module(fresh), parse_module(committed)
            assert [x.describe() for x in a.inputs] == [x.describe() for x in b.inputs], stem
            assert [x.describe() for x in a.outputs] == [x.describe() for x in b.outputs], stem
            assert a.aliases == b.aliases, stem


def test_fixture_file_outside_a_checkout_is_a_fresh_export(monkeypatch, tmp_path):
    """Installed without the checkout's lit-tests/inputs, a fixture stem still names the
    program: the model is exported into a temporary file."""
    committed = _text("mlp")
    monkeypatch.setattr(fixtures, "INPUTS_DIR", tmp_path / "no-checkout")
    path = fixtures.fixture_file("mlp")
    assert path.exists() and not path.is_relative_to(REPO_ROOT / "lit-tests")
    assert fixtures.without_locations(path.read_text()) == fixtures.without_locations(committed)


def test_input_hints_recorded():
    info = parse_module(_text("gpt_tiny"))
    bounds = [s.int_bound for s in info.inputs if s.int_bound is not None]
    # Adam's step count, then tokens and labels below the vocabulary size.
    assert bounds == [1000, 256, 256]
    n_params = (len(info.inputs) - 3) // 3
    # Adam's nu, as the export's hints say (the runner may find more by itself, see
    # input_domains.py; those are not hints).
    assert sum(s.nonnegative_reason == "hint" for s in info.inputs) == n_params


def test_locations_are_repo_relative(fixture_stem):
    text = _text(fixture_stem)
    assert re.search(r'loc\("/', text) is None
    assert "/work/" not in text and ".venv" not in text


def test_export_plain_function_and_arrays():
    import jax.numpy as jnp

    from alpa_mlir.export import export

    def f(x, unused, y):
        return jnp.tanh(x @ y)

    text = export(f, jnp.ones((4, 8)), jnp.ones((3,)), jnp.ones((8, 2)))
    info = parse_module(text)
    assert [s.describe() for s in info.inputs] == [
        "tensor<4x8xf32>", "tensor<3xf32>", "tensor<8x2xf32>"]
    assert [s.describe() for s in info.outputs] == ["tensor<4x2xf32>"]
    assert '"stablehlo.tanh"(' in text


def test_bad_configs_are_rejected():
    from alpa_mlir import models

    with pytest.raises(ValueError, match="divisible"):
        models.MODELS["gpt"](preset="tiny", hidden=66)
    with pytest.raises(ValueError, match="unknown preset"):
        models.MODELS["gpt"](preset="nope")
    with pytest.raises(ValueError, match="no option"):
        models.MODELS["mlp"](heads=4)


def test_paper_gpt_exports_from_shapes_only(tmp_path):
    """GPT-1.3B (Alpa's Table 4) exports in seconds without allocating its
    1.3e9 parameters (+ 2x for Adam: ~16 GB if materialised)."""
    out = tmp_path / "gpt13b.mlir"
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "alpa_mlir.export", "gpt", "--preset", "1.3b",
                        "-o", str(out)], capture_output=True, text=True, cwd=REPO_ROOT)
    dt = time.perf_counter() - t0
    assert r.returncode == 0, r.stderr[-3000:]
    rss_gib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20
    assert rss_gib < 2.0, f"export used {rss_gib:.2f} GiB"
    assert dt < 120
    head = out.read_text()[:300_000]
    # Tied embedding (vocab x hidden), learned positions (seq x hidden),
    # fused QKV (hidden x 3 hidden), MLP (hidden x 4 hidden), token batch.
    for t in ("tensor<51200x2048xf32>", "tensor<1024x2048xf32>", "tensor<2048x6144xf32>",
              "tensor<2048x8192xf32>", "tensor<1024x1024xi32>"):
        assert t in head, t
    assert "1.32B params" in r.stderr


def test_export_cli_lists_presets():
    r = subprocess.run([sys.executable, "-m", "alpa_mlir.export", "gpt", "--list-presets"],
                       capture_output=True, text=True, cwd=REPO_ROOT)
    assert r.returncode == 0
    for name in ("350m", "1.3b", "2.6b", "6.7b", "15b", "39b"):
        assert name + ":" in r.stdout
    assert "hidden=8192" in r.stdout and "heads=64" in r.stdout
