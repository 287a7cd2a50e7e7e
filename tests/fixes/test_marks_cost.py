"""The [*] marks cost one analysis of each file, whatever the number of its fixable findings:
the helpers code outside the workflow runs are found in one walk (a walk per finding made
2,000 fixable helpers take minutes), and the safe and the unsafe answers share one analysis
and, when every fix chosen is safe, one edit. The marks are those of fixing each way apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint.api import guard
from replaylint.fixes import attempts, edit, reach, unused_imports
from replaylint.fixes.data import default_data
from replaylint.parse import unvalidated

HELPERS = 40
HEADER = "import time\n\nfrom temporalio import workflow\n"
HELPER = "\n\ndef helper_{n}() -> float:\n    return time.time()\n"
# helper_0 is also run at import time: its fix is unsafe there (workflow.now() would raise).
TOP = "\n\nSTARTED = helper_0()\n"
FLOW = """

@workflow.defn
class Many:
    @workflow.run
    async def run(self, tags: set[str]) -> float:
        for tag in tags:
            pass
        return {calls}
"""


@pytest.fixture
def many(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    calls = " + ".join(f"helper_{n}()" for n in range(HELPERS))
    text = HEADER + "".join(HELPER.format(n=n) for n in range(HELPERS)) + TOP
    (tmp_path / "flow.py").write_text(text + FLOW.format(calls=calls))
    return tmp_path / "flow.py"


class _Counted:
    """Counts the instances of a class made while it is patched in."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> None:
        self.made = 0
        original = getattr(owner, name)
        counter = self

        class Counting(original):  # type: ignore[misc, valid-type]
            def __init__(self, *args: object, **kwargs: object) -> None:
                counter.made += 1
                super().__init__(*args, **kwargs)

        monkeypatch.setattr(owner, name, Counting)


def test_one_analysis_and_one_walk_for_callers_per_file(many: Path, monkeypatch) -> None:
    report = guard("flow.py")
    fixers = _Counted(monkeypatch, attempts, "ModuleFixer")
    walks: list[frozenset[str]] = []
    walk = reach._callers

    def counted(module, names):  # type: ignore[no-untyped-def]
        walks.append(names)
        return walk(module, names)

    monkeypatch.setattr(reach, "_callers", counted)
    fixable = report.fixable
    assert (fixers.made, len(walks)) == (1, 1)
    assert len(fixable.safe) == HELPERS - 1  # each helper's clock read but helper_0's
    assert len(fixable.unsafe) == 2  # helper_0's, and the set iterated (stable or sorted)


def test_the_text_marks_are_those_of_fixing_each_way(many: Path) -> None:
    text = guard("flow.py").summary().splitlines()
    headlines = [line for line in text if line.startswith("flow.py:")]
    assert headlines[:3] == [
        "flow.py:7: ADK-W003 the wall clock is used on the workflow path (time.time)",
        "flow.py:11: ADK-W003 [*] the wall clock is used on the workflow path (time.time)",
        "flow.py:15: ADK-W003 [*] the wall clock is used on the workflow path (time.time)",
    ]
    assert text[-1] == (
        f"[*] {HELPERS - 1} fixable with the `--fix` option (2 hidden fixes can be enabled "
        "with the `--unsafe-fixes` option)."
    )


def test_both_ways_at_once_answer_as_each_way_apart(many: Path) -> None:
    findings = [f for f in guard("flow.py").findings if f.fix is not None]
    module = unvalidated.parse_module(many.read_bytes())
    data = default_data()
    safe, every = attempts.fix_module_both_ways(module, findings, data)
    for (edited, fixed, code), unsafe in ((safe, False), (every, True)):
        alone, fixed_alone = attempts.fix_module(module, findings, data, unsafe=unsafe)
        assert (edited.code, fixed) == (alone.code, fixed_alone)
        assert code == edited.code  # the code it was judged by
    assert len(safe[1]) == HELPERS - 1 and len(every[1]) == HELPERS + 1


# `time` is read by the fixed call only in ONLY_READ; READ_ELSEWHERE reads it outside workflow
# code too, so no fix can leave it unused.
ONLY_READ = """\
import time

from temporalio import workflow


@workflow.defn
class Clocked:
    @workflow.run
    async def run(self) -> float:
        return time.time()
"""
READ_ELSEWHERE = ONLY_READ + "\n\nSTARTED = time.monotonic()\n"


@pytest.mark.parametrize(
    ("source", "analyses", "keeps_import"), [(ONLY_READ, 1, False), (READ_ELSEWHERE, 0, True)]
)
def test_the_edited_module_is_analysed_again_only_when_an_import_may_go_unused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str, analyses: int, keeps_import: bool
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "flow.py").write_text(source)
    findings = [f for f in guard("flow.py").findings if f.fix is not None]
    module = unvalidated.parse_module(source.encode())
    asked: list[int] = []
    original = unused_imports.used_imports

    def counted(tree, scopes=None):  # type: ignore[no-untyped-def]
        asked.append(scopes is None)  # None: the scopes of an edited module are worked out
        return original(tree, scopes)

    monkeypatch.setattr(unused_imports, "used_imports", counted)
    monkeypatch.setattr(edit, "used_imports", counted)
    edited, fixed = attempts.fix_module(module, findings, default_data(), unsafe=False)
    assert len(fixed) == 1 and "return workflow.time()" in edited.code
    assert sum(asked) == analyses
    assert ("import time" in edited.code) is keeps_import
