"""`replaylint mcp` spawned by the MCP SDK's own client over stdio: the tools listed, a file
checked with the findings the CLI gives, a rule explained, a fix proposed as a diff."""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from replaylint.cli.main import cli

FLOW = """\
import time

from temporalio import workflow


@workflow.defn
class Greeting:
    @workflow.run
    async def go(self) -> float:
        return time.time()
"""


@asynccontextmanager
async def connected(root: Path) -> AsyncIterator[ClientSession]:
    """The real `replaylint mcp`, started in `root` by the SDK's client, initialized."""
    (root / ".git").mkdir(exist_ok=True)
    (root / "flow.py").write_text(FLOW)
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "replaylint", "mcp"], cwd=str(root)
    )
    async with stdio_client(server) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        yield client


def answer(result: Any) -> Any:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        content = result.structured_content
        return content.get("result", content) if set(content) == {"result"} else content
    [block] = result.content
    return json.loads(block.text)


@pytest.mark.asyncio
async def test_the_tools_are_listed(tmp_path: Path) -> None:
    async with connected(tmp_path) as session:
        listed = await session.list_tools()
    assert sorted(tool.name for tool in listed.tools) == [
        "check_file",
        "check_source",
        "explain_rule",
        "list_rules",
        "propose_fix",
    ]


@pytest.mark.asyncio
async def test_check_file_gives_the_findings_the_cli_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with connected(tmp_path) as session:
        checked = answer(await session.call_tool("check_file", {"path": "flow.py"}))
    monkeypatch.chdir(tmp_path)
    cli_json = json.loads(
        CliRunner().invoke(cli, ["check", "-n", "--output-format", "json", "flow.py"]).stdout
    )
    assert [{k: v for k, v in f.items() if k != "fixable"} for f in checked["findings"]] == (
        cli_json["findings"]
    )
    [finding] = checked["findings"]
    assert (finding["code"], finding["line"], finding["fixable"]) == ("ADK-W003", 10, "safe")
    assert finding["remedy"].startswith("use workflow.now() for the time")
    assert checked["summary"]["exit_code"] == 1
    assert checked["text"].startswith("flow.py:10: ADK-W003 [*] the wall clock is used")


@pytest.mark.asyncio
async def test_check_source_checks_unsaved_text(tmp_path: Path) -> None:
    text = FLOW.replace("time.time()", "workflow.time()")
    async with connected(tmp_path) as session:
        arguments = {"source": text, "path": "flow.py"}
        checked = answer(await session.call_tool("check_source", arguments))
    assert checked["findings"] == [] and checked["summary"]["exit_code"] == 0


@pytest.mark.asyncio
async def test_explain_rule_gives_the_page(tmp_path: Path) -> None:
    async with connected(tmp_path) as session:
        result = await session.call_tool("explain_rule", {"code": "wall-clock-in-workflow"})
        wrong = await session.call_tool("explain_rule", {"code": "ADK-W999"})
    [block] = result.content
    assert block.text.startswith("# wall-clock-in-workflow (ADK-W003)\n")
    assert wrong.is_error
    assert "unknown rule 'ADK-W999'" in wrong.content[0].text


@pytest.mark.asyncio
async def test_propose_fix_returns_a_diff_and_writes_nothing(tmp_path: Path) -> None:
    async with connected(tmp_path) as session:
        arguments = {"path": "flow.py", "line": 10}
        proposed = answer(await session.call_tool("propose_fix", arguments))
    assert proposed["fixable"] is True
    assert proposed["diff"] == (
        "--- a/flow.py\n+++ b/flow.py\n@@ -1,5 +1,3 @@\n-import time\n-\n"
        " from temporalio import workflow\n \n \n@@ -7,4 +5,4 @@\n class Greeting:\n"
        "     @workflow.run\n     async def go(self) -> float:\n-        return time.time()\n"
        "+        return workflow.time()\n"
    )
    [fix] = proposed["fixes"]
    assert (fix["code"], fix["safe"], fix["title"]) == (
        "ADK-W003",
        True,
        "Replace time.time() with workflow.time()",
    )
    assert (tmp_path / "flow.py").read_text() == FLOW


def test_without_the_sdk_the_command_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("mcp", "mcp.server", "mcp.server.mcpserver"):
        monkeypatch.setitem(sys.modules, name, None)  # as if the extra were not installed
    result = CliRunner().invoke(cli, ["mcp"])
    assert result.exit_code == 2
    assert result.stderr == (
        "replaylint: error: the MCP server needs the mcp package (2.x), which is not installed: "
        "pip install './replaylint[mcp]' from the folder holding a clone, or "
        "pip install 'replaylint[mcp] @ git+URL' with the URL of its repository\n"
    )
