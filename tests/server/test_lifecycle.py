"""LSP 3.17's promises, kept by the real `replaylint server` over raw stdio: lifecycle error
codes and exit statuses, framing errors detected and recovered from (or a logged exit, never a
deaf server), and answers while a long check runs."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

TIMEOUT = 30


class Raw:
    """A client that writes bytes as it is told, framing errors included."""

    def __init__(self, cwd: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "replaylint", "server"],
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.answered: dict[int, dict[str, Any]] = {}
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        while True:
            length = 0
            while True:
                line = stdout.readline()
                if not line:
                    return
                if line == b"\r\n":
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.messages.put(json.loads(stdout.read(length)))

    def send_bytes(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: dict[str, Any], length: int | None = None) -> None:
        body = json.dumps(message, ensure_ascii=False).encode("utf-8")
        header = f"Content-Length: {len(body) if length is None else length}\r\n\r\n"
        self.send_bytes(header.encode("ascii") + body)

    def request(self, id_: int, method: str, params: Any = None) -> None:
        self.send({"jsonrpc": "2.0", "id": id_, "method": method, "params": params})

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def response(self, id_: int) -> dict[str, Any]:
        """The response to request `id_` (others that arrive first are kept for later)."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            if id_ in self.answered:
                return self.answered.pop(id_)
            try:
                message = self.messages.get(timeout=0.1)
            except queue.Empty:
                continue
            if "id" in message and "method" not in message:
                self.answered[message["id"]] = message
        raise AssertionError(f"no response to request {id_}")

    def initialize(self, root: Path) -> None:
        self.request(
            1, "initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}
        )
        assert "result" in self.response(1)
        self.notify("initialized", {})

    def wait(self) -> tuple[int, str]:
        status = self.process.wait(timeout=TIMEOUT)
        assert self.process.stderr is not None
        return status, self.process.stderr.read().decode("utf-8", "replace")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture()
def raw(tmp_path: Path):
    (tmp_path / ".git").mkdir()
    client = Raw(tmp_path)
    yield client
    client.close()


HOVER = {"textDocument": {"uri": "file:///nowhere.py"}, "position": {"line": 0, "character": 0}}


def test_a_request_before_initialize_is_refused_with_32002(raw: Raw, tmp_path: Path) -> None:
    raw.request(7, "textDocument/hover", HOVER)
    assert raw.response(7)["error"]["code"] == -32002
    raw.initialize(tmp_path)
    raw.request(2, "shutdown")
    assert raw.response(2) == {"jsonrpc": "2.0", "id": 2, "result": None}
    raw.notify("exit")
    status, stderr = raw.wait()
    assert status == 0
    assert "Traceback" not in stderr


def test_a_request_after_shutdown_is_invalid_and_exit_without_shutdown_is_1(
    raw: Raw, tmp_path: Path
) -> None:
    raw.initialize(tmp_path)
    raw.request(2, "shutdown")
    raw.response(2)
    raw.request(3, "textDocument/hover", HOVER)
    assert raw.response(3)["error"]["code"] == -32600
    raw.notify("exit")
    assert raw.wait()[0] == 0
    again = Raw(tmp_path)
    try:
        again.initialize(tmp_path)
        again.notify("exit")
        assert again.wait()[0] == 1
    finally:
        again.close()


WORKFLOW = (
    "import time\n\n__adk_workflow__ = True\n\n\ndef run():\n    return time.time()  # ⏰ é\n"
)


def _open(raw: Raw, path: Path, text: str, length_in_characters: bool = False) -> None:
    message = {
        "jsonrpc": "2.0",
        "method": "textDocument/didOpen",
        "params": {
            "textDocument": {
                "uri": path.as_uri(),
                "languageId": "python",
                "version": 1,
                "text": text,
            }
        },
    }
    body = json.dumps(message, ensure_ascii=False)
    raw.send(message, length=len(body) if length_in_characters else None)


def test_a_length_counted_in_characters_is_detected_and_the_server_stays_responsive(
    raw: Raw, tmp_path: Path
) -> None:
    raw.initialize(tmp_path)
    path = tmp_path / "flow.py"
    path.write_text(WORKFLOW, encoding="utf-8")
    _open(raw, path, WORKFLOW, length_in_characters=True)  # 4 bytes too short
    raw.request(
        5,
        "textDocument/hover",
        {"textDocument": {"uri": path.as_uri()}, "position": {"line": 6, "character": 14}},
    )
    answer = raw.response(5)
    assert "ADK-W003" in answer["result"]["contents"]["value"]  # the cut message was recovered
    raw.request(6, "shutdown")
    raw.response(6)
    raw.notify("exit")
    status, stderr = raw.wait()
    assert status == 0
    assert "framing error: a body cut short (Content-Length counted characters?)" in stderr


def test_a_header_inside_a_body_is_detected(raw: Raw, tmp_path: Path) -> None:
    raw.initialize(tmp_path)
    message = json.dumps({"jsonrpc": "2.0", "id": 9, "method": "shutdown"}).encode()
    follow = json.dumps({"jsonrpc": "2.0", "method": "exit"}).encode()
    frame = b"Content-Length: %d\r\n\r\n" % (len(message) + 30) + message
    raw.send_bytes(frame + b"Content-Length: %d\r\n\r\n" % len(follow) + follow)
    assert raw.response(9)["result"] is None
    status, stderr = raw.wait()
    assert status == 0
    assert "framing error: a header inside the body (Content-Length too long)" in stderr


def test_an_unreadable_stream_ends_the_server_with_the_reason(raw: Raw, tmp_path: Path) -> None:
    raw.initialize(tmp_path)
    raw.send_bytes(b"Content-Length: twelve\r\n\r\n{}")
    status, stderr = raw.wait()
    assert status == 1
    assert "replaylint server: stopping: framing error: Content-Length is not a number" in stderr


def _long_module() -> str:
    lines = ["import time", "__adk_workflow__ = True", ""]
    for i in range(3000):
        lines += [f"def f{i}(a, b):", "    if a > b:", f"        return a + b * {i}", ""]
    return "\n".join(lines) + "\n"


def test_hovers_and_cancellations_are_answered_while_a_long_check_runs(
    raw: Raw, tmp_path: Path
) -> None:
    raw.initialize(tmp_path)
    small = tmp_path / "flow.py"
    small.write_text(WORKFLOW, encoding="utf-8")
    _open(raw, small, WORKFLOW)
    hover = {"textDocument": {"uri": small.as_uri()}, "position": {"line": 6, "character": 14}}
    raw.request(2, "textDocument/hover", hover)
    assert "ADK-W003" in raw.response(2)["result"]["contents"]["value"]
    big = tmp_path / "big.py"
    text = _long_module()
    big.write_text(text)
    _open(raw, big, text)  # a check of seconds starts
    time.sleep(0.3)
    started = time.monotonic()
    at_top = {"textDocument": {"uri": big.as_uri()}, "position": {"line": 0, "character": 0}}
    raw.request(3, "textDocument/hover", at_top)  # waits for that check...
    raw.notify("$/cancelRequest", {"id": 3})  # ...until cancelled
    assert raw.response(3)["error"]["code"] == -32800
    # An edit makes the small document's check stale: its hover needs a check of its own,
    # which does not queue behind the long one.
    edited = WORKFLOW.replace("# ⏰ é", "# edited")
    raw.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": small.as_uri(), "version": 2},
            "contentChanges": [{"text": edited}],
        },
    )
    raw.request(4, "textDocument/hover", hover)
    assert "ADK-W003" in raw.response(4)["result"]["contents"]["value"]
    assert time.monotonic() - started < 1.0
