"""`replaylint server`: the editor (LSP) adapter over stdio, on the same API as the CLI."""

from __future__ import annotations

import importlib.util

INSTALL_HINT = "pip install 'replaylint[lsp]'"


def missing_dependency() -> str | None:
    """One line saying what to install when pygls (the `lsp` extra) is not there."""
    try:
        found = importlib.util.find_spec("pygls") is not None
    except (ImportError, ValueError):
        found = False
    if found:
        return None
    return f"the editor server needs pygls, which is not installed: {INSTALL_HINT}"


def serve() -> None:
    """Run the server on stdin and stdout until the client asks it to exit."""
    from replaylint.server.app import serve as serve_stdio

    serve_stdio()
