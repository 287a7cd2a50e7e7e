"""The spawned child of isolate.py: read what to call from stdin, write its JSON answer to a file."""

from __future__ import annotations

import importlib
import json
import os
import sys
from typing import Any


def main() -> None:
    """``python -m replaylint.harness.child`` with ``{"target", "args", "sys_path", "answer"}`` on stdin."""
    spec = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    sys.path[:] = spec["sys_path"]  # the caller's imports, its project root first
    module_name, _, name = spec["target"].partition(":")
    function: Any = importlib.import_module(module_name)
    for part in name.split("."):
        function = getattr(function, part)
    payload = json.dumps({"value": function(*spec["args"])})
    with open(spec["answer"], "w", encoding="utf-8") as answer:
        answer.write(payload)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)  # what the workflow left behind (threads, atexit hooks, loops) is not waited for


if __name__ == "__main__":
    main()
