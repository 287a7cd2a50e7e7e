"""The pygls server: document events to checks (debounced), checks to published diagnostics,
pull requests, hover and code actions; settings reloaded when a configuration file changes."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from replaylint.core.findings import Finding
from replaylint.server.analysis import SETTINGS_FILES, Analysis, Analyzer
from replaylint.server.diagnostics import to_diagnostic
from replaylint.server.lifecycle import LifecycleProtocol
from replaylint.server.ranges import UTF16, source_lines
from replaylint.server.rule_fixes import FixOffer, fix_offer
from replaylint.server.scheduling import Debouncer
from replaylint.server.settings import SECTION, base_setting
from replaylint.server.stdio import serve_stdio
from replaylint.version import __version__

log = logging.getLogger("replaylint.server")

DEFAULT_DEBOUNCE_MS = 150
_EVERYTHING = "*"  # the debouncer's key for "check every open document again"
_WATCHED = ("**/pyproject.toml", "**/replaylint.toml", "**/.replaylint.toml", "**/*.py")
_OVERTAKEN_TRIES = 5

Diagnosed = list[tuple[Finding, types.Diagnostic]]


class ReplayServer(LanguageServer):
    """Holds the open documents' latest checks, made on worker threads off the message loop
    with every open buffer as the editor has it."""

    def __init__(self) -> None:
        super().__init__("replaylint", __version__, protocol_cls=LifecycleProtocol)
        self.analyzer = Analyzer()
        self.debounce = DEFAULT_DEBOUNCE_MS / 1000
        self.debouncer = Debouncer()
        self.checks: dict[str, tuple[Analysis, Diagnosed]] = {}
        # Checks run on threads of their own, never on the message loop: a hover, a code
        # action or a cancellation is answered while a long check goes on, and a second
        # document is not queued behind the first.
        self.worker = ThreadPoolExecutor(max_workers=2, thread_name_prefix="replaylint-check")
        # Code actions on a thread of their own: a rule's fix reads the module's scopes, slower
        # than a check, and a check for the next edit must not wait behind it.
        self.actions_worker = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="replaylint-actions"
        )
        self._offers: dict[tuple[str, int | None, int, int], FixOffer | None] = {}
        self._disk_lines: dict[str, tuple[tuple[int, int], list[str]]] = {}
        self._told: set[str] = set()  # problems already shown, each once
        # Pull mode: the client asks for each document's diagnostics and is told to ask again
        # when files change; nothing is pushed (a client showing both would show each twice).
        self.pull_mode = False
        self.exit_status = 1  # until the client asks for a shutdown, then exit
        self._running: dict[tuple[str, int | None, int, int], asyncio.Future[Analysis]] = {}

    # ------------------------------------------------------------------ settings

    def configure(self, params: types.InitializeParams) -> None:
        """The workspace root becomes the working directory, so findings name files as
        `replaylint check` run there does; `initializationOptions.debounceMs` sets the wait,
        and `initializationOptions.base` the git ref workflows are compared with (as `check
        --base`; the workspace configuration's `replaylint.base` overrides it).
        Diagnostics are pulled by clients that can pull them and be told to pull again (a
        helper's save changes a workflow's findings), pushed to every other client."""
        capabilities = params.capabilities
        pulls = capabilities.text_document and capabilities.text_document.diagnostic
        refresh = capabilities.workspace and capabilities.workspace.diagnostics
        self.pull_mode = bool(pulls and refresh and refresh.refresh_support)
        options: Any = params.initialization_options
        if isinstance(options, dict):
            debounce = options.get("debounceMs")
            if isinstance(debounce, (int, float)) and not isinstance(debounce, bool):
                self.debounce = max(float(debounce), 0.0) / 1000
        base = base_setting(options)
        if base.given:
            self.analyzer.set_base(base.ref)
        root = self._root(params)
        if root is not None and os.path.isdir(root):
            os.chdir(root)

    async def fetch_settings(self) -> None:
        """Ask the client for the workspace configuration's `replaylint` section, where it can
        answer; a changed `base` makes every open document's check stale."""
        workspace = self.client_capabilities.workspace
        if not (workspace and workspace.configuration):
            return
        try:
            answer = await self.workspace_configuration_async(
                types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
            )
        except Exception as error:  # a client that fails the request keeps what it had
            log.info("the client refused the configuration: %s", error)
            return
        self.settings_changed(answer[0] if answer else None)

    def settings_changed(self, settings: Any) -> None:
        """Settings the client sent or was asked for: a new `base` checks every open document
        again against it (or against none)."""
        base = base_setting(settings)
        if base.given and self.analyzer.set_base(base.ref):
            log.info("comparing workflows with %s", base.ref or "no base")
            self.debouncer.schedule(_EVERYTHING, self.debounce, self.publish_all)

    @staticmethod
    def _root(params: types.InitializeParams) -> str | None:
        for folder in params.workspace_folders or ():
            path = to_fs_path(folder.uri)
            if path:
                return path
        if params.root_uri:
            return to_fs_path(params.root_uri)
        return params.root_path

    def offers_for(self, uri: str, analysis: Analysis) -> Callable[[int, Finding], FixOffer | None]:
        """Each finding's fix offer, worked out once per check (a cursor moving over a
        diagnostic asks for its actions again and again)."""
        wanted = (analysis.version, analysis.generation)
        stale = [key for key in self._offers if key[0] == uri and key[1:3] != wanted]
        for key in stale:
            del self._offers[key]

        def offer(index: int, finding: Finding) -> FixOffer | None:
            key = (uri, analysis.version, analysis.generation, index)
            if key not in self._offers:
                self._offers[key] = fix_offer(finding, analysis.text)
            return self._offers[key]

        return offer

    def resolves_edits(self) -> bool:
        """Can the client fill in a code action's edit once it is chosen (codeAction/resolve)?"""
        document = self.client_capabilities.text_document
        action = document.code_action if document else None
        support = action.resolve_support if action else None
        return bool(support and "edit" in support.properties)

    @property
    def encoding(self) -> str:
        chosen = self.workspace.position_encoding
        return str(getattr(chosen, "value", chosen) or UTF16)

    # ------------------------------------------------------------------ documents

    def python_documents(self) -> list[str]:
        return [uri for uri, doc in self.workspace.text_documents.items() if _is_python(doc.path)]

    def buffers(self, but: str) -> dict[str, str]:
        """path -> text of every open Python document except `but`, saved or not."""
        documents = self.workspace.text_documents
        return {
            doc.path: doc.source
            for uri, doc in list(documents.items())
            if uri != but and _is_python(doc.path)
        }

    def dependents(self, uri: str) -> list[str]:
        """The other open documents whose last check read this one's module."""
        document = self.workspace.text_documents.get(uri)
        if document is None:
            return []
        real = os.path.realpath(document.path)
        return [
            other
            for other, (analysis, _) in list(self.checks.items())
            if other != uri and real in analysis.reached
        ]

    def _lines_of(self, analysis: Analysis) -> Any:
        """Lines of the files chain hops point into: the buffer for the document itself (its
        hops were found in that text), the file on disk for the others (read as the check did)."""

        def lines_of(path: str) -> Sequence[str]:
            if os.path.realpath(path) == os.path.realpath(analysis.path):
                return analysis.lines
            return self._read_lines(path)

        return lines_of

    def _read_lines(self, path: str) -> list[str]:
        try:
            status = os.stat(path)
            stamp = (status.st_mtime_ns, status.st_size)
            known = self._disk_lines.get(path)
            if known is not None and known[0] == stamp:
                return known[1]
            with open(path, encoding="utf-8", errors="replace") as handle:
                lines = source_lines(handle.read())
        except OSError:
            return []
        self._disk_lines[path] = (stamp, lines)
        return lines

    def diagnose(self, analysis: Analysis) -> Diagnosed:
        lines_of, encoding = self._lines_of(analysis), self.encoding
        return [
            (f, to_diagnostic(f, analysis.lines, lines_of, encoding, analysis.sites_at(f.line)))
            for f in analysis.findings
        ]

    # ------------------------------------------------------------------ checking

    async def check(self, uri: str) -> tuple[Analysis, Diagnosed] | None:
        """Check a document's current text; None once it is closed or edited meanwhile (the
        edit's own check follows)."""
        document = self.workspace.text_documents.get(uri)
        if document is None or not _is_python(document.path):
            return None
        version, text = document.version, document.source
        analysis = await asyncio.shield(self._analysed(uri, document.path, text, version))
        current = self.workspace.text_documents.get(uri)
        if current is None or current.version != version or current.source != text:
            return None
        result = (analysis, self.diagnose(analysis))
        self.checks[uri] = result
        self._tell(analysis)
        return result

    def _analysed(
        self, uri: str, path: str, text: str, version: int | None
    ) -> asyncio.Future[Analysis]:
        """The analysis of this text on a worker thread; one already under way for the same
        text, settings and disk state is shared (a hover during a long check waits for it
        rather than start a second one). A cancelled request leaves it running for the others."""
        key = (uri, version, self.analyzer.generation, hash(text))
        running = self._running.get(key)
        if running is not None:
            return running
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(
            self.worker, self.analyzer.analyse, path, text, version, self.buffers(uri)
        )
        self._running[key] = future
        future.add_done_callback(lambda _: self._running.pop(key, None))
        return future

    async def current(self, uri: str) -> tuple[Analysis, Diagnosed] | None:
        """The document's check for its current text and settings, made now if it is stale."""
        known = self.checks.get(uri)
        document = self.workspace.text_documents.get(uri)
        if known is not None and document is not None:
            analysis = known[0]
            fresh = analysis.generation == self.analyzer.generation
            if fresh and analysis.version == document.version and analysis.text == document.source:
                return known
        for _ in range(_OVERTAKEN_TRIES):  # an edit that lands mid-check makes it stale: again
            result = await self.check(uri)
            if result is not None or uri not in self.workspace.text_documents:
                return result
        return None

    async def publish(self, uri: str) -> None:
        if self.pull_mode:
            return
        started = time.perf_counter()  # for a debounced edit, the end of its debounce
        result = await self.check(uri)
        if result is None:
            return
        analysis, diagnosed = result
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=uri, version=analysis.version, diagnostics=[d for _, d in diagnosed]
            )
        )
        elapsed = (time.perf_counter() - started) * 1000
        log.debug("%s: %d diagnostics published in %.1f ms", uri, len(diagnosed), elapsed)

    async def publish_all(self) -> None:
        self.debouncer.cancel_all(keep=_EVERYTHING)
        if self.pull_mode:
            future = self.workspace_diagnostic_refresh(None)
            future.add_done_callback(partial(_log_refusal, "diagnostics refresh"))
            return
        for uri in self.python_documents():
            await self.publish(uri)

    def _tell(self, analysis: Analysis) -> None:
        """Problems of a check (settings that cannot be read, helpers that cannot be checked),
        each shown once: as a message when the settings failed, in the log otherwise."""
        for problem in analysis.problems:
            if problem in self._told:
                continue
            self._told.add(problem)
            kind = (
                types.MessageType.Error if analysis.settings_failed else types.MessageType.Warning
            )
            message = f"replaylint: {problem}"
            if analysis.settings_failed:
                self.window_show_message(types.ShowMessageParams(type=kind, message=message))
            self.window_log_message(types.LogMessageParams(type=kind, message=message))

    # ------------------------------------------------------------------ events

    def edited(self, uri: str) -> None:
        """An unsaved edit: the document, then every open document that reads it, checked
        again once the burst of edits ends."""
        if self.pull_mode:
            # The client pulls the new text's diagnostics; the documents reading this one
            # are told to pull theirs again.
            if self.dependents(uri):
                self.debouncer.schedule(_EVERYTHING, self.debounce, self.publish_all)
            return
        self.debouncer.schedule(uri, self.debounce, lambda: self.publish_with_dependents(uri))

    async def publish_with_dependents(self, uri: str) -> None:
        await self.publish(uri)
        for other in self.dependents(uri):
            await self.publish(other)

    def warm(self) -> None:
        """Build the index in the background, so that the first edit costs what later ones
        do (its result is only a cache: nothing is published)."""
        self.worker.submit(self.analyzer.warm, os.getcwd())

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve over stdio until `exit`, the end of the input or a framing error that cannot
        be resynchronised; the process then exits with LSP's status (0 after a shutdown)."""
        self.exit_status = serve_stdio(self, stdin, stdout)

    def disk_changed(self, paths: Iterable[str]) -> None:
        """Files were written: settings files reload the settings; any change makes every open
        document's check stale (a helper it reaches may be the file that changed)."""
        paths = list(paths)
        if any(os.path.basename(p) in SETTINGS_FILES for p in paths):
            self.analyzer.reload()
            self._told.clear()
        elif any(_is_python(p) for p in paths):
            self.analyzer.files_changed()
        else:
            return
        self.debouncer.schedule(_EVERYTHING, self.debounce, self.publish_all)

    def closed(self, uri: str) -> None:
        self.debouncer.cancel(uri)
        self.checks.pop(uri, None)
        self._offers = {key: offer for key, offer in self._offers.items() if key[0] != uri}
        if self.pull_mode:
            return
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
        )

    def watch_files(self) -> None:
        """Ask the client to report changes to settings and Python files, where it can."""
        watched = self.client_capabilities.workspace
        dynamic = watched and watched.did_change_watched_files
        if not (dynamic and dynamic.dynamic_registration):
            return
        registration = types.Registration(
            id="replaylint-watched-files",
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(
                watchers=[types.FileSystemWatcher(glob_pattern=glob) for glob in _WATCHED]
            ),
        )
        future = self.client_register_capability(
            types.RegistrationParams(registrations=[registration])
        )
        future.add_done_callback(partial(_log_refusal, "file watchers"))


def _log_refusal(what: str, future: Any) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.info("the client refused %s: %s", what, future.exception())


def _is_python(path: str | None) -> bool:
    return bool(path) and str(path).endswith(".py")
