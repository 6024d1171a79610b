"""Steps that keep f32 weights and compute in bf16 (flax modules with `dtype=bfloat16`, as
Hugging Face's Flax models and most large-model recipes run), planned by `alpa-auto-shard` over
2 microbatches and run pipelined on 8 devices: each equals the step exported at the global
batch at the bf16 tolerances (`numerics.compare_step`), and planning says nothing to warn about.

A language model whose output projection is tied to its token embedding (`nn.Embed.attend`,
GPT-2's `lm_head`), with learned positions: each table is looked up as a bf16 copy, so the
gradient of a lookup is a scatter-add into a bf16 table. That scatter was only known as the
table's gradient (an aggregate over the batch) when it had the type of an f32 argument; in bf16
it was taken for values per example, and their sum with the attend's gradient for examples
meeting a statistic of the batch: a warning that the step differs from the global batch's, on
a step that does not (Hugging Face's FlaxGPT2LMHeadModel in bf16 showed it).

alpa-opt comes from ``$ALPA_OPT`` (default target/release/alpa-opt); without it the tests skip,
unless ``ALPA_REQUIRE_OPT=1``."""

from __future__ import annotations

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
import pytest

from alpa_mlir.hints import int_bound
from alpa_mlir.module_info import compute_element_type, parse_module
from pipeline_fixtures import assert_pipelined_step_matches, donated_state_exporter

MICROBATCH, MICROBATCHES = 4, 2
VOCAB, SEQ, WIDTH, LAYERS = 64, 8, 32, 3
SDS = jax.ShapeDtypeStruct


class TiedLM(nn.Module):
    dtype: jnp.dtype

    @nn.compact
    def __call__(self, ids):
        wte = nn.Embed(VOCAB, WIDTH, dtype=self.dtype, name="wte")
        wpe = nn.Embed(SEQ, WIDTH, dtype=self.dtype, name="wpe")
        h = wte(ids) + wpe(jnp.arange(ids.shape[1])[None])
        for i in range(LAYERS):
            y = nn.LayerNorm(dtype=self.dtype, name=f"ln_{i}")(h)
            y = nn.Dense(2 * WIDTH, dtype=self.dtype, name=f"fc_in_{i}")(y)
            h = h + nn.Dense(WIDTH, dtype=self.dtype, name=f"fc_out_{i}")(nn.gelu(y))
        return wte.attend(nn.LayerNorm(dtype=self.dtype, name="ln_f")(h)).astype(jnp.float32)


def _exporter(dtype):
    model = TiedLM(dtype)
    tx = optax.adamw(1e-3)
    state = jax.eval_shape(lambda: (lambda p: (p, tx.init(p)))(
        model.init(jax.random.PRNGKey(0), jnp.zeros((1, SEQ), jnp.int32))))

    def step(state, ids):
        params, opt_state = state

        def loss_fn(p):
            logits = model.apply(p, ids)
            return optax.softmax_cross_entropy_with_integer_labels(logits[:, :-1], ids[:, 1:]).mean()

        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return (optax.apply_updates(params, updates), opt_state), loss

    tokens = (lambda b: SDS((b, SEQ), jnp.int32), int_bound(VOCAB))
    return donated_state_exporter(step, state, [tokens])


@pytest.mark.parametrize("dtype, compute_type", [(jnp.bfloat16, "bf16"), (jnp.float32, "f32")],
                         ids=["bf16", "f32"])
def test_a_language_model_with_a_tied_embedding_pipelines_without_warning(tmp_path, dtype,
                                                                          compute_type):
    at = _exporter(dtype)
    assert compute_element_type(parse_module(at(MICROBATCH))) == compute_type
    planned, _ = assert_pipelined_step_matches(tmp_path, at, MICROBATCH, MICROBATCHES,
                                               min_stages=2)
    assert "warning" not in planned.stderr, planned.stderr[-3000:]
