"""A JAX user's way in: Alpa's intra-op plan for a step, as ``jax.sharding.NamedSharding``s.

::

    plan = intra_op_plan(train_step, params, opt_state, batch, mesh_shape=(2, 4))
    step = jax.jit(train_step, in_shardings=plan.in_shardings,
                   out_shardings=plan.out_shardings)

The step is exported to StableHLO (examples may be arrays or ``jax.ShapeDtypeStruct``s),
``alpa-opt --alpa-inline --alpa-intra-op-shard`` chooses a sharding for every op with Alpa's
ILP, and the shardings it writes on the entry's arguments and results come back as
NamedShardings on a ``jax.sharding.Mesh`` of your devices, in the pytree structure of the
arguments and of the results. Under ``jax.jit`` XLA is then given the plan's shardings at the
step's boundary and propagates the interior itself; ``plan.module`` is the module with every
op's sharding pinned (run it with :mod:`alpa_mlir.run`).
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from .sdy_shardings import DimAxes, EntryShardings, read_entry_shardings


@dataclass
class IntraOpPlan:
    mesh: Any  # jax.sharding.Mesh
    in_shardings: tuple  # one pytree of NamedShardings per positional argument
    out_shardings: Any  # a pytree of NamedShardings shaped like the step's result
    report: dict  # alpa-intra-op-shard's JSON report (objective, memory, collectives, ...)
    module: str  # the exported step with the plan written on every op (Shardy)


def _partition_spec(dims: DimAxes):
    from jax.sharding import PartitionSpec

    return PartitionSpec(*(None if not axes else axes[0] if len(axes) == 1 else axes
                           for axes in dims))


def _jax_mesh(mesh_attr, devices: Sequence):
    import numpy as np
    from jax.sharding import Mesh

    ordered = [devices[i] for i in mesh_attr.device_ids]
    return Mesh(np.array(ordered, dtype=object).reshape(mesh_attr.axis_sizes),
                mesh_attr.axis_names)


def _pass_options(cluster: str | None, memory_budget: str | None,
                  options: dict[str, Any] | None) -> list[str]:
    extra = dict(options or {})
    for reserved in ("mesh", "format", "report"):
        if reserved in extra:
            raise ValueError(f"option {reserved!r} is set by intra_op_plan itself")
    if cluster is not None:
        extra["cluster"] = cluster
    if memory_budget is not None:
        extra["memory-budget"] = memory_budget
    text = lambda v: str(v).lower() if isinstance(v, bool) else str(v)  # noqa: E731
    return [f"{k}={text(v)}" for k, v in extra.items()]


def intra_op_plan(step: Callable, *args: Any, mesh_shape: Sequence[int] = (2, 4),
                  devices: Sequence | None = None, cluster: str | None = None,
                  memory_budget: str | None = None, options: dict[str, Any] | None = None,
                  alpa_opt: str | Path | None = None) -> IntraOpPlan:
    """Plan ``step(*args)`` on a ``mesh_shape`` device mesh with alpa-intra-op-shard.

    ``step`` is a function or a ``jax.jit``-wrapped one (its ``donate_argnums`` mark the state
    a train step updates; without them the pass recognises it); ``args`` are example arrays or
    ``jax.ShapeDtypeStruct``s. ``devices`` are the devices of the mesh, in order (default: the
    first ``prod(mesh_shape)`` of ``jax.devices()``). ``cluster`` (a preset such as
    ``h100-x1`` or a JSON file) costs in seconds, else abstract alpha/beta units;
    ``memory_budget`` (e.g. ``"70GiB"``) bounds per-device memory; ``options`` are further
    pass options by name (``{"time-limit": 30}``). ``alpa_opt`` defaults to
    :func:`alpa_mlir.alpa_opt.alpa_opt_path` (``$ALPA_OPT``, ``PATH``, the checkout's build).

    Raises ValueError for a mesh larger than the devices, :class:`AlpaOptError` with the
    pass's diagnostics when it fails."""
    import jax

    from .export import lower, module_to_generic_text
    from .alpa_opt import AlpaOptError, alpa_opt_path, shard_module

    mesh_shape = tuple(int(n) for n in mesh_shape)
    size = 1
    for n in mesh_shape:
        size *= n
    devices = list(jax.devices() if devices is None else devices)
    if len(mesh_shape) != 2 or size < 1 or len(devices) < size:
        raise ValueError(f"mesh {mesh_shape} needs two positive dims and {size} devices; "
                         f"{len(devices)} given")
    opt = Path(alpa_opt) if alpa_opt is not None else alpa_opt_path()
    if not opt.exists():
        raise AlpaOptError(f"alpa-opt not found at {opt}: run `cargo build --release` "
                           "or set ALPA_OPT")

    lowered = lower(step, *args)
    flat_args, args_tree = jax.tree_util.tree_flatten(tuple(args))
    with tempfile.TemporaryDirectory(prefix="alpa-plan-") as work:
        src = Path(work) / "step.mlir"
        src.write_text(module_to_generic_text(lowered.compiler_ir("stablehlo")))
        module, report, _ = shard_module(
            src, "x".join(map(str, mesh_shape)), "sdy",
            _pass_options(cluster, memory_budget, options),
            workdir=Path(work), opt=opt, retries=1)

    plan: EntryShardings = read_entry_shardings(module)
    if len(plan.arguments) != len(flat_args):
        raise ValueError(
            f"the exported step takes {len(plan.arguments)} arrays but the arguments have "
            f"{len(flat_args)} leaves: jit the step with keep_unused=True")
    if len(plan.results) != lowered.out_tree.num_leaves:
        raise ValueError(f"the exported step returns {len(plan.results)} arrays but its "
                         f"result has {lowered.out_tree.num_leaves} leaves")
    mesh = _jax_mesh(plan.mesh, devices[:size])
    named = lambda dims: jax.sharding.NamedSharding(mesh, _partition_spec(dims))  # noqa: E731
    in_shardings = jax.tree_util.tree_unflatten(args_tree, [named(d) for d in plan.arguments])
    out_shardings = jax.tree_util.tree_unflatten(lowered.out_tree,
                                                 [named(d) for d in plan.results])
    return IntraOpPlan(mesh, in_shardings, out_shardings, report, module)
