"""Latency of `replaylint server`: from the end of the debounce to the publishDiagnostics.

The real server is started over stdio (`python -m replaylint server`) and driven by the small
JSON-RPC client below. A generated 500-line Temporal workflow module (many signal handlers, some
reading the clock or calling an unsafe helper) is opened and edited 10 times, each edit waiting
for its diagnostics. The time from sending an edit to its publishDiagnostics, less the configured
debounce, is the time from the debounce's end to the publish: the check, its diagnostics and the
round trip. A second run with `debounceMs: 0` measures the same with no wait at all, and a third
saves the helper with several workflow modules open, each of which is checked again.

Usage: .venv/bin/python bench/lsp.py [--edits N] [--open N] [--keep]
Target: median <= 100 ms after the debounce.
"""

from __future__ import annotations

import argparse
import json
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

SERVER = [sys.executable, "-m", "replaylint", "server"]
TARGET_MS = 100.0
DEBOUNCE_MS = 150
LINES = 500

HELPERS = """import uuid


def make_id():
    return str(uuid.uuid4())
"""


def workflow_module(lines: int = LINES) -> str:
    """A Temporal workflow class of `lines` lines: one run method and many signal handlers; every
    7th handler reads the clock (ADK-W003) and every 11th calls an unsafe helper (ADK-W005)."""
    out = [
        '"""Generated for bench/lsp.py: a long Temporal workflow."""',
        "",
        "import time",
        "",
        "from temporalio import workflow",
        "",
        "from helpers import make_id",
        "",
        "",
        "@workflow.defn",
        "class LongWorkflow:",
    ]
    step = 0
    while len(out) < lines - 9:
        decorator = "@workflow.run" if step == 0 else "@workflow.signal"
        clock = "time.time()" if step % 7 == 3 else "float(total)"
        ident = "make_id()" if step % 11 == 5 else "str(total)"
        out += [
            f"    {decorator}",
            f"    async def step_{step}(self, value: int) -> int:",
            f"        total = value + {step}",
            "        for k in range(3):",
            f"            total += k * {step}",
            f"        started = {clock}",
            f"        ident = {ident}",
            "        return total + len(ident) + int(started)",
            "",
        ]
        step += 1
    while len(out) < lines:
        out.append("")
    return "\n".join(out) + "\n"


class Client:
    """JSON-RPC over the server's stdin and stdout; notifications land in a queue."""

    def __init__(self, command: list[str], cwd: Path) -> None:
        self.process = subprocess.Popen(
            command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        self.incoming: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while True:
                header = stream.readline()
                if not header:
                    return
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            message = json.loads(stream.read(length))
            self.incoming.put((time.perf_counter(), message))

    def send(self, message: dict[str, Any]) -> float:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.process.stdin is not None
        sent = time.perf_counter()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()
        return sent

    def notify(self, method: str, params: Any) -> float:
        return self.send({"method": method, "params": params})

    def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        wanted = self.next_id
        self.send({"id": wanted, "method": method, "params": params})
        while True:
            _, message = self.incoming.get(timeout=60)
            if message.get("id") == wanted and "method" not in message:
                return message.get("result")
            if "method" in message and "id" in message:  # a request of the server's: accept it
                self.send({"id": message["id"], "result": None})

    def published(self, uri: str, version: int | None = None) -> tuple[float, list[Any]]:
        """(arrival time, diagnostics) of the next publish for `uri` (at `version`)."""
        while True:
            arrived, message = self.incoming.get(timeout=60)
            if message.get("method") != "textDocument/publishDiagnostics":
                continue
            params = message["params"]
            if params["uri"] == uri and (version is None or params.get("version") == version):
                return arrived, params["diagnostics"]

    def close(self) -> None:
        self.request("shutdown", None)
        self.notify("exit", None)
        self.process.wait(timeout=30)


def start(root: Path, debounce_ms: int) -> Client:
    client = Client(SERVER, cwd=root)
    client.request(
        "initialize",
        {
            "processId": None,
            "rootUri": root.as_uri(),
            "capabilities": {},
            "initializationOptions": {"debounceMs": debounce_ms},
        },
    )
    client.notify("initialized", {})
    return client


def open_document(client: Client, path: Path) -> list[Any]:
    uri = path.as_uri()
    client.notify(
        "textDocument/didOpen",
        {
            "textDocument": {
                "uri": uri,
                "languageId": "python",
                "version": 1,
                "text": path.read_text(),
            }
        },
    )
    return client.published(uri, 1)[1]


def edit_latencies(root: Path, debounce_ms: int, edits: int) -> tuple[list[float], list[int]]:
    """Milliseconds from each edit to its publish, less the debounce; the findings after each."""
    client = start(root, debounce_ms)
    flow = root / "flow.py"
    uri = flow.as_uri()
    open_document(client, flow)  # the first check also imports the engine: not measured
    lines = flow.read_text().splitlines()
    targets = [n for n, line in enumerate(lines) if line.strip().startswith("started = ")]
    latencies, counts = [], []
    for version in range(2, edits + 2):
        line = targets[(version * 5) % len(targets)]
        old = lines[line]
        new = (
            old.replace("float(total)", "time.time()")
            if "float(total)" in old
            else old.replace("time.time()", "float(total)")
        )
        lines[line] = new
        change = {
            "range": {
                "start": {"line": line, "character": 0},
                "end": {"line": line, "character": len(old)},
            },
            "text": new,
        }
        sent = client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
        )
        arrived, diagnostics = client.published(uri, version)
        latencies.append((arrived - sent) * 1000 - debounce_ms)
        counts.append(len(diagnostics))
    client.close()
    return latencies, counts


