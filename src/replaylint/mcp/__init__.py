"""`replaylint mcp`: the guard as Model Context Protocol tools, for coding agents (the `mcp`
extra), on the same API as the command line."""

from __future__ import annotations

import importlib.util

INSTALL_HINT = (
    "pip install './replaylint[mcp]' from the folder holding a clone, or "
    "pip install 'replaylint[mcp] @ git+URL' with the URL of its repository"
)


def missing_dependency() -> str | None:
    """One line saying what to install when the MCP SDK (the `mcp` extra) is not there."""
    try:
        found = importlib.util.find_spec("mcp.server.mcpserver") is not None
    except (ImportError, ValueError, AttributeError):  # AttributeError: a module set to None
        found = False
    if found:
        return None
    return f"the MCP server needs the mcp package (2.x), which is not installed: {INSTALL_HINT}"


def serve() -> None:
    """Serve the tools over stdio until the agent closes the connection."""
    from replaylint.mcp.server import build

    build().run("stdio")
