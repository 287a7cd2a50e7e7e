"""The framework records (rules/frameworks/*.toml): each one complete, and the only place a
framework is spelled: a new record alone makes a framework work, cold and warm alike."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from replaylint.core import docs
from replaylint.core.codes import RULES, Code
from replaylint.presets import records
from replaylint.presets.records import RecordError, build, load, presets

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
FRAMEWORK_REMEDIES = [code for code, meta in RULES.items() if meta.framework_remedies]
NAMED_CASES = {"inline-activity"}  # remedy keys of a rule's own cases, beside the codes


@pytest.mark.parametrize("name", sorted(presets()))
def test_every_record_holds_every_part(name: str) -> None:
    preset = presets()[name]
    assert preset.title and preset.packages
    declared = (
        preset.workflow_classes,
        preset.workflow_bases,
        preset.workflow_functions,
        preset.workflow_registrars,
        preset.context_types,
        preset.entry_calls,
        preset.suspends.functions,
        preset.suspends.registrars,
    )
    hosts = any(rule.role == "hosts" for rule in preset.hosted)
    assert hosts or any(p.sources for p in declared), "no way to declare workflow code"
    if preset.suspends.functions.sources or preset.suspends.registrars.sources:
        assert preset.suspends.calls.sources, "replayed when it suspends, but nothing suspends"
    assert preset.cheap.needles, "the byte prefilter would never parse this framework's code"
    assert preset.cheap.names or preset.cheap.keywords, "the ast gate would drop every file"
    missing = [code.value for code in FRAMEWORK_REMEDIES if preset.remedy(code.value) is None]
    assert missing == [], f"{name} has no remedy for {missing}"
    unknown = set(preset.remedies) - {c.value for c in FRAMEWORK_REMEDIES} - NAMED_CASES
    assert unknown == set()
    if preset.inline_activities.sources:
        assert preset.remedy("inline-activity"), "an inline activity needs its own remedy"
    assert preset.versioning.model in records.VERSIONING_MODELS


def test_the_shipped_records_read_without_recompiling_are_the_checked_ones() -> None:
    # A run reads the shipped records without compiling each pattern to refuse a bad one;
    # this read compiles every one (RecordError on the first that is no regular expression).
    assert load(docs.records_dir()) == presets()


def _shipped(name: str) -> dict:
    with open(ROOT / "rules" / "frameworks" / f"{name}.toml", "rb") as handle:
        return tomllib.load(handle)


@pytest.mark.parametrize(
    ("drop", "message"),
    [
        ("remedies", "temporal.toml: [remedies] is missing"),
        ("entries", "temporal.toml: [entries] is missing"),
        ("cheap", "temporal.toml: [cheap] is missing"),
        ("versioning", "temporal.toml: [versioning] needs a model, one of patching, pinned"),
    ],
)
def test_a_record_missing_a_part_is_refused_naming_the_part(drop: str, message: str) -> None:
    data = _shipped("temporal")
    del data[drop]
    with pytest.raises(RecordError, match=re.escape(message)):
        build("temporal", data, "frameworks/temporal.toml")


def test_a_key_no_record_knows_is_refused() -> None:
    data = _shipped("dbos")
    data["entries"]["decorator"] = ["dbos\\.DBOS\\.workflow"]
    with pytest.raises(RecordError, match=r"dbos.toml \[entries\]: unknown key 'decorator'"):
        build("dbos", data, "frameworks/dbos.toml")


def test_a_pattern_that_is_no_regular_expression_is_refused() -> None:
    data = _shipped("restate")
    data["recorded"]["calls"] = ["restate\\.(run"]
    with pytest.raises(RecordError, match="calls: 'restate\\\\\\\\.\\(run' is no regular"):
        build("restate", data, "frameworks/restate.toml")


def test_the_readme_has_a_section_and_the_packages_of_every_record() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for preset in presets().values():
        assert f"\n### {preset.title}\n" in text, preset.title
    sentence = text[text.index("(the `packages` of each record") :].split(")", 1)[0]
    listed = set(re.findall(r"`([\w.]+)`", sentence)) - {"packages"}
    # A package whose name is a common folder name (`workers`) may be the project's own.
    never_local = {p for ps in records.preset_packages().values() for p in ps}
    assert listed == never_local


ACME_RECORD = """
title = "Acme Flows"
packages = ["acme_flows"]
safe = []

[versioning]
model = "patching"

[entries]
classes = []
methods = []
functions = ['acme_flows\\.flow']
registrars = []
context-types = []

[recorded]
decorators = ['acme_flows\\.step']
registrars = []
calls = []
inline-decorators = []
child-workflows = false

[cheap]
needles = ['@[\\w.]*\\bflow\\b']
names = ["flow"]
keywords = []
registers = []

