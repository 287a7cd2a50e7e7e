"""LSP's base protocol read off stdin, strictly: headers, a blank line, exactly Content-Length
bytes of JSON. A framing error (a Content-Length that counted characters instead of UTF-8
bytes, a header where a body should have ended, garbage between messages) is detected and
logged; the reader then resynchronises on the next `Content-Length:` header, recovering the cut
message where it can, or exits with the reason so that the editor starts a fresh server. It
never goes on reading with a shifted frame (deaf to every later request)."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, BinaryIO

log = logging.getLogger("replaylint.server")

_HEADER = re.compile(rb"^([A-Za-z][A-Za-z0-9-]*): ?([^\r\n]*)\r?\n$")
_CONTENT_LENGTH = b"content-length:"
# How far past a bad frame to look for the next header before giving up: a client that sends
# this much that is no message is not speaking LSP, and a restart is the way back.
RESYNC_LIMIT = 4 * 1024 * 1024


class FramingError(Exception):
    """The stream cannot be read as LSP messages any more."""


class MessageStream:
    """Blocking reads of stdin run on a thread (the loop stays free); bytes found to belong to
    the next message can be pushed back."""

    def __init__(self, stdin: BinaryIO, executor: ThreadPoolExecutor | None) -> None:
        self.stdin, self.executor = stdin, executor
        self.pushed = b""

    async def _run(self, call: Callable[..., bytes], *args: Any) -> bytes:
        return await asyncio.get_running_loop().run_in_executor(self.executor, call, *args)

    async def readline(self) -> bytes:
        if b"\n" in self.pushed:
            line, _, self.pushed = self.pushed.partition(b"\n")
            return line + b"\n"
        head, self.pushed = self.pushed, b""
        return head + await self._run(self.stdin.readline)

    async def read(self, size: int) -> bytes:
        """Up to `size` bytes: fewer only at the end of the stream."""
        data, self.pushed = self.pushed[:size], self.pushed[size:]
        while len(data) < size:
            more = await self._run(self.stdin.read, size - len(data))
            if not more:
                break
            data += more
        return data


class Reader:
    """Whole messages off a MessageStream, parsed by `loads` (JSON, and pygls' message types)."""

    def __init__(self, stream: MessageStream, loads: Callable[[bytes], Any] = json.loads) -> None:
        self.stream, self.loads = stream, loads

    async def message(self) -> Any | None:
        """The next message; None at the end of the stream. Raises FramingError when the
        stream cannot be resynchronised."""
        while True:
            length = await self._headers()
            if length is None:
                return None
            body = await self.stream.read(length)
            if len(body) < length:
                return None
            try:
                return self.loads(body)
            except json.JSONDecodeError:
                recovered = await self._resync(body)
                if recovered is not None:
                    return recovered

    async def _headers(self) -> int | None:
        """The Content-Length of the next message (its headers read), None at the end."""
        length: int | None = None
        skipped = 0
        while True:
            line = await self.stream.readline()
            if not line:
                return None
            if line in (b"\r\n", b"\n"):
                if length is not None:
                    return length
                continue  # blank lines between messages: harmless
            match = _HEADER.match(line)
            if match is None:
                # Not a header: the tail of a message whose length was wrong, or noise.
                at = line.lower().find(_CONTENT_LENGTH)
                if at > 0:
                    log.warning("framing: %d stray bytes before a header skipped", at)
                    self.stream.pushed = line[at:] + self.stream.pushed
                    continue
                skipped += len(line)
                if skipped > RESYNC_LIMIT:
                    raise FramingError("no LSP header found in the last 4 MiB read")
                log.warning("framing: %d bytes that are not a header skipped", len(line))
                continue
            name, value = match.group(1).lower(), match.group(2).strip()
            if name == b"content-length":
                if not value.isdigit():
                    raise FramingError(f"Content-Length is not a number: {value[:40]!r}")
                length = int(value)

    async def _resync(self, body: bytes) -> Any | None:
        """A body that is no JSON: either it ran into the next message's header (its length
        was too long) or it stopped short (too short: characters counted, not bytes). The next
        header is found, the bytes before it are taken as the rest of this body, and the
        message is recovered when they make JSON."""
        at = body.lower().find(_CONTENT_LENGTH)
        if at >= 0:  # a header where the body should have ended
            self.stream.pushed = body[at:] + self.stream.pushed
            return self._recovered(body[:at], "a header inside the body (Content-Length too long)")
        tail = b""
        while len(tail) <= RESYNC_LIMIT:
            line = await self.stream.readline()
            if not line:
                break
            at = line.lower().find(_CONTENT_LENGTH)
            if at >= 0:
                self.stream.pushed = line[at:] + self.stream.pushed
                tail += line[:at]
                return self._recovered(
                    body + tail, "a body cut short (Content-Length counted characters?)"
                )
            tail += line
        raise FramingError("a message whose body is not JSON, and no header after it")

    def _recovered(self, body: bytes, what: str) -> Any | None:
        try:
            message = self.loads(body)
        except json.JSONDecodeError:
            log.error("framing error: %s; the message is dropped, reading goes on", what)
            return None
        log.error("framing error: %s; the message was recovered", what)
        return message


async def serve_messages(
    stop: threading.Event,
    reader: Reader,
    handle: Callable[[Any], None],
    on_error: Callable[[Exception], None],
) -> None:
    """Read messages and hand each to `handle` until `stop` is set or the stream ends."""
    while not stop.is_set():
        try:
            message = await reader.message()
        except FramingError:
            raise
        except Exception as error:  # a message that is JSON but no valid LSP message
            log.exception("unable to read a message")
            on_error(error)
            continue
        if message is None:
            return
        try:
            handle(message)
        except Exception as error:  # one bad message must not end the server
            log.exception("unable to handle a message")
            on_error(error)
