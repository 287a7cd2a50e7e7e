"""`--output-format junit`: JUnit XML with one test case per workflow module whatever the result
(core/owners.py: a module nobody could check is one too, and a tool error on a path is a case of
that path): a failure lists the findings the module answers for, those in the helpers it reaches
included; an error says why it was not fully checked (a module or a helper it reaches could not
be parsed, a project module it imports is not there). The number of cases does not move with
the result, and it is the text summary's count of workflow modules."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from replaylint.core.codes import Code
from replaylint.core.owners import cases
from replaylint.reporters.errors import tool_error
from replaylint.reporters.text import plural, render_finding

if TYPE_CHECKING:
    from replaylint.core.findings import Finding, ModuleResult, Report

SUITE = "replaylint"
# Characters XML 1.0 cannot carry at all, not even escaped (a call may be written with them).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_NOT_CHECKED = frozenset({Code.E001})  # a finding that means a module was not checked


def xml_safe(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


class _Case:
    """One workflow module's test case: its findings and why it was not fully checked."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self.errors: list[str] = []


def _cases(report: Report) -> dict[str, _Case]:
    modules = {module.path: module for module in report.modules}
    result: dict[str, _Case] = {}
    for path, findings in cases(report.findings, modules, report.owners).items():
        case = result[path] = _Case()
        for finding in findings:
            if finding.code in _NOT_CHECKED:
                where = "" if finding.path == path else f"{finding.path}: "
                case.errors.append(f"{where}{finding.code.value} {finding.message}")
            else:
                case.findings.append(finding)
        module = modules.get(path)
        if module is not None and module.unresolved_imports:
            case.errors.append(_missing_imports(module))
    for line in report.errors:
        result.setdefault(tool_error(line).path or SUITE, _Case()).errors.append(line)
    return result


def _missing_imports(module: ModuleResult) -> str:
    count = module.unresolved_imports
    return (
        f"{plural(count, 'import')} of project modules that are not there: what "
        f"{'it runs' if count == 1 else 'they run'} was not checked"
    )


def _element(suite: ET.Element, path: str, case: _Case, report: Report) -> None:
    element = ET.SubElement(
        suite, "testcase", classname=SUITE, name=xml_safe(path), file=xml_safe(path)
    )
    own = [f for f in case.findings if f.path == path]
    if own:  # `line` is of the case's own file: a helper's line would mislead
        element.set("line", str(own[0].line))
    if case.findings:
        count = len(case.findings)
        summary = f"{count} finding{'s' * (count != 1)}: " + ", ".join(
            sorted({f.code.value for f in case.findings})
        )
        failure = ET.SubElement(
            element, "failure", message=summary, type=case.findings[0].code.value
        )
        failure.text = xml_safe("\n".join(render_finding(f, report) for f in case.findings))
    if case.errors:
        error = ET.SubElement(
            element, "error", message=xml_safe(case.errors[0]), type="not-checked"
        )
        error.text = xml_safe("\n".join(case.errors))


def render(report: Report) -> str:
    suites = ET.Element("testsuites", name=SUITE)
    suite = ET.SubElement(suites, "testsuite", name=SUITE)
    cases = _cases(report)
    for path in sorted(cases):
        _element(suite, path, cases[path], report)
    if not cases:  # a run with no workflow module still shows that it ran
        ET.SubElement(suite, "testcase", classname=SUITE, name="no workflow modules")
    failures = sum(1 for case in cases.values() if case.findings)
    errors = sum(1 for case in cases.values() if case.errors)
    for element in (suites, suite):
        element.set("tests", str(len(suite)))
        element.set("failures", str(failures))
        element.set("errors", str(errors))
    suite.set("skipped", "0")
    ET.indent(suites)
    body = ET.tostring(suites, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{body}\n'