def save_latency(root: Path, documents: int) -> tuple[float, int]:
    """Milliseconds from saving the helper to the last open workflow's publish, less the
    debounce, with `documents` workflow modules open (each is checked again)."""
    client = start(root, DEBOUNCE_MS)
    paths = [root / "flow.py"] + [root / f"flow_{n}.py" for n in range(1, documents)]
    for path in paths[1:]:
        shutil.copyfile(root / "flow.py", path)
    for path in paths:
        open_document(client, path)
    sent = client.notify(
        "textDocument/didSave", {"textDocument": {"uri": (root / "helpers.py").as_uri()}}
    )
    waiting = {path.as_uri() for path in paths}
    last = sent
    while waiting:
        arrived, message = client.incoming.get(timeout=60)
        if message.get("method") == "textDocument/publishDiagnostics":
            if message["params"]["uri"] in waiting:
                waiting.discard(message["params"]["uri"])
                last = arrived
    client.close()
    return (last - sent) * 1000 - DEBOUNCE_MS, len(paths)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--open", type=int, default=5, help="workflow modules open for the save")
    parser.add_argument("--keep", action="store_true", help="keep the generated workspace")
    options = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="replaylint-lsp-bench-"))
    try:
        (root / ".git").mkdir()
        (root / "pyproject.toml").write_text('[project]\nname = "bench"\n')
        (root / "helpers.py").write_text(HELPERS)
        (root / "flow.py").write_text(workflow_module())
        lines = len((root / "flow.py").read_text().splitlines())
        debounced, counts = edit_latencies(root, DEBOUNCE_MS, options.edits)
        immediate, _ = edit_latencies(root, 0, options.edits)
        saved, opened = save_latency(root, options.open)
    finally:
        if not options.keep:
            shutil.rmtree(root, ignore_errors=True)
    median = statistics.median(debounced)
    print(f"workflow module: {lines} lines; diagnostics after each edit: {counts}")
    print(
        f"edit -> publish, less the {DEBOUNCE_MS} ms debounce ({options.edits} edits): "
        f"median {median:.1f} ms, min {min(debounced):.1f}, max {max(debounced):.1f}"
    )
    later = statistics.median(debounced[1:]) if len(debounced) > 1 else median
    print(f"first edit after opening: {debounced[0]:.1f} ms (later edits: median {later:.1f})")
    print(
        f"edit -> publish with debounceMs 0 ({options.edits} edits): "
        f"median {statistics.median(immediate):.1f} ms, max {max(immediate):.1f}"
    )
    print(
        f"helper saved, {opened} workflow modules open -> last publish, less the debounce: "
        f"{saved:.1f} ms"
    )
    verdict = "PASS" if median <= TARGET_MS else "FAIL"
    print(f"target: median <= {TARGET_MS:.0f} ms after the debounce: {verdict}")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
