"""`--output-format junit`: JUnit XML, one test case per finding, for CI test-report views."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from replaylint.reporters.text import render_finding

if TYPE_CHECKING:
    from replaylint.core.findings import Report

SUITE = "replaylint"
# Characters XML 1.0 cannot carry at all, not even escaped (a call may be written with them).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def render(report: Report) -> str:
    suites = ET.Element("testsuites", name=SUITE)
    suite = ET.SubElement(suites, "testsuite", name=SUITE)
    for finding in report.findings:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=xml_safe(finding.path),
            name=f"{finding.code.value} line {finding.line} column {finding.span.column + 1}",
            file=xml_safe(finding.path),
            line=str(finding.line),
        )
        message = xml_safe(finding.message)
        failure = ET.SubElement(case, "failure", message=message, type=finding.code.value)
        failure.text = xml_safe(render_finding(finding))
    if not report.findings:
        # A clean run still lists what it checked, so a CI view shows passing cases, not nothing.
        for module in report.modules:
            ET.SubElement(suite, "testcase", classname=xml_safe(module.path), name="replay safe")
        if not report.modules and not report.errors:
            ET.SubElement(suite, "testcase", classname=SUITE, name="no workflow modules")
    for line in report.errors:
        case = ET.SubElement(suite, "testcase", classname=SUITE, name=xml_safe(line))
        ET.SubElement(case, "error", message=xml_safe(line), type="input-error")
    cases = len(suite)
    failures = len(report.findings)
    errors = len(report.errors)
    for element in (suites, suite):
        element.set("tests", str(cases))
        element.set("failures", str(failures))
        element.set("errors", str(errors))
    suite.set("skipped", "0")
    ET.indent(suites)
    body = ET.tostring(suites, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{body}\n'
