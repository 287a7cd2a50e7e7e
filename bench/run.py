"""Measures the guard's speed against the two targets of the issue, side by side in one run.

1. Per workflow module, in-process: `replaylint.guard_source` (parse + walk + findings +
   positions) must cost at most 2.5x `libcst.parse_module` alone (aim: 2x). `ast.parse` and a
   naive LibCST pipeline (parse + ScopeProvider + QualifiedNameProvider) are shown for context.
2. On a tree of ordinary code (installed library code, no workflow module), the whole
   `replaylint check` process must be at least as fast as
   `ruff check --no-cache --select DTZ,S311` on the same files.

Usage: .venv/bin/python bench/run.py [--runs N] [--modules N] [--quick] [--check] [--keep]
Numbers are medians over --runs repetitions; results also go to bench/results.json.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import gc
import importlib.metadata
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpus  # noqa: E402  (bench/corpus.py, found through the path set above)

from replaylint.project.discovery import DEFAULT_EXCLUDES  # noqa: E402

MARKER = b"__adk_workflow__"
GUARD_TARGET = 2.5  # guard_source / parse_module, per workflow module
GUARD_AIM = 2.0
TREE_TARGET = 1.0  # replaylint check / ruff check, whole process on the ordinary tree

# Directory names neither tool walks into by default (replaylint's discovery skips
# DEFAULT_EXCLUDES, and ruff's default `exclude` covers them); leaving them out of the copy
# keeps the file sets equal.
SKIPPED_DIRS = set(DEFAULT_EXCLUDES) | {
    # ... and these, which ruff's default `exclude` names too.
    "_build",
    "buck-out",
    "__pypackages__",
    ".direnv",
    ".bzr",
    ".pants.d",
    ".pytype",
    ".ipynb_checkpoints",
    ".vscode",
    "_vendor_tests",
}
# Standard-library folders left out: the test suites hold deliberately broken files.
STDLIB_SKIPPED = {"test", "tests", "idle_test"}


# ---------------------------------------------------------------------------- helpers


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000.0


def timed(fn, *args, **kwargs) -> tuple[float, object]:
    gc.collect()
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return time.perf_counter() - start, result


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------- workflow modules


def write_workflow_corpus(root: Path, count: int, seed: int) -> list[tuple[Path, str, list[str]]]:
    directory = root / "workflows"
    directory.mkdir(parents=True)
    modules = []
    for index in range(count):
        text, planted = corpus.generate(index, seed)
        path = directory / f"{corpus.DOMAINS[index % len(corpus.DOMAINS)]}_flow_{index:03d}.py"
        path.write_text(text, encoding="utf-8")
        modules.append((path, text, planted))
    return modules


def bench_workflow(modules: list[tuple[Path, str, list[str]]], runs: int) -> dict:
    import libcst
    from libcst.metadata import MetadataWrapper, QualifiedNameProvider, ScopeProvider

    import replaylint

    def naive(text: str) -> None:
        wrapper = MetadataWrapper(libcst.parse_module(text))
        wrapper.resolve_many([ScopeProvider, QualifiedNameProvider])

    # Warm-up: imports, the catalog, LibCST's parser and metadata machinery.
    path0, text0, _ = modules[0]
    libcst.parse_module(text0)
    ast.parse(text0)
    naive(text0)
    errors: list[str] = []
    with contextlib.suppress(Exception):  # a crash is reported below, per module
        replaylint.guard_source(text0, source=str(path0))

    samples: dict[str, dict[str, list[float]]] = {
        str(p): {"parse": [], "guard": [], "ast": []} for p, _, _ in modules
    }
    details: dict[str, dict] = {}
    broken: set[str] = set()
    for run in range(runs):
        for path, text, _planted in modules:
            key = str(path)
            entry = samples[key]
            seconds, _ = timed(libcst.parse_module, text)
            entry["parse"].append(seconds)
            if key not in broken:
                try:
                    seconds, report = timed(replaylint.guard_source, text, source=key)
                except Exception:
                    broken.add(key)
                    errors.append(f"guard_source crashed on {path.name}:\n{traceback.format_exc()}")
                else:
                    entry["guard"].append(seconds)
                    if run == 0:
                        details[key] = {
                            "findings": len(report.findings),
                            "exit_code": report.exit_code,
                            "codes": sorted(
                                {str(getattr(f.code, "value", f.code)) for f in report.findings}
                            ),
                        }
            seconds, _ = timed(ast.parse, text)
            entry["ast"].append(seconds)
        log(f"  workflow run {run + 1}/{runs} done")
    naive_samples: dict[str, float] = {}
    for path, text, _ in modules:  # slow, so once per module
        naive_samples[str(path)], _ = timed(naive, text)

    per_module = []
    for path, text, planted in modules:
        key = str(path)
        entry = samples[key]
        per_module.append(
            {
                "module": path.name,
                "lines": len(text.splitlines()),
                "planted_unsafe": planted,
                **details.get(key, {"findings": None, "exit_code": None, "codes": []}),
                "parse_ms": round(median_ms(entry["parse"]), 3),
                "guard_ms": round(median_ms(entry["guard"]), 3) if entry["guard"] else None,
                "ast_ms": round(median_ms(entry["ast"]), 3),
                "naive_ms": round(naive_samples[key] * 1000.0, 3),
            }
        )
    ok = [m for m in per_module if m["guard_ms"] is not None]

    def over_modules(name: str, rows: list[dict]) -> float:
        return statistics.median(m[name] for m in rows) if rows else float("nan")

    return {
        "modules": len(modules),
        "lines_median": statistics.median(m["lines"] for m in per_module),
        "findings_total": sum(m["findings"] or 0 for m in per_module),
        "parse_ms": over_modules("parse_ms", per_module),
        "guard_ms": over_modules("guard_ms", ok),
        "ast_ms": over_modules("ast_ms", per_module),
        "naive_ms": over_modules("naive_ms", per_module),
        # Median over modules of each module's own ratio (robust to module size).
        "guard_ratio": statistics.median(m["guard_ms"] / m["parse_ms"] for m in ok)
        if ok
        else float("nan"),
        "ast_ratio": statistics.median(m["ast_ms"] / m["parse_ms"] for m in per_module),
        "naive_ratio": statistics.median(m["naive_ms"] / m["parse_ms"] for m in per_module),
        "per_module": per_module,
        "errors": errors,
    }


# ---------------------------------------------------------------------------- ordinary tree


def library_sources() -> list[tuple[str, Path, set[str]]]:
    """(label, source directory, folder names to skip in it) for the installed library code."""
    purelib = Path(sysconfig.get_path("purelib"))
    stdlib = Path(sysconfig.get_path("stdlib"))
    sources = []
    for entry in sorted(purelib.iterdir()):
        if (
            entry.is_dir()
            and not entry.name.endswith((".dist-info", ".egg-info"))
            and entry.name not in SKIPPED_DIRS
        ):
            sources.append((f"site/{entry.name}", entry, set()))
    if stdlib.is_dir() and stdlib != purelib:
        sources.append(("stdlib", stdlib, STDLIB_SKIPPED))
    return sources


def build_ordinary_tree(root: Path) -> dict:
    target_root = root / "ordinary" / "libs"
    files = 0
    total_bytes = 0
    marked: list[str] = []
    packages: dict[str, int] = {}
    for label, source, skipped in library_sources():
        count = 0
        for directory, dirnames, filenames in os.walk(source):
            relative = Path(directory).relative_to(source)
            dirnames[:] = sorted(
                d
                for d in dirnames
                if d not in SKIPPED_DIRS
                and d not in skipped
                and not os.path.exists(os.path.join(directory, d, "pyvenv.cfg"))
            )
            for name in sorted(filenames):
                if not name.endswith(".py"):
                    continue
                src = Path(directory) / name
                try:
                    data = src.read_bytes()
                except OSError:
                    continue
                if MARKER in data:  # a workflow module would not be "ordinary code"
                    marked.append(str(src))
                    continue
                dst = target_root / label / relative / name
                dst.parent.mkdir(parents=True, exist_ok=True)
                dst.write_bytes(data)
                count += 1
                total_bytes += len(data)
        if count:
            packages[label] = count
            files += count
    return {
        "root": target_root,
        "files": files,
        "bytes": total_bytes,
        "packages": packages,
        "marked_skipped": marked,
    }


def ruff_binary() -> str | None:
    local = Path(sys.executable).parent / "ruff"
    if local.exists():
        return str(local)
    return shutil.which("ruff")


def ruff_command(ruff: str, directory: Path) -> list[str]:
    base = [ruff, "check", "--no-cache", "--isolated", "--select", "DTZ,S311"]
    probe = subprocess.run(
        [*base, "--no-respect-gitignore", "--show-files", str(directory)],
        check=False,
        capture_output=True,
        text=True,
    )
    if probe.returncode == 2 and "no-respect-gitignore" in probe.stderr:
        return [*base, str(directory)]
    return [*base, "--no-respect-gitignore", str(directory)]


def ruff_file_count(command: list[str]) -> int | None:
    result = subprocess.run(
        [*command[:-1], "--show-files", command[-1]], check=False, capture_output=True, text=True
    )
    if result.returncode not in (0, 1):
        return None
    return sum(1 for line in result.stdout.splitlines() if line.strip().endswith(".py"))


def run_process(command: list[str], cwd: Path) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    result = subprocess.run(command, check=False, cwd=cwd, capture_output=True)
    return time.perf_counter() - start, result


def bench_ordinary(root: Path, runs: int) -> dict:
    log("  copying installed library code ...")
    tree = build_ordinary_tree(root)
    directory: Path = tree["root"]
    empty = root / "empty"
    empty.mkdir()
    bindir = Path(sys.executable).parent
    replaylint = bindir / "replaylint"
    replaylint_cmd = [
        str(replaylint) if replaylint.exists() else shutil.which("replaylint") or "replaylint",
        "check",
        "--no-cache",  # cold: every file read and decided, as ruff --no-cache does
        str(directory),
    ]
    ruff = ruff_binary()
    commands: dict[str, list[str]] = {
        "replaylint": replaylint_cmd,
        "python": [sys.executable, "-c", "pass"],
        "replaylint_empty": [replaylint_cmd[0], "check", "--no-cache", str(empty)],
    }
    errors: list[str] = []
    if ruff is None:
        errors.append("ruff not found (neither in the venv nor on PATH)")
    else:
        commands["ruff"] = ruff_command(ruff, directory)

    # Warm-up (page cache, bytecode) and sanity checks on exit codes and output.
    first: dict[str, subprocess.CompletedProcess] = {}
    for name, command in commands.items():
        first[name] = run_process(command, root)[1]
    expect = {"replaylint": (0,), "ruff": (0, 1), "python": (0,), "replaylint_empty": (0,)}
    for name, result in first.items():
        if result.returncode not in expect[name]:
            errors.append(
                f"{name} exited {result.returncode}: {' '.join(commands[name])}\n"
                f"{result.stderr.decode(errors='replace')[-2000:]}"
            )
    out = first["replaylint"].stdout.decode(errors="replace")
    checked = re.search(r"(\d+) files? checked", out)
    ruff_files = ruff_file_count(commands["ruff"]) if "ruff" in commands else None
    ruff_findings = None
    if "ruff" in first:
        found = re.search(r"Found (\d+) error", first["ruff"].stdout.decode(errors="replace"))
        ruff_findings = int(found.group(1)) if found else 0

    samples: dict[str, list[float]] = {name: [] for name in commands}
    order = list(commands)
    for run in range(runs):
        for name in (
            order if run % 2 == 0 else reversed(order)
        ):  # alternate, so neither always goes first
            seconds, _ = run_process(commands[name], root)
            samples[name].append(seconds)
        log(f"  ordinary-tree run {run + 1}/{runs} done")
    medians = {name: median_ms(values) for name, values in samples.items()}
    return {
        "files": tree["files"],
        "bytes": tree["bytes"],
        "packages": tree["packages"],
        "marked_skipped": tree["marked_skipped"],
        "replaylint_files_checked": int(checked.group(1)) if checked else None,
        "replaylint_output_tail": out.strip().splitlines()[-1] if out.strip() else "",
        "ruff_files": ruff_files,
        "ruff_findings": ruff_findings,
        "commands": {name: " ".join(command) for name, command in commands.items()},
        "median_ms": medians,
        "samples_ms": {
            name: [round(s * 1000.0, 2) for s in values] for name, values in samples.items()
        },
        "ratio": medians["replaylint"] / medians["ruff"] if "ruff" in medians else float("nan"),
        "errors": errors,
    }


# ---------------------------------------------------------------------------- report


def versions() -> dict:
    import libcst

    try:
        libcst_version = importlib.metadata.version("libcst")
    except importlib.metadata.PackageNotFoundError:
        libcst_version = getattr(libcst, "__version__", "?")
    ruff = ruff_binary()
    ruff_version = (
        subprocess.run(
            [ruff, "--version"], check=False, capture_output=True, text=True
        ).stdout.strip()
        if ruff
        else None
    )
    try:
        from libcst import native  # noqa: F401

        parser = "native"
    except ImportError:
        parser = "unknown"
    import replaylint

    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "libcst": libcst_version,
        "libcst_parser": parser,
        "ruff": ruff_version,
        "replaylint": replaylint.__version__,
    }


def build_rows(workflow: dict, ordinary: dict) -> list[dict]:
    def status(ratio: float, target: float) -> str:
        if math.isnan(ratio):
            return "ERROR"
        return "PASS" if ratio <= target else "FAIL"

    n = workflow["modules"]
    files = ordinary["files"]
    m = ordinary["median_ms"]
    ruff_ms = m.get("ruff", float("nan"))
    rows = [
        {
            "name": f"libcst.parse_module  ({n} workflow modules, ~{int(workflow['lines_median'])} lines)",
            "median_ms": workflow["parse_ms"],
            "ratio": 1.0,
            "vs": "parse",
            "target": "baseline",
            "status": "",
        },
        {
            "name": "replaylint.guard_source (parse+walk+findings+positions)",
            "median_ms": workflow["guard_ms"],
            "ratio": workflow["guard_ratio"],
            "vs": "parse",
            "target": f"<= {GUARD_TARGET} (aim {GUARD_AIM})",
            "status": status(workflow["guard_ratio"], GUARD_TARGET),
        },
        {
            "name": "ast.parse (context)",
            "median_ms": workflow["ast_ms"],
            "ratio": workflow["ast_ratio"],
            "vs": "parse",
            "target": "-",
            "status": "",
        },
        {
            "name": "naive LibCST: parse + Scope + QualifiedName (context)",
            "median_ms": workflow["naive_ms"],
            "ratio": workflow["naive_ratio"],
            "vs": "parse",
            "target": "-",
            "status": "",
        },
        {
            "name": f"ruff check --select DTZ,S311  ({files} ordinary files)",
            "median_ms": ruff_ms,
            "ratio": 1.0,
            "vs": "ruff",
            "target": "baseline",
            "status": "",
        },
        {
            "name": "replaylint check (whole process)",
            "median_ms": m["replaylint"],
            "ratio": ordinary["ratio"],
            "vs": "ruff",
            "target": f"<= {TREE_TARGET}",
            "status": status(ordinary["ratio"], TREE_TARGET),
        },
        {
            "name": "python -c pass (context)",
            "median_ms": m["python"],
            "ratio": m["python"] / ruff_ms,
            "vs": "ruff",
            "target": "-",
            "status": "",
        },
        {
            "name": "replaylint check <empty dir> (startup, context)",
            "median_ms": m["replaylint_empty"],
            "ratio": m["replaylint_empty"] / ruff_ms,
            "vs": "ruff",
            "target": "-",
            "status": "",
        },
    ]
    return rows


def format_table(rows: list[dict]) -> str:
    header = ("measurement", "median ms", "ratio", "vs", "target", "result")
    lines = [
        [r["name"], f"{r['median_ms']:.1f}", f"{r['ratio']:.2f}", r["vs"], r["target"], r["status"]]
        for r in rows
    ]
    widths = [max(len(str(row[i])) for row in [header, *lines]) for i in range(len(header))]
    align = ["<", ">", ">", "<", "<", "<"]

    def render(row) -> str:
        return "  ".join(
            f"{cell!s:{a}{w}}" for cell, a, w in zip(row, align, widths, strict=True)
        ).rstrip()

    out = [render(header), render(["-" * w for w in widths])]
    for index, row in enumerate(lines):
        if index == 4:
            out.append("")
        out.append(render(row))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--runs",
        type=int,
        default=None,
        help="repetitions per measurement (default 7; 3 with --quick)",
    )
    parser.add_argument(
        "--modules",
        type=int,
        default=None,
        help="generated workflow modules (default 20; 5 with --quick)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="fewer runs and modules, for a smoke test"
    )
    parser.add_argument("--seed", type=int, default=1, help="corpus seed (default 1)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument(
        "--keep", action="store_true", help="keep the temporary corpora and print where"
    )
    parser.add_argument(
        "--json", type=Path, default=HERE / "results.json", help="where to write the results"
    )
    args = parser.parse_args(argv)
    runs = args.runs or (3 if args.quick else 7)
    count = args.modules or (5 if args.quick else 20)
    if runs < 1 or count < 1:
        parser.error("--runs and --modules must be at least 1")

    root = Path(tempfile.mkdtemp(prefix="replaylint-bench-"))
    started = time.perf_counter()
    try:
        log(f"corpora under {root}")
        log(f"workflow modules: generating {count} (seed {args.seed}), {runs} runs each ...")
        modules = write_workflow_corpus(root, count, args.seed)
        workflow = bench_workflow(modules, runs)
        log(f"ordinary tree: {runs} runs of each process ...")
        ordinary = bench_ordinary(root, runs)
    finally:
        if args.keep:
            log(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    elapsed = time.perf_counter() - started

    rows = build_rows(workflow, ordinary)
    errors = workflow["errors"] + ordinary["errors"]
    if ordinary["ruff_files"] is not None and ordinary["ruff_files"] != ordinary["files"]:
        errors.append(f"ruff saw {ordinary['ruff_files']} files, the tree has {ordinary['files']}")
    checked = ordinary["replaylint_files_checked"]
    if checked is not None and checked != ordinary["files"]:
        errors.append(f"replaylint checked {checked} files, the tree has {ordinary['files']}")
    passed = all(r["status"] in ("", "PASS") for r in rows) and not workflow["errors"]

    print(format_table(rows))
    print()
    print(
        f"workflow corpus: {workflow['modules']} modules, median {workflow['lines_median']:.0f} lines, "
        f"{workflow['findings_total']} findings in all; medians of {runs} runs per module, "
        f"then the median over modules (ratios: median of per-module ratios)"
    )
    print(
        f"ordinary tree: {ordinary['files']} .py files ({ordinary['bytes'] / 1e6:.1f} MB) from "
        f"{sum(1 for p in ordinary['packages'] if p.startswith('site/'))} installed packages + the stdlib; ruff saw {ordinary['ruff_files']}, "
        f"replaylint checked {checked}; ruff reported {ordinary['ruff_findings']} findings; "
        f"{len(ordinary['marked_skipped'])} marked files left out"
    )
    print(f"total bench time {elapsed:.0f} s; {'all targets met' if passed else 'TARGET MISSED'}")
    for error in errors:
        print(f"\nerror: {error}", file=sys.stderr)

    results = {
        "environment": versions(),
        "parameters": {"runs": runs, "modules": count, "seed": args.seed, "quick": args.quick},
        "targets": {
            "guard_over_parse": GUARD_TARGET,
            "guard_over_parse_aim": GUARD_AIM,
            "replaylint_over_ruff": TREE_TARGET,
        },
        "rows": [
            {k: (round(v, 3) if isinstance(v, float) else v) for k, v in r.items()} for r in rows
        ],
        "passed": passed,
        "workflow": {k: v for k, v in workflow.items() if k != "errors"},
        "ordinary": ordinary,
        "errors": errors,
        "bench_seconds": round(elapsed, 1),
    }
    args.json.write_text(json.dumps(results, indent=2, default=str) + "\n", encoding="utf-8")
    log(f"results written to {args.json}")
    return 1 if args.check and (not passed or errors) else 0


if __name__ == "__main__":
    sys.exit(main())
