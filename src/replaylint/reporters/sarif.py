"""`--output-format sarif`: SARIF 2.1.0, one run, one rule per code, ADK-W005 chains as code flows.

Regions are 1-based with `endColumn` just after the last character (SARIF's convention), in
Unicode code points, which is how replaylint counts columns. Chain hops carry only a line.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from replaylint.core import docs
from replaylint.core.codes import RULES, WARNING_CODES, Code
from replaylint.reporters.errors import tool_error
from replaylint.reporters.homepage import declared_documentation_url
from replaylint.reporters.roots import FINGERPRINT_NAME, fingerprints
from replaylint.reporters.text import left_out_text
from replaylint.version import __version__

if TYPE_CHECKING:
    from replaylint.core.findings import ChainLink, Finding, Report

SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
# Suppression findings are advice about comments, not replay hazards.
RULE_INDEX = {code: index for index, code in enumerate(RULES)}


def rule_pages() -> dict[Code, str]:
    """Each code's page (rules/ADK-*.md, as `replaylint rule` prints it), where there is one."""
    pages = {}
    for code in RULES:
        path = docs.page_path(code)
        if path.is_file():
            pages[code] = path.read_text(encoding="utf-8")
    return pages


def section(page: str, heading: str) -> str:
    """The prose under `## heading`, its lines joined, up to the next heading."""
    lines: list[str] = []
    inside = False
    for line in page.splitlines():
        if line.startswith("## "):
            if inside:
                break
            inside = line[3:].strip() == heading
        elif inside:
            lines.append(line.strip())
    return " ".join(part for part in lines if part)


def rule(code: Code, page: str | None) -> dict[str, Any]:
    meta = RULES[code]
    short = meta.finding.replace(" ({call})", "")
    full = section(page, "What it does") if page else ""
    return {
        "id": code.value,
        "name": meta.slug,
        "shortDescription": {"text": short},
        "fullDescription": {"text": full or short},
        "help": {"text": page, "markdown": page} if page else {"text": meta.remedy},
        "defaultConfiguration": {"level": level(code)},
    }


def level(code: Code) -> str:
    return "warning" if code in WARNING_CODES else "error"


def region(finding: Finding) -> dict[str, int]:
    span = finding.span
    return {
        "startLine": span.line,
        "startColumn": span.column + 1,
        "endLine": span.end_line,
        "endColumn": span.end_column + 1,
    }


def physical(path: str, where: Mapping[str, int]) -> dict[str, Any]:
    # A relative URI reference: the path with `/`, anything a URI cannot hold percent-encoded.
    return {"artifactLocation": {"uri": quote(path)}, "region": dict(where)}


def link_text(text: str) -> str:
    """Text inside an embedded link `[text](id)`: backslash and brackets escaped (SARIF 3.11.6)."""
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def message(finding: Finding) -> str:
    """The finding's sentence; for a chain, its hops as links to the related locations; the
    finding's own remedy (a framework preset may word it differently from the rule's)."""
    lines = [finding.message]
    if finding.chain:
        hops = [f"[{link_text(link.call)}]({index})" for index, link in enumerate(finding.chain, 1)]
        if finding.hops_left_out:  # a chain the report cut says so before its root
            hops.insert(-1, left_out_text(finding.hops_left_out))
        lines.append(" -> ".join([finding.call, *hops]))
    lines.append(finding.remedy)
    return "\n".join(lines)


def hop(link: ChainLink) -> dict[str, Any]:
    return physical(link.path, {"startLine": link.line})


def chain_parts(finding: Finding) -> dict[str, Any]:
    """relatedLocations (one per hop, numbered for the message's links) and a code flow that
    starts at the workflow's call and follows each hop."""
    related = [
        {"id": index, "physicalLocation": hop(link), "message": {"text": f"calls {link.call}"}}
        for index, link in enumerate(finding.chain, 1)
    ]
    steps = [
        {
            "location": {
                "physicalLocation": physical(finding.path, region(finding)),
                "message": {"text": f"the workflow calls {finding.call}"},
            }
        },
        *(
            {"location": {"physicalLocation": hop(link), "message": {"text": f"calls {link.call}"}}}
            for link in finding.chain
        ),
    ]
    flow: dict[str, Any] = {"locations": steps}
    if finding.hops_left_out:
        kept = len(finding.chain) - 1
        flow["message"] = {
            "text": f"the chain has {finding.hops:,} hops: {finding.hops_left_out:,} after the "
            f"first {kept} are left out, before its root"
        }
    return {"codeFlows": [{"threadFlows": [flow]}], "relatedLocations": related}


def result(finding: Finding, fingerprint: str) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "ruleId": finding.code.value,
        "ruleIndex": RULE_INDEX[finding.code],
        "level": level(finding.code),
        "message": {"text": message(finding)},
        "locations": [{"physicalLocation": physical(finding.path, region(finding))}],
        "partialFingerprints": {FINGERPRINT_NAME: fingerprint},
    }
    if finding.chain:
        entry.update(chain_parts(finding))
    if finding.hops_left_out:
        entry["properties"] = {"chainHops": finding.hops, "chainHopsLeftOut": finding.hops_left_out}
    return entry


def notification(line: str) -> dict[str, Any]:
    """A file that could not be checked, located on that file."""
    error = tool_error(line)
    entry: dict[str, Any] = {"level": "error", "message": {"text": error.line}}
    if error.path:
        uri = quote(error.path)
        entry["locations"] = [{"physicalLocation": {"artifactLocation": {"uri": uri}}}]
    return entry


def as_dict(report: Report, pages: Mapping[Code, str] | None = None) -> dict[str, Any]:
    pages = rule_pages() if pages is None else pages
    driver: dict[str, Any] = {"name": "replaylint", "version": __version__}
    # The project's public documentation, when it declares one; a file:// path of this machine
    # would mean nothing where the log is read (a code-scanning service, a colleague's viewer).
    documentation = declared_documentation_url()
    if documentation is not None:
        driver["informationUri"] = documentation
    driver["rules"] = [rule(code, pages.get(code)) for code in RULES]
    invocation = {
        "executionSuccessful": not report.errors,
        "toolExecutionNotifications": [notification(line) for line in report.errors],
    }
    results = [
        result(f, p) for f, p in zip(report.findings, fingerprints(report.findings), strict=True)
    ]
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": driver},
                "invocations": [invocation],
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }


def render(report: Report, *, pages: Mapping[Code, str] | None = None) -> str:
    """`pages`: each code's Markdown page; by default read from the rules/ folder (docs.py)."""
    return json.dumps(as_dict(report, pages), indent=2) + "\n"
