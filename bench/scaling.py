"""Does any generated input make a check super-linear? Each family of long expressions is checked
at doubling sizes on the running interpreter, and the growth exponent of the median time is
printed (1.0 is linear). Run it with every Python the package declares:

    .venv/bin/python bench/scaling.py
    PYTHONPATH=src python3.10 bench/scaling.py        # an interpreter with the dependencies
        --runs N (default 3), --check (exit 1 when an exponent is over 1.3)

Sizes stop where CPython itself refuses the module (ADK-E001 "too deeply nested for Python to
compile"), since from there the check is a compile() and nothing else.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time

from replaylint.api import guard_source

SIZES = (1000, 2000, 4000, 8000, 16000)
HEAD = "import time\n__adk_workflow__ = True\n\n\ndef run(a, b):\n    return "
FAMILIES = {
    "a + b + ... (one chain)": lambda n: HEAD + " + ".join(["a"] * n) + " + time.time()\n",
    "a and b and ...": lambda n: HEAD + " and ".join(["a"] * n) + " and time.time()\n",
    "1 < 2 < ... (comparison)": lambda n: HEAD + "1 " + " ".join(["< 2"] * n) + "\n",
    "[time.time(), ...] (findings)": lambda n: HEAD + "[" + ", ".join(["time.time()"] * n) + "]\n",
    "f(a, b, ...) (arguments)": lambda n: HEAD + "max(" + ", ".join(["a"] * n) + ")\n",
    "{k: v, ...} (dict display)": lambda n: (
        HEAD + "{" + ", ".join(f"{i}: a" for i in range(n)) + "}\n"
    ),
}


def timed(source: str, runs: int) -> tuple[float, bool]:
    """(median seconds, whether CPython refused the module)."""
    samples = []
    refused = False
    for _ in range(runs):
        start = time.perf_counter()
        report = guard_source(source, source="generated.py")
        samples.append(time.perf_counter() - start)
        refused = any(f.call == "too deeply nested for Python to compile" for f in report.findings)
    return statistics.median(samples), refused


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    print(f"Python {sys.version.split()[0]}, medians of {args.runs} runs")
    worst = 0.0
    for name, make in FAMILIES.items():
        points = []
        for size in SIZES:
            seconds, refused = timed(make(size), args.runs)
            if refused:
                break
            points.append((size, seconds))
        exponent = _exponent(points)
        worst = max(worst, exponent)
        shown = "  ".join(f"{n}: {s * 1000:.0f} ms" for n, s in points)
        print(f"  {name:32} exponent {exponent:4.2f}   {shown}")
    return 1 if args.check and worst > 1.3 else 0


def _exponent(points: list[tuple[int, float]]) -> float:
    """The slope of log(time) over log(size) between the second size and the last (the first
    carries fixed costs that hide the growth), or the first two when there are only two."""
    if len(points) < 2:
        return 1.0
    (n0, t0), (n1, t1) = points[1 if len(points) > 2 else 0], points[-1]
    return math.log(t1 / t0) / math.log(n1 / n0)


if __name__ == "__main__":
    sys.exit(main())
