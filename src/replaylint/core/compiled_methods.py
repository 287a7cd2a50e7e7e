"""Dataclass methods compiled once per interpreter, not once per process.

`@dataclass` writes each class's `__init__`, `__eq__`, `__repr__`, ... as Python source and
compiles it when the class is created. LibCST defines about 250 node dataclasses, so importing it
compiles some 1,200 such texts: about 75 ms of every process that parses (a one-module edit, a
cold run's workers), a third of LibCST's import. The compiled code objects depend only on the
text and the interpreter, so they are kept next to the package's bytecode (as CPython keeps a
module's in `__pycache__`), one file per module whose classes they make, and reused by later
processes: a run reads the files of the modules it imports, no more. Like bytecode they belong to the
installation, not to a checked project: `--no-cache` (no stored results) leaves them in use.

The code object run is the one `exec(text)` would compile, so every class behaves exactly as
before; when a file cannot be read or written (a read-only install), each text is simply
compiled as usual. The files are trusted as the bytecode beside them is: whoever can write one
can write the other."""

from __future__ import annotations

import atexit
import builtins
import dataclasses
import importlib.util
import marshal
import os
import sys
from pathlib import Path
from types import CodeType
from typing import Any

# An upgraded package adds texts and leaves the old ones: past this many a module's file is no
# longer rewritten (the texts it lacks are compiled per process, as without it). Removing the
# folder starts it afresh.
_MOST_KEPT = 2_000


class KeptMethods:
    """The compiled texts, one table per module whose classes they belong to: a table is read
    when that module creates its first class (a run reads only what it uses), and written at
    exit when one of its texts had to be compiled."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.tables: dict[str, dict[str, CodeType]] = {}
        self.grown: set[str] = set()  # modules with a text their file lacks
        self.added = 0
        self.owner = os.getpid()  # forked workers neither write nor inherit the exit hook's work

    def code_for(self, text: str, module: str) -> CodeType:
        table = self.tables.get(module)
        if table is None:
            table = self.tables[module] = self._read(module)
        code = table.get(text)
        if code is None:
            # dont_inherit: dataclasses' own module has no `from __future__` imports, this one does
            code = compile(text, "<string>", "exec", dont_inherit=True)
            table[text] = code
            self.grown.add(module)
            self.added += 1
        return code

    def _file(self, module: str) -> Path | None:
        return self.folder / f"{module or '_'}.marshal" if self.folder is not None else None

    def _read(self, module: str) -> dict[str, CodeType]:
        file = self._file(module)
        if file is None:
            return {}
        try:
            loaded = marshal.loads(file.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            return {}  # absent or damaged: compiled afresh and written again
        if not isinstance(loaded, dict):
            return {}
        return {k: v for k, v in loaded.items() if type(k) is str and type(v) is CodeType}

    def write_at_exit(self) -> None:
        if os.getpid() == self.owner:  # a forked child inherits the hook, not the work
            self.write()

    def write(self) -> None:
        """Write the tables of the modules that gained a text (then nothing is left to)."""
        if self.folder is None or not self.grown:
            return
        import tempfile  # only when writing: it costs a warm run a few ms to import

        _sweep(self.folder)
        for module in sorted(self.grown):
            table = self.tables[module]
            file = self._file(module)
            if file is None or len(table) > _MOST_KEPT:
                continue
            try:
                file.parent.mkdir(parents=True, exist_ok=True)
                handle, temporary = tempfile.mkstemp(dir=file.parent, prefix=".methods-")
                with os.fdopen(handle, "wb") as out:
                    out.write(marshal.dumps(table))
                os.chmod(temporary, 0o644)  # readable by every user of the install, as bytecode
                os.replace(temporary, file)
            except OSError:
                self.grown.clear()
                return  # a read-only install: each process compiles, as it would without this
        self.grown.clear()


_STALE_SECONDS = 60


def _sweep(folder: Path) -> None:
    """Remove what a writer killed between its temporary file and the rename left behind."""
    import time

    try:
        for stale in folder.glob(".methods-*"):
            if time.time() - stale.stat().st_mtime > _STALE_SECONDS:
                stale.unlink()
    except OSError:
        pass


def kept_folder() -> Path | None:
    """Where the compiled methods are kept: beside this package's bytecode (under
    PYTHONPYCACHEPREFIX when that is set); None for an interpreter without bytecode files."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    here = Path(__file__).resolve().parent
    # The bytecode's magic number too: two builds of one version (pre-releases) share a tag.
    name = f"dataclass-methods.{tag}-{importlib.util.MAGIC_NUMBER.hex()}"
    if sys.pycache_prefix:
        return Path(sys.pycache_prefix, *here.parts[1:], name)
    return here / "__pycache__" / name


def keep_compiled_methods(folder: Path | None = None) -> KeptMethods | None:
    """From now on, dataclasses created in this process reuse the kept compiled methods (the
    table installed; None when an earlier call installed one)."""
    if getattr(dataclasses, "exec", None) is not None:
        return None  # installed already (or another tool shadows exec there): left alone
    kept = KeptMethods(folder if folder is not None else kept_folder())

    def exec_kept(source: Any, globals: Any = None, locals: Any = None, /) -> None:
        # exec(text) with no globals runs in its caller's: dataclasses' own
        namespace = vars(dataclasses) if globals is None else globals
        if type(source) is str:
            module = namespace.get("__name__")
            source = kept.code_for(source, module if type(module) is str else "")
        builtins.exec(source, namespace, locals)

    # A module global shadows the builtin for the functions of `dataclasses` only.
    dataclasses.exec = exec_kept  # type: ignore[attr-defined]
    atexit.register(kept.write_at_exit)
    global _installed
    _installed = kept
    return kept


_installed: KeptMethods | None = None


def keep_now() -> None:
    """Write what this process compiled so far. A worker process calls it as it ends each task:
    it exits without running exit hooks, and is often the only process that imports LibCST (a
    cold run's batches, an edit checked in the prefetched worker, index/prefetch.py)."""
    if _installed is not None:
        _installed.write()
