"""A warm re-run answered from the last identical one, before the checker is even imported.

The index (project_index.py) spares a re-run every parse, but the run still imports the command
line and the engine, lists the tree, resolves each folder's settings and hashes every candidate:
about twice the interpreter's own start. When a `check` with the same arguments, from the same
folder, to the same kind of terminal, finds every file and folder its last run read exactly as
they were, its answer is that run's output: printed again here, with the same exit status.

What a run read is known by an audit hook (sys.addaudithook): every file it opened, every folder
it listed. Each is remembered by its stat stamp (stamps.py: size, mtime, ctime, inode, device;
a change time cannot be put back), with the Python files of each folder listed, the folders
above everything read (where settings and project roots are looked for), the paths named on the
command line (present or not) and replaylint's own files. Any stamp that differs, a path that
appeared or went, or a stamp within a clock tick of the run (git's "racily clean" case) and
the run is made again, and remembered again.

Only a run the index answered whole is remembered: nothing checked afresh and no other process
started, so that everything its output came from was read by this process, under the hook.
Only the plain forms of `check` are answered (options that print, edit or watch anything else,
stdin, `--no-cache`, `--base`, `-v` and `--debug` are made as usual), only exit statuses 0 and 1,
and only with a cache at a project's root. The memo is marshal data in the cache folder, like
the bytecode Python keeps beside the sources.
"""

from __future__ import annotations

import marshal
import os
import sys
import time
import zlib

from replaylint.index.location import SCHEMA, project_cache
from replaylint.index.stamps import RACY_SECONDS, stamp_of

KEPT = 8  # memos kept per cache: one per set of arguments, the oldest dropped beyond this
_FLAGS = frozenset(
    ("-q", "--quiet", "-s", "--silent", "--statistics", "--force-exclude", "-e", "--exit-zero")
)
_VALUED = frozenset(
    (
        "--output-format",
        "--format",
        "--select",
        "--extend-select",
        "--ignore",
        "--exclude",
        "--extend-exclude",
        "--config",
        "-j",
        "--jobs",
        "--cache-dir",
    )
)
# What the key holds of the environment: the cache's place and the report's colours.
_ENVIRONMENT = ("REPLAYLINT_CACHE_DIR", "FORCE_COLOR", "NO_COLOR")
_SPAWNING = frozenset(("os.fork", "os.forkpty", "os.posix_spawn", "os.exec", "subprocess.Popen"))


def answerable(argv: list[str]) -> tuple[list[str], str | None] | None:
    """(the paths named, `--cache-dir`) of a `check` a memo may answer, else None."""
    if not argv or argv[0] != "check":
        return None
    paths: list[str] = []
    cache_dir = os.environ.get("REPLAYLINT_CACHE_DIR") or None
    tokens = iter(argv[1:])
    for token in tokens:
        if not token.startswith("-"):
            paths.append(token)
            continue
        name, equals, value = token.partition("=")
        if name in _FLAGS and not equals:
            continue
        if name in _VALUED:
            if not equals:
                following = next(tokens, None)
                if following is None:
                    return None
                value = following
            if name == "--cache-dir":
                cache_dir = value
            continue
        if token.startswith("-j") and token[2:].isdigit():
            continue
        return None  # `-`, `--fix`, `-v`, combined short flags, `--`: made as usual
    return paths, cache_dir


def _memo_file(argv: list[str]) -> tuple[str, str] | None:
    """(the memo's path, its full key) for these arguments, or None when none may answer."""
    parsed = answerable(argv)
    if parsed is None:
        return None
    paths, cache_dir = parsed
    root = cache_dir or project_cache(paths[0] if paths else None)
    if root is None:
        return None
    from replaylint.version import __version__

    key = "\0".join(
        [
            f"{SCHEMA}|{__version__}|{sys.version}|{sys.executable}",
            os.path.dirname(os.path.abspath(__file__)),  # which replaylint answers
            os.getcwd(),
            *(os.environ.get(name, "") for name in _ENVIRONMENT),
            f"{_isatty(sys.stdout)}",
            *argv,
        ]
    )
    name = f"rerun-{zlib.crc32(key.encode('utf-8', 'surrogateescape')):08x}.marshal"
    return os.path.join(root, f"v{SCHEMA}", name), key


