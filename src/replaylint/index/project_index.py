"""The project index: what an earlier run learnt of each file, reused while nothing it depends
on has changed, so a re-run reads and parses only what did.

One index per set of settings holds, per file, its size and mtime (to skip reading it), its
content hash and the prefilter's verdict; and per checked module its Record, which lists the
hash of every local module it reaches. A record is reused when its own hash and all of those
still match; a file whose mtime is too close to the index's own write time is hashed again,
since an edit within the clock's resolution would keep both (git's "racily clean" case).
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from pathlib import Path
from typing import Any

from replaylint.engine.records import Record, from_json, to_json
from replaylint.index.cache import SCHEMA, Cache
from replaylint.project.config import Config
from replaylint.version import __version__

_RACY_SECONDS = 2.0


def settings_key(config: Config) -> str:
    """What every record depends on besides the files: replaylint itself (its version, its own
    source, its data), the interpreter, the working directory (reports show paths relative to
    it) and the settings."""
    digest = hashlib.sha256()
    digest.update(os.fsencode(f"{SCHEMA}|{__version__}|{sys.version}|{os.getcwd()}|"))
    digest.update(os.fsencode(repr(sorted((k, repr(v)) for k, v in vars(config).items()))))
    digest.update(_own_files())
    digest.update(_followed_files(config.follow))
    return digest.hexdigest()[:32]


def _own_files() -> bytes:
    """Sizes and mtimes of replaylint's own modules and data: an edit to an installed or
    editable replaylint makes a new cache, even at the same version."""
    from replaylint.core.docs import rules_dir

    return _stamps([Path(__file__).parents[1], rules_dir()], (".py", ".toml", ".json"))


def _followed_files(follow: tuple[str, ...]) -> bytes:
    """The same for the installed packages `follow` names, whose code the chains go through:
    upgrading one makes a new cache. Found as an import would find them; nothing runs."""
    if not follow:
        return b""
    import importlib.util

    folders = []
    for name in sorted({f.split(".")[0] for f in follow}):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is not None:
            locations = list(spec.submodule_search_locations or [])
            folders += [Path(p) for p in locations] or ([Path(spec.origin)] if spec.origin else [])
    return _stamps(folders, (".py",))


def _stamps(places: list[Path], suffixes: tuple[str, ...]) -> bytes:
    entries = []
    for place in places:
        for path in sorted(place.rglob("*")) if place.is_dir() else [place]:
            if path.suffix in suffixes:
                stat = path.stat()
                entries.append(f"{path}:{stat.st_size}:{stat.st_mtime_ns}")
    return os.fsencode("\n".join(entries))


class Index:
    """One group's index: loaded before the run, updated with what the run learnt, stored."""

    def __init__(self, cache: Cache, config: Config) -> None:
        self.cache = cache
        self.key = settings_key(config)
        data = cache.load(self.key) or {}
        self.written = float(data.get("written", 0.0))
        self.files: dict[str, list[Any]] = data.get("files", {})
        self.tree: str = data.get("tree", "")
        self.records: dict[str, Any] = data.get("records", {})
        self.extras: list[str] = data.get("extras", [])
        self._sha: dict[str, str | None] = {}
        self._real: dict[str, str] = {}

    def real(self, path: str) -> str:
        """A file's real path, worked out once per run (each costs an lstat per folder)."""
        found = self._real.get(path)
        if found is None:
            found = self._real[path] = os.path.realpath(path)
        return found

    # ---------------------------------------------------------------- files
    # Files are keyed by absolute path (no system call); records by real path, as the engine
    # names modules. A dependency reached through a link is hashed again rather than trusted.

    def known(self, path: str) -> tuple[str, int] | None:
        """(sha, verdict) of a file unchanged since the index was written, else None."""
        entry = self.files.get(os.path.abspath(path))
        if entry is None:
            return None
        try:
            stat = os.stat(path)
        except OSError:
            return None
        size, mtime, sha, verdict = entry
        if stat.st_size != size or stat.st_mtime_ns != mtime:
            return None
        if self.written - stat.st_mtime_ns / 1e9 < _RACY_SECONDS:
            return None  # modified too close to the index's writing to trust the mtime
        return sha, verdict

    def remember(self, path: str, size: int, mtime_ns: int, sha: str, verdict: int) -> None:
        """A file just read: its size, mtime, hash (candidates only: "" else) and verdict."""
        path = os.path.abspath(path)
        self.files[path] = [size, mtime_ns, sha, verdict]
        if sha:
            self._sha[path] = sha

    def note(self, path: str, sha: str) -> None:
        self._sha[os.path.abspath(path)] = sha

    def current_sha(self, path: str) -> str | None:
        """The hash of a dependency as it is now (read only when the index cannot vouch)."""
        if path in self._sha:
            return self._sha[path]
        entry = self.files.get(path)
        unchanged = entry is not None and self.known(path) is not None
        found: str | None = None
        if unchanged and entry is not None and entry[2]:
            found = entry[2]
        else:
            try:
                with open(path, "rb") as handle:
                    found = hashlib.sha256(handle.read()).hexdigest()
            except OSError:
                found = None
            if unchanged and entry is not None and found is not None:
                entry[2] = found  # a helper the scan did not hash: remembered from now on
        self._sha[path] = found
        return found

    # ---------------------------------------------------------------- records

    def record(self, path: str, sha: str, tree: str) -> Record | None:
        """The stored record of a module whose bytes hash to `sha`, when still valid."""
        if tree != self.tree:
            return None  # a file was added or removed: an import may resolve elsewhere now
        data = self.records.get(self.real(path))
        if data is None or data.get("sha") != sha:
            return None
        try:
            record = from_json(data)
        except (KeyError, TypeError, ValueError):
            return None
        if any(self.current_sha(dep) != dep_sha for dep, dep_sha in record.deps):
            return None
        return record

    def update(
        self,
        records: list[Record],
        extras: list[str],
        tree: str,
        present: set[str],
        candidates: set[str],
    ) -> None:
        """What this run computed (`records`), the modules registrations made workflow code
        (`extras`), the tree's digest, the files present now and the candidates' real paths."""
        if tree != self.tree:
            self.records = {}
        self.tree = tree
        for record in records:
            if record.cacheable and record.path and record.kind in ("plain", "workflow", "failed"):
                self.records[record.path] = to_json(record)
        self.extras = sorted(extras)
        absolute = {os.path.abspath(p) for p in present}
        self.files = {path: entry for path, entry in self.files.items() if path in absolute}
        kept = candidates | set(self.extras)
        self.records = {path: data for path, data in self.records.items() if path in kept}

    def store(self) -> None:
        self.cache.store(
            self.key,
            {
                "written": time.time(),
                "files": self.files,
                "tree": self.tree,
                "records": self.records,
                "extras": self.extras,
            },
        )


def tree_digest(files: list[str], registrars: list[tuple[str, str]]) -> str:
    """The files present, and the content of every file that registers functions: a change to
    either can change any module's record (an import resolves elsewhere, a function becomes an
    orchestrator or an activity), so every record is recomputed then."""
    text = "\n".join(sorted(os.path.abspath(f) for f in files)) + "\n--\n"
    text += "\n".join(f"{path}:{sha}" for path, sha in sorted(registrars))
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:32]
