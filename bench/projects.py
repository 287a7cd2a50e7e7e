"""Whole-process figures on real trees, side by side in one run: replaylint cold (all cores, and
one), warm (text, and JSON without the [*] fixability marks: answered by the memo of the run
before), warm with one module touched (the index alone), and after a one-file edit, against
ruff on the same tree; peak memory per process; LibCST parses per cold run (bench/parses.py).

    .venv/bin/python bench/projects.py PATH [PATH ...]      # e.g. clones of samples-python
    .venv/bin/python bench/projects.py --ordinary            # the venv's own library code
        --runs N (default 5), --json FILE (default bench/projects.json)

Each command runs once untimed (a warm-up, and the check that outputs agree), then `--runs`
times in alternating order; the table shows medians. Cold runs pass `--no-cache`; warm runs
use a cache folder of their own, primed by the warm-up. The edit appends a comment to one
workflow module (restored afterwards), so its run re-checks that module and what it reaches;
it is timed checking the tree, and again naming only that module, as pre-commit names the files
a commit changes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
# Runs a command and prints its wall time and the peak resident size of the largest process
# among it and the children it waited for (a pool's workers included).
_MEASURE = (
    "import resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
    "wall = time.perf_counter() - t\n"
    "print(wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def measure(command: list[str], cwd: Path) -> tuple[float, float]:
    """(seconds, peak MB) of one run of `command`."""
    out = subprocess.run(
        [sys.executable, "-c", _MEASURE, *command],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return float(out[0]), int(out[1]) / 1024


def output(command: list[str], cwd: Path) -> str:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False).stdout


def workflow_module(tree: Path) -> Path | None:
    """A workflow module of the tree to edit (the first the JSON report lists)."""
    report = output([str(BIN / "replaylint"), "check", "--no-cache", "--format", "json", "."], tree)
    modules = json.loads(report)["modules"] if report else []
    return tree / modules[0]["path"] if modules else None


def bench_tree(tree: Path, runs: int) -> dict:
    cache = Path(tempfile.mkdtemp(prefix="replaylint-bench-cache-"))
    # Runs naming files keep an index of their own: one naming a file does not leave the
    # tree's index up to date for the next run of the whole tree, nor the other way round.
    named_cache = Path(tempfile.mkdtemp(prefix="replaylint-bench-cache-"))
    replaylint = [str(BIN / "replaylint"), "check"]
    ruff = shutil.which("ruff", path=str(BIN)) or shutil.which("ruff")
    commands: dict[str, list[str]] = {
        "replaylint cold": [*replaylint, "--no-cache", "."],
        "replaylint cold --jobs 1": [*replaylint, "--no-cache", "--jobs", "1", "."],
        "replaylint warm": [*replaylint, "--cache-dir", str(cache), "."],
        "replaylint warm --format json": [
            *replaylint,
            "--cache-dir",
            str(cache),
            "--format",
            "json",
            ".",
        ],
    }
    if ruff:
        commands["ruff"] = [ruff, "check", "--no-cache", "--isolated", "--select", "DTZ,S311", "."]
    cold = output(commands["replaylint cold"], tree)
    for name in ("replaylint cold --jobs 1", "replaylint warm"):
        if output(commands[name], tree) != cold:
            raise SystemExit(f"{tree}: {name} reports differently from a cold run")
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    edited = workflow_module(tree)
    if edited is not None:  # the named runs' index, primed as the tree's is by the warm-up
        output([*replaylint, "--cache-dir", str(named_cache), str(edited.relative_to(tree))], tree)
    named = "replaylint warm, one module edited, named"  # as pre-commit passes changed files
    touched = "replaylint warm, one module touched"  # the index alone: no memo vouches for it
    if edited is not None:
        samples[touched] = []
        samples["replaylint warm, one module edited"] = []
        samples[named] = []
    original = edited.read_bytes() if edited is not None else b""
    try:
        # The warm rows first, with nothing changed between runs: from the second on, a warm
        # run is answered by the memo of the one before (src/replaylint/index/rerun.py).
        for _ in range(runs):
            for name, command in commands.items():
                samples[name].append(measure(command, tree))
        for _ in range(runs if edited is not None else 0):
            assert edited is not None
            os.utime(edited)  # a new stamp, the same bytes: the index reuses every record
            samples[touched].append(measure(commands["replaylint warm"], tree))
        for index in range(runs if edited is not None else 0):
            assert edited is not None
            edit = original + f"\n# bench edit {index}\n".encode()
            edited.write_bytes(edit)
            samples["replaylint warm, one module edited"].append(
                measure(commands["replaylint warm"], tree)
            )
            edited.write_bytes(edit + b"# named\n")
            only = [*replaylint, "--cache-dir", str(named_cache), str(edited.relative_to(tree))]
            samples[named].append(measure(only, tree))
            edited.write_bytes(edit)  # as the tree's index now has it
    finally:
        if edited is not None:
            edited.write_bytes(original)
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(named_cache, ignore_errors=True)
    rows = {
        name: {
            "seconds": statistics.median(s for s, _ in values),
            "peak_mb": statistics.median(m for _, m in values),
        }
        for name, values in samples.items()
    }
    base = rows.get("ruff", {}).get("seconds")
    cold_seconds = rows["replaylint cold"]["seconds"]
    for row in rows.values():
        row["x_ruff"] = row["seconds"] / base if base else None
        row["cold_over_this"] = cold_seconds / row["seconds"]
    parses = json.loads(output([sys.executable, str(HERE / "parses.py"), str(tree)], tree))
    return {
        "tree": str(tree),
        "edited": str(edited) if edited else None,
        "rows": rows,
        "parses": parses,
    }


def ordinary_tree() -> Path:
    sys.path.insert(0, str(HERE))
    from run import build_ordinary_tree  # the per-module bench's copy of installed code

    root = Path(tempfile.mkdtemp(prefix="replaylint-bench-"))
    return Path(build_ordinary_tree(root)["root"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="*", type=Path)
    parser.add_argument("--ordinary", action="store_true", help="the venv's library code")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path, default=HERE / "projects.json")
    args = parser.parse_args(argv)
    # Stopped by SIGTERM, unwind as on Ctrl-C, so the edited module is restored.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    trees = [t.resolve() for t in args.trees]
    if args.ordinary:
        trees.append(ordinary_tree())
    results = []
    for tree in trees:
        print(f"{tree}  ({os.cpu_count()} cores, {args.runs} runs, medians)", flush=True)
        result = bench_tree(tree, args.runs)
        results.append(result)
        for name, row in result["rows"].items():
            ratio = f"{row['x_ruff']:7.1f}x ruff" if row["x_ruff"] else ""
            print(
                f"  {name:42} {row['seconds']:7.3f} s  {row['peak_mb']:6.0f} MB  {ratio}"
                f"  cold/this {row['cold_over_this']:5.1f}"
            )
        parses = result["parses"]
        print(
            f"  LibCST parses per cold run {parses['parses']} for {parses['distinct_modules']}"
            f" distinct modules ({parses['workflow_modules']} workflow modules)"
        )
    args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
