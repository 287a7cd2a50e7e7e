"""The MCP server: replaylint's tools registered on the official SDK's MCPServer, over stdio."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError as SDKToolError

from replaylint.mcp import tools
from replaylint.version import __version__

INSTRUCTIONS = """\
replaylint checks durable-workflow Python code (Temporal, DBOS, Restate, Azure Durable
Functions, durabletask, AWS Lambda durable functions, replaylint.workflows) for what breaks a
replay: model calls, random ids, the wall clock, network I/O, the environment, files, threads,
hash-ordered iteration, module state, and helpers that do any of these. After writing or
editing workflow code, call check_file (or check_source for unsaved text) and fix every
finding before handing the code over: each comes with its remedy, explain_rule gives a rule's
page, propose_fix the fix as a diff where one exists."""


def build() -> MCPServer[Any]:
    server: MCPServer[Any] = MCPServer("replaylint", version=__version__, instructions=INSTRUCTIONS)

    @server.tool()
    def check_file(path: str) -> dict[str, Any]:
        """Check a Python file or folder for replay hazards, as `replaylint check PATH` does
        (a helper file also brings in the workflows that reach it). Returns the findings, each
        with its code, position, message, remedy, helper chain and whether a fix exists."""
        return _answer(tools.check_file, path)

    @server.tool()
    def check_source(source: str, path: str = tools.DEFAULT_SOURCE_NAME) -> dict[str, Any]:
        """Check Python source text not yet saved, as the module at `path` (its local imports
        resolve beside that path). Returns the findings with their remedies."""
        return _answer(tools.check_source, source, path)

    @server.tool()
    def explain_rule(code: str) -> str:
        """The page of a rule (ADK-W003, or its slug wall-clock-in-workflow): what it finds,
        why it breaks replay, an example and what to write instead."""
        return str(_answer(tools.explain, code))

    @server.tool()
    def list_rules() -> list[dict[str, str]]:
        """Every rule: code, slug, what it finds, its remedy."""
        return tools.rules()

    @server.tool()
    def propose_fix(
        path: str, line: int, code: str | None = None, source: str | None = None
    ) -> dict[str, Any]:
        """The fix of the finding on `line` of `path` (of rule `code`, when given) as a
        unified diff, with whether it is safe and why; `source`: the file's text when it is
        not saved. Nothing is written."""
        return _answer(tools.propose_fix, path, line, code, source)

    return server


def _answer(tool: Any, *args: Any) -> Any:
    """A tool's answer; its UnansweredRequest becomes the error the agent reads."""
    try:
        return tool(*args)
    except tools.UnansweredRequest as error:  # the SDK's own ToolError reaches the agent as written
        raise SDKToolError(str(error)) from None
