"""Every entry of rules/fixes.toml, for every name it lists, applied in a module of its framework
where its conditions hold: the finding is fixed by that entry, and the result compiles."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint.api import guard_source
from replaylint.core.codes import Code
from replaylint.fixes import fix_for, fix_source
from replaylint.fixes.data import ANY, Template, default_data
from replaylint.project.config import Config

# Where a framework's workflow code runs: its imports, then the function holding `{statement}`
# (`{kind}` is "async " for a coroutine), one file per framework with fixes.
HARNESSES = Path(__file__).parent / "harnesses"
HARNESS = {
    path.name.split(".")[0]: path.read_text(encoding="utf-8")
    for path in sorted(HARNESSES.glob("*.py.txt"))
}
ARGUMENTS = {
    "none": "()",
    "any": "()",
    "one": "(1)",
    "tz": "(datetime.timezone(datetime.timedelta(hours=1)))",
    "utc": "(datetime.timezone.utc)",
}
# What the elements are for each ADK-W010 entry: known to order, or objects without an order.
ITERATED = {
    "sorted(...)": '{"b", "a"}',
    "stable(...)": "{object(), object()}",
}


def test_every_framework_with_fixes_has_a_harness() -> None:
    assert set(default_data().frameworks()) - {ANY} <= set(HARNESS)


def _cases() -> list[tuple[str, Template, str]]:
    data = default_data()
    cases = []
    for framework in sorted(data.frameworks()):
        for (table, name), templates in sorted(data._calls.items()):
            if table == framework:
                cases += [(framework, template, name) for template in templates]
        for (table, code), templates in sorted(data._codes.items(), key=str):
            if table == framework:
                cases += [(framework, template, code.value) for template in templates]
    return cases


def _module(framework: str, template: Template, name: str) -> str:
    if framework == ANY:  # a pattern rule's fix: shown in a module of the runtime
        statement = f"for item in {ITERATED[template.template]}:\n        order[str(item)] = 1"
        return HARNESS["runtime"].format(kind="", statement=statement)
    module = name.split(".")[0]
    call = f"{name}{ARGUMENTS[template.args]}"
    if template.position == "statement":
        statement = call
    elif template.position == "awaited":
        statement = f"await {call}"
    else:
        statement = f"value = {call}"
    asynchronous = template.function == "async" or (
        template.function != "sync" and (template.awaits or template.position == "awaited")
    )
    body = HARNESS[framework].format(kind="async " if asynchronous else "", statement=statement)
    return (
        f"import datetime\nimport {module}\n{body}"
        if module != "datetime"
        else f"import datetime\n{body}"
    )


@pytest.mark.parametrize(
    "framework,template,name",
    _cases(),
    ids=[f"{f}-{n}-{t.template}" for f, t, n in _cases()],
)
def test_the_entry_fixes_its_finding_and_the_result_compiles(
    framework: str, template: Template, name: str
) -> None:
    text = _module(framework, template, name)
    report = guard_source(text, source="wf.py", config=Config())
    wanted = Code(name) if name.startswith("ADK-") else None
    [finding] = [
        f
        for f in report.findings
        if (f.code is wanted if wanted else f.fix is not None and f.fix.path == name)
    ]
    info = fix_for(finding, text)
    assert info is not None, text
    assert info.reason == template.reason, (info, text)  # this entry, not another one
    new, fixed = fix_source(text, [finding], unsafe=True)
    assert fixed == (finding,), text
    compile(new, "wf.py", "exec", dont_inherit=True)
    assert new != text