def answer(argv: list[str]) -> int | None:
    """Print the remembered output of this run and give its exit status; None when there is
    no memo for it or anything it read has changed."""
    where = _memo_file(argv)
    if where is None:
        return None
    path, key = where
    try:
        with open(path, "rb") as memo_file:
            memo = marshal.loads(memo_file.read())
        if memo["key"] != key or not _unchanged(memo["stamps"], memo["started"]):
            return None
        said, code = memo["said"], memo["code"]
        streams = [(sys.stderr if err else sys.stdout, text) for err, text in said]
        for out, text in streams:  # nothing is printed unless all of it can be
            text.encode(out.encoding or "utf-8")
    except (OSError, ValueError, EOFError, TypeError, KeyError, AttributeError, LookupError):
        return None
    for out, text in streams:
        out.write(text)
    return int(code)


def _unchanged(stamps: dict[str, tuple[int, ...] | None], started: float) -> bool:
    for path, stored in stamps.items():
        try:
            now: tuple[int, ...] | None = stamp_of(os.stat(path))
        except OSError:
            now = None
        if now != stored:
            return False
        if now is not None and started - max(now[1], now[2]) / 1e9 < RACY_SECONDS:
            return False
    return True


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False


class Recording:
    """What one run reads and prints, kept as a memo when the run may be answered again."""

    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        self.started = time.time()
        self.read: set[str] = set()
        self.listed: set[str] = set()
        self.said: list[tuple[bool, str]] = []
        self.afresh = 0
        self.spawned = False

    def heard(self, event: str, args: tuple[object, ...]) -> None:
        if self.spawned:
            return  # nothing to remember: what the other processes read was not heard
        if event == "open":
            path, mode, flags = args
            if isinstance(path, (str, bytes)) and not _writes(mode, flags):
                self.read.add(os.path.abspath(os.fsdecode(path)))
        elif event in ("os.listdir", "os.scandir"):
            path = args[0] if args and args[0] is not None else "."
            if isinstance(path, (str, bytes)):
                self.listed.add(os.path.abspath(os.fsdecode(path)))
        elif event in _SPAWNING:
            self.spawned = True

    def keep(self, code: object) -> None:
        """Write the memo, when the run ended as one that may be answered again."""
        where = _memo_file(self.argv)
        if where is None or self.spawned or self.afresh or code not in (0, 1, None):
            return
        path, key = where
        cache = os.path.dirname(os.path.dirname(path))
        inputs = self._inputs(cache)
        stamps = _stamps(inputs) if inputs is not None else None
        if stamps is None or any(self._racy(stamp) for stamp in stamps.values()):
            return  # it could not be trusted by the next run: remembered by a later one
        memo = {
            "key": key,
            "started": self.started,
            "stamps": stamps,
            "said": self.said,
            "code": int(code or 0),
        }
        _write(path, marshal.dumps(memo))

    def _inputs(self, cache: str) -> set[str] | None:
        """Every path whose stamp the memo keeps; None when a memo could not vouch for the run
        (a project inside the interpreter's own folders, whose listings are not followed)."""
        from replaylint.index.project_index import own_files

        parsed = answerable(self.argv)
        named = {os.path.abspath(p) for p in (parsed[0] if parsed else [])} | {os.getcwd()}
        prefixes = tuple({os.path.join(p, "") for p in (sys.prefix, sys.base_prefix)})
        if any(os.path.join(p, "").startswith(prefixes) for p in named):
            return None
        # Never inputs: the cache itself, and the kernel's files (the memory limit and the
        # CPUs decide how the work is shared, never what it finds).
        ignored = (os.path.join(cache, ""), "/proc/", "/sys/", "/dev/")
        listed = {d for d in self.listed if not d.startswith(ignored) and d != cache}
        listed = {d for d in listed if "__pycache__" not in d}
        read = {f for f in self.read if not f.startswith(ignored) and not f.endswith(".pyc")}
        own = set(own_files())
        files = read | named | own
        # The interpreter's folders are listed by its imports: only their stamps are kept.
        files |= {f for d in listed if not d.startswith(prefixes) for f in _python_files(d)}
        folders = listed | {os.path.dirname(f) for f in own}
        return files | folders | _probes(files | folders, folders)

    def _racy(self, stamp: tuple[int, ...] | None) -> bool:
        return stamp is not None and self.started - max(stamp[1], stamp[2]) / 1e9 < RACY_SECONDS


