"""One document checked through the same API as `replaylint check -`: its buffer read as the
module at its real path, the other open buffers as the editor holds them, the rest of the
project from disk, with the settings each file's nearest `[tool.replaylint]` gives; and the
workflows that reach it checked too, for the roots in its own lines. With a `base` setting,
its workflows are compared with their versions at that git ref too (`check --base`)."""

from __future__ import annotations

import codecs
import gc
import io
import logging
import os
import re
import threading
import time
import tokenize
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from replaylint.api import run
from replaylint.core.findings import Finding
from replaylint.core.paths import REPOSITORY_MARKERS, printable
from replaylint.project.config import ConfigError, Resolver
from replaylint.project.settings_files import SETTINGS_NAMES
from replaylint.report.selection import Selection, report_from
from replaylint.server.buffers import buffered_project
from replaylint.server.ranges import source_lines
from replaylint.server.reach import Reach, Reachers

log = logging.getLogger("replaylint.server")

SETTINGS_FILES = SETTINGS_NAMES
_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=]")


@dataclass(frozen=True)
class Analysis:
    """What one check of one buffer found for that buffer."""

    path: str  # absolute
    version: int | None  # the document version the text came from
    generation: int  # the settings and disk state it was checked against
    text: str
    lines: tuple[str, ...]
    findings: tuple[Finding, ...]  # this document's own, sorted as reporters sort them
    problems: tuple[str, ...] = ()  # one line each: unreadable helpers, bad settings, bugs
    settings_failed: bool = False  # the settings could not be read: nothing was checked
    reached: frozenset[str] = frozenset()  # real paths of the modules the check read
    # line of this document -> the workflow calls that lead to it (related information)
    sites: tuple[tuple[int, tuple[Reach, ...]], ...] = ()

    def sites_at(self, line: int) -> tuple[Reach, ...]:
        return next((found for at, found in self.sites if at == line), ())


def display_name(path: str) -> str:
    """The name the API gives a module read from stdin under `path`: relative to the working
    directory (the workspace root), as `replaylint check` run from the root names files."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        relative = path
    return relative


def shown_path(name: str) -> str:
    """How findings of the module named `name` spell their path."""
    return printable(name.replace(os.sep, "/"))


def source_bytes(text: str) -> tuple[bytes, str]:
    """The buffer as the bytes its file would hold, and their encoding: the one its coding
    cookie declares (the engine decodes by that cookie), UTF-8 otherwise or when the text does
    not fit it."""
    data = text.encode("utf-8", "surrogatepass")
    head = data.split(b"\n", 2)[:2]
    if not any(_COOKIE.match(line) for line in head):
        return data, "utf-8"
    try:
        declared, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        if codecs.lookup(declared).name != "utf-8":
            return text.encode(declared), declared
    except (SyntaxError, LookupError, UnicodeEncodeError):
        pass
    return data, "utf-8"


def settings_stamp(folder: str) -> tuple[tuple[str, int, int], ...]:
    """The settings files that can apply to a file in `folder` (up to its repository root), as
    (path, mtime, size): a change to any of them, or one appearing or going, changes the stamp."""
    stamp = []
    current = os.path.abspath(folder)
    while True:
        for name in sorted(SETTINGS_FILES):
            candidate = os.path.join(current, name)
            try:
                status = os.stat(candidate)
            except OSError:
                continue
            stamp.append((candidate, status.st_mtime_ns, status.st_size))
        parent = os.path.dirname(current)
        if parent == current or any(
            os.path.exists(os.path.join(current, m)) for m in REPOSITORY_MARKERS
        ):
            return tuple(stamp)
        current = parent


class Analyzer:
    """Checks buffers, on any of the server's check threads: the settings and the reach map
    are shared, behind a lock."""

    def __init__(self) -> None:
        self.resolver = Resolver()
        self.generation = 0
        self.reachers = Reachers()
        self._lock = threading.Lock()
        self._started = False  # has a document's check begun (warm() then skips the index)
        # Settings files as each folder's last check saw them: a client that reports no file
        # changes still gets settings edited on disk from the next check of a file under them.
        self._stamps: dict[str, tuple[tuple[str, int, int], ...]] = {}
        self.base: str | None = None  # the editor's `base` setting: the git ref to compare with

    def set_base(self, base: str | None) -> bool:
        """The git ref each workflow is compared with (None: none); True when it changed, so
        every check made before is stale."""
        with self._lock:
            if base == self.base:
                return False
            self.base = base
            self.generation += 1
            return True

    def reload(self) -> None:
        """Settings changed: read them afresh on the next check."""
        with self._lock:
            self.resolver = Resolver()
            self.generation += 1
            self._stamps = {}

    def files_changed(self) -> None:
        """Files on disk changed (a save, a checkout): results checked before are stale."""
        with self._lock:
            self.generation += 1

    def warm(self, root: str) -> None:
        """Everything a first check needs, done before one is asked for: the engine imported,
        the catalog read, the workspace's index built."""
        run([], stdin=("warm.py", b"__adk_workflow__ = True\n"), resolver=self.resolver)
        if not self._started:  # a document's first check builds the index anyway: no race
            try:
                self.reachers.warm(root, self.resolver)
            except Exception:  # a workspace that cannot be indexed is checked file by file
                log.exception("warming the index of %s failed", root)
        # What start-up built (modules, catalogs, the index) lives as long as the server: kept
        # out of the collector's full passes, which would otherwise stall the next checks.
        gc.collect()
        gc.freeze()

    def _settings_for(self, path: str, shown: str) -> tuple[int, Resolver]:
        folder = os.path.dirname(os.path.abspath(path))
        stamp = settings_stamp(folder)
        with self._lock:
            changed = self._stamps.setdefault(folder, stamp) != stamp
        if changed:
            log.debug("%s: settings changed on disk: reloaded", shown)
            self.reload()
            with self._lock:
                self._stamps[folder] = stamp
        with self._lock:
            return self.generation, self.resolver

    def analyse(
        self, path: str, text: str, version: int | None, buffers: Mapping[str, str] | None = None
    ) -> Analysis:
        """The document's findings with every open buffer as the editor has it (`buffers`:
        path -> text of the others) and the rest of the project from disk: its own, and those
        in its lines that the workflows reaching it find."""
        started = time.perf_counter()
        self._started = True
        shown = shown_path(display_name(path))
        lines = tuple(source_lines(text))
        generation, resolver = self._settings_for(path, shown)
        overlay = _overlay(buffers or {}, path, text)
        try:
            checked = _Document(path, shown, resolver, overlay)
            checked.own()
            for workflow in self.reachers.of(path, resolver, generation):
                checked.reached_from(workflow)
            if self.base:
                checked.versioned(self.base)
        except ConfigError as error:
            return Analysis(path, version, generation, text, lines, (), (str(error),), True)
        except Exception as error:  # a bug of ours: say so, keep serving the other documents
            log.exception("%s: internal error", shown)
            problem = f"{shown}: internal error: {type(error).__name__}: {error}"
            return Analysis(path, version, generation, text, lines, (), (problem,))
        findings = tuple(sorted(checked.findings.values(), key=Finding.sort_key))
        elapsed = (time.perf_counter() - started) * 1000
        log.debug("%s checked in %.1f ms: %d findings", shown, elapsed, len(findings))
        return Analysis(
            path,
            version,
            generation,
            text,
            lines,
            findings,
            tuple(checked.problems),
            reached=frozenset(checked.read),
            sites=tuple((line, tuple(sites)) for line, sites in sorted(checked.sites.items())),
        )


