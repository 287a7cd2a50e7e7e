"""The project index: what an earlier run learnt of each file, reused while nothing it depends
on has changed, so a re-run reads and parses only what did.

One index per set of settings holds, per file, its stat stamp (stamps.py), its content hash
(candidates) and the prefilter's verdict; and per checked module its Record, which lists the
hash of every local module it reaches. A record is reused only when the bytes read now hash to
its own hash and every module it reaches hashes to what it did: content decides, never an
mtime (which copies and archives put back). The stamp only spares reading a file that is no
candidate, and only while its change time and inode say it was not touched.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from replaylint.engine.records import Record, from_json, to_json
from replaylint.engine.registrations import Registrations
from replaylint.engine.registrations import from_json as registrations_from_json
from replaylint.index.cache import SCHEMA, Cache
from replaylint.index.decisions import FileDecision
from replaylint.index.stamps import vouches
from replaylint.project.config import Config
from replaylint.project.prefilter import read_regular
from replaylint.version import __version__


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


def own_key() -> str:
    """replaylint itself (its version, source and data) and the interpreter: what anything it
    works out from a file alone depends on besides the file."""
    digest = hashlib.sha256(os.fsencode(f"{SCHEMA}|{__version__}|{sys.version}|"))
    digest.update(_own_files())
    return digest.hexdigest()[:32]


@functools.cache
def own_files() -> tuple[str, ...]:
    """replaylint's own modules and data (an installed or an editable copy). Listed once per
    process: the code running is the code this process imported."""
    from replaylint.core.docs import rules_dir

    return _files([Path(__file__).parents[1], rules_dir()], (".py", ".toml", ".json"))


@functools.cache
def _own_files() -> bytes:
    """Sizes and mtimes of replaylint's own files: an edit to an installed or editable
    replaylint makes a new cache, even at the same version. Stamped once per process, as
    before: the code running is the code this process imported."""
    return _stamps(own_files())


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
    files = _files(folders, (".py",))
    _FOLLOWED.update(files)
    return _stamps(files)


_FOLLOWED: set[str] = set()


def followed_files() -> set[str]:
    """The files of followed packages this process stamped for an index's key (recording.py
    keeps their stamps too: the key is never worked out by a re-run that a memo answers)."""
    return set(_FOLLOWED)


def _files(places: list[Path], suffixes: tuple[str, ...]) -> tuple[str, ...]:
    """Each file with one of `suffixes` under `places`, bytecode folders left out (a warm run
    pays for this walk: 7 ms of listing `__pycache__`)."""
    files = []
    for place in places:
        if not place.is_dir():
            files += [str(place)] if place.suffix in suffixes else []
            continue
        for folder, folders, names in os.walk(place):
            folders[:] = sorted(f for f in folders if f != "__pycache__")
            files += [os.path.join(folder, n) for n in sorted(names) if n.endswith(suffixes)]
    return tuple(files)


def _stamps(files: tuple[str, ...]) -> bytes:
    """Path, size and mtime of each file."""
    entries = []
    for file in files:
        stat = os.stat(file)
        entries.append(f"{file}:{stat.st_size}:{stat.st_mtime_ns}")
    return os.fsencode("\n".join(entries))


# A record whose chains hold more hops than this is checked again rather than stored: only
# thousands of helpers calling one another on the workflow path reach it, and its chains
# would make the index grow with the square of the module (report/chains.py).
_KEPT_HOPS = 100_000


class Index:
    """One group's index: loaded before the run, updated with what the run learnt, stored."""

    def __init__(self, cache: Cache, config: Config) -> None:
        self.cache = cache
        self.key = settings_key(config)
        data = cache.load(self.key) or {}
        # Each part of another shape than store() writes (a damaged index that is still JSON)
        # counts as empty: what it held is decided and checked afresh.
        written = data.get("written")
        self.written = float(written) if isinstance(written, (int, float)) else 0.0
        self.files: dict[str, list[Any]] = _shaped(data.get("files"), dict, {})
        self.tree: str = _shaped(data.get("tree"), str, "")
        self.records: dict[str, Any] = _shaped(data.get("records"), dict, {})
        self.extras: list[str] = [
            e for e in _shaped(data.get("extras"), list, []) if isinstance(e, str)
        ]
        self.registered: dict[str, Any] = _shaped(data.get("registrations"), dict, {})
        self.parts: dict[str, Any] = _shaped(data.get("parts"), dict, {})
        self._sha: dict[str, str | None] = {}
        self._real: dict[str, str] = {}
        self._cwd = os.getcwd()  # a run never changes it: one call, not one per file

    def empty(self) -> bool:
        """No record is stored: a first run with these settings, or after `clean`."""
        return not self.records

    def real(self, path: str) -> str:
        """A file's real path, worked out once per run (each costs an lstat per folder)."""
        found = self._real.get(path)
        if found is None:
            found = self._real[path] = os.path.realpath(path)
        return found

    # ---------------------------------------------------------------- files
    # Files are keyed by absolute path (no system call); records by real path, as the engine
    # names modules. A dependency reached through a link is hashed again rather than trusted.

    def known(self, path: str) -> FileDecision | None:
        """What the index vouches for of a file: a candidate whose bytes still hash to what
        they did (read again: its record is reused only for the same content), or a file that
        is no candidate whose stat stamp is unchanged (stamps.py); None to decide it afresh."""
        entry = self.files.get(absolute(path, self._cwd))
        if entry is None or not _well_formed(entry):
            return None  # missing, or damaged into other JSON: decided afresh
        stamp, sha, verdict = entry
        if not sha:
            if not vouches(stamp, path, self.written):
                return None
            return FileDecision(path, verdict, None, "", tuple(stamp))
        try:
            data = read_regular(path)
        except OSError:
            return None
        if hashlib.sha256(data).hexdigest() != sha:
            return None
        self._sha[absolute(path, self._cwd)] = sha
        return FileDecision(path, verdict, data, sha, tuple(stamp))

    def remember(self, decision: FileDecision) -> None:
        """A file just read: its stamp, hash (candidates only: "" else) and verdict."""
        path = absolute(decision.path, self._cwd)
        self.files[path] = [list(decision.stamp), decision.sha, decision.verdict]
        if decision.sha:
            self._sha[path] = decision.sha

    def current_sha(self, path: str) -> str | None:
        """The hash of a dependency's bytes as they are now: read and hashed once per run,
        whatever its stamp says (a helper edited under a restored mtime is seen)."""
        if path in self._sha:
            return self._sha[path]
        found: str | None
        try:
            found = hashlib.sha256(read_regular(path)).hexdigest()
        except OSError:
            found = None
        self._sha[path] = found
        return found

    # ---------------------------------------------------------------- records

    def record(self, path: str, sha: str, tree: str) -> Record | None:
        """The stored record of a module whose bytes hash to `sha`, when still valid."""
        if tree != self.tree:
            return None  # a file was added or removed: an import may resolve elsewhere now
        data = self.records.get(self.real(path))
        if not isinstance(data, dict) or data.get("sha") != sha:
            return None
        try:
            record = from_json(data)
        except (KeyError, TypeError, ValueError):
            return None
        if any(self.current_sha(dep) != dep_sha for dep, dep_sha in record.deps):
            return None
        return record

    # ---------------------------------------------------------------- registrations
    # What the registrars register is kept twice: whole, under the digest of every registrar's
    # bytes (a run where none changed reads it alone), and by part (registrars checked together,
    # under their own bytes' digest), so an edit to one registrar checks its part again and
    # merges the others' stored summaries.

    def registrations(self, key: str) -> Registrations | None:
        """The whole summary stored under `key`, while every file it reaches is unchanged."""
        return self._summary(self.registered, key)

    def part(self, key: str) -> Registrations | None:
        """One part's summary, stored under its registrars' digest, while still valid."""
        return self._summary(self.parts.get(key), key)

    def keep_whole(self, key: str, summary: Registrations, parts: list[str]) -> None:
        """The whole summary, merged from these parts: valid while all of theirs are."""
        kept = [self.parts.get(part) for part in parts]
        if not all(kept):
            self.registered = {}
            return
        deps = sorted({tuple(dep) for part in kept for dep in part["deps"]})  # type: ignore[index]
        self.registered = {"key": key, "summary": summary.to_json(), "deps": deps}

    def keep_part(self, key: str, summary: Registrations, records: list[Record]) -> None:
        self.parts[key] = _kept(key, summary, records)

    def keep_parts(self, keys: set[str]) -> None:
        """Forget the parts this run's registrars no longer make up."""
        self.parts = {key: part for key, part in self.parts.items() if key in keys and part}

    def _summary(self, stored: Any, key: str) -> Registrations | None:
        if not isinstance(stored, dict) or stored.get("key") != key:
            return None
        try:
            summary = registrations_from_json(stored["summary"])
            deps = [(str(path), str(sha)) for path, sha in stored["deps"]]
        except (KeyError, TypeError, ValueError):
            return None
        if any(self.current_sha(dep) != sha for dep, sha in deps):
            return None
        return summary

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
            if (
                record.cacheable
                and record.path
                and record.kind in ("plain", "workflow", "failed")
                and sum(len(f.chain) for f in record.findings) <= _KEPT_HOPS
            ):
                self.records[record.path] = to_json(record)
        self.extras = sorted(extras)
        here = {absolute(p, self._cwd) for p in present}
        self.files = {path: entry for path, entry in self.files.items() if path in here}
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
                "registrations": self.registered,
                "parts": self.parts,
            },
        )


