"""The ast gate: a framework-importing file is parsed by LibCST only when its code (not its
docstrings, comments or strings) uses a name an entry of that framework is spelled with."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from replaylint.api import guard
from replaylint.presets.records import presets
from replaylint.project.config import Config
from replaylint.project.gate import names_pattern, spells_an_entry

TEMPORAL = names_pattern(["temporal"])


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from temporalio import workflow\n\n@workflow.defn\nclass W: ...\n", True),
        ("from temporalio.workflow import defn as d\n\n@d\nclass W: ...\n", True),
        ("from temporalio import workflow\nD = getattr(workflow, 'defn')\n", True),
        ('from temporalio import workflow\n"""Decorate with @workflow.defn."""\n', False),
        ("from temporalio import workflow  # see @workflow.defn\nX = 1\n", False),
        ("from temporalio import workflow\nTEXT = '@workflow.defn class W'\n", False),
        ("from temporalio import workflow\ndef f(:\n", True),  # the engine reports it
    ],
)
def test_the_code_decides_not_the_text(source: str, expected: bool) -> None:
    assert spells_an_entry(source.encode(), [TEMPORAL]) is expected


def test_each_framework_forms_name_is_seen() -> None:
    forms = {
        "restate": "svc = restate.Service('x')\n",
        "restate ctx": "async def h(ctx: restate.ObjectContext): ...\n",
        "durabletask": "def o(ctx: task.OrchestrationContext, _): ...\n",
        "durabletask registrar": "w.add_named_orchestrator('n', o)\n",
        "azure": "@app.orchestration_trigger(context_name='c')\ndef o(c): ...\n",
        "aws": "from aws_durable_execution_sdk_python import durable_execution\n",
        "google_adk": "@node(rerun_on_resume=True)\nasync def n(ctx): ...\n",
        "dbos": "@DBOS.workflow()\ndef w(): ...\n",
    }
    everything = names_pattern(presets())
    for name, source in forms.items():
        assert spells_an_entry(source.encode(), [everything]), name
    declared = names_pattern([], ["acme.engine.durable_flow"])
    assert spells_an_entry(b"@engine.durable_flow\ndef f(): ...\n", [declared])
    assert not spells_an_entry(b"@engine.other\ndef f(): ...\n", [declared])


def test_a_file_that_only_quotes_an_entry_is_never_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, checked: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs_only.py").write_text(
        '"""Workflows here are declared with @workflow.defn."""\nfrom temporalio import workflow\n'
    )
    (tmp_path / "flow.py").write_text(
        "import time\nfrom temporalio import workflow\n\n\n@workflow.defn\nclass Flow:\n"
        "    @workflow.run\n    async def run(self) -> float:\n        return time.time()\n"
    )
    report = guard(".", config=Config())
    assert checked == ["flow.py"]
    assert [(f.path, f.line, f.code.value) for f in report.findings] == [("flow.py", 9, "ADK-W003")]
    assert report.files == 2


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # The framework's own code names a local `defn`: no entry.
        ("from temporalio import workflow\ndefn = lookup(cls)\nprint(defn.name)\n", False),
        # Rebound from an attribute, or imported under another name: still an entry.
        ("from temporalio import workflow\nd = workflow.defn\n\n@d\nclass W: ...\n", True),
        ("from temporalio.workflow import defn as d\n", True),
        ("from temporalio import workflow\nfrom .shared import *\n", True),
        # A keyword counts only where a framework declares entries with one.
        ("from temporalio import workflow\nregister(defn=defn)\n", False),
    ],
)
def test_bare_names_do_not_count_but_imports_and_attributes_do(source: str, expected: bool):
    assert spells_an_entry(source.encode(), [TEMPORAL]) is expected


def test_strings_count_only_where_the_evaluator_folds_them() -> None:
    folded = "from temporalio import workflow\nD = vars(workflow)['defn']\n"
    listed = "from temporalio import workflow\n__all__ = ['defn', 'run']\n"
    assert spells_an_entry(folded.encode(), [TEMPORAL])
    assert not spells_an_entry(listed.encode(), [TEMPORAL])


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # An activity spells `defn` too, and runs no workflow code: its module (or a test that
        # mocks one) is read only where a workflow imports it.
        ("from temporalio import activity\n\n@activity.defn\nasync def a(): ...\n", False),
        ("import temporalio.activity\n\n@temporalio.activity.defn\nasync def a(): ...\n", False),
        (
            "from temporalio import activity as act\n\n@act.defn(name='x')\nasync def a(): ...\n",
            False,
        ),
        ("from temporalio.activity import defn\n\n@defn\nasync def a(): ...\n", False),
        # Beside a workflow, or on an object the gate cannot name, it still counts.
        (
            "from temporalio import activity, workflow\n\n@activity.defn\nasync def a(): ...\n\n"
            "@workflow.defn\nclass W: ...\n",
            True,
        ),
        (
            "from temporalio import workflow\nfrom app import activity\n\n@activity.defn\nclass W: ...\n",
            True,
        ),
    ],
)
def test_an_activity_is_no_entry(source: str, expected: bool) -> None:
    everything = names_pattern(presets())
    through = dataclasses.replace(everything, through_import=True)
    assert spells_an_entry(source.encode(), [TEMPORAL]) is expected
    assert spells_an_entry(source.encode(), [TEMPORAL, through]) is expected
