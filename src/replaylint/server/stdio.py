"""The server's stdio loop: strict LSP framing (framing.py) feeding pygls' protocol, and the
exit status LSP asks for."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import threading
from functools import partial
from typing import TYPE_CHECKING, BinaryIO

from pygls.exceptions import JsonRpcInternalError
from pygls.io_ import StdoutWriter

from replaylint.server.framing import FramingError, MessageStream, Reader, serve_messages
from replaylint.server.lifecycle import ExitRequested

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

log = logging.getLogger("replaylint.server")


def serve_stdio(
    server: LanguageServer, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None
) -> int:
    """Serve until `exit` (0 after a shutdown, 1 without one), the end of the input (the
    same), or a framing error it cannot recover from (1, with the reason on stderr: the
    editor starts a fresh server rather than talk to a deaf one)."""
    stop = threading.Event()
    server._stop_event = stop  # pygls' own shutdown path sets it
    protocol = server.protocol
    protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
    stream = MessageStream(stdin or sys.stdin.buffer, server.thread_pool)
    reader = Reader(stream, partial(json.loads, object_hook=protocol.structure_message))

    def on_error(error: Exception) -> None:
        server.report_server_error(error, JsonRpcInternalError)

    status = 1
    try:
        asyncio.run(serve_messages(stop, reader, protocol.handle_message, on_error))
        status = 0 if protocol._shutdown else 1
    except ExitRequested as exit_:
        status = exit_.status
    except FramingError as error:
        print(f"replaylint server: stopping: framing error: {error}", file=sys.stderr)
    except BrokenPipeError:
        log.error("the client closed the connection")
    finally:
        server.shutdown()
    return status
