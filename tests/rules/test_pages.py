"""Every example on every rule page behaves as the page says."""

from __future__ import annotations

import pytest

from replaylint.api.testing import expectations, page_examples, run_example
from replaylint.core.codes import Code
from replaylint.core.docs import page
from replaylint.versioning.examples import is_pair, run_pair

CASES = [
    (code, index, example)
    for code in Code
    for index, example in enumerate(page_examples(page(code)))
]


@pytest.mark.parametrize(
    "code,index,example", CASES, ids=[f"{c.value}-{e.section}-{i}" for c, i, e in CASES]
)
def test_page_example(code: Code, index: int, example) -> None:
    # A versioning page's example is two versions: its `base/` and `new/` blocks.
    missing, unexpected = run_pair(example.files) if is_pair(example.files) else run_example(example)
    if example.section == "Use instead":
        assert not unexpected, unexpected
    assert not missing and not unexpected, (missing, unexpected)


@pytest.mark.parametrize("code", list(Code), ids=lambda c: c.value)
def test_page_has_examples_on_both_sides(code: Code) -> None:
    sections = {e.section for e in page_examples(page(code))}
    assert {"Example", "Use instead"} <= sections
    examples = [e for e in page_examples(page(code)) if e.section == "Example"]
    assert any(expectations(text, name) for e in examples for name, text in e.files.items())
