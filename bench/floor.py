"""The least a cold run can cost while LibCST parses every module it checks: a fresh interpreter
that imports LibCST and parses, over every core, exactly the modules one cold run of replaylint
parses, and nothing else (no scan, no walk, no findings). Timed as whole processes, side by
side with ruff and with replaylint itself; medians.

    .venv/bin/python bench/floor.py TREE [TREE ...]     --runs N (default 5)

The modules are those bench/parses.py counts (Project.load in a `--jobs 1` run). Shared out
every jobs-th one per process, as the scan shares files.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent

# Imports LibCST and parses the files listed in argv[1] (one path a line) over argv[2] forked
# processes: the parser's share of a cold run, whole.
_PARSE_ONLY = """
import multiprocessing, sys
import libcst

def parse(paths):
    for path in paths:
        try:
            libcst.parse_module(open(path, "rb").read())
        except Exception:
            pass

if __name__ == "__main__":
    paths = open(sys.argv[1]).read().split("\\n")
    jobs = int(sys.argv[2])
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        pool.map(parse, [paths[start::jobs] for start in range(jobs)])
"""


def parsed_modules(tree: Path) -> list[str]:
    """The distinct modules one cold run parses (bench/parses.py's count, by path)."""
    script = (
        "import sys, json; sys.path.insert(0, sys.argv[1]); import parses;"
        "import replaylint.engine.project as p; seen = set(); load = p.Project.load\n"
        "def spy(self, path, source, *a, **k):\n"
        "    seen.add(str(p.module_key(path))); return load(self, path, source, *a, **k)\n"
        "p.Project.load = spy; parses.count(__import__('pathlib').Path(sys.argv[2]))\n"
        "print(json.dumps(sorted(seen)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(HERE), str(tree)],
        capture_output=True,
        text=True,
        check=True,
    )
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


def timed(command: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    ruff = shutil.which("ruff", path=str(BIN)) or shutil.which("ruff")
    with tempfile.TemporaryDirectory(prefix="replaylint-floor-") as scratch:
        program = Path(scratch, "parse_only.py")
        program.write_text(_PARSE_ONLY)
        for tree in (t.resolve() for t in args.trees):
            modules = parsed_modules(tree)
            listing = Path(scratch, "modules.txt")
            listing.write_text("\n".join(modules))
            commands = {
                "LibCST import + parse only": [
                    sys.executable,
                    str(program),
                    str(listing),
                    str(jobs),
                ],
                "replaylint cold": [str(BIN / "replaylint"), "check", "--no-cache", "."],
            }
            if ruff:
                commands["ruff"] = [
                    ruff,
                    "check",
                    "--no-cache",
                    "--isolated",
                    "--select",
                    "DTZ,S311",
                    ".",
                ]
            samples: dict[str, list[float]] = {name: [] for name in commands}
            for command in commands.values():
                timed(command, tree)  # warm-up: page cache, bytecode
            for _ in range(args.runs):
                for name, command in commands.items():
                    samples[name].append(timed(command, tree))
            medians = {name: statistics.median(values) for name, values in samples.items()}
            print(f"{tree}  ({len(modules)} modules parsed, {jobs} processes, {args.runs} runs)")
            for name, seconds in medians.items():
                ratio = f"{seconds / medians['ruff']:6.1f}x ruff" if "ruff" in medians else ""
                print(f"  {name:28} {seconds:7.3f} s  {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
