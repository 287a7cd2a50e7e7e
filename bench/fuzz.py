"""A longer fuzz run than the test suite's: generated programs through guard_source, counted.

    .venv/bin/python bench/fuzz.py                 # 2,000 programs, a fresh seed (printed)
    .venv/bin/python bench/fuzz.py --examples 500 --seed 1234

Each program (hypothesmith, from Python's grammar) is checked twice, with the workflow marker
before and after it. The report counts programs, checks, modules Python refused (ADK-E001),
findings, internal errors and exceptions (both must be 0), and the slowest check. Exit 1 when
anything crashed, so the seed in the first line reproduces it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

import hypothesmith
from hypothesis import HealthCheck, given, seed, settings

from replaylint import guard_source

MARKER = "__adk_workflow__ = True\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=None)
    options = parser.parse_args()
    chosen = options.seed if options.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"seed {chosen}, {options.examples} programs", flush=True)
    counts: Counter[str] = Counter()
    slowest = [0.0, ""]
    failures: list[str] = []

    @seed(chosen)
    @settings(
        max_examples=options.examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(hypothesmith.from_grammar())
    def run(source: str) -> None:
        counts["programs"] += 1
        for text in (MARKER + source, source + "\n" + MARKER):
            started = time.perf_counter()
            try:
                report = guard_source(text, source="generated.py")
            except BaseException as error:  # counted, and the program kept for the report
                counts["exceptions"] += 1
                failures.append(f"{type(error).__name__}: {error}\n{text[:400]}")
                continue
            elapsed = time.perf_counter() - started
            if elapsed > slowest[0]:
                slowest[:] = [elapsed, text[:80]]
            counts["checks"] += 1
            counts["internal errors"] += len(report.errors)
            refused = sum(1 for f in report.findings if f.code.value == "ADK-E001")
            counts["refused by Python (ADK-E001)"] += refused
            counts["findings"] += len(report.findings) - refused

    run()
    for name in ("programs", "checks", "refused by Python (ADK-E001)", "findings"):
        print(f"{name:32} {counts[name]}")
    print(f"{'internal errors':32} {counts['internal errors']}")
    print(f"{'exceptions':32} {counts['exceptions']}")
    print(f"{'slowest check':32} {slowest[0] * 1000:.1f} ms")
    for failure in failures[:5]:
        print("---", failure, sep="\n")
    return 1 if counts["exceptions"] or counts["internal errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
