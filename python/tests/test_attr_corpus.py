"""The attribute-forms corpus read by the Rust test
``attr_text::tests::reads_every_form_jaxlib_prints`` is what the pinned
jaxlib's StableHLO printer writes today (see ``alpa_mlir.attr_corpus``)."""

from __future__ import annotations

from alpa_mlir import attr_corpus as C


def test_committed_corpus_is_what_jaxlib_prints():
    fresh = C.dumps(C.generate())
    committed = C.CORPUS_PATH.read_text()
    assert committed == fresh, (
        f"{C.CORPUS_PATH} differs from what jaxlib prints now: "
        "run `python -m alpa_mlir.attr_corpus --write` and check the Rust test")


def test_corpus_covers_printed_defaults():
    """The printer's omissions are in the corpus: zero integers and empty
    lists left out, and the bare all-default structs."""
    rows = C.generate()
    texts = {r["text"] for r in rows}
    assert {"#stablehlo.gather<>", "#stablehlo.scatter<>", "#stablehlo.dot<>"} <= texts
    zero_ivd = [r for r in rows if r["attr"] in ("gather", "scatter")
                and r["fields"]["index_vector_dim"] == 0 and r["text"] != f"#stablehlo.{r['attr']}<>"]
    assert zero_ivd and all("index_vector_dim" not in r["text"] for r in zero_ivd)
    spatial = {len(r["fields"]["input_spatial_dimensions"]) for r in rows if r["attr"] == "conv"}
    assert spatial == {0, 1, 2, 3}
    assert {r["attr"] for r in rows} == {"dot", "gather", "scatter", "conv", *C.ENUMS}
