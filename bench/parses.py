"""How many times one cold run parses a module with LibCST, against the distinct modules it
parses and the workflow modules it reports: the measure of "each module parsed at most once".

    .venv/bin/python bench/parses.py TREE          # prints parses, distinct modules, workflow modules

It runs the check in this process with `--jobs 1` (every batch in turn, so every parse is seen)
and counts each module the run loads (Project.load on a module the batch has not read yet).
"""

from __future__ import annotations

import collections
import contextlib
import io
import json
import os
import sys
from pathlib import Path


def count(tree: Path) -> dict[str, int]:
    import replaylint.engine.project as project
    import replaylint.index.running as running
    from replaylint.cli.main import main

    # A module over this size is checked in a worker process even with `--jobs 1`, where the
    # counter below would not see its parses: here every batch stays in this process.
    in_process = running.IN_PROCESS_BYTES
    running.IN_PROCESS_BYTES = sys.maxsize  # type: ignore[misc]

    parsed: collections.Counter[str] = collections.Counter()
    original = project.Project.load

    def load(self, path, source, *args, **kwargs):  # type: ignore[no-untyped-def]
        key = project.module_key(path)
        if self.modules.get(key) is None:
            parsed[str(key)] += 1
        return original(self, path, source, *args, **kwargs)

    project.Project.load = load  # type: ignore[method-assign]
    report = io.StringIO()
    previous, argv = Path.cwd(), sys.argv
    os.chdir(tree)
    sys.argv = ["replaylint", "check", "--no-cache", "--jobs", "1", "--format", "json", "."]
    try:
        with contextlib.redirect_stdout(report), contextlib.suppress(SystemExit):
            main()
    finally:
        os.chdir(previous)
        sys.argv = argv
        project.Project.load = original  # type: ignore[method-assign]
        running.IN_PROCESS_BYTES = in_process  # type: ignore[misc]
    modules = json.loads(report.getvalue()).get("modules", [])
    return {
        "parses": sum(parsed.values()),
        "distinct_modules": len(parsed),
        "workflow_modules": len(modules),
    }


if __name__ == "__main__":
    print(json.dumps(count(Path(sys.argv[1]).resolve())))
