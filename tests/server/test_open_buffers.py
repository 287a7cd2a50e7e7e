"""The editor sees what CI sees: open buffers, saved or not, are what is analysed; a root in a
helper shows in the helper's buffer with the workflow calls that reach it; an unsaved edit to
an open helper updates every open module that reads it."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

pytestmark = pytest.mark.asyncio

HELPERS = "import time\n\n\ndef stamp():\n    return time.time()\n"
SAFE_HELPERS = "def stamp():\n    return 0.0\n"
FLOW = """from temporalio import workflow

from app.helpers import stamp


@workflow.defn
class Flow:
    @workflow.run
    async def run(self) -> float:
        return stamp()
"""
SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "replaylint", "server"])


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, tmp_path: Path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__init__.py").write_text("")
    (tmp_path / "app" / "helpers.py").write_text(HELPERS)
    (tmp_path / "app" / "flow.py").write_text(FLOW)
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("neovim"),
            root_uri=tmp_path.as_uri(),
            initialization_options={"debounceMs": 50},
        )
    )
    yield
    await lsp_client.shutdown_session()


async def published(client: LanguageClient, uri: str, before: object) -> list[types.Diagnostic]:
    for _ in range(1500):
        current = client.diagnostics.get(uri)
        if current is not None and current is not before:
            return list(current)
        await asyncio.sleep(0.01)
    raise AssertionError(f"no diagnostics published for {uri}")


async def open_document(client: LanguageClient, path: Path) -> list[types.Diagnostic]:
    uri = path.as_uri()
    before = client.diagnostics.get(uri)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="python", version=1, text=path.read_text())
        )
    )
    return await published(client, uri, before)


async def settled(client: LanguageClient, uri: str, codes: list[str]) -> None:
    """Diagnostics of `uri` published until they are `codes` (earlier publishes may be late)."""
    for _ in range(1500):
        current = client.diagnostics.get(uri)
        if current is not None and [d.code for d in current] == codes:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{uri}: never {codes}; last {client.diagnostics.get(uri)}")


def edit(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def test_a_root_in_a_helper_shows_in_its_buffer_with_the_workflow_reaching_it(
    client: LanguageClient, tmp_path: Path
) -> None:
    [root] = await open_document(client, tmp_path / "app" / "helpers.py")
    assert (root.code, root.range) == (
        "ADK-W003",
        types.Range(types.Position(4, 11), types.Position(4, 22)),
    )
    assert list(root.related_information or ()) == [
        types.DiagnosticRelatedInformation(
            location=types.Location(
                uri=(tmp_path / "app" / "flow.py").as_uri(),
                range=types.Range(types.Position(9, 8), types.Position(9, 22)),
            ),
            message="reached from the workflow: stamp (app/flow.py:10)",
        )
    ]


async def test_an_unsaved_edit_to_an_open_helper_updates_the_open_workflow(
    client: LanguageClient, tmp_path: Path
) -> None:
    flow = (tmp_path / "app" / "flow.py").as_uri()
    helpers = (tmp_path / "app" / "helpers.py").as_uri()
    assert [d.code for d in await open_document(client, tmp_path / "app" / "flow.py")] == [
        "ADK-W005"
    ]
    await open_document(client, tmp_path / "app" / "helpers.py")
    for version, text, expected in ((2, SAFE_HELPERS, []), (3, HELPERS, ["ADK-W005"])):
        edit(client, helpers, version, text)  # never saved: the disk keeps HELPERS
        await settled(client, flow, expected)
    assert (tmp_path / "app" / "helpers.py").read_text() == HELPERS


async def test_a_workflow_opened_after_an_unsaved_helper_edit_sees_the_edit(
    client: LanguageClient, tmp_path: Path
) -> None:
    helpers = (tmp_path / "app" / "helpers.py").as_uri()
    await open_document(client, tmp_path / "app" / "helpers.py")
    before = client.diagnostics[helpers]
    edit(client, helpers, 2, SAFE_HELPERS)
    assert await published(client, helpers, before) == []
    assert await open_document(client, tmp_path / "app" / "flow.py") == []
