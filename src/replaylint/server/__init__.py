"""`replaylint server`: the editor (LSP) adapter over stdio, on the same API as the CLI."""

from __future__ import annotations

import importlib.util

# How to get pygls (the `lsp` extra): from a clone of replaylint, or from its hosted copy.
INSTALL_HINT = (
    "pip install './replaylint[lsp]' from the folder holding a clone, or "
    "pip install 'replaylint[lsp] @ git+URL' with the URL of its repository"
)


def missing_dependency() -> str | None:
    """One line saying what to install when pygls (the `lsp` extra) is not there."""
    try:
        found = importlib.util.find_spec("pygls") is not None
    except (ImportError, ValueError):
        found = False
    if found:
        return None
    return f"the editor server needs pygls, which is not installed: {INSTALL_HINT}"


def serve() -> int:
    """Run the server on stdin and stdout until the client asks it to exit; its exit status
    (LSP: 0 after a shutdown request, 1 without one)."""
    from replaylint.server.features import build

    server = build()
    server.start_io()
    return server.exit_status
