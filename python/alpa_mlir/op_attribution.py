"""Which op of a plan each XLA collective was emitted for.

:func:`tag_ops` gives every top-level op ``%N`` of ``@main`` the location ``loc("alpa_op_N")``
(N = the op's index in the report) before XLA compiles the module; XLA keeps it as HLO metadata
``op_name`` (not for combined all-reduces), which :func:`attribute_to_ops` reads back. XLA may
attribute a shared resharding to another consumer than the report does.
"""

from __future__ import annotations

import re

from .hlo import op_tags

# `%N = "op"` or `%N:K = "op"` at the top level of @main
_SSA_DEF = re.compile(r'^    %(\d+)(?::\d+)?\s*=\s*"?([\w.]+)"?')


def _is_top(line: str) -> bool:
    """A line that starts an op at the top level of @main (4-space indent; not
    a block label ``^bb`` or the ``})`` closing a region)."""
    return len(line) > 4 and line.startswith("    ") and line[4] not in " ^})"


def tag_ops(module_text: str) -> tuple[str, dict[int, str]]:
    """Give every top-level op ``%N = ...`` of ``@main`` the location
    ``loc("alpa_op_N")`` (a pure metadata change) so that XLA's HLO metadata
    (``op_name``, with GSPMD and Shardy alike) names the op each collective
    was emitted for; ``N`` is the op's SSA number, which is its index in the
    report. Returns (text, {N: op name}); the text is unchanged (and the map
    empty) when the module already carries locations or @main is not in the
    expected printed form."""
    if "loc(" in module_text:
        return module_text, {}
    lines = module_text.splitlines()
    start = next((i for i, ln in enumerate(lines) if "func.func" in ln and "@main(" in ln), None)
    if start is None:
        return module_text, {}
    last: tuple[int, int] | None = None  # (line index, op number) of the open op
    names: dict[int, str] = {}

    def close(end: int):
        if last is not None:
            i, n = last
            lines[end] = lines[end] + f' loc("alpa_op_{n}")'

    i = start + 1
    while i < len(lines):
        ln = lines[i]
        if _is_top(ln):  # an op at the top level of @main
            close(i - 1)
            last = None
            m = _SSA_DEF.match(ln)
            if m:
                last = (i, int(m.group(1)))
                names[int(m.group(1))] = m.group(2)
        elif ln.startswith("  }") or ln.strip() == "}":
            close(i - 1)
            break
        i += 1
    return "\n".join(lines) + ("\n" if module_text.endswith("\n") else ""), names


def attribute_to_ops(actual: list[dict], hlo_text: str, names: dict[int, str]) -> None:
    """Set ``op`` (the report's op index) and ``op_name`` on XLA collectives
    whose HLO metadata carries a tag of :func:`tag_ops`. Collectives XLA made
    up itself or merged (the all-reduce combiner drops metadata) keep None."""
    tags = op_tags(hlo_text)
    for c in actual:
        # The all-reduce combiner keeps one member's metadata: unreliable.
        op = None if c.get("combined") else tags.get(c["name"])
        c["op"] = op
        c["op_name"] = names.get(op) if op is not None else None
