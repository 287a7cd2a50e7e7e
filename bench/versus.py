"""Two versions of replaylint side by side on real trees, their runs interleaved so that a busy
machine weighs on both alike: cold (every core, and one), warm, and warm after a one-module
edit, as projects.py measures them; medians.

    .venv/bin/python bench/versus.py OLD_SRC PATH [PATH ...]    # e.g. a `git archive` of main
        --ordinary (the venv's library code too), --runs N (default 7), --json FILE

OLD_SRC is a folder holding the other version's `replaylint` package (and `rules/` beside it,
as in this repository: `git archive REF src rules | tar -x -C DIR`, then DIR/src); it is put
first on PYTHONPATH for the "before" runs, while the "after" runs use this venv's install. Both
sources are byte-compiled first, so neither side compiles its modules on every run.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
sys.path.insert(0, str(HERE))
from projects import measure, ordinary_tree, workflow_module  # noqa: E402  (projects.py's timing)


def _run(command: list[str], tree: Path, source: str | None) -> float:
    before = os.environ.get("PYTHONPATH")
    if source is not None:
        os.environ["PYTHONPATH"] = source
    try:
        return measure(command, tree)[0]
    finally:
        if before is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = before


def _warm_up(command: list[str], tree: Path, source: str | None) -> None:
    environment = dict(os.environ, **({"PYTHONPATH": source} if source else {}))
    done = subprocess.run(command, cwd=tree, env=environment, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"{tree}: {' '.join(command)} exits {done.returncode}: {last}")


def bench_tree(tree: Path, old: str, runs: int) -> dict[str, dict[str, float]]:
    # `python -m`, not the venv's entry script: the other version's package layout may differ
    # (an older one had `replaylint/cli.py` where this one has a `cli` package).
    check = [sys.executable, "-m", "replaylint", "check"]
    caches = {
        side: Path(tempfile.mkdtemp(prefix="replaylint-versus-")) for side in ("before", "after")
    }
    sources = {"before": old, "after": None}
    kinds = {
        "cold": ["--no-cache", "."],
        "cold --jobs 1": ["--no-cache", "--jobs", "1", "."],
        "warm": None,
    }
    samples: dict[str, dict[str, list[float]]] = {side: {} for side in sources}
    edited = workflow_module(tree)
    original = edited.read_bytes() if edited is not None else b""
    try:
        for side in sources:  # warm-up: fill each side's cache, and check that the side runs
            _warm_up([*check, "--cache-dir", str(caches[side]), "."], tree, sources[side])
        for index in range(runs):
            for kind, arguments in kinds.items():
                for side, source in sources.items():
                    args = arguments or ["--cache-dir", str(caches[side]), "."]
                    seconds = _run([*check, *args], tree, source)
                    samples[side].setdefault(kind, []).append(seconds)
            if edited is None:
                continue
            edited.write_bytes(original + f"\n# versus edit {index}\n".encode())
            for side, source in sources.items():
                seconds = _run([*check, "--cache-dir", str(caches[side]), "."], tree, source)
                samples[side].setdefault("warm, one module edited", []).append(seconds)
                # The other side sees the same edit as new: put the cache state back in step.
            edited.write_bytes(original)
            for side, source in sources.items():
                _run([*check, "--cache-dir", str(caches[side]), "."], tree, source)
    finally:
        if edited is not None:
            edited.write_bytes(original)
        for cache in caches.values():
            shutil.rmtree(cache, ignore_errors=True)
    return {
        side: {kind: statistics.median(values) for kind, values in kinds_.items()}
        for side, kinds_ in samples.items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="folder holding the other version's replaylint package")
    parser.add_argument("trees", nargs="*", type=Path)
    parser.add_argument("--ordinary", action="store_true", help="the venv's library code too")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", type=Path, default=HERE / "versus.json")
    args = parser.parse_args(argv)
    results = {}
    trees = [t.resolve() for t in args.trees] + ([ordinary_tree()] if args.ordinary else [])
    for source in (args.old, str(HERE.parent / "src")):
        # Both sides run from bytecode: with PYTHONDONTWRITEBYTECODE set (or a fresh `git
        # archive`), the other version would otherwise compile every module it imports, on
        # every run, and look slower than it is.
        compileall.compile_dir(source, quiet=2)
    for tree in trees:
        print(f"{tree}  ({os.cpu_count()} cores, {args.runs} runs, medians)", flush=True)
        medians = bench_tree(tree, str(Path(args.old).resolve()), args.runs)
        results[str(tree)] = medians
        for kind in medians["after"]:
            before, after = medians["before"][kind], medians["after"][kind]
            print(
                f"  {kind:26} before {before:7.3f} s  after {after:7.3f} s  {after / before:5.2f}x"
            )
    args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