def _overlay(buffers: Mapping[str, str], path: str, text: str) -> dict[Path, bytes]:
    """Real path -> the bytes each open buffer would hold saved (this document's text too)."""
    overlay = {Path(os.path.realpath(p)): source_bytes(t)[0] for p, t in buffers.items()}
    overlay[Path(os.path.realpath(path))] = source_bytes(text)[0]
    return overlay


class _Document:
    """One document's check: its own findings, then those the workflows reaching it find in
    its lines, with the call sites that lead there."""

    def __init__(
        self, path: str, shown: str, resolver: Resolver, overlay: dict[Path, bytes]
    ) -> None:
        self.path, self.shown, self.resolver, self.overlay = path, shown, resolver, overlay
        self.findings: dict[tuple[object, ...], Finding] = {}
        self.problems: list[str] = []
        self.read: set[str] = set()
        self.sites: dict[int, list[Reach]] = {}

    def _check(self, path: str) -> list[Finding]:
        name = display_name(path)
        data = self.overlay.get(Path(os.path.realpath(path)))
        if data is None:
            with open(path, "rb") as handle:
                data = handle.read()
        project = buffered_project(self.resolver.for_path(name), self.overlay)
        outcome = run([], stdin=(name, data), resolver=self.resolver, project=project)
        report = report_from(outcome, Selection(self.resolver))
        self.read |= project.read_modules()
        self.problems.extend(p for p in report.errors if p not in self.problems)
        return list(report.findings)

    def _keep(self, finding: Finding) -> None:
        self.findings.setdefault((finding.span, finding.code, finding.call), finding)

    def own(self) -> None:
        for finding in self._check(self.path):
            if finding.path == self.shown:
                self._keep(finding)

    def versioned(self, base: str) -> None:
        """ADK-V001..V004 in this document: its workflows (and those reaching it) compared with
        their versions at `base`, the open buffers read as the editor holds them; the
        selection applies as to any finding, and no comment silences them."""
        from replaylint.versioning import check_against  # git and the base only when asked

        # Read here, never in a forked process: a fork of this threaded server could inherit
        # a lock another thread held.
        compared = check_against(base, [self.path], self.resolver, self.overlay, beside=False)
        selection = Selection(self.resolver)
        for finding in compared.findings:
            if finding.path == self.shown and selection.keeps(finding):
                self._keep(finding)
        self.problems.extend(p for p in compared.errors if p not in self.problems)

    def reached_from(self, workflow: str) -> None:
        if os.path.realpath(workflow) == os.path.realpath(self.path):
            return
        try:
            found = self._check(workflow)
        except OSError:
            return  # gone since the index saw it
        for finding in found:
            if finding.path == self.shown:
                self._keep(finding)
                continue
            for link in finding.chain:
                if link.path == self.shown:
                    site = Reach(finding.path, finding.line, finding.call)
                    known = self.sites.setdefault(link.line, [])
                    if site not in known:
                        known.append(site)
