"""Issue 4, "@main computes what the original global-batch step computes".

The train step is exported at microbatch size; `alpa-inter-op-stage` slices it into
per-stage forward/backward/apply functions and rewrites `@main` to take the global
batch (B microbatches), run the schedule with gradient accumulation and apply once.
Run on one device with XLA (placement ignored, `transfers=false` so no `alpa.transfer`
markers), its outputs must match the same model exported at the global batch and run
on the same inputs.

Models whose math couples the examples of a batch (BatchNorm statistics in
Wide-ResNet) compute something else per microbatch, as under any gradient accumulation;
they are not compared here. MoE's gating groups couple the tokens of a group only (expert
capacity, the positions in each expert's buffer, the load-balancing loss's means): with a
group size that divides the microbatch's tokens, every group of the global batch is a group
of one microbatch, and the pipelined step is the global one. The planner warns about both
steps on guesses the microbatch's export cannot settle: with groups of two examples (here one
group per microbatch), that the examples meet each other at the cumulative sum of the tokens'
positions in each expert's buffer (whether the group size or their number is fixed); with groups
of one, that a constant factor may count the microbatch's examples or their elements. The
comparison shows the plans run them exactly.
"""

from __future__ import annotations

import pytest

from alpa_mlir.input_domains import make_inputs
from alpa_mlir.module_info import parse_module
from alpa_mlir.numerics import compare_step, mismatched_outputs
from alpa_mlir.xla_exec import compile_module, execute
from pipeline_fixtures import export_step as _export, pipeline as _pipeline

CASES = [
    # (model, preset, microbatch overrides, microbatches, cluster, layers)
    ("mlp", "alpa-test", {"batch": 16}, 4, "p3.16xlarge-x1", 3),
    ("mlp", "alpa-test", {"batch": 8}, 2, "p3.16xlarge-x1", 6),
    ("gpt", "tiny", {"batch": 2}, 4, "p3.16xlarge-x1", 4),
    # Gating groups of one example (16 tokens) with top-2 routing, of two examples with top-1.
    ("moe", "tiny", {"batch": 4, "group_size": 16}, 2, "p3.16xlarge-x1", 4),
    ("moe", "tiny", {"batch": 4, "group_size": 32, "top_k": 1}, 2, "p3.16xlarge-x1", 4),
]


@pytest.mark.parametrize("model,preset,micro,microbatches,cluster,layers", CASES,
                         ids=[f"{c[0]}-B{c[3]}-L{c[5]}" + (f"-G{c[2]['group_size']}" if "group_size" in c[2] else "")
                              for c in CASES])
def test_pipelined_main_matches_the_global_batch_step(model, preset, micro, microbatches,
                                                      cluster, layers, tmp_path):
    micro_text = _export(model, preset, micro)
    global_overrides = dict(micro, batch=micro["batch"] * microbatches)
    global_text = _export(model, preset, global_overrides)
    pipelined = _pipeline(micro_text, tmp_path,
                          f"cluster={cluster} microbatches={microbatches} layers={layers} "
                          f"transfers=false time-limit=10")
    assert "call @stage0_forward" in pipelined
    stages = pipelined.count("_forward(")
    assert stages >= 2, "the plan should use several stages"

    ref = parse_module(global_text)
    got = parse_module(pipelined)
    assert [i.shape for i in got.inputs] == [i.shape for i in ref.inputs]
    inputs = make_inputs(ref.inputs, seed=0)
    ref_out = execute(compile_module(ref.module, 1), inputs, [o.shape for o in ref.outputs])
    got_out = execute(compile_module(got.module, 1), inputs, [o.shape for o in got.outputs])
    cmp = compare_step(ref, inputs, got_out, ref_out)
    assert cmp["match"], "\n".join(mismatched_outputs(cmp))


def test_transfers_mark_every_stage_crossing(tmp_path):
    text = _pipeline(_export("mlp", "alpa-test", {"batch": 8}), tmp_path,
                     "cluster=p3.16xlarge-x1 microbatches=2 layers=3 time-limit=10")
    assert "alpa.transfer" in text
    for line in text.splitlines():
        if "alpa.transfer" in line:
            assert "src_devices" in line and "dst_devices" in line and "src_stage" in line
