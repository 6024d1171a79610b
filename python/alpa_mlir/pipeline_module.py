"""Structure of a pipelined module for the runtime: the programs @main calls
(stage functions and lowered transfer programs, each extracted into a module of
its own), the meshes, and @main as a list of steps.

Contract with `alpa-lower-transfers`: a transfer is ``func.call @transfer_<k>(%v)``
of a private identity function (logical types) carrying ``alpa.send_program =
@transfer_<k>_send``, optionally ``alpa.gather_program = @transfer_<k>_gather``,
and the move's ``alpa.src_devices``, ``alpa.dst_devices``, ``alpa.src_sharding``,
``alpa.dst_sharding`` (``#sdy.sharding`` on the stage meshes). The send and
gather programs and the stage functions carry ``alpa.devices``: the global
devices of their partitions."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .module_info import TensorSpec, jax_ir, parse_tensor_type

UNLOWERED = "alpa.transfer"


class PipelineError(ValueError):
    """The module cannot be run by the pipeline runtime."""


@dataclass
class Program:
    name: str
    kind: str  # "stage", "send" or "gather"
    devices: list[int]
    module_text: str  # standalone module whose @main is the program
    inputs: list[TensorSpec]
    outputs: list[TensorSpec]
    attrs: dict[str, str] = field(default_factory=dict)  # alpa.* attributes as text

    @property
    def shardy(self) -> bool:
        return self.kind == "stage"

    def int_list(self, key: str) -> list[int]:
        return [int(x) for x in re.findall(r"-?\d+", self.attrs[key].split(":", 1)[1])]


@dataclass
class Transfer:
    name: str
    send: str
    gather: str | None
    attrs: dict[str, str]  # alpa.* attributes of the identity function, as text

    def int_list(self, key: str) -> list[int]:
        return [int(x) for x in re.findall(r"-?\d+", self.attrs[key].split(":", 1)[1])]


@dataclass
class Step:
    kind: str  # "call", "transfer", "op" or "return"
    op_name: str
    operands: list[str]
    results: list[str]
    callee: str | None = None
    op: object = None  # the ir.Operation, for "op" steps
    result_specs: list[TensorSpec] = field(default_factory=list)


@dataclass
class Mesh:
    axes: list[str]
    sizes: list[int]


@dataclass
class PipelineModule:
    programs: dict[str, Program]
    transfers: dict[str, Transfer]
    meshes: dict[str, Mesh]
    steps: list[Step]
    inputs: list[TensorSpec]
    outputs: list[TensorSpec]
    context: object
    arg_names: list[str]
    ir_module: object  # owns the ops of the steps


_WIDE_TYPES = ("i64", "ui64", "f64", "complex<f64>")


def wide_types(module: PipelineModule) -> list[str]:
    """The 64-bit element types of the values the runtime holds (@main's and its
    programs' arguments and results): JAX keeps them only with jax_enable_x64."""
    specs = [*module.inputs, *module.outputs]
    for prog in module.programs.values():
        specs += [*prog.inputs, *prog.outputs]
    return sorted({s.mlir_type for s in specs if s.mlir_type in _WIDE_TYPES})


def _sym(op, key="sym_name") -> str:
    ir = jax_ir().ir
    return ir.StringAttr(op.attributes[key]).value


def _attr_dict(op) -> dict[str, str]:
    names = [a if isinstance(a, str) else a.name for a in op.attributes]
    return {n: str(op.attributes[n]) for n in names if n.startswith("alpa.")}


def _specs(types) -> list[TensorSpec]:
    return [TensorSpec(*parse_tensor_type(str(t))) for t in types]


_MESH = re.compile(r'"(\w+)"\s*=\s*(\d+)')


def _standalone(func_op, mesh_ops: dict[str, str], funcs: dict[str, object],
                num_partitions: int) -> str:
    """The function as @main of its own module, with the meshes and functions
    it refers to."""
    ir = jax_ir().ir
    own = func_op.get_asm(print_generic_op_form=True)
    seen, order, todo = set(), [], [own]
    while todo:
        text = todo.pop()
        for callee in re.findall(r"callee = @([\w.$-]+)", text):
            if callee not in seen and callee in funcs:
                seen.add(callee)
                body = funcs[callee].get_asm(print_generic_op_form=True)
                order.append(body)
                todo.append(body)
    used = "\n".join([own, *order])
    meshes = [m for name, m in mesh_ops.items() if re.search(rf"@{name}\b", used)]
    text = (f"module @program attributes {{mhlo.num_partitions = {num_partitions} : i32, "
            f"mhlo.num_replicas = 1 : i32}} {{\n" + "\n".join([*meshes, own, *order]) + "\n}\n")
    with func_op.context:
        module = ir.Module.parse(text)
        main = module.body.operations[len(meshes)].operation
        main.attributes["sym_name"] = ir.StringAttr.get("main")
        main.attributes["sym_visibility"] = ir.StringAttr.get("public")
        return module.operation.get_asm(print_generic_op_form=True)


def _symbol(text: str) -> str:
    return text.strip().lstrip("@")


def _transfer(name, attrs, funcs, attrs_of, add_program) -> Transfer:
    for key in ("alpa.src_devices", "alpa.dst_devices", "alpa.src_sharding",
                "alpa.dst_sharding"):
        if key not in attrs:
            raise PipelineError(f"transfer @{name} has no {key}")
    send = _symbol(attrs["alpa.send_program"])
    gather = _symbol(attrs["alpa.gather_program"]) if "alpa.gather_program" in attrs else None
    add_program(send, "send")
    if gather:
        add_program(gather, "gather")
    return Transfer(name, send, gather, attrs)


@dataclass
class ModuleFunctions:
    """A parsed planned module: its functions and ``sdy.mesh`` ops by symbol."""
    ctx: object
    module: object
    funcs: dict[str, object]
    mesh_ops: dict[str, str]  # generic form, copied into each program's module
    meshes: dict[str, Mesh]


def parse_functions(text: str) -> ModuleFunctions:
    """Parses a planned module (in a context of its own) and indexes its
    functions and meshes; needs a public or private ``@main``."""
    jmlir = jax_ir()
    ir = jmlir.ir
    ctx = jmlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    with ctx:
        try:
            module = ir.Module.parse(text)
        except Exception as e:  # noqa: BLE001 - parse errors become clean runtime errors
            raise PipelineError(f"module does not parse: {e}") from e
        funcs, mesh_ops, meshes = {}, {}, {}
        for op in module.body.operations:
            op = op.operation
            if op.name == "func.func":
                funcs[_sym(op)] = op
            elif op.name == "sdy.mesh":
                name = _sym(op)
                mesh_ops[name] = op.get_asm(print_generic_op_form=True)
                found = _MESH.findall(str(op.attributes["mesh"]))
                meshes[name] = Mesh([a for a, _ in found], [int(s) for _, s in found])
        if "main" not in funcs:
            raise PipelineError("module has no @main function")
    return ModuleFunctions(ctx, module, funcs, mesh_ops, meshes)


def extract_program(parsed: ModuleFunctions, name: str, kind: str) -> Program:
    """``@name`` as a module of its own (with the meshes and functions it uses)
    on its ``alpa.devices``."""
    ir = jax_ir().ir
    f = parsed.funcs.get(name)
    attrs = _attr_dict(f) if f is not None else {}
    if "alpa.devices" not in attrs:
        raise PipelineError(f"@{name} is missing or has no alpa.devices")
    with parsed.ctx:
        ftype = ir.FunctionType(ir.TypeAttr(f.attributes["function_type"]).value)
        prog = Program(name, kind, [], "", _specs(ftype.inputs), _specs(ftype.results), attrs)
        prog.devices = prog.int_list("alpa.devices")
        prog.module_text = _standalone(f, parsed.mesh_ops, parsed.funcs, len(prog.devices))
    return prog


def load_pipeline(text: str) -> PipelineModule:
    ir = jax_ir().ir
    parsed = parse_functions(text)
    ctx, module, funcs, meshes = parsed.ctx, parsed.module, parsed.funcs, parsed.meshes
    with ctx:
        main = funcs["main"]
        if any(op.operation.name == UNLOWERED for op in main.regions[0].blocks[0].operations):
            raise PipelineError("@main still holds alpa.transfer markers: run "
                                "alpa-lower-transfers (after alpa-cross-mesh-resharding) first")
        attrs_of = {name: _attr_dict(f) for name, f in funcs.items()}
        state = ir.AsmState(main)
        block = main.regions[0].blocks[0]
        arg_names = [a.get_name(state) for a in block.arguments]
        steps, programs, transfers = [], {}, {}

        def add_program(name: str, kind: str) -> None:
            if name not in programs:
                programs[name] = extract_program(parsed, name, kind)

        for op in block.operations:
            op = op.operation
            operands = [v.get_name(state) for v in op.operands]
            results = [v.get_name(state) for v in op.results]
            if op.name == "func.return":
                steps.append(Step("return", op.name, operands, results))
                continue
            if "callee" not in op.attributes:
                steps.append(Step("op", op.name, operands, results, op=op))
                continue
            callee = str(op.attributes["callee"]).lstrip("@")
            fattrs = attrs_of.get(callee, {})
            specs = _specs([v.type for v in op.results])
            if "alpa.send_program" in fattrs:
                if callee not in transfers:
                    transfers[callee] = _transfer(callee, fattrs, funcs, attrs_of, add_program)
                steps.append(Step("transfer", op.name, operands, results, callee=callee,
                                  result_specs=specs))
                continue
            if "alpa.devices" not in fattrs:
                raise PipelineError(f"@main calls @{callee}, which is no stage function (no "
                                    "alpa.devices): run alpa-auto-shard first")
            add_program(callee, "stage")
            steps.append(Step("call", op.name, operands, results, callee=callee,
                              result_specs=specs))
        if not any(p.kind == "stage" for p in programs.values()):
            raise PipelineError("@main calls no stage function (functions with alpa.devices): "
                                "run alpa-auto-shard first")
        ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
        return PipelineModule(programs, transfers, meshes, steps, _specs(ftype.inputs),
                              _specs(ftype.results), ctx, arg_names, module)


def sdy_dims(sharding: str) -> tuple[str, list[list[str]]]:
    """(mesh name, axes per dimension) of ``#sdy.sharding<@mesh, [{"x"}, {}]>``."""
    m = re.fullmatch(r'#sdy\.sharding<@([\w.$-]+),\s*\[(.*)\](.*)>', sharding.strip())
    if not m:
        raise PipelineError(f"cannot read sharding {sharding}")
    if m.group(3).strip():
        raise PipelineError(f"replicated/unreduced axes are not supported: {sharding}")
    dims = []
    for d in re.findall(r"\{([^}]*)\}", m.group(2)):
        if ":" in d:
            raise PipelineError(f"sub-axes are not supported: {sharding}")
        dims.append(re.findall(r'"(\w+)"', d))
    return m.group(1), dims
