"""Runtime of a lowered pipelined module (`alpa-auto-shard` + `alpa-lower-transfers`).

Every program @main calls (stage functions: Shardy; transfer programs: GSPMD)
is compiled once as its own XLA executable on exactly its ``alpa.devices``;
@main then runs op by op: calls run their executables, other ops run as jitted
jax.lax computations on the devices of their operands. Data moves between
devices only inside the transfer programs. Under ``jax.distributed`` each
process runs the programs that touch its devices.

    python -m alpa_mlir.pipeline run PLAN.mlir [--devices 8] [--inputs SEED]
                                     [--reference STEP.mlir] [--json]
    python -m alpa_mlir.pipeline launch --processes 2 --devices-per-process 4 PLAN.mlir ...
"""

from __future__ import annotations

import sys
import time

import numpy as np

from . import main_ops
from .pipeline_module import PipelineError, Program, Transfer, load_pipeline, wide_types
from .placement import (Remote, assemble, devices_of, is_local, local_tiles, place,
                        reshard_in_place, sdy_sharding, stack_blocks, unstack_blocks)


def progress(msg: str) -> None:
    import jax

    print(f"[pipeline p{jax.process_index()}] {msg}", file=sys.stderr, flush=True)


def executable_sharding(compiled, op_shardings, i: int):
    """The i-th parameter/output sharding of an executable; a one-device
    executable (no SPMD partitioning) reports none: its values live whole on its
    device."""
    from jax._src.sharding_impls import GSPMDSharding
    from jax.sharding import SingleDeviceSharding

    if op_shardings is None:
        return SingleDeviceSharding(compiled.devices[0])
    return GSPMDSharding(compiled.devices, op_shardings[i])


def global_outputs(compiled, per_output: list, specs) -> list:
    """An executable's outputs, given per output its per-device arrays, as global arrays
    with the executable's output shardings."""
    import jax

    op_shardings = compiled.executable.get_output_shardings()
    return [jax.make_array_from_single_device_arrays(
                tuple(spec.shape), executable_sharding(compiled, op_shardings, i), shards)
            for i, (shards, spec) in enumerate(zip(per_output, specs))]



def _batch_dim_advice(given: tuple, expected: tuple) -> str:
    """What to do when an input's shape is off on one dim: its batch dim was not the plan's."""
    differ = [d for d, (a, b) in enumerate(zip(given, expected)) if a != b]
    if len(given) != len(expected) or len(differ) != 1:
        return ""
    d = differ[0]
    return (f" (@main takes a batch input microbatches times larger on the dim the plan splits, "
            f"and a shared input as exported; if this input's batch is its dim {d}, export it "
            f"with alpa_mlir.hints.Hint(batch_dim={d}), or Hint(batch_dim=-1) if every "
            "microbatch shares it: the alpa.batch_dim argument attribute)")


