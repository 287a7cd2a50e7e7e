"""The server's `base` setting: open workflow documents compared with their version at a git
ref (ADK-V001..V004, as `check --base`), set in `initializationOptions` or in the workspace
configuration, changed while the server runs, with unsaved buffers read as they are."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from tests.server.test_server import published, replace_all
from tests.versioning.repos import git

pytestmark = pytest.mark.asyncio

FLOW = """from datetime import timedelta

from temporalio import workflow


@workflow.defn
class Checkout:
    @workflow.run
    async def run(self, order: str) -> str:
        await workflow.execute_activity("{first}", order, start_to_close_timeout=timedelta(1))
        await workflow.execute_activity("ship", order, start_to_close_timeout=timedelta(1))
        return order
"""
SWAPPED = FLOW.format(first="reserve_stock")
V001_MESSAGE = (
    "a durable command changed where runs in flight replay (Checkout: was: activity "
    "charge_card, now: activity reserve_stock)\n"
    'gate the change: if workflow.patched("id"): <new commands> else: <the old ones>; '
    'deprecate_patch("id") once the old runs have closed'
)
V001_RANGE = types.Range(types.Position(9, 14), types.Position(9, 100))

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "replaylint", "server"])


async def start(client: LanguageClient, root: Path, options: dict | None) -> Path:
    """A repository whose last commit holds the workflow with `charge_card` first, and a
    session initialized in it; the workflow's path."""

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        pass  # the file watchers the server asks for

    root.mkdir(exist_ok=True)
    git(root, "init", "-q")
    (root / "pyproject.toml").write_text('[project]\nname = "shop"\n')
    flow = root / "flow.py"
    flow.write_text(FLOW.format(first="charge_card"))
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="shop")],
            initialization_options={"debounceMs": 50, **(options or {})},
        )
    )
    return flow


async def open_text(client: LanguageClient, path: Path, text: str) -> list[types.Diagnostic]:
    uri = path.as_uri()
    before = client.diagnostics.get(uri)
    item = types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
    client.text_document_did_open(types.DidOpenTextDocumentParams(item))
    return await published(client, uri, before)


def codes(diagnostics: list[types.Diagnostic]) -> list[tuple[object, types.Range]]:
    return [(d.code, d.range) for d in diagnostics]


async def settled(client: LanguageClient, uri: str, wanted: list) -> None:
    """Wait until the diagnostics last published for `uri` are `wanted` (a publish scheduled
    by an earlier change may land first)."""
    for _ in range(1000):
        if codes(list(client.diagnostics.get(uri) or [])) == wanted:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{uri}: {client.diagnostics.get(uri)} is not {wanted}")


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


async def test_the_base_from_initialization_options(client: LanguageClient, tmp_path: Path):
    flow = await start(client, tmp_path / "shop", {"base": "HEAD"})
    flow.write_text(SWAPPED)
    [diagnostic] = await open_text(client, flow, SWAPPED)
    assert (diagnostic.code, diagnostic.range) == ("ADK-V001", V001_RANGE)
    assert diagnostic.message == V001_MESSAGE
    assert diagnostic.source == "replaylint"


async def test_an_unsaved_buffer_is_compared_as_it_is(client: LanguageClient, tmp_path: Path):
    flow = await start(client, tmp_path / "shop", {"base": "HEAD"})
    assert await open_text(client, flow, flow.read_text()) == []
    before = client.diagnostics.get(flow.as_uri())
    replace_all(client, flow.as_uri(), 2, SWAPPED)  # never saved
    assert codes(await published(client, flow.as_uri(), before)) == [("ADK-V001", V001_RANGE)]


async def test_without_a_base_nothing_is_compared(client: LanguageClient, tmp_path: Path):
    flow = await start(client, tmp_path / "shop", None)
    flow.write_text(SWAPPED)
    assert await open_text(client, flow, SWAPPED) == []


async def test_the_base_from_the_workspace_configuration(client: LanguageClient, tmp_path: Path):
    # The server asks for its section once initialized; the client answers from this.
    client.set_configuration({"base": "HEAD"}, section="replaylint")
    flow = await start(client, tmp_path / "shop", None)
    flow.write_text(SWAPPED)
    uri = flow.as_uri()
    await open_text(client, flow, SWAPPED)
    await settled(client, uri, [("ADK-V001", V001_RANGE)])
    # Turned off: the client says the configuration changed, the server asks again.
    client.set_configuration({"base": None}, section="replaylint")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await settled(client, uri, [])
    # Sent with the notification itself.
    settings = {"replaylint": {"base": "HEAD"}}
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings))
    await settled(client, uri, [("ADK-V001", V001_RANGE)])
