"""Where a cold check's time goes, by phase: LibCST's parse, the walk (resolving values,
building functions and calls), the rules' judgement, the report, and the rest.

    .venv/bin/python bench/where_time_goes.py TREE [TREE ...]   # also: --lsp-module (bench/lsp.py's
                                                        # 500-line workflow module), --top N

The check runs in this process with `--jobs 1`, profiled by cProfile inside the thread that
checks (where every batch runs). A function's own time goes to the first phase its stack passes
through, innermost first, so a parse inside a walk counts as parse. bench/where_time_goes.md keeps a
summary of one run.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import os
import pstats
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Phases by the module a function lives in; the first that matches, innermost frame first.
PHASES = (
    ("parse", ("libcst/_parser", "libcst/_nodes", "replaylint/parse/")),
    ("judge", ("replaylint/rules/", "replaylint/engine/confirm", "replaylint/graph/")),
    ("walk", ("replaylint/resolve/", "replaylint/presets/", "libcst/")),
    ("report", ("replaylint/report/", "replaylint/reporters/", "replaylint/fixes/")),
    ("engine", ("replaylint/engine/", "replaylint/index/", "replaylint/project/")),
)


def _phase(filename: str) -> str | None:
    for phase, parts in PHASES:
        if any(part in filename for part in parts):
            return phase
    return None


def profile(tree: Path) -> pstats.Stats:
    import replaylint.engine.check as check
    import replaylint.index.running as running
    from replaylint.cli.main import main
    from replaylint.parse import stacks

    profiler = cProfile.Profile()
    fresh = stacks.on_fresh_stack

    def profiled(work, size, name):  # type: ignore[no-untyped-def]
        if name != "replaylint-check":
            return fresh(work, size, name)
        profiler.enable()
        try:
            return work()
        finally:
            profiler.disable()

    check.stacks.on_fresh_stack = profiled  # type: ignore[attr-defined]
    # A module over this size is checked in a worker process even with `--jobs 1`, out of
    # the profiler's sight: here every batch stays in this process.
    in_process, running.IN_PROCESS_BYTES = running.IN_PROCESS_BYTES, sys.maxsize  # type: ignore[misc]
    previous, argv = Path.cwd(), sys.argv
    os.chdir(tree)
    sys.argv = ["replaylint", "check", "--no-cache", "--jobs", "1", "--format", "json", "."]
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
            main()
    finally:
        os.chdir(previous)
        sys.argv = argv
        check.stacks.on_fresh_stack = fresh  # type: ignore[attr-defined]
        running.IN_PROCESS_BYTES = in_process  # type: ignore[misc]
    return pstats.Stats(profiler)


def by_phase(stats: pstats.Stats) -> dict[str, float]:
    """Own time of every function, summed by the phase of the innermost frame that has one
    (a builtin's time goes to its caller's phase)."""
    totals: dict[str, float] = {}
    table = stats.stats  # type: ignore[attr-defined]
    for (filename, _, _), (_, _, own, _, callers) in table.items():
        phase = _phase(filename)
        if phase is None and callers:
            heaviest = max(callers.items(), key=lambda item: item[1][2])[0]
            phase = _phase(heaviest[0])
        totals[phase or "other"] = totals.get(phase or "other", 0.0) + own
    return totals


def lsp_module_tree() -> Path:
    sys.path.insert(0, str(HERE))
    from lsp import workflow_module

    root = Path(tempfile.mkdtemp(prefix="replaylint-profile-"))
    (root / "workflow.py").write_text(workflow_module(), encoding="utf-8")
    return root


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="*", type=Path)
    parser.add_argument("--lsp-module", action="store_true")
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args(argv)
    trees = [t.resolve() for t in args.trees]
    if args.lsp_module:
        trees.append(lsp_module_tree())
    for tree in trees:
        stats = profile(tree)
        phases = by_phase(stats)
        total = sum(phases.values())
        print(f"{tree}: {total:.2f} s in the check thread")
        for phase, seconds in sorted(phases.items(), key=lambda item: -item[1]):
            print(f"  {phase:8} {seconds:6.2f} s  {100 * seconds / total:4.0f}%")
        out = io.StringIO()
        stats.stream = out  # type: ignore[attr-defined]
        stats.sort_stats("tottime").print_stats(args.top)
        lines = [line for line in out.getvalue().splitlines() if line.strip()]
        print("\n".join("    " + line for line in lines[-args.top - 1 :]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
