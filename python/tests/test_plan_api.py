"""`alpa_mlir.plan.intra_op_plan`: a step and example shapes in, NamedShardings out.

On the MLP and GPT train steps (the fixtures' models, from ShapeDtypeStructs), on a 2x4 mesh of
8 virtual CPU devices:

* the shardings are the plan: for every argument they split the same dimensions over the same
  mesh axes as the pass's report says (an independent record of the plan), and the plan is
  not trivially replicated;
* `jax.jit(step, in_shardings=..., out_shardings=...)` compiles and runs with them, its
  arguments and results lie as planned, and every output matches the step run on one device.

alpa-opt comes from `$ALPA_OPT` (default target/release/alpa-opt); without it the tests
skip, unless `ALPA_REQUIRE_OPT=1`.
"""

from __future__ import annotations


import pytest

from alpa_mlir.alpa_opt import AlpaOptError
from alpa_mlir.input_domains import make_inputs
from alpa_mlir.module_info import parse_module
from alpa_mlir.numerics import compare_outputs
from pipeline_fixtures import alpa_opt

CASES = {"mlp": ("mlp", "alpa-test"), "gpt": ("gpt", "tiny")}


_PLANS: dict = {}


def _planned(case: str):
    """(train step, plan) of a case, planned once per session."""
    from alpa_mlir import models
    from alpa_mlir.plan import intra_op_plan

    if case not in _PLANS:
        model, preset = CASES[case]
        step = models.MODELS[model](preset=preset)
        _PLANS[case] = step, intra_op_plan(step.step_fn, *step.args, mesh_shape=(2, 4))
    return _PLANS[case]


def _example_inputs(step):
    """Seeded inputs in each argument's domain (token ids below the vocabulary, Adam's second
    moment non-negative), as the pytree of the step's arguments."""
    import jax

    from alpa_mlir.export import export

    info = parse_module(export(step.step_fn, *step.args, hints=step.hints, debug_info=False))
    flat = make_inputs(info.inputs, seed=0)
    return jax.tree_util.tree_unflatten(jax.tree_util.tree_structure(step.args), flat)


def _axis_indices(sharding) -> list[tuple[int, ...]]:
    names = sharding.mesh.axis_names
    dims = []
    for entry in sharding.spec:
        axes = () if entry is None else (entry,) if isinstance(entry, str) else tuple(entry)
        dims.append(tuple(names.index(a) for a in axes))
    return dims


@pytest.mark.parametrize("case", sorted(CASES))
def test_shardings_are_the_reported_plan(case):
    import jax

    alpa_opt()
    step, plan = _planned(case)
    assert plan.mesh.devices.shape == (2, 4)
    flat = jax.tree_util.tree_leaves(plan.in_shardings)
    assert len(flat) == len(plan.report["argument_axes"])
    for i, (sharding, dims) in enumerate(zip(flat, plan.report["argument_axes"])):
        expected = [tuple(axes) for axes in dims]
        got = _axis_indices(sharding)
        got += [()] * (len(expected) - len(got))
        assert got == expected, (f"argument {i}: {sharding.spec} but the report says "
                                 f"{plan.report['arguments'][i]}")
    assert any(not s.is_fully_replicated for s in flat), "every argument replicated"
    outs = jax.tree_util.tree_leaves(plan.out_shardings)
    assert len(outs) == len(jax.tree_util.tree_leaves(jax.eval_shape(step.step_fn, *step.args)))


@pytest.mark.parametrize("case", sorted(CASES))
def test_jit_with_the_plan_matches_one_device(case):
    import jax
    import numpy as np

    alpa_opt()
    step, plan = _planned(case)
    inputs = _example_inputs(step)
    one_device = jax.jit(step.step_fn.__wrapped__)(*inputs)
    sharded_step = jax.jit(step.step_fn.__wrapped__, in_shardings=plan.in_shardings,
                           out_shardings=plan.out_shardings)
    placed = jax.device_put(inputs, plan.in_shardings)
    sharded = sharded_step(*placed)

    for x, want in zip(jax.tree_util.tree_leaves(placed),
                       jax.tree_util.tree_leaves(plan.in_shardings)):
        assert x.sharding.is_equivalent_to(want, x.ndim)
    got_leaves = jax.tree_util.tree_leaves(sharded)
    for x, want in zip(got_leaves, jax.tree_util.tree_leaves(plan.out_shardings)):
        assert len(x.sharding.device_set) == 8
        assert x.sharding.is_equivalent_to(want, x.ndim)
    cmp = compare_outputs([np.asarray(x) for x in got_leaves],
                            [np.asarray(x) for x in jax.tree_util.tree_leaves(one_device)])
    bad = [row for row in cmp["outputs"] if not row["match"]]
    assert cmp["match"], f"{len(bad)} outputs differ, first: {bad[:1]}"


def test_mesh_larger_than_the_devices_is_refused():
    import jax

    from alpa_mlir import models
    from alpa_mlir.plan import intra_op_plan

    step = models.MODELS["mlp"](preset="alpa-test")
    with pytest.raises(ValueError, match="needs two positive dims and 16 devices; 8 given"):
        intra_op_plan(step.step_fn, *step.args, mesh_shape=(4, 4), devices=jax.devices()[:8])


def test_a_pass_error_comes_back_with_its_diagnostic():
    from alpa_mlir import models
    from alpa_mlir.plan import intra_op_plan

    alpa_opt()
    step = models.MODELS["mlp"](preset="alpa-test")
    with pytest.raises(AlpaOptError, match="unknown cluster `no-such-cluster`"):
        intra_op_plan(step.step_fn, *step.args, cluster="no-such-cluster")
