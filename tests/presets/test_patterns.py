"""Patterns compile only for a path that begins as one of their sources must: the literal start
taken from each source is what every full match of it begins with, so skipping the compile for
any other path never changes an answer."""

from __future__ import annotations

import re

import pytest

from replaylint.presets.patterns import Patterns, literal_start


@pytest.mark.parametrize(
    ("source", "start"),
    [
        (r"temporalio\.workflow\.defn", "temporalio.workflow.defn"),
        (r"dbos\.(?:\w+\.)*DBOS\.step", "dbos."),
        (r"restate\.\w+\(\)\.handler", "restate."),
        (r"agent_framework\.(?:\w+\.)*RunContext\(\)\.run", "agent_framework."),
        (r"pkg\(\)\.run", "pkg().run"),
        (r"ab?c", "a"),  # a quantifier takes back the character before it
        (r"a\.?b", "a"),
        (r"ab*", "a"),
        (r"ab{2}", "a"),
        (r"x[.]y", "x"),
        (r"a|b", ""),  # an alternation of the whole: nothing is certain
        (r"(?:x)|yz", ""),
        (r"(?:a|b)c", ""),
        (r"[|]a|b", ""),
        (r"a(?:b|c)", "a"),  # an alternation inside a group keeps what comes before it
        (r"\w+\.validator", ""),
        (r"(?i:abc)d", ""),
    ],
)
def test_literal_start(source: str, start: str) -> None:
    assert literal_start(source) == start


@pytest.mark.parametrize(
    "path",
    [
        "temporalio.workflow.defn",
        "temporalio.workflow.defnx",
        "dbos.DBOS.step",
        "dbos._dbos.DBOS.step",
        "x.dbos.DBOS.step",
        "ac",
        "abc",
        "bc",
        "b",
        "yz",
        "x.validator",
        "ABC",
        "",
    ],
)
def test_matches_answers_what_the_whole_pattern_answers(path: str) -> None:
    sources = (
        r"temporalio\.workflow\.defn",
        r"dbos\.(?:\w+\.)*DBOS\.step",
        r"ab?c",
        r"a|b",
        r"(?:x)|yz",
        r"\w+\.validator",
        r"(?i:abc)",
    )
    for chosen in [sources, sources[:2], sources[2:3]]:
        whole = re.compile("|".join(f"(?:{s})" for s in chosen))
        assert Patterns(chosen).matches(path) == (whole.fullmatch(path) is not None)