def _kept(key: str, summary: Registrations, records: list[Record]) -> dict[str, Any]:
    """A summary as the index keeps it, with every file its records depend on (nothing when
    one of them may not be kept)."""
    if not all(r.cacheable for r in records):
        return {}
    deps = {(r.path, r.sha) for r in records if r.path and r.sha}
    deps |= {dep for r in records for dep in r.deps}
    return {"key": key, "summary": summary.to_json(), "deps": sorted(deps)}


def _shaped(value: Any, kind: type, empty: Any) -> Any:
    return value if isinstance(value, kind) else empty


def _well_formed(entry: Any) -> bool:
    """[stamp (5 ints), sha (str), verdict (int)], as remember() writes an entry."""
    return (
        isinstance(entry, list)
        and len(entry) == 3
        and isinstance(entry[0], list)
        and len(entry[0]) == 5
        and all(type(value) is int for value in entry[0])
        and isinstance(entry[1], str)
        and type(entry[2]) is int
    )


def absolute(path: str, cwd: str) -> str:
    """os.path.abspath(path) with the working directory `cwd` (asked once per run)."""
    return os.path.normpath(os.path.join(cwd, path))


def tree_digest(files: list[str], registrations: Registrations | None) -> str:
    """The files present, and what the registrars register: a change to either can change any
    module's record (an import resolves elsewhere, a function becomes an orchestrator or an
    activity), so every record is recomputed then. An edit to a registrar that registers the
    same leaves the other records valid."""
    cwd = os.getcwd()
    text = "\n".join(sorted(absolute(f, cwd) for f in files)) + "\n--\n"
    if registrations is not None:
        text += json.dumps(registrations.to_json(), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:32]


def registrars_key(registrars: list[tuple[str, str]]) -> str:
    """The digest of some registrars' paths and bytes (their sha256s). Paths are made
    absolute: a run of `.` and one naming files (pre-commit's) reach the same registrars by
    relative and by absolute paths, and must find each other's summaries."""
    cwd = os.getcwd()
    named = sorted((absolute(path, cwd), sha) for path, sha in registrars)
    text = "\n".join(f"{path}:{sha}" for path, sha in named)
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:32]
