"""The server's LSP features: lifecycle, documents, diagnostics pulled, hover and code actions,
each a thin adapter onto ReplayServer."""

from __future__ import annotations

import asyncio
from functools import partial

from lsprotocol import types
from pygls.uris import to_fs_path

from replaylint.server.actions import code_actions, resolve_fix
from replaylint.server.app import ReplayServer
from replaylint.server.hover import hover_at
from replaylint.server.settings import base_setting


def build() -> ReplayServer:
    """The server with its features registered."""
    server = ReplayServer()
    _lifecycle(server)
    _documents(server)
    _queries(server)
    return server


def _lifecycle(server: ReplayServer) -> None:
    async def pull(params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
        result = await server.current(params.text_document.uri)
        items = [d for _, d in result[1]] if result is not None else []
        return types.RelatedFullDocumentDiagnosticReport(items=items)

    @server.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        server.configure(params)
        if server.pull_mode:  # registered before pygls computes the capabilities it announces
            server.feature(
                types.TEXT_DOCUMENT_DIAGNOSTIC,
                types.DiagnosticOptions(
                    identifier="replaylint",
                    inter_file_dependencies=True,
                    workspace_diagnostics=False,
                ),
            )(pull)

    @server.feature(types.INITIALIZED)
    async def initialized(params: types.InitializedParams) -> None:
        server.watch_files()
        server.warm()
        await server.fetch_settings()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def configuration_changed(params: types.DidChangeConfigurationParams) -> None:
        # Clients that pull settings send none here, only the news that they changed.
        if not base_setting(params.settings).given:
            await server.fetch_settings()
        else:
            server.settings_changed(params.settings)


def _documents(server: ReplayServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(params: types.DidOpenTextDocumentParams) -> None:
        await server.publish_with_dependents(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        server.edited(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        path = to_fs_path(params.text_document.uri)
        if path:
            server.disk_changed([path])

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        server.closed(params.text_document.uri)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(params: types.DidChangeWatchedFilesParams) -> None:
        server.disk_changed(p for change in params.changes if (p := to_fs_path(change.uri)))


def _queries(server: ReplayServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(params: types.HoverParams) -> types.Hover | None:
        known = await server.current(params.text_document.uri)
        return hover_at(known[1], params.position) if known is not None else None

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix], resolve_provider=True
        ),
    )
    async def actions(params: types.CodeActionParams) -> list[types.CodeAction] | None:
        only = params.context.only
        if only and not any(types.CodeActionKind.QuickFix.value.startswith(k) for k in only):
            return None
        uri = params.text_document.uri
        result = await server.current(uri)
        if result is None:
            return None
        analysis, diagnosed = result
        work = partial(
            code_actions,
            uri,
            analysis,
            diagnosed,
            params.range,
            server.encoding,
            params.context.diagnostics,
            server.offers_for(uri, analysis) if server.resolves_edits() else None,
        )
        found = await asyncio.get_running_loop().run_in_executor(server.actions_worker, work)
        return found or None

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def resolve(action: types.CodeAction) -> types.CodeAction:
        uri = action.data.get("uri") if isinstance(action.data, dict) else None
        result = await server.current(uri) if isinstance(uri, str) else None
        if result is None:
            return action
        work = partial(resolve_fix, action, result[0], result[1], server.encoding)
        return await asyncio.get_running_loop().run_in_executor(server.actions_worker, work)
