"""Random train steps, as users write them, for differential tests of the pipeline planner:
`random_step(seed)` draws a model (an MLP over examples or over tokens, over features or over
token ids looked up in an embedding table, its layers plain, residual, layer-normalized or
attending over each example's tokens), per-example loss
terms, a reduction of them into the loss (means, sums, masked means with or without a guard,
several terms over one or over different denominators, penalties, nonlinear functions of
means), metrics of every kind the planner combines, computes once from combined values or must
refuse, a gradient style and an
optax optimizer. The step exported at the microbatch and at the global batch is the oracle:
a plan the planner makes without a warning must give the global step's results."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp
import optax

from alpa_mlir.export import export
from alpa_mlir.hints import ANY, int_bound

SDS = jax.ShapeDtypeStruct
CLASSES = 6
FEATURES = 16
VOCAB = 12  # token ids of an embedded input

# Per-example (or per-token) loss terms of logits [..., C] and integer labels [...].
TERMS = {
    "cross_entropy": lambda logits, y: optax.softmax_cross_entropy_with_integer_labels(logits, y),
    "squared_error": lambda logits, y: jnp.mean((logits - jax.nn.one_hot(y, CLASSES)) ** 2, -1),
    "smoothed": lambda logits, y: optax.softmax_cross_entropy(
        logits, optax.smooth_labels(jax.nn.one_hot(y, CLASSES), 0.1)),
    "z_loss": lambda logits, y: jax.nn.logsumexp(logits, -1) ** 2,
}


def _mean(l, m):
    return jnp.mean(l)


def _sum(l, m):
    return jnp.sum(l)


def _masked(l, m):
    return jnp.sum(l * m) / jnp.sum(m)


def _masked_guarded(l, m):
    return jnp.sum(l * m) / jnp.maximum(jnp.sum(m), 1.0)


def _masked_count(l, m):
    """The denominator a count of the labels kept, as an integer converted (PyTorch's
    ignore_index mean)."""
    return jnp.sum(jnp.where(m > 0, l, 0.0)) / jnp.sum(m > 0).astype(jnp.float32)


# How one term's values become a scalar; `m` is the mask (labels other than 0 kept).
REDUCTIONS = {"mean": _mean, "sum": _sum, "masked": _masked, "masked_guarded": _masked_guarded,
              "masked_count": _masked_count}


def _nonlinear(name: str):
    return {"log": jnp.log1p, "square": jnp.square, "sqrt": lambda v: jnp.sqrt(v + 1.0)}[name]


@dataclass
class Step:
    seed: int
    description: dict = field(default_factory=dict)
    tokens: int = 0  # 0: one label per example; else labels per token
    layers: int = 2
    width: int = 16
    terms: list = field(default_factory=list)  # [(term, reduction, coefficient)]
    penalty: float = 0.0
    outer: str = ""  # a nonlinear function of the whole loss, or ""
    metrics: list = field(default_factory=list)
    gradient: str = "value_and_grad"  # or "grad_of_sum" (HF: gradient of the masked sum / count)
    optimizer: str = "sgd"
    embedded: bool = False  # the inputs are token ids looked up in an embedding table
    block: str = "plain"  # each layer: plain, residual, layer_norm, or attention over the tokens

    def loss(self, params, x, y):
        logits = self.logits(params, x)
        m = (y != 0).astype(jnp.float32)
        total = 0.0
        for term, reduction, coefficient in self.terms:
            total = total + coefficient * REDUCTIONS[reduction](TERMS[term](logits, y), m)
        if self.penalty:
            total = total + self.penalty * sum(jnp.sum(w * w) for k, w in params.items() if k != "head")
        if self.outer:
            total = _nonlinear(self.outer)(total)
        return total, logits

    def logits(self, params, x):
        h = params["embedding"][x] if self.embedded else x
        for i in range(self.layers):
            h = self.layer(params, i, h)
        return h @ params["head"]

    def layer(self, params, i, h):
        out = jnp.tanh(h @ params[f"w{i}"])
        if self.block == "residual" and h.shape == out.shape:
            return h + out
        if self.block == "layer_norm":
            centred = out - out.mean(-1, keepdims=True)
            return centred * jax.lax.rsqrt(jnp.mean(centred ** 2, -1, keepdims=True) + 1e-5) * params[f"g{i}"]
        if self.block == "attention" and self.tokens:
            # Each example's tokens attend to each other (softmax over its own tokens only).
            scores = jnp.einsum("btd,bsd->bts", out, out) / jnp.sqrt(out.shape[-1])
            return out + jnp.einsum("bts,bsd->btd", jax.nn.softmax(scores, -1), out)
        return out

    def params(self) -> dict:
        shapes = {f"w{i}": (FEATURES if i == 0 else self.width, self.width) for i in range(self.layers)}
        shapes["head"] = (self.width, CLASSES)
        if self.embedded:
            shapes["embedding"] = (VOCAB, FEATURES)
        if self.block == "layer_norm":
            shapes.update({f"g{i}": (self.width,) for i in range(self.layers)})
        return {k: SDS(s, jnp.float32) for k, s in shapes.items()}

    def tx(self):
        return {
            "sgd": lambda: optax.sgd(0.05),
            "momentum": lambda: optax.sgd(0.05, momentum=0.9),
            "adam": lambda: optax.adam(1e-2),
            "adamw": lambda: optax.adamw(1e-2, weight_decay=1e-3),
            "clipped_adam": lambda: optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-2)),
        }[self.optimizer]()

    def metric_values(self, logits, y, per_term):
        m = (y != 0).astype(jnp.float32)
        correct = (jnp.argmax(logits, -1) == y).astype(jnp.float32)
        values = {
            "accuracy": lambda: jnp.mean(correct),
            "correct": lambda: jnp.sum(correct),
            "kept": lambda: jnp.sum(m),
            "masked_accuracy": lambda: jnp.sum(correct * m) / jnp.maximum(jnp.sum(m), 1.0),
            "per_example": lambda: per_term,
            "max_loss": lambda: jnp.max(per_term),
            "loss_variance": lambda: jnp.var(per_term),
            "perplexity": lambda: jnp.exp(jnp.mean(per_term)),
            "logit_norm": lambda: jnp.linalg.norm(logits),
            "loss_spread": lambda: jnp.max(per_term) - jnp.min(per_term),
            "normalized_norm": lambda: jnp.linalg.norm(per_term) / jnp.sqrt(per_term.size),
        }
        return {name: values[name]() for name in self.metrics}

    def step_fn(self):
        tx = self.tx()

        def step(params, opt_state, x, y):
            if self.gradient == "grad_of_sum":
                def summed(p):
                    logits = self.logits(p, x)
                    m = (y != 0).astype(jnp.float32)
                    return jnp.sum(TERMS[self.terms[0][0]](logits, y) * m), (logits, jnp.sum(m))

                (total, (logits, count)), grads = jax.value_and_grad(summed, has_aux=True)(params)
                grads = jax.tree.map(lambda g: g / count, grads)
                loss = total / count
            else:
                (loss, logits), grads = jax.value_and_grad(lambda p: self.loss(p, x, y), has_aux=True)(params)
            updates, opt_state = tx.update(grads, opt_state, params)
            per_term = TERMS[self.terms[0][0]](logits, y)
            return (optax.apply_updates(params, updates), opt_state, loss,
                    self.metric_values(logits, y, per_term))

        return step

    def export_at(self, batch: int) -> str:
        params = self.params()
        opt_state = jax.eval_shape(self.tx().init, params)
        y_shape = (batch, self.tokens) if self.tokens else (batch,)
        if self.embedded:
            x, x_hint = SDS(y_shape, jnp.int32), int_bound(VOCAB)
        else:
            x, x_hint = SDS((*y_shape, FEATURES), jnp.float32), ANY
        y = SDS(y_shape, jnp.int32)
        hints = (jax.tree.map(lambda _: ANY, params), jax.tree.map(lambda _: ANY, opt_state), x_hint,
                 int_bound(CLASSES))
        return export(jax.jit(self.step_fn(), donate_argnums=(0, 1), keep_unused=True), params, opt_state, x, y,
                      hints=hints, debug_info=True)


def random_step(seed: int) -> Step:
    rng = random.Random(seed)
    s = Step(seed=seed)
    s.tokens = rng.choice([0, 0, 3])
    s.layers = rng.choice([2, 3, 4])
    s.width = rng.choice([16, 32])
    s.gradient = "grad_of_sum" if rng.random() < 0.15 else "value_and_grad"
    if s.gradient == "grad_of_sum":
        s.terms = [(rng.choice(["cross_entropy", "smoothed"]), "masked", 1.0)]
    else:
        first = (rng.choice(list(TERMS)), rng.choice(list(REDUCTIONS)), 1.0)
        s.terms = [first]
        if rng.random() < 0.4:
            # A second term over the same reduction (one denominator) or another (two).
            reduction = first[1] if rng.random() < 0.5 else rng.choice(list(REDUCTIONS))
            s.terms.append((rng.choice(list(TERMS)), reduction, rng.choice([0.5, 1e-2])))
        if rng.random() < 0.2:
            s.terms = [(t, r, c * rng.choice([2.0, 0.25])) for t, r, c in s.terms]
        s.penalty = 1e-3 if rng.random() < 0.15 else 0.0
        s.outer = rng.choice(["log", "square", "sqrt"]) if rng.random() < 0.1 else ""
    s.metrics = rng.sample(["accuracy", "correct", "kept", "masked_accuracy", "per_example",
                            "max_loss", "loss_variance"], rng.choice([0, 1, 2, 3]))
    s.optimizer = rng.choice(["sgd", "momentum", "adam", "adamw", "clipped_adam"])
    # Drawn last, so that the draws before are those of earlier campaigns' seeds.
    if rng.random() < 0.4:
        s.metrics.append(rng.choice(["perplexity", "logit_norm", "loss_spread", "normalized_norm"]))
    s.embedded = rng.random() < 0.3
    s.block = rng.choice(["plain", "plain", "residual", "layer_norm", "attention"])
    s.description = {"tokens": s.tokens, "layers": s.layers, "width": s.width, "terms": s.terms,
                     "penalty": s.penalty, "outer": s.outer, "metrics": s.metrics,
                     "gradient": s.gradient, "optimizer": s.optimizer, "embedded": s.embedded,
                     "block": s.block}
    return s
