"""Measures following an installed package: astroid (read + summarise) against LibCST's parse.

For every module of one installed package in this interpreter's site-packages (default
`_pytest`: 79 modules, about 40k lines), per run and per module:

- `libcst.parse_module` of the file's bytes (read included): what reading it with the guard's
  own parser would cost before any analysis;
- `ast.parse` of the same bytes, for context;
- astroid read: locating, reading and building the astroid tree (replaylint.installed.modules);
- astroid summarise: every function and method of the module summarised
  (`Installed.summarise`), once all modules are read, so each module pays only for its own code.

Each run uses a fresh `Installed`, so nothing is cached across runs. GC is off while timing, as
timeit does. The table shows medians over the runs; "astroid total" is read + summarise.

Usage: .venv/bin/python bench/installed.py [--package NAME] [--runs N] [--top N]
"""

from __future__ import annotations

import argparse
import ast
import gc
import importlib.metadata
import os
import platform
import statistics
import sys
import sysconfig
import time
from collections.abc import Callable
from pathlib import Path

from replaylint.installed import Installed
from replaylint.resolve.catalog import default_catalog


def modules_of(site: Path, package: str) -> list[tuple[str, Path]]:
    root = site / package
    found: list[tuple[str, Path]] = []
    for directory, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = Path(directory) / name
                dotted = ".".join(path.relative_to(site).with_suffix("").parts)
                found.append((dotted.removesuffix(".__init__"), path))
    return found


def clock(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def one_run(site: Path, package: str, modules: list[tuple[str, Path]]) -> dict[str, list[float]]:
    import libcst

    times: dict[str, list[float]] = {k: [] for k in ("libcst", "ast", "read", "summarise")}
    gc.collect()
    gc.disable()
    try:
        for _, path in modules:
            times["libcst"].append(clock(lambda p=path: libcst.parse_module(p.read_bytes())))
        for _, path in modules:
            times["ast"].append(clock(lambda p=path: ast.parse(p.read_bytes())))
        installed = Installed([package], default_catalog(), [str(site)])
        evaluator, _ = installed._parts()  # the run's own module table, so summarise reuses it
        for name, _ in modules:
            times["read"].append(clock(lambda n=name: evaluator.modules.get(n)))
        for name, _ in modules:
            times["summarise"].append(clock(lambda n=name: installed.summarise(n)))
    finally:
        gc.enable()
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", default="_pytest")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--top", type=int, default=12, help="largest modules shown in the table")
    options = parser.parse_args(argv)
    site = Path(sysconfig.get_path("purelib"))
    modules = modules_of(site, options.package)
    if len(modules) < 2:
        print(f"{options.package} is not installed in {site}", file=sys.stderr)
        return 2
    lines = [len(path.read_bytes().splitlines()) for _, path in modules]
    one_run(site, options.package, modules[:3])  # warm imports (libcst, astroid) outside timing
    runs = [one_run(site, options.package, modules) for _ in range(options.runs)]

    def median(kind: str, index: int) -> float:
        return statistics.median(run[kind][index] for run in runs) * 1000

    rows = []
    for index, (name, _) in enumerate(modules):
        cst, tree = median("libcst", index), median("ast", index)
        read, summ = median("read", index), median("summarise", index)
        rows.append((name, lines[index], cst, tree, read, summ, read + summ))
    versions = {k: importlib.metadata.version(k) for k in ("astroid", "libcst")}
    print(
        f"{options.package}: {len(modules)} modules, {sum(lines)} lines; medians of "
        f"{options.runs} runs; Python {platform.python_version()}, astroid {versions['astroid']}, "
        f"libcst {versions['libcst']}"
    )
    header = (
        "module",
        "lines",
        "libcst",
        "ast",
        "astroid read",
        "summarise",
        "astroid total",
        "ratio",
    )
    print(f"{header[0]:<36}{header[1]:>7}" + "".join(f"{h:>14}" for h in header[2:]))
    shown = sorted(rows, key=lambda row: -row[1])[: options.top]
    for name, count, cst, tree, read, summ, total in shown:
        cells = "".join(f"{v:>12.2f}ms" for v in (cst, tree, read, summ, total))
        print(f"{name[-36:]:<36}{count:>7}{cells}{total / cst:>13.2f}x")
    sums = [sum(row[i] for row in rows) for i in range(2, 7)]
    cells = "".join(f"{v:>12.1f}ms" for v in sums)
    print(f"{'all modules (sum of medians)':<36}{sum(lines):>7}{cells}{sums[4] / sums[0]:>13.2f}x")
    per_module = [
        statistics.median(row[i] for row in rows) for i in range(2, 7)
    ]  # the typical module
    cells = "".join(f"{v:>12.2f}ms" for v in per_module)
    ratios = statistics.median(row[6] / row[2] for row in rows)
    print(f"{'median module':<36}{int(statistics.median(lines)):>7}{cells}{ratios:>13.2f}x")
    read_ratio = sums[2] / sums[0]
    total_ratio = sums[4] / sums[0]
    verdict = "faster" if total_ratio < 1 else "slower"
    print(
        f"\nastroid read alone is {read_ratio:.2f}x libcst.parse_module; read + summarise is "
        f"{total_ratio:.2f}x ({verdict} than parsing with LibCST alone)."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