def _probes(places: set[str], folders: set[str]) -> set[str]:
    """Above what was read and listed, where settings and project roots are looked for: the
    names looked for in each folder that was not listed (a folder's own stamp would change
    with any file made beside them: a home folder's history files)."""
    from replaylint.core.paths import PROJECT_FILES, REPOSITORY_MARKERS
    from replaylint.project.settings_files import SETTINGS_NAMES

    names = {*REPOSITORY_MARKERS, *PROJECT_FILES, *SETTINGS_NAMES}
    above: set[str] = set()
    for place in places:
        parent = os.path.dirname(place)
        while parent not in folders and parent not in above:
            above.add(parent)
            parent = os.path.dirname(parent)
    return {os.path.join(folder, name) for folder in above for name in names}


def _writes(mode: object, flags: object) -> bool:
    """Does an `open` audited with this mode (io.open) or these flags (os.open) write?"""
    if isinstance(mode, str):
        return any(c in mode for c in "wax+")
    return isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR) != 0


def _stamps(paths: set[str]) -> dict[str, tuple[int, ...] | None] | None:
    stamps: dict[str, tuple[int, ...] | None] = {}
    for path in sorted(paths):
        try:
            stamps[path] = stamp_of(os.stat(path))
        except FileNotFoundError:
            stamps[path] = None
        except OSError:
            return None
    return stamps


def _python_files(folder: str) -> list[str]:
    """The folder's Python files: a candidate the index vouched for by its stamp alone was
    never opened."""
    try:
        with os.scandir(folder) as entries:
            return [e.path for e in entries if e.name.endswith((".py", ".pyi"))]
    except OSError:
        return []


def _write(path: str, payload: bytes) -> None:
    """Atomically, beside the index; the oldest memos beyond KEPT are dropped. A memo that
    cannot be written is not an error."""
    folder = os.path.dirname(path)
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        with open(temporary, "wb") as stream:
            stream.write(payload)
        os.replace(temporary, path)
        with os.scandir(folder) as entries:
            memos = [
                e for e in entries if e.name.startswith("rerun-") and e.name.endswith(".marshal")
            ]
        memos.sort(key=lambda e: e.stat().st_mtime_ns, reverse=True)
        for stale in memos[KEPT:]:
            os.unlink(stale.path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass


_current: Recording | None = None


def _hook(event: str, args: tuple[object, ...]) -> None:
    if _current is not None:
        _current.heard(event, args)


def record(argv: list[str]) -> Recording | None:
    """Start recording this process's run of `argv`, when a memo could answer it again."""
    global _current
    if _memo_file(argv) is None:
        return None
    if _current is None:
        sys.addaudithook(_hook)  # for the process's life: a hook cannot be removed
    _current = Recording(argv)
    return _current


def stop() -> None:
    global _current
    _current = None


def said(err: bool, text: str) -> None:
    """What the run printed, in order (cli/output.py tells)."""
    if _current is not None:
        _current.said.append((err, text))


def checked_afresh(count: int) -> None:
    """Modules the run checked rather than took from the index (cli/check.py tells)."""
    if _current is not None:
        _current.afresh += count