[replay]
loggers = ['acme_flows\\.log']

[remedies]
""" + "".join(f'"{code.value}" = "acme: {code.value}"\n' for code in FRAMEWORK_REMEDIES)

FLOW = """import time

from acme_flows import flow, step


@step
def stamp() -> float:
    return time.time()


@flow
def nightly() -> float:
    return time.time()
"""


def test_a_new_framework_is_one_record_and_works_cold_and_warm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "frameworks"
    shutil.copytree(ROOT / "rules" / "frameworks", folder)
    (folder / "acme.toml").write_text(ACME_RECORD, encoding="utf-8")
    assert "acme" in load(folder)
    monkeypatch.setattr(docs, "records_dir", lambda: folder)
    presets.cache_clear()
    _forget_derived_tables()
    try:
        project = tmp_path / "app"
        project.mkdir()
        (project / "flows.py").write_text(FLOW, encoding="utf-8")
        monkeypatch.chdir(project)
        cold = _check(tmp_path / "cache")
        warm = _check(tmp_path / "cache")
    finally:
        presets.cache_clear()
        _forget_derived_tables()
    assert cold == warm
    assert cold == [("flows.py", 13, Code.W003, "acme: ADK-W003")]


def _forget_derived_tables() -> None:
    from replaylint.project import prefilter

    prefilter._registrations.cache_clear()


def _check(cache_folder: Path) -> list[tuple[str, int, Code, str]]:
    from replaylint.api import run
    from replaylint.index.cache import Cache
    from replaylint.project.config import Resolver
    from replaylint.report.selection import Selection, report_from

    resolver = Resolver()
    cache = Cache(cache_folder)
    report = report_from(run(["."], resolver=resolver, cache=cache), Selection(resolver))
    return [(f.path, f.line, f.code, f.remedy) for f in report.findings]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda v: v.update(gate=[]), "[versioning]: unknown key 'gate'"),
        (lambda v: v["commands"].update(activity=["temporalio\\.(x"]), "is no regular expression"),
        (lambda v: v.update(given={"timer": {"calls": []}}), "given.timer needs a keyword"),
        (lambda v: v.update(model="sometimes"), "[versioning] needs a model"),
        (lambda v: v.update(keyed=["step"]), "keyed names 'step', which is no command or step"),
        (lambda v: v.update(apart=["timer", "wait"]), "apart names 'wait', which is no command"),
        (lambda v: v.update({"fresh-tail": "yes"}), "fresh-tail must be true or false"),
        (lambda v: v.update({"version-keyword": 2}), "version-keyword must be text"),
        (
            lambda v: v.update(unless={"timer": "timeout"}),
            "unless: timer must be a list of strings",
        ),
    ],
)
def test_the_versioning_table_is_checked(change, message: str) -> None:  # type: ignore[no-untyped-def]
    data = _shipped("temporal")
    change(data["versioning"])
    with pytest.raises(RecordError, match=re.escape(message)):
        build("temporal", data, "frameworks/temporal.toml")


@pytest.mark.parametrize("name", sorted(presets()))
def test_every_record_says_what_its_history_records(name: str) -> None:
    facts = presets()[name].versioning
    assert facts.commands or facts.steps, "check --base would find no durable command"
    assert all(facts.targets.get(kind, ("0",)) is not None for kind in facts.commands)


def test_how_a_command_is_found_again_is_read_from_the_record() -> None:
    inngest, langgraph, prefect = (
        presets()[n].versioning for n in ("inngest", "langgraph", "prefect")
    )
    assert "step" in inngest.keyed and not inngest.fresh_tail
    assert langgraph.apart == {"interrupt"} and langgraph.fresh_tail
    assert prefect.command_kind("prefect.suspend_flow_run", frozenset()) == "suspend"
    assert prefect.command_kind("prefect.suspend_flow_run", frozenset({"flow_run_id"})) is None
    functional = presets()["agent_framework_functional"].versioning
    request = "agent_framework.RunContext().request_info"
    assert functional.command_kind(request, frozenset({"request_id"})) == "request by id"
    assert functional.command_kind(request, frozenset()) == "request"
    assert presets()["dapr"].versioning.version_keyword == "version_name"
    assert not presets()["cloudflare"].versioning.name_in_code


def test_the_runtime_keeps_its_versioning_facts_in_a_table_of_its_own() -> None:
    facts = records.runtime_versioning()
    assert facts.model == "patching"
    assert facts.gates.matches("replaylint.workflows.RunContext().patched")
    assert facts.gates.matches("replaylint.workflows.patches.Patches().applied")
    assert facts.deprecations.matches("replaylint.workflows.RunContext().deprecate_patch")
    assert facts.step_kind(("replaylint.workflows.activity",)) == "activity"
