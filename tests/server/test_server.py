"""`replaylint server` driven over stdio by pytest-lsp: diagnostics pushed (or pulled, by a
client that pulls), updates after edits, saves and settings changes, hover pages and the
ignore code actions."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from replaylint import guard_source
from replaylint.core.codes import Code
from replaylint.core.docs import page, page_path

pytestmark = pytest.mark.asyncio

HELPERS = """import uuid


def make_id():
    return str(uuid.uuid4())
"""

SAFE_HELPERS = """def make_id():
    return "fixed"
"""

# The clock's line starts with a character outside the BMP: two UTF-16 units, one code point.
FLOW = """import time

from helpers import make_id

__adk_workflow__ = True


async def run(ctx):
    label, started = "\U0001f552", time.time()
    return make_id(), label, started
"""

WHY = "-- <reason: why this is replay safe>"  # left for a person to write, as --add-ignore does
W003_RANGE = types.Range(types.Position(8, 27), types.Position(8, 38))
W005_RANGE = types.Range(types.Position(9, 11), types.Position(9, 20))


SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "replaylint", "server"])


def pulling() -> types.ClientCapabilities:
    """A client that pulls diagnostics and can be told to pull again."""
    capabilities = client_capabilities("visual-studio-code")
    assert capabilities.text_document is not None and capabilities.workspace is not None
    capabilities.text_document.diagnostic = types.DiagnosticClientCapabilities()
    capabilities.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(
        refresh_support=True
    )
    return capabilities


async def start(
    client: LanguageClient, root: Path, capabilities: types.ClientCapabilities
) -> types.InitializeResult:
    """A workspace with a workflow and its helper, and a session initialized in it."""
    registered: list[types.Registration] = []

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        registered.extend(params.registrations)

    client.registered = registered  # type: ignore[attr-defined]
    (root / ".git").mkdir()  # the workspace is a repository root: settings stop here
    (root / "pyproject.toml").write_text('[project]\nname = "demo"\n')
    (root / "helpers.py").write_text(HELPERS)
    (root / "flow.py").write_text(FLOW)
    return await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities,
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="demo")],
            initialization_options={"debounceMs": 100},
        )
    )


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, tmp_path: Path):
    initialized = await start(lsp_client, tmp_path, client_capabilities("visual-studio-code"))
    # This client cannot pull: diagnostics are pushed, and no pull provider is announced.
    assert initialized.capabilities.diagnostic_provider is None
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER)
async def puller(lsp_client: LanguageClient, tmp_path: Path):
    initialized = await start(lsp_client, tmp_path, pulling())
    assert initialized.capabilities.diagnostic_provider == types.DiagnosticOptions(
        inter_file_dependencies=True, workspace_diagnostics=False, identifier="replaylint"
    )
    yield
    await lsp_client.shutdown_session()


async def published(client: LanguageClient, uri: str, before: object) -> list[types.Diagnostic]:
    """The next diagnostics published for `uri` (each publish stores a new list object)."""
    for _ in range(1000):
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


def replace_all(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def summary(diagnostics: list[types.Diagnostic]) -> list[tuple[object, types.Range]]:
    return [(d.code, d.range) for d in diagnostics]


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """TextEdits applied as an editor does: positions count UTF-16 code units in their line."""
    lines = text.splitlines(keepends=True)

    def offset(position: types.Position) -> int:
        before = sum(len(line) for line in lines[: position.line])
        line = lines[position.line] if position.line < len(lines) else ""
        units = 0
        for column, char in enumerate(line):
            if units >= position.character:
                return before + column
            units += 2 if ord(char) > 0xFFFF else 1
        return before + len(line)

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        start, end = offset(edit.range.start), offset(edit.range.end)
        text = text[:start] + edit.new_text + text[end:]
    return text


async def test_open_publishes_each_finding_with_its_range_and_chain(
    client: LanguageClient, tmp_path: Path
):
    diagnostics = await open_document(client, tmp_path / "flow.py")
    assert summary(diagnostics) == [("ADK-W003", W003_RANGE), ("ADK-W005", W005_RANGE)]
    # Asked once initialized, answered before the document opened: the files it watches.
    [watchers] = client.registered  # type: ignore[attr-defined]
    assert watchers.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    assert [w["globPattern"] for w in watchers.register_options["watchers"]] == [
        "**/pyproject.toml",
        "**/replaylint.toml",
        "**/.replaylint.toml",
        "**/*.py",
    ]
    clock, helper = diagnostics
    assert clock.source == "replaylint"
    assert clock.severity == types.DiagnosticSeverity.Error
    assert clock.message == (
        "the wall clock is used on the workflow path (time.time)\n"
        "use WorkflowClock, whose instants come from the run's own state"
    )
    assert clock.related_information is None
    assert clock.code_description is not None
    assert clock.code_description.href == page_path(Code.W003).as_uri()
    assert helper.message.startswith(
        "a helper that is itself unsafe is called on the workflow path (make_id)\n"
    )
    assert list(helper.related_information or ()) == [
        types.DiagnosticRelatedInformation(
            location=types.Location(
                uri=(tmp_path / "helpers.py").as_uri(),
                range=types.Range(types.Position(4, 4), types.Position(4, 28)),
            ),
            message="calls uuid.uuid4 (helpers.py:5)",
        )
    ]


async def test_an_edit_updates_the_diagnostics_once_the_burst_ends(
    client: LanguageClient, tmp_path: Path
):
    uri = (tmp_path / "flow.py").as_uri()
    await open_document(client, tmp_path / "flow.py")
    waiting = client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    for version in range(2, 6):  # a burst: only the last version is checked and published
        replace_all(client, uri, version, FLOW.replace("time.time()", f"{version}.0"))
    params = await asyncio.wait_for(waiting, 10)
    assert (params.uri, params.version) == (uri, 5)
    assert summary(params.diagnostics) == [("ADK-W005", W005_RANGE)]


async def test_saving_a_helper_updates_the_open_workflow(client: LanguageClient, tmp_path: Path):
    flow, helpers = (tmp_path / "flow.py").as_uri(), (tmp_path / "helpers.py").as_uri()
    await open_document(client, tmp_path / "flow.py")
    assert await open_document(client, tmp_path / "helpers.py") == []
    for version, text, expected in (
        (2, SAFE_HELPERS, ["ADK-W003"]),
        (3, HELPERS, ["ADK-W003", "ADK-W005"]),
    ):
        replace_all(client, helpers, version, text)
        (tmp_path / "helpers.py").write_text(text)
        client.text_document_did_save(
            types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri=helpers))
        )
        for _ in range(1000):  # the edit's publish and the save's, in either order
            if [d.code for d in client.diagnostics[flow]] == expected:
                break
            await asyncio.sleep(0.01)
        assert [d.code for d in client.diagnostics[flow]] == expected


async def pull(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert report.kind == "full"
    return list(report.items)


async def test_pulled_diagnostics_follow_the_buffer_and_the_disk(
    puller: LanguageClient, tmp_path: Path
):
    flow, helpers = tmp_path / "flow.py", tmp_path / "helpers.py"
    for path in (flow, helpers):
        puller.text_document_did_open(
            types.DidOpenTextDocumentParams(
                types.TextDocumentItem(path.as_uri(), "python", 1, path.read_text())
            )
        )
    assert summary(await pull(puller, flow.as_uri())) == [
        ("ADK-W003", W003_RANGE),
        ("ADK-W005", W005_RANGE),
    ]
    assert puller.diagnostics == {}  # nothing pushed to a client that pulls
    replace_all(puller, flow.as_uri(), 2, FLOW.replace("time.time()", "0.0"))
    assert summary(await pull(puller, flow.as_uri())) == [("ADK-W005", W005_RANGE)]
    # A helper saved: the client is told to pull again, and the workflow's chain is gone.
    helpers.write_text(SAFE_HELPERS)
    replace_all(puller, helpers.as_uri(), 2, SAFE_HELPERS)
    puller.text_document_did_save(
        types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(helpers.as_uri()))
    )
    for _ in range(1000):
        if puller.diagnostic_refresh_count:
            break
        await asyncio.sleep(0.01)
    assert puller.diagnostic_refresh_count == 1
    assert await pull(puller, flow.as_uri()) == []
    assert puller.diagnostics == {}


async def test_hover_on_a_diagnostic_shows_its_rule_page(client: LanguageClient, tmp_path: Path):
    uri = (tmp_path / "flow.py").as_uri()
    await open_document(client, tmp_path / "flow.py")
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=uri), types.Position(8, 30))
    )
    assert hover is not None
    assert hover.contents == types.MarkupContent(
        kind=types.MarkupKind.Markdown, value=page(Code.W003).rstrip("\n")
    )
    assert hover.range == W003_RANGE
    outside = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=uri), types.Position(7, 2))
    )
    assert outside is None


async def actions_at(
    client: LanguageClient, uri: str, where: types.Range
) -> list[types.CodeAction]:
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=where,
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    return [a for a in found or [] if isinstance(a, types.CodeAction)]


@pytest.mark.parametrize(
    ("where", "code", "on_line", "in_file"),
    [
        (
            W003_RANGE,
            Code.W003,
            FLOW.replace("time.time()\n", f"time.time()  # replaylint: ignore[ADK-W003] {WHY}\n"),
            f"# replaylint: file-ignore[ADK-W003] {WHY}\n" + FLOW,
        ),
        (
            W005_RANGE,
            Code.W005,
            FLOW.replace(
                "label, started\n", f"label, started  # replaylint: ignore[ADK-W005] {WHY}\n"
            ),
            f"# replaylint: file-ignore[ADK-W005] {WHY}\n" + FLOW,
        ),
    ],
)
async def test_each_ignore_action_silences_its_finding(
    client: LanguageClient, tmp_path: Path, where, code, on_line, in_file
):
    uri = (tmp_path / "flow.py").as_uri()
    await open_document(client, tmp_path / "flow.py")
    actions = await actions_at(client, uri, where)
    # No rule fix is offered: replaylint.fixes has none for these findings (or is not there).
    assert [a.title for a in actions] == [
        f"Ignore {code.value} on this line",
        f"Ignore {code.value} in this file",
    ]
    for action, expected in zip(actions, (on_line, in_file), strict=True):
        assert action.kind == types.CodeActionKind.QuickFix
        assert action.edit is not None and action.edit.changes is not None
        edited = apply(FLOW, action.edit.changes[uri])
        assert edited == expected
        left = guard_source(edited, source=str(tmp_path / "flow.py")).findings
        assert code not in [f.code for f in left]
        assert Code.S001 not in [f.code for f in left]  # the directive is used, not stale


async def test_a_settings_change_reloads_them(client: LanguageClient, tmp_path: Path):
    uri = (tmp_path / "flow.py").as_uri()
    await open_document(client, tmp_path / "flow.py")
    settings = tmp_path / "pyproject.toml"
    before = client.diagnostics[uri]
    settings.write_text('[project]\nname = "demo"\n\n[tool.replaylint]\nignore = ["ADK-W003"]\n')
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=settings.as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    assert summary(await published(client, uri, before)) == [("ADK-W005", W005_RANGE)]
    # The same through a save of the settings file open in the editor.
    before = client.diagnostics[uri]
    settings.write_text('[project]\nname = "demo"\n\n[tool.replaylint]\nignore = ["ADK-W005"]\n')
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri=settings.as_uri()))
    )
    assert summary(await published(client, uri, before)) == [("ADK-W003", W003_RANGE)]
    # A client that reports neither: the next check of a file under the settings sees them.
    before = client.diagnostics[uri]
    settings.write_text('[tool.replaylint]\nignore = ["ADK-W003", "ADK-W005"]\n')
    replace_all(client, uri, 2, FLOW + "\n")
    assert await published(client, uri, before) == []


async def test_closing_a_document_clears_its_diagnostics(client: LanguageClient, tmp_path: Path):
    uri = (tmp_path / "flow.py").as_uri()
    opened = await open_document(client, tmp_path / "flow.py")
    assert [d.code for d in opened] == ["ADK-W003", "ADK-W005"]
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri=uri))
    )
    assert await published(client, uri, client.diagnostics[uri]) == []
