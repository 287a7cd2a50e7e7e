"""The README's editor and agent set-ups, each run or parsed: the Neovim 0.7-0.10 snippet
driven headless against the real server (where nvim is installed), the Neovim 0.11 snippet
compiled by nvim's Lua, VS Code's JSON, Helix's TOML, and the agents' MCP entries started by
the MCP SDK's own client."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from test_readme import WORKFLOW, blocks, section

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

NVIM = shutil.which("nvim")
needs_nvim = pytest.mark.skipif(NVIM is None, reason="nvim is not installed")
EDITORS = section("Editors")
AGENTS = section("Coding agents")
BIN = str(Path(sys.executable).parent)  # where this environment's `replaylint` is


def nvim_snippet(version: str) -> str:
    """The Lua block that follows the line naming that Neovim version."""
    at = EDITORS.index(version)
    [first, *_] = blocks(EDITORS[at:], "lua")
    return first


# Run after the snippet: wait for the server's diagnostics on the opened buffer, write them out.
REPORT = """
vim.defer_fn(function()
  local found = vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(out, string.format("%d:%d %s %s", d.lnum, d.col, d.code or d.user_data and d.user_data.lsp and d.user_data.lsp.code or "?", d.source or ""))
  end
  local file = io.open(vim.env.REPORT, "w")
  file:write(found and table.concat(out, "\\n") or "timeout")
  file:close()
  vim.cmd("qa!")
end, 100)
"""


@needs_nvim
def test_the_neovim_07_snippet_attaches_the_server_and_shows_its_diagnostics(
    tmp_path: Path,
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "flow.py").write_text(WORKFLOW)
    (tmp_path / "init.lua").write_text(nvim_snippet("Neovim 0.7 to 0.10") + REPORT)
    report = tmp_path / "report.txt"
    env = {**os.environ, "PATH": BIN + os.pathsep + os.environ["PATH"], "REPORT": str(report)}
    env["XDG_STATE_HOME"] = env["XDG_DATA_HOME"] = str(tmp_path / "nvim-state")
    done = subprocess.run(
        [NVIM or "nvim", "--headless", "-u", str(tmp_path / "init.lua"), "flow.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert report.is_file(), (done.stdout, done.stderr)
    lines = report.read_text().splitlines()
    assert len(lines) == 1 and lines[0].startswith("6:11 "), lines  # 0-based line and column
    assert lines[0].endswith("replaylint"), lines


@needs_nvim
def test_the_neovim_011_snippet_is_lua_that_compiles(tmp_path: Path) -> None:
    (tmp_path / "snippet.lua").write_text(nvim_snippet("Neovim** 0.11 or later"))
    check = f"lua assert(loadstring(io.open('{tmp_path / 'snippet.lua'}'):read('*a')))"
    done = subprocess.run(
        [NVIM or "nvim", "--headless", "-u", "NONE", "-c", check, "-c", "qa!"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "Error" not in done.stderr, done.stderr


def test_the_vs_code_settings_are_json_naming_the_server() -> None:
    [settings] = [json.loads(b) for b in blocks(EDITORS, "json") if "glspc" in b]
    assert settings["glspc.server.command"] == "replaylint"
    assert settings["glspc.server.commandArguments"] == ["server"]
    assert settings["glspc.server.languageId"] == ["python"]


def test_the_helix_languages_are_toml_naming_the_server() -> None:
    [languages] = [tomllib.loads(b) for b in blocks(EDITORS, "toml")]
    assert languages["language-server"]["replaylint"] == {
        "command": "replaylint",
        "args": ["server"],
    }
    [python] = languages["language"]
    assert python["name"] == "python" and "replaylint" in python["language-servers"]


def test_every_editor_names_a_command_replaylint_has() -> None:
    commands = set(re.findall(r'"replaylint", "(\w+)"', EDITORS))
    assert commands == {"server"}


async def _tools(command: str, args: list[str], cwd: Path) -> list[str]:
    executable = shutil.which(command, path=BIN + os.pathsep + os.environ["PATH"])
    assert executable is not None
    server = StdioServerParameters(command=executable, args=args, cwd=str(cwd))
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        return sorted(tool.name for tool in (await session.list_tools()).tools)


def test_each_agents_entry_starts_the_mcp_server(tmp_path: Path) -> None:
    entries = [json.loads(b) for b in blocks(AGENTS, "json")]
    assert len(entries) == 2
    for entry in entries:
        [server] = (entry.get("mcpServers") or entry["servers"]).values()
        tools = asyncio.run(_tools(server["command"], server["args"], tmp_path))
        assert "check_file" in tools and "propose_fix" in tools