class Pipeline:
    def __init__(self, module_text: str, devices: list | None = None,
                 compiled: dict | None = None, enable_x64: bool = False):
        """``compiled``: executables shared between pipelines (plans of one
        model in several transfer modes share their stage functions), keyed by
        program text and devices; filled with what this one compiles.
        ``enable_x64``: turn on jax_enable_x64 when the module has 64-bit values
        (without it they are refused: JAX would cut them to 32 bits)."""
        import jax

        self.module = load_pipeline(module_text)
        wide = wide_types(self.module)
        if wide and not jax.config.jax_enable_x64:
            if not enable_x64:
                raise PipelineError(
                    f"the module holds 64-bit values ({', '.join(wide)}; PyTorch's int64 "
                    "labels, say), which JAX cuts to 32 bits unless jax_enable_x64 is on: "
                    "jax.config.update('jax_enable_x64', True) first, or pass enable_x64=True")
            jax.config.update("jax_enable_x64", True)
        self.all_devices = devices if devices is not None else sorted(
            jax.devices(), key=lambda d: (d.process_index, d.id))
        self.executables: dict[str, object] = {}
        self.stats = {"same_stage_reshards": 0}
        # @main's own ops, jitted once per distinct op and kept across runs
        self._jit_cache: dict[str, object] = {}
        self._step_fns: dict[int, object] = {}
        compiled = {} if compiled is None else compiled
        for prog in self.module.programs.values():
            devs = devices_of(prog.devices, self.all_devices)
            if is_local(devs):
                key = (prog.module_text, tuple(d.id for d in devs))
                if key not in compiled:
                    compiled[key] = self._compile(prog, devs)
                self.executables[prog.name] = compiled[key]

    def _compile(self, prog: Program, devs: list):
        from .xla_exec import compile_module

        t0 = time.perf_counter()
        with self.module.context:
            from jax._src.interpreters import mlir as jmlir

            module = jmlir.ir.Module.parse(prog.module_text)
            compiled = compile_module(module, len(devs), shardy=prog.shardy, devices=devs)
        progress(f"compiled {prog.kind} @{prog.name} on devices {prog.devices} "
                 f"in {time.perf_counter() - t0:.2f}s")
        return compiled

    # ------------------------------------------------------------- values

    def _param_sharding(self, compiled, i: int):
        return executable_sharding(compiled, compiled.executable.get_parameter_shardings(), i)

    def _as_param(self, value, sharding, ndim: int, where: str):
        if isinstance(value, np.ndarray):
            return place(value, sharding)
        if isinstance(value, Remote):
            raise PipelineError(f"{where}: operand is not a value on these devices")
        if value.sharding.is_equivalent_to(sharding, ndim):
            return value
        if set(value.sharding.device_set) != set(sharding.device_set):
            raise PipelineError(f"{where}: operand lives on other devices "
                                f"({sorted(d.id for d in value.sharding.device_set)}); a stage "
                                "crossing needs a transfer")
        resharded = reshard_in_place(value, sharding)
        if resharded is None:
            raise PipelineError(f"{where}: operand is laid out as {value.sharding}, the program "
                                f"expects {sharding}: that moves data between the stage's "
                                "devices, which only transfer programs do")
        self.stats["same_stage_reshards"] += 1
        return resharded

    def _outputs(self, compiled, results, specs):
        return global_outputs(compiled, results.disassemble_into_single_device_arrays(), specs)

    # ------------------------------------------------------------- steps

    def _run_stage(self, prog: Program, args: list):
        compiled = self.executables[prog.name]
        params = [self._as_param(a, self._param_sharding(compiled, i), len(s.shape),
                                 f"@{prog.name} argument {i}")
                  for i, (a, s) in enumerate(zip(args, prog.inputs))]
        return self._outputs(compiled, compiled.executable.execute_sharded(params), prog.outputs)

    def _run_blocks(self, prog: Program, tiles: dict, dtype) -> dict:
        """Run a send or gather program on per-device tiles; its result tiles."""
        if prog.name not in self.executables:
            return {}
        compiled = self.executables[prog.name]
        devs = devices_of(prog.devices, self.all_devices)
        arg = stack_blocks(tiles, devs, prog.inputs[0].shape[1:], dtype,
                           self._param_sharding(compiled, 0))
        (result,) = self._outputs(compiled, compiled.executable.execute_sharded([arg]),
                                  prog.outputs)
        return unstack_blocks(result, prog.outputs[0].shape[1:])

    def _run_transfer(self, transfer: Transfer, value, spec):
        src = devices_of(transfer.int_list("alpa.src_devices"), self.all_devices)
        dst = devices_of(transfer.int_list("alpa.dst_devices"), self.all_devices)
        if isinstance(value, np.ndarray):
            value = place(value, sdy_sharding(transfer.attrs["alpa.src_sharding"],
                                              self.module.meshes, src, value.ndim))
        tiles = {} if isinstance(value, Remote) else local_tiles(value)
        tiles = self._run_blocks(self.module.programs[transfer.send], tiles, spec.np_dtype)
        tiles = {d: t for d, t in tiles.items() if d in dst}
        if transfer.gather:
            tiles = self._run_blocks(self.module.programs[transfer.gather], tiles, spec.np_dtype)
        if not is_local(dst):
            return Remote(spec.shape, spec.np_dtype, frozenset(dst))
        sharding = sdy_sharding(transfer.attrs["alpa.dst_sharding"], self.module.meshes, dst,
                                len(spec.shape))
        return assemble(tiles, spec.shape, sharding)

    def _run_op(self, step, args):
        import jax

        op = step.op
        if op.name == "stablehlo.constant":
            return [main_ops.constant_value(op)]
        fn = self._step_fns.get(id(step))
        if fn is None:
            key = self._op_key(op)
            if key not in self._jit_cache:
                self._jit_cache[key] = jax.jit(main_ops.op_function(op))
            fn = self._step_fns[id(step)] = self._jit_cache[key]
        devices = set()
        for a in args:
            if isinstance(a, Remote):
                devices |= set(a.devices)
            elif not isinstance(a, np.ndarray):
                devices |= set(a.sharding.device_set)
        if not devices:  # host values: computed on the host CPU, stay host values
            return [np.asarray(fn(*args))]
        if not is_local(devices):
            shape = jax.eval_shape(fn, *[jax.ShapeDtypeStruct(a.shape, a.dtype) for a in args])
            return [Remote(tuple(shape.shape), shape.dtype, frozenset(devices))]
        return [fn(*args)]

    @staticmethod
    def _op_key(op) -> str:
        text = op.get_asm(print_generic_op_form=True)
        return text.split("=", 1)[-1].split("(", 1)[-1] + op.name

    # ------------------------------------------------------------- driver

    def run_values(self, inputs) -> list:
        """Run @main; returns its results as held by this process (numpy host
        values, jax arrays, or Remote placeholders)."""
        mod = self.module
        if len(inputs) != len(mod.inputs):
            raise PipelineError(f"@main takes {len(mod.inputs)} inputs, {len(inputs)} given")
        env = {}
        for name, x, spec in zip(mod.arg_names, inputs, mod.inputs):
            x = np.asarray(x)
            if tuple(x.shape) != spec.shape:
                raise PipelineError(f"input {name} is {x.shape}, @main expects {spec.shape}"
                                    + _batch_dim_advice(x.shape, spec.shape))
            env[name] = x.astype(spec.np_dtype, copy=False)
        calls = sum(1 for s in mod.steps if s.kind in ("call", "transfer"))
        done = 0
        for step in mod.steps:
            args = [env[o] for o in step.operands]
            if step.kind == "return":
                return args
            if step.kind == "op":
                outs = self._run_op(step, args)
            elif step.kind == "transfer":
                outs = [self._run_transfer(mod.transfers[step.callee], args[0],
                                           step.result_specs[0])]
                done += 1
                progress(f"{done}/{calls} transfer @{step.callee}")
            else:
                prog = mod.programs[step.callee]
                if prog.name in self.executables:
                    outs = self._run_stage(prog, args)
                else:
                    owners = frozenset(devices_of(prog.devices, self.all_devices))
                    outs = [Remote(s.shape, s.np_dtype, owners) for s in prog.outputs]
                done += 1
                progress(f"{done}/{calls} stage @{prog.name}")
            env.update(zip(step.results, outs))
        raise PipelineError("@main has no return")

    def run(self, inputs) -> list[np.ndarray]:
        """Run on this process's devices (single controller): numpy outputs."""
        outs = []
        for v in self.run_values(inputs):
            if isinstance(v, Remote):
                raise PipelineError("an output is not held by this process")
            outs.append(np.asarray(v))
        return outs



def held_parts(value) -> tuple[np.ndarray, np.ndarray] | None:
    """(array, mask of the elements this process holds) of an output, or None."""
    if isinstance(value, np.ndarray):
        return value, np.ones(value.shape, bool)
    if isinstance(value, Remote):
        return None
    full = np.zeros(value.shape, value.dtype)
    mask = np.zeros(value.shape, bool)
    for shard in value.addressable_shards:
        full[shard.index] = np.asarray(shard.data)
        mask[shard.index] = True
    return full, mask


if __name__ == "__main__":
    from .pipeline_cli import main

    sys.exit(main())
