"""`--output-format junit`: JUnit XML with one test case per workflow module whatever the result
(and per other file a finding or an error is in): a failure lists the file's findings, an error
says why the file was not fully checked. The number of cases does not move with the result."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from replaylint.core.codes import Code
from replaylint.reporters.errors import tool_error
from replaylint.reporters.text import render_finding

if TYPE_CHECKING:
    from replaylint.core.findings import Finding, Report

SUITE = "replaylint"
# Characters XML 1.0 cannot carry at all, not even escaped (a call may be written with them).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_NOT_CHECKED = frozenset({Code.E001})  # a finding that means the module was not checked


def xml_safe(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


class _Case:
    """One file's test case: its findings and the errors that kept it from being checked."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self.errors: list[str] = []


def _cases(report: Report) -> dict[str, _Case]:
    cases: dict[str, _Case] = {module.path: _Case() for module in report.modules}
    for finding in report.findings:
        case = cases.setdefault(finding.path, _Case())
        if finding.code in _NOT_CHECKED:
            case.errors.append(f"{finding.code.value} {finding.message}")
        else:
            case.findings.append(finding)
    for line in report.errors:
        cases.setdefault(tool_error(line).path or SUITE, _Case()).errors.append(line)
    return cases


def _element(suite: ET.Element, path: str, case: _Case, report: Report) -> None:
    element = ET.SubElement(
        suite, "testcase", classname=SUITE, name=xml_safe(path), file=xml_safe(path)
    )
    if case.findings:
        element.set("line", str(case.findings[0].line))
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
