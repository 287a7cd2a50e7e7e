"""How much of the ADK-W005 chains a report holds: every hop of every chain, up to a bound.

A chain is reported whole (the JSON and SARIF reports hold each hop; the text format shows the
first ones and says how many it leaves out). Only a pathological tree, thousands of helpers
calling one another all on the workflow path, makes the chains together grow with the square
of its size (each of n calls reports the n hops below it); so a report holds at most
REPORTED_HOPS hops: the longest chains stay whole while they fit, and the others keep their
first hops and their root, with `Finding.hops` saying how long they were.
"""

from __future__ import annotations

from dataclasses import replace

from replaylint.core.findings import Finding

REPORTED_HOPS = 20_000
KEPT_WHEN_CUT = 12  # the first 11 hops and the root, as the text format shows a long chain


def bounded(findings: list[Finding]) -> list[Finding]:
    """`findings`, with chains cut only when together they hold more than REPORTED_HOPS."""
    if sum(len(f.chain) for f in findings) <= REPORTED_HOPS:
        return findings
    budget = REPORTED_HOPS
    whole: set[int] = set()
    for index in sorted(range(len(findings)), key=lambda i: -len(findings[i].chain)):
        length = len(findings[index].chain)
        if length <= KEPT_WHEN_CUT or length <= budget:
            whole.add(index)
            budget -= length
    return [finding if index in whole else _cut(finding) for index, finding in enumerate(findings)]


def _cut(finding: Finding) -> Finding:
    chain = finding.chain
    kept = (*chain[: KEPT_WHEN_CUT - 1], chain[-1])
    return replace(finding, chain=kept, hops=len(chain))
