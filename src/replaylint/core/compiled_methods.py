"""Dataclass methods compiled once per interpreter, not once per process.

`@dataclass` writes each class's `__init__`, `__eq__`, `__repr__`, ... as Python source and
compiles it when the class is created. LibCST defines about 250 node dataclasses, so importing it
compiles some 1,200 such texts: about 75 ms of every process that parses (a one-module edit, a
cold run's workers), a third of LibCST's import. The compiled code objects depend only on the
text and the interpreter, so they are kept next to the package's bytecode (as CPython keeps a
module's in `__pycache__`) and reused by later processes. Like bytecode they belong to the
installation, not to a checked project: `--no-cache` (no stored results) leaves them in use.

The code object run is the one `exec(text)` would compile, so every class behaves exactly as
before; when the file cannot be read or written (a read-only install), each text is simply
compiled as usual."""

from __future__ import annotations

import atexit
import builtins
import dataclasses
import marshal
import os
import sys
import tempfile
from pathlib import Path
from types import CodeType
from typing import Any

# An upgraded LibCST adds texts and leaves the old ones: past this many the file is no longer
# rewritten (the texts it lacks are compiled per process, as without it). `replaylint clean`
# does not touch it; removing the file starts it afresh.
_MOST_KEPT = 20_000


class KeptMethods:
    """The table of compiled texts: read on the first class created, written at exit when a
    text was compiled that the file lacked."""

    def __init__(self, file: Path | None) -> None:
        self.file = file
        self.table: dict[str, CodeType] | None = None
        self.added = 0
        self.owner = os.getpid()  # forked workers neither write nor inherit the exit hook's work

    def code_for(self, text: str) -> CodeType:
        table = self.table if self.table is not None else self._read()
        code = table.get(text)
        if code is None:
            # dont_inherit: dataclasses' own module has no `from __future__` imports, this one does
            code = compile(text, "<string>", "exec", dont_inherit=True)
            table[text] = code
            self.added += 1
        return code

    def _read(self) -> dict[str, CodeType]:
        table: dict[str, CodeType] = {}
        if self.file is not None:
            try:
                loaded = marshal.loads(self.file.read_bytes())
            except (OSError, EOFError, ValueError, TypeError):
                loaded = None  # absent or damaged: compiled afresh and written again
            if isinstance(loaded, dict):
                table = {k: v for k, v in loaded.items() if type(k) is str and type(v) is CodeType}
        self.table = table
        return table

    def write(self) -> None:
        if self.file is None or not self.added or self.table is None or os.getpid() != self.owner:
            return
        table = self.table
        if len(table) > _MOST_KEPT:
            return
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.file.parent, prefix=".methods-")
            with os.fdopen(handle, "wb") as out:
                out.write(marshal.dumps(table))
            os.chmod(temporary, 0o644)  # readable by every user of the install, as bytecode is
            os.replace(temporary, self.file)
        except OSError:
            return  # a read-only install: each process compiles, as it would without this


def kept_file() -> Path | None:
    """Where the compiled methods are kept: beside this package's bytecode (under
    PYTHONPYCACHEPREFIX when that is set); None for an interpreter without bytecode files."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    here = Path(__file__).resolve().parent
    name = f"dataclass-methods.{tag}.marshal"
    if sys.pycache_prefix:
        return Path(sys.pycache_prefix, *here.parts[1:], name)
    return here / "__pycache__" / name


def keep_compiled_methods(file: Path | None = None) -> KeptMethods | None:
    """From now on, dataclasses created in this process reuse the kept compiled methods (the
    table installed; None when an earlier call installed one)."""
    if getattr(dataclasses, "exec", None) is not None:
        return None  # installed already (or another tool shadows exec there): left alone
    kept = KeptMethods(file if file is not None else kept_file())

    def exec_kept(source: Any, globals: Any = None, locals: Any = None, /) -> None:
        if type(source) is str:
            source = kept.code_for(source)
        # exec(text) with no globals runs in its caller's: dataclasses' own
        builtins.exec(source, vars(dataclasses) if globals is None else globals, locals)

    # A module global shadows the builtin for the functions of `dataclasses` only.
    dataclasses.exec = exec_kept  # type: ignore[attr-defined]
    atexit.register(kept.write)
    return kept
