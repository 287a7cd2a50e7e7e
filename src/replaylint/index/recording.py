"""What a run read and printed, kept as the memo that answers its next identical run (rerun.py).

Only a run the index answered whole is remembered: nothing checked afresh and no other process
started, so that everything its output came from was read by this process, and seen. An audit
hook (sys.addaudithook) sees every file the run opened and every folder it listed. The memo
keeps the stat stamp (stamps.py: size, mtime, ctime, inode, device; a change time cannot be put
back) of each of them, and of:
- the Python files of each folder listed (the index vouches for a file that is no candidate by
  its stamp alone, without opening it), and whether each folder under one that was not listed
  (a virtual environment, skipped) still holds its `pyvenv.cfg`;
- the paths named on the command line, present or not, and the folders imports look in
  (`sys.path`: a package `follow` names may be installed there later);
- replaylint's own files and the installed packages `follow` names (the index's key stamps
  them without opening them);
- above all of these, whether each name that settings and project roots are looked for by
  (`pyproject.toml`, `.replaylint.toml`, `.git`, ...) is there: a folder's own stamp would
  move with any file made beside them, a home folder's history files.
The cache's own folder is no input, nor are the kernel's files (the memory limit and the CPUs
decide how the work is shared, never what it finds). A run from inside either, or from inside
the interpreter's own folders (whose listings by imports are not followed), is not remembered;
nor is a run that ends with status 2.
"""

from __future__ import annotations

import marshal
import os
import stat
import sys
import time

from replaylint.index.rerun import PRESENT, Stamped, answerable, memo_file
from replaylint.index.stamps import stamp_of, trusted

KEPT = 8  # memos kept per cache: one per set of arguments, the oldest dropped beyond this
_SPAWNING = frozenset(("os.fork", "os.forkpty", "os.posix_spawn", "os.exec", "subprocess.Popen"))
_KERNEL = ("/proc/", "/sys/")


class Recording:
    """What one run reads and prints, kept as a memo when the run may be answered again."""

    def __init__(self, argv: list[str], where: tuple[str, str]) -> None:
        self.argv = argv
        self.where = where  # the memo's path and key, worked out before the run could change them
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
        if self.spawned or self.afresh or code not in (0, 1, None):
            return
        path, key = self.where
        stamps = self._stamps(os.path.dirname(path))
        if stamps is None:
            return
        memo = {
            "key": key,
            "started": self.started,
            "stamps": stamps,
            "said": self.said,
            "code": int(code or 0),
        }
        _write(path, marshal.dumps(memo))

    def _stamps(self, own_folder: str) -> dict[str, Stamped] | None:
        """Every input's stamp; None when a memo could not vouch for the run, or the next run
        could not trust it (a stamp within a clock tick of this one: remembered later)."""
        from replaylint.index.project_index import followed_files, own_files

        parsed = answerable(self.argv)
        named = {os.path.abspath(p) for p in (parsed[0] if parsed else [])} | {os.getcwd()}
        prefixes = tuple({os.path.join(p, "") for p in (sys.prefix, sys.base_prefix)})
        ignored = (os.path.join(own_folder, ""), *_KERNEL)
        if any(os.path.join(p, "").startswith((*ignored, *prefixes)) for p in named):
            return None
        listed = {d for d in self.listed if not d.startswith(ignored) and not _bytecode(d)}
        read = {f for f in self.read if not f.startswith(ignored) and not f.endswith(".pyc")}
        own = set(own_files())
        # Where imports look (a `follow`ed package installed later, a PYTHONPATH folder made):
        # the interpreter listed them before the hook was in place.
        paths = {os.path.abspath(entry) for entry in sys.path if entry}
        files = read | named | own | followed_files() | paths
        venvs: set[str] = set()
        for folder in listed:  # the interpreter's folders are listed by its imports: not these
            if not folder.startswith(prefixes):
                _contents(folder, listed, files, venvs)
        folders = listed | {os.path.dirname(f) for f in own}
        stamps: dict[str, Stamped] = {}
        for path in sorted(files | folders):
            try:
                status = os.stat(path)
            except FileNotFoundError:
                stamps[path] = None
                continue
            except OSError:
                return None
            if not (stat.S_ISREG(status.st_mode) or stat.S_ISDIR(status.st_mode)):
                continue  # a device or a pipe (`/dev/null`): what it holds is no input
            stamps[path] = stamp = stamp_of(status)
            if not trusted(stamp, self.started):
                return None
        for path in venvs | _probes(files | folders, folders):
            if path not in stamps:  # one that was read keeps its full stamp
                stamps[path] = PRESENT if os.path.lexists(path) else None
        return stamps


def _bytecode(folder: str) -> bool:
    return "__pycache__" in folder.split(os.sep)


def _contents(folder: str, listed: set[str], files: set[str], venvs: set[str]) -> None:
    """Into `files`, the folder's Python files; into `venvs`, the `pyvenv.cfg` of each folder
    in it that the walk did not list."""
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith((".py", ".pyi")):
                    files.add(entry.path)
                elif entry.is_dir() and entry.path not in listed:
                    venvs.add(os.path.join(entry.path, "pyvenv.cfg"))
    except OSError:
        return


def _probes(places: set[str], folders: set[str]) -> set[str]:
    """Above what was read and listed, the names settings and project roots are looked for by,
    in each folder that was not listed."""
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
            memos = [e for e in entries if e.name.startswith("rerun-")]
        memos = [e for e in memos if e.name.endswith(".marshal")]
        memos.sort(key=lambda e: e.stat().st_mtime_ns, reverse=True)
        for stale in memos[KEPT:]:
            os.unlink(stale.path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass


_current: Recording | None = None
_hooked = False


def _hook(event: str, args: tuple[object, ...]) -> None:
    if _current is not None:
        _current.heard(event, args)


def record(argv: list[str]) -> Recording | None:
    """Start recording this process's run of `argv`, when a memo could answer it again."""
    global _current, _hooked
    where = memo_file(argv)
    if where is None:
        return None
    if not _hooked:
        sys.addaudithook(_hook)  # for the process's life: a hook cannot be removed
        _hooked = True
    _current = Recording(argv, where)
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
