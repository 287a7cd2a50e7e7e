"""One document checked through the same API as `replaylint check -`: its buffer read as the
module at its real path (so its local imports resolve beside it and the rest of the project is
read from disk), with the settings each file's nearest `[tool.replaylint]` gives."""

from __future__ import annotations

import codecs
import io
import logging
import os
import re
import time
import tokenize
from dataclasses import dataclass

from replaylint.api import run
from replaylint.core.findings import Finding
from replaylint.core.paths import printable
from replaylint.project.config import ConfigError, Resolver
from replaylint.project.settings_files import SETTINGS_NAMES
from replaylint.report.selection import Selection, report_from
from replaylint.server.ranges import source_lines

log = logging.getLogger("replaylint.server")

SETTINGS_FILES = SETTINGS_NAMES
_REPOSITORY_MARKERS = (".git", ".hg")
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
            os.path.exists(os.path.join(current, m)) for m in _REPOSITORY_MARKERS
        ):
            return tuple(stamp)
        current = parent


class Analyzer:
    """Checks buffers one at a time (the server runs it on a single worker thread)."""

    def __init__(self) -> None:
        self.resolver = Resolver()
        self.generation = 0
        # Settings files as each folder's last check saw them: a client that reports no file
        # changes still gets settings edited on disk from the next check of a file under them.
        self._stamps: dict[str, tuple[tuple[str, int, int], ...]] = {}

    def reload(self) -> None:
        """Settings changed: read them afresh on the next check."""
        self.resolver = Resolver()
        self.generation += 1
        self._stamps = {}

    def files_changed(self) -> None:
        """Files on disk changed (a save, a checkout): results checked before are stale."""
        self.generation += 1

    def analyse(self, path: str, text: str, version: int | None) -> Analysis:
        started = time.perf_counter()
        name = display_name(path)
        shown = shown_path(name)
        lines = tuple(source_lines(text))
        folder = os.path.dirname(os.path.abspath(path))
        stamp = settings_stamp(folder)
        if self._stamps.setdefault(folder, stamp) != stamp:
            log.debug("%s: settings changed on disk: reloaded", shown)
            self.reload()
            self._stamps[folder] = stamp
        generation, resolver = self.generation, self.resolver
        try:
            outcome = run([], stdin=(name, source_bytes(text)[0]), resolver=resolver)
            report = report_from(outcome, Selection(resolver))
        except ConfigError as error:
            return Analysis(path, version, generation, text, lines, (), (str(error),), True)
        except Exception as error:  # a bug of ours: say so, keep serving the other documents
            log.exception("%s: internal error", shown)
            problem = f"{shown}: internal error: {type(error).__name__}: {error}"
            return Analysis(path, version, generation, text, lines, (), (problem,))
        own = tuple(f for f in report.findings if f.path == shown)
        log.debug(
            "%s checked in %.1f ms: %d findings",
            shown,
            (time.perf_counter() - started) * 1000,
            len(own),
        )
        return Analysis(path, version, generation, text, lines, own, report.errors)
