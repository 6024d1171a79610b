"""Real JAX exports are read whatever form StableHLO's printer chose (issue 11,
item 1): small train steps (loss, grad, SGD or Adam update) built from a wide
set of jnp/lax functions are exported with the pinned jax, and each must

* read and shard on a 2x4 mesh (``alpa-opt --alpa-inline
  --alpa-intra-op-shard="mesh=2x4 format=sdy"``) without an error, and
* run on XLA on 8 devices with outputs equal to the unsharded step on one
  device, the reference itself finite (the inputs are valid).

Each step is exported, sharded and run once per session; the tests share it.
alpa-opt comes from ``$ALPA_OPT`` (default target/release/alpa-opt); without it
the tests skip, unless ``ALPA_REQUIRE_OPT=1``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from alpa_mlir.alpa_opt import AlpaOptError, shard_module
from alpa_mlir.input_domains import make_inputs
from alpa_mlir.intra_check import run_sharded
from alpa_mlir.module_info import parse_module
from alpa_mlir.numerics import compare_outputs, mismatched_outputs
from alpa_mlir.xla_exec import compile_module, execute
from pipeline_fixtures import alpa_opt

MESH = "2x4"
LR = 0.1
# (rtol, atol) where the step computes in bf16/f16 but returns f32: sharding changes the order
# of bf16 sums (2^-8 relative each), seen through the SGD update (LR * grad ~ 1e-5 absolute).
TOLERANCE = {"low_precision": (1e-2, 1e-4)}


# ---------------------------------------------------------------- the steps

def _sgd_step(loss_fn):
    """A train step: loss, gradient, SGD update of every float parameter."""
    import jax

    def step(params, batch):
        loss, grads = jax.value_and_grad(loss_fn)(params, batch)
        new = jax.tree_util.tree_map(lambda p, g: p - LR * g.astype(p.dtype), params, grads)
        return new, loss

    return step


def _f32(*shape, seed=0):
    import jax.numpy as jnp

    return jnp.asarray(np.random.default_rng(seed).uniform(-0.5, 0.5, shape), jnp.float32)


def _i32(*shape, bound=2):
    import jax.numpy as jnp

    return jnp.asarray(np.random.default_rng(1).integers(0, bound, shape), jnp.int32)


def _take():
    import jax.numpy as jnp

    def loss(p, b):
        e = jnp.take(p["emb"], b["ids"], axis=0)           # gather, index_vector_dim = 0 left out
        row = jnp.take(p["emb"], b["ids"][0, 0], axis=0)   # scalar index: index_vector_dim = 0
        return jnp.mean(jnp.tanh(e @ p["w"])) + jnp.sum(row * row)
    return loss, {"emb": _f32(16, 8), "w": _f32(8, 8)}, {"ids": _i32(8, 4)}


def _take_along_axis():
    import jax.numpy as jnp

    def loss(p, b):
        logits = b["x"] @ p["w"]
        picked = jnp.take_along_axis(logits, b["y"][:, None], axis=1)
        return -jnp.mean(picked) + jnp.mean(jnp.take_along_axis(logits, b["k"], axis=0) ** 2)
    return loss, {"w": _f32(8, 16)}, {"x": _f32(8, 8), "y": _i32(8), "k": _i32(3, 16)}


def _indexing():
    import jax.numpy as jnp

    def loss(p, b):
        h = b["x"] @ p["w"]
        a = h[:, 1:5] * h[:, ::4]
        c = h[b["ids"]]                                    # integer-array indexing
        d = h[jnp.array([0, 2, 4]), 3:7]
        m = jnp.where(b["x"][:, 0] > 0, h[:, 0], 0.0)
        return jnp.sum(a ** 2) + jnp.mean(c) + jnp.sum(d) + jnp.sum(m)
    return loss, {"w": _f32(8, 16)}, {"x": _f32(8, 8), "ids": _i32(4)}


def _at_updates():
    import jax.numpy as jnp

    def loss(p, b):
        h = jnp.tanh(b["x"] @ p["w"])
        z = jnp.zeros((8, 16), jnp.float32)
        added = z.at[b["ids"]].add(h[:4])
        setv = h.at[b["ids"], 2].set(p["w"][0, :4])
        maxed = z.at[b["ids"]].max(h[4:])
        muled = h.at[1:3].multiply(2.0)
        return jnp.sum(added ** 2) + jnp.sum(setv) + jnp.sum(maxed) + jnp.mean(muled)
    return loss, {"w": _f32(8, 16)}, {"x": _f32(8, 8), "ids": _i32(4, bound=8)}


def _segment_sum():
    import jax
    import jax.numpy as jnp

    def loss(p, b):
        h = b["x"] @ p["w"]
        s = jax.ops.segment_sum(h, b["seg"], num_segments=4)
        mx = jax.ops.segment_max(h, b["seg"], num_segments=4)
        return jnp.sum(s ** 2) + jnp.sum(jnp.where(jnp.isfinite(mx), mx, 0.0))
    return loss, {"w": _f32(8, 16)}, {"x": _f32(8, 8), "seg": _i32(8, bound=4)}


def _one_hot_xent():
    import jax
    import jax.numpy as jnp
    import optax

    def loss(p, b):
        logits = jnp.tanh(b["x"] @ p["w1"]) @ p["w2"]
        oh = jax.nn.one_hot(b["y"], 10)
        a = optax.softmax_cross_entropy(logits, oh).mean()
        c = optax.softmax_cross_entropy_with_integer_labels(logits, b["y"]).mean()
        return a + c
    return loss, {"w1": _f32(8, 16), "w2": _f32(16, 10)}, {"x": _f32(8, 8), "y": _i32(8, bound=10)}


def _cumulative():
    import jax.numpy as jnp

    def loss(p, b):
        h = jnp.tanh(b["x"] @ p["w"])
        return jnp.sum(jnp.cumsum(h, axis=1) ** 2) + jnp.sum(jnp.cumprod(1.0 + 0.1 * h, axis=0))
    return loss, {"w": _f32(8, 16)}, {"x": _f32(8, 8)}


def _sorting():
    import jax
    import jax.numpy as jnp

    def loss(p, b):
        h = b["x"] @ p["w"]
        s = jnp.sort(h, axis=1)
        order = jnp.argsort(h[:, 0])
        vals, idx = jax.lax.top_k(h, 3)
        return (jnp.sum(s[:, -2:]) + jnp.sum(h[order] * jnp.arange(8.0)[:, None])
                + jnp.sum(vals) + jnp.sum(idx).astype(jnp.float32) * 0.0)
    return loss, {"w": _f32(8, 16)}, {"x": _f32(8, 8)}


def _einsums():
    import jax.numpy as jnp

    def loss(p, b):
        q = jnp.einsum("bsd,dhk->bhsk", b["x"], p["wq"])
        k = jnp.einsum("bsd,dhk->bhsk", b["x"], p["wk"])
        att = jnp.einsum("bhqd,bhkd->bhqk", q, k)
        o = jnp.einsum("bhqk,bhkd->bqhd", att, q)
        outer = jnp.einsum("i,j->ij", p["v"], p["v"])
        tr = jnp.einsum("ii->", outer)
        red = jnp.einsum("bqhd->h", o)
        return jnp.mean(o ** 2) + tr + jnp.sum(red) * 0.01
    return loss, {"wq": _f32(8, 2, 4), "wk": _f32(8, 2, 4, seed=2), "v": _f32(8)}, {"x": _f32(4, 8, 8)}


def _conv_variants():
    import jax
    import jax.numpy as jnp

    dn2 = ("NHWC", "HWIO", "NHWC")

    def loss(p, b):
        x = b["img"]
        y = jax.lax.conv_general_dilated(x, p["k"], (1, 1), "SAME", dimension_numbers=dn2)
        g = jax.lax.conv_general_dilated(y, p["kg"], (2, 2), ((1, 1), (0, 1)),
                                         dimension_numbers=dn2, feature_group_count=2)
        d = jax.lax.conv_general_dilated(y, p["kd"], (1, 1), "VALID", rhs_dilation=(2, 2),
                                         dimension_numbers=dn2)
        t = jax.lax.conv_transpose(g, p["kt"], (2, 2), "SAME", dimension_numbers=dn2)
        nchw = jax.lax.conv_general_dilated(jnp.transpose(x, (0, 3, 1, 2)), p["kn"], (1, 1), "SAME",
                                            dimension_numbers=("NCHW", "OIHW", "NCHW"))
        return jnp.mean(g ** 2) + jnp.mean(d ** 2) + jnp.mean(t ** 2) + jnp.mean(nchw ** 2)
    params = {"k": _f32(3, 3, 4, 8), "kg": _f32(3, 3, 4, 8, seed=2), "kd": _f32(2, 2, 8, 4, seed=3),
              "kt": _f32(2, 2, 8, 4, seed=4), "kn": _f32(4, 4, 3, 3, seed=5)}
    return loss, params, {"img": _f32(8, 8, 8, 4)}


def _conv_1d_3d():
    import jax
    import jax.numpy as jnp

    def loss(p, b):
        c1 = jax.lax.conv_general_dilated(b["seq"], p["k1"], (1,), "SAME",
                                          dimension_numbers=("NWC", "WIO", "NWC"))
        c3 = jax.lax.conv_general_dilated(b["vol"], p["k3"], (1, 1, 1), "VALID",
                                          dimension_numbers=("NDHWC", "DHWIO", "NDHWC"))
        return jnp.mean(c1 ** 2) + jnp.mean(c3 ** 2)
    return (loss, {"k1": _f32(3, 4, 8), "k3": _f32(2, 2, 2, 4, 8, seed=2)},
            {"seq": _f32(8, 16, 4), "vol": _f32(8, 4, 4, 4, 4)})


def _pooling():
    import jax
    import jax.numpy as jnp

    def loss(p, b):
        h = jnp.tanh(jax.lax.conv_general_dilated(b["img"], p["k"], (1, 1), "SAME",
                                                  dimension_numbers=("NHWC", "HWIO", "NHWC")))
        mx = jax.lax.reduce_window(h, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        avg = jax.lax.reduce_window(h, 0.0, jax.lax.add, (1, 3, 3, 1), (1, 1, 1, 1), "SAME") / 9.0
        return jnp.mean(mx ** 2) + jnp.mean(avg ** 2)
    return loss, {"k": _f32(3, 3, 4, 8)}, {"img": _f32(8, 8, 8, 4)}


def _scan_dynamic_slice():
    import jax
    import jax.numpy as jnp

    def loss(p, b):
        def body(carry, i):
            row = jax.lax.dynamic_slice(b["x"], (i, 0), (1, 8))[0]
            carry = jnp.tanh(carry @ p["w"] + row)
            upd = jax.lax.dynamic_update_slice(jnp.zeros((8,)), carry[:2], (i % 6,))
            return carry, jnp.sum(upd)
        h, ys = jax.lax.scan(body, jnp.zeros((8,)), jnp.arange(8))
        return jnp.sum(h ** 2) + jnp.sum(ys)
    return loss, {"w": _f32(8, 8)}, {"x": _f32(8, 8)}


def _loops():
    import jax
    import jax.numpy as jnp

    def loss(p, b):
        h = jax.lax.fori_loop(0, 3, lambda i, h: jnp.tanh(h @ p["w"]) + i, b["x"])

        def cond(s):
            return s[0] < 4

        def body(s):
            return s[0] + 1, s[1] * 0.5 + jnp.sin(s[1])
        _, w = jax.lax.while_loop(cond, body, (0, h))
        return jnp.mean(h ** 2) + jnp.mean(jax.lax.stop_gradient(w))
    return loss, {"w": _f32(8, 8)}, {"x": _f32(8, 8)}


def _branches():
    import jax
    import jax.numpy as jnp

    def loss(p, b):
        h = b["x"] @ p["w"]
        c = jax.lax.cond(jnp.sum(h) > 0, lambda h: jnp.tanh(h), lambda h: h * 2.0, h)
        s = jax.lax.switch(b["k"][0], [lambda h: h ** 2, lambda h: jnp.sin(h), lambda h: -h], h)
        return jnp.mean(c ** 2) + jnp.mean(s)
    return loss, {"w": _f32(8, 8)}, {"x": _f32(8, 8), "k": _i32(1, bound=3)}


def _rng():
    import jax
    import jax.numpy as jnp

    def loss(p, b):
        key = jax.random.wrap_key_data(b["key"])
        h = jnp.tanh(b["x"] @ p["w"])
        keep = jax.random.bernoulli(key, 0.75, h.shape)
        noise = jax.random.normal(jax.random.fold_in(key, 1), h.shape)
        perm = jax.random.permutation(jax.random.fold_in(key, 2), 8)
        return jnp.mean(jnp.where(keep, h / 0.75, 0.0) ** 2) + 0.01 * jnp.mean(noise * h) + jnp.mean(h[perm])
    key = jax.random.key_data(jax.random.PRNGKey(0))
    return loss, {"w": _f32(8, 16)}, {"x": _f32(8, 8), "key": key}


def _int_bool_ops():
    import jax.numpy as jnp

    def loss(p, b):
        h = b["x"] @ p["w"]
        i = b["n"] * 3 + (b["n"] // 2) - (b["n"] % 2) + jnp.left_shift(b["n"], 1) + (b["n"] ^ 1)
        mask = (h > 0) & ~(b["n"][:, None] == 1) | (h < -0.3)
        cnt = jnp.sum(mask.astype(jnp.int32)) + jnp.max(i) + jnp.argmax(h[0])
        return jnp.mean(jnp.where(mask, h, -h)) + jnp.clip(h, -0.1, 0.1).sum() + cnt.astype(jnp.float32) * 0.0
    return loss, {"w": _f32(8, 16)}, {"x": _f32(8, 8), "n": _i32(8, bound=5)}


def _low_precision():
    import jax
    import jax.numpy as jnp

    def loss(p, b):
        x16 = b["x"].astype(jnp.bfloat16)
        h = jnp.tanh(x16 @ p["w"].astype(jnp.bfloat16))
        hf = (h.astype(jnp.float16) @ p["v"].astype(jnp.float16)).astype(jnp.float32)
        ln = (hf - hf.mean(-1, keepdims=True)) * jax.lax.rsqrt(hf.var(-1, keepdims=True) + 1e-5)
        return jnp.mean(ln * p["g"]) + jnp.mean(jax.nn.softmax(hf, axis=-1) ** 2)
    return loss, {"w": _f32(8, 16), "v": _f32(16, 8, seed=2), "g": _f32(8, seed=3)}, {"x": _f32(8, 8)}


def _adam_mlp():
    """optax.adam without export hints: its ``nu`` must be drawn valid by the runner."""
    import jax
    import jax.numpy as jnp
    import optax

    opt = optax.adam(1e-2)
    params = {"w1": _f32(8, 16), "w2": _f32(16, 4, seed=2)}

    def loss(p, b):
        return jnp.mean((jnp.tanh(b["x"] @ p["w1"]) @ p["w2"] - b["y"]) ** 2)

    def step(p, s, b):
        l, g = jax.value_and_grad(loss)(p, b)
        u, s = opt.update(g, s, p)
        return optax.apply_updates(p, u), s, l
    return step, (params, opt.init(params), {"x": _f32(8, 8), "y": _f32(8, 4)})


STEPS = {
    "take": _take, "take_along_axis": _take_along_axis, "indexing": _indexing,
    "at_updates": _at_updates, "segment_sum": _segment_sum, "one_hot_xent": _one_hot_xent,
    "cumulative": _cumulative, "sorting": _sorting, "einsums": _einsums,
    "conv_variants": _conv_variants, "conv_1d_3d": _conv_1d_3d, "pooling": _pooling,
    "scan_dynamic_slice": _scan_dynamic_slice, "loops": _loops, "branches": _branches,
    "rng": _rng, "int_bool_ops": _int_bool_ops, "low_precision": _low_precision,
    "adam_mlp": _adam_mlp,
}


def build(name: str):
    """(step function, example arguments) of one corpus entry."""
    made = STEPS[name]()
    if len(made) == 2:
        return made
    loss, params, batch = made
    return _sgd_step(loss), (params, batch)


# ---------------------------------------------------------------- plumbing


_RESULTS: dict[str, dict] = {}


@pytest.fixture(scope="session")
def corpus_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("export-corpus")


def _result(name: str, root: Path) -> dict:
    """Export, shard and run one step once per session."""
    alpa_opt()
    if name in _RESULTS:
        return _RESULTS[name]
    from alpa_mlir.export import export

    wd = root / name
    wd.mkdir(parents=True, exist_ok=True)
    fn, args = build(name)
    src = wd / "step.mlir"
    src.write_text(export(fn, *args))
    r: dict = {"workdir": str(wd)}
    try:
        text, report, _ = shard_module(src, MESH, "sdy", workdir=wd)
    except AlpaOptError as e:
        r["shard_error"] = str(e)
        _RESULTS[name] = r
        return r
    r["report"] = report
    info = parse_module(src.read_text())
    inputs = make_inputs(info.inputs, seed=0)
    ref = execute(compile_module(info.module, 1), inputs, [o.shape for o in info.outputs])
    r["reference_nonfinite"] = [i for i, o in enumerate(ref)
                                if np.issubdtype(o.dtype, np.inexact) and not np.isfinite(o).all()]
    outs, _, sharded_info = run_sharded(text, inputs, 8)
    r["num_partitions"] = sharded_info.num_partitions
    r["numerics"] = compare_outputs(outs, ref, *TOLERANCE.get(name, (None, None)))
    _RESULTS[name] = r
    return r


NAMES = list(STEPS)


@pytest.mark.parametrize("name", NAMES)
def test_step_reads_and_shards_on_2x4(name, corpus_dir):
    r = _result(name, corpus_dir)
    assert "shard_error" not in r, f"{name} (files in {r['workdir']}):\n{r['shard_error'][-3000:]}"
    assert r["num_partitions"] == 8
    assert r["report"]["mesh"]["shape"] == [2, 4]


@pytest.mark.parametrize("name", NAMES)
def test_sharded_step_matches_one_device(name, corpus_dir):
    r = _result(name, corpus_dir)
    assert "shard_error" not in r, r["shard_error"][-3000:]
    assert r["reference_nonfinite"] == [], (
        f"{name}: the unsharded step is not finite on the drawn inputs "
        f"(outputs {r['reference_nonfinite']}): the comparison would prove nothing")
    num = r["numerics"]
    assert num["match"], (f"{name} (files in {r['workdir']}): outputs differ from one device\n"
                          + "\n".join(mismatched_outputs(num)))


def test_corpus_covers_the_printer_forms(corpus_dir):
    """The exports do contain the forms this corpus is about: a gather with
    index_vector_dim left out, convs with 1 and 3 spatial dims and with groups,
    a scatter, sort, while, case and an rng-derived op."""
    alpa_opt()
    texts = {}
    for name in ("take", "conv_variants", "conv_1d_3d", "at_updates", "sorting", "loops", "branches"):
        _result(name, corpus_dir)
        texts[name] = (corpus_dir / name / "step.mlir").read_text()
    gathers = [line for line in texts["take"].splitlines() if "#stablehlo.gather<" in line]
    assert any("index_vector_dim" not in g for g in gathers)
    assert "#stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>" in texts["conv_1d_3d"]
    assert "[b, 0, 1, 2, f]" in texts["conv_1d_3d"]
    assert "feature_group_count = 2" in texts["conv_variants"]
    assert '"stablehlo.scatter"' in texts["at_updates"]
    assert '"stablehlo.sort"' in texts["sorting"]
    assert '"stablehlo.while"' in texts["loops"]
    assert '"stablehlo.case"' in texts["branches"]
