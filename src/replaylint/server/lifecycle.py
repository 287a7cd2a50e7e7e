"""LSP 3.17's lifecycle, kept: a request before `initialize` is answered -32002 (and a
notification dropped), a request after `shutdown` -32600, and `exit` ends the process with 0
after a shutdown and 1 without one."""

from __future__ import annotations

import logging
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidRequest, JsonRpcServerNotInitialized
from pygls.protocol import LanguageServerProtocol

log = logging.getLogger("replaylint.server")


class ExitRequested(BaseException):
    """The client said `exit`: the loop ends and the process exits with `status` (a
    BaseException, so that no handler of errors on the way takes it for one)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class LifecycleProtocol(LanguageServerProtocol):
    """pygls' protocol with the lifecycle's error codes and exit status."""

    initialized_by_client = False

    def handle_message(self, message: Any) -> None:
        method = getattr(message, "method", None)
        is_request = method is not None and hasattr(message, "id")
        if method == types.EXIT:
            raise ExitRequested(0 if self._shutdown else 1)
        if is_request and self._shutdown:
            refused = JsonRpcInvalidRequest(message=f"{method}: the server has been shut down")
            self._send_response(message.id, None, refused.to_response_error())
            return
        if method == types.INITIALIZE:
            self.initialized_by_client = True
        elif method is not None and not self.initialized_by_client:
            if is_request:
                error = JsonRpcServerNotInitialized(
                    message=f"{method}: the server is not initialized yet"
                )
                self._send_response(message.id, None, error.to_response_error())
            else:
                log.info("%s before initialize: dropped", method)
            return
        super().handle_message(message)
