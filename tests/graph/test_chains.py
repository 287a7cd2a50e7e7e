"""ADK-W005 chains depend on the code, not on the order a project happened to load modules in:
a function that reaches two unsafe helpers equally soon is reported through the first it calls,
whether another workflow loaded the second one's module first (a cold run) or not (a warm run
that re-checks an edited module alone)."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint.api import run
from replaylint.index.cache import Cache
from replaylint.project.config import Resolver
from replaylint.report.selection import Selection, report_from
from replaylint.reporters import REPORTERS

FILES = {
    "u1.py": "import time\n\n\ndef f1():\n    return time.time()\n",
    "u2.py": "from datetime import datetime\n\n\ndef f2():\n    return datetime.now()\n",
    "h.py": "from u1 import f1\nfrom u2 import f2\n\n\ndef g():\n    f1()\n    f2()\n",
    # Checked before w.py (path order), it loads u2 before h.py loads u1.
    "a_first.py": (
        "from temporalio import workflow\n\nimport u2\n\n\n"
        "@workflow.defn\nclass First:\n    @workflow.run\n    async def run(self) -> int:\n"
        "        return 1\n"
    ),
    "w.py": (
        "from temporalio import workflow\n\nfrom h import g\n\n\n"
        "@workflow.defn\nclass W:\n    @workflow.run\n    async def run(self) -> int:\n"
        "        g()\n        return 1\n"
    ),
}


def _report(cache: Cache | None) -> str:
    resolver = Resolver()
    outcome = run(["."], resolver=resolver, cache=cache)
    return REPORTERS["text"](report_from(outcome, Selection(resolver)))


def _cold_then_w_edited(root: Path, files: dict[str, str]) -> str:
    """The cold report of `files`, after checking that a cached run, and a warm run once w.py
    is edited (so checked again alone), report the same as a cold run."""
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    for name, text in files.items():
        (root / name).write_text(text)
    cold = _report(None)
    cache = Cache(root / "cache")
    assert _report(cache) == cold
    with (root / "w.py").open("a") as edit:
        edit.write("# an edit: w.py is checked again alone\n")
    assert _report(cache) == _report(None) == cold
    return cold


def test_a_chain_goes_through_the_first_unsafe_call_whatever_was_loaded_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert (
        "w.py:10: ADK-W005 a helper that is itself unsafe is called on the workflow path (g)\n"
        "    g -> f1 (h.py:6) -> time.time (u1.py:5)\n"
    ) in _cold_then_w_edited(tmp_path, FILES)


CYCLE = {
    "a.py": "import b\n\n\ndef fa():\n    return b.fb()\n",
    "b.py": "import time\n\nimport a\n\n\ndef fb():\n    return time.time()\n\n\ndef back():\n    return a.fa()\n",
    # Checked before w.py (path order): it loads b first, so a is walked inside b's import.
    "a_first.py": (
        "from temporalio import workflow\n\nimport b\n\n\n"
        "@workflow.defn\nclass First:\n    @workflow.run\n    async def run(self) -> int:\n"
        "        return 1\n"
    ),
    "w.py": (
        "from temporalio import workflow\n\nimport a\n\n\n"
        "@workflow.defn\nclass W:\n    @workflow.run\n    async def run(self) -> float:\n"
        "        return a.fa()\n"
    ),
}


def test_modules_that_import_each_other_are_seen_whole_whichever_loads_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A function body of an import cycle runs once every module of it is loaded: `a.fa` calls
    `b.fb` whether b was half walked when a was read (a_first.py loads b first) or not (w.py
    checked again alone after an edit)."""
    monkeypatch.chdir(tmp_path)
    assert (
        "w.py:10: ADK-W005 a helper that is itself unsafe is called on the workflow path (a.fa)\n"
        "    a.fa -> b.fb (a.py:5) -> time.time (b.py:7)\n"
    ) in _cold_then_w_edited(tmp_path, CYCLE)


def test_a_name_imported_from_a_module_of_a_cycle_before_it_bound_it_is_what_it_binds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`from b import fb` in a.py, read while b.py is still at its own `import a` (a_first.py
    loads b first): Python binds fb in the order the program imports them, where b runs
    first; a's bodies see what b binds, as when w.py, checked alone, loads a first (a warm
    run after an edit, dapr-agents' schemas and durable agent)."""
    monkeypatch.chdir(tmp_path)
    files = {
        **CYCLE,
        "a.py": "from b import fb\n\n\ndef fa():\n    return fb()\n",
        "b.py": "import time\n\nimport a\n\n\ndef fb():\n    return time.time()\n",
    }
    assert (
        "w.py:10: ADK-W005 a helper that is itself unsafe is called on the workflow path (a.fa)\n"
        "    a.fa -> fb (a.py:5) -> time.time (b.py:7)\n"
    ) in _cold_then_w_edited(tmp_path, files)
