"""The cheap byte scan that decides, per file, whether it is worth a parse."""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from replaylint.parse.statement_starts import SPACE, StatementStarts
from replaylint.presets.shipped import presets

if TYPE_CHECKING:
    from replaylint.project.gate import Spelling

# O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer, forever. It changes
# nothing for a regular file, and a FIFO is refused before a byte is read.
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_READ_FLAGS |= getattr(os, "O_BINARY", 0)


def kind_of(mode: int) -> str:
    """What a file that is not a regular one is, for a one-line reason."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    return "an unknown kind of file"


def not_regular(path: str, mode: int) -> OSError:
    return OSError(errno.EINVAL, f"not a regular file ({kind_of(mode)})", path)


def read_regular(path: str) -> bytes:
    """The bytes of a regular file (or a link to one); anything else raises OSError, whose
    strerror is the one-line reason, without blocking: a file listed as regular may have been
    replaced by a FIFO since, and a `.gitignore` or `--config` may be one."""
    try:
        descriptor = os.open(path, _READ_FLAGS)
    except OSError as error:
        if error.errno == errno.ENXIO:  # a socket refuses to open: say what it is instead
            try:
                mode = os.stat(path).st_mode
            except OSError:
                raise error from None
            raise not_regular(path, mode) from None
        raise
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise not_regular(path, info.st_mode)
        # One read of the known size, then reads until the end (the file may be growing).
        chunks = [os.read(descriptor, info.st_size + 1)]
        while chunks[-1]:
            chunks.append(os.read(descriptor, 1 << 16))
        return b"".join(chunks)
    finally:
        os.close(descriptor)


# Per framework: the substring that finds its name, the test that confirms an import of it,
# the test of its entries' spellings (None: any importing file is a candidate), and the names
# those entries use in code (gate.py's second decision).
Frameworks = tuple[tuple[bytes, "BytesTest", "BytesTest | None", "Spelling"], ...]
Needles = tuple[tuple[bytes, ...], Frameworks]  # (marker needles, per-framework tests)

# The modules an import statement names before the framework's (`import os, temporalio`).
_EARLIER = rb"(?:[\w.]+(?:[ \t]+as[ \t]+\w+)?[ \t]*,[ \t]*)*"


class BytesTest:
    """Whether bytes hold one of some patterns anywhere, or one of some statements where a
    statement starts: at a line (whatever ends the last), after `;` or after a compound
    statement's colon (`try: import restate`)."""

    __slots__ = ("_anywhere", "_statements")

    def __init__(self, statements: Iterable[bytes] = (), anywhere: Iterable[bytes] = ()) -> None:
        found_anywhere = list(anywhere)
        self._anywhere = (
            re.compile(b"|".join(found_anywhere), re.MULTILINE) if found_anywhere else None
        )
        self._statements = StatementStarts(*statements, simple=True)

    def search(self, data: bytes) -> bool:
        if self._anywhere is not None and self._anywhere.search(data) is not None:
            return True
        return self._statements.search(data) is not None


def import_test(packages: Iterable[str]) -> BytesTest | None:
    """The test of an import of one of the packages: `import temporalio`, `from dbos import
    DBOS`, `import os, temporalio`, `x = 1; import restate`."""
    names = [re.escape(p.encode()) for p in packages]
    if not names:
        return None
    package = rb"(?:" + b"|".join(names) + rb")\b"
    forms = [rb"from" + SPACE + package, rb"import" + SPACE + _EARLIER + package]
    # `from dapr.ext import workflow`, `from langchain import agents`: a dotted package
    # imported by its last name from the package above it.
    for dotted in (p for p in packages if "." in p):
        parent, last = (re.escape(part.encode()) for part in dotted.rsplit(".", 1))
        forms.append(rb"from" + SPACE + parent + SPACE + rb"import\b[^\n]*\b" + last + rb"\b")
    return BytesTest(forms)


def scan(
    files: Iterable[str],
    needles: tuple[bytes, ...],
    imports: Frameworks = (),
) -> tuple[int, list[tuple[str, bytes]], list[tuple[str, str]]]:
    """(files read, [(path, bytes)] of candidates, [(path, reason)] of unreadable files).

    A file is a candidate when its bytes contain a marker needle, or a framework's name that an
    import statement confirms (a docstring that merely says "restate" costs no parse). Everything
    else costs one read and a substring search.
    """
    count = 0
    candidates: list[tuple[str, bytes]] = []
    unreadable: list[tuple[str, str]] = []
    for path in files:
        count += 1
        try:
            data = read_regular(path)
        except OSError as error:
            unreadable.append((path, error.strerror or str(error)))
            continue
        if is_candidate(data, needles, imports):
            candidates.append((path, data))
    return count, candidates, unreadable


@lru_cache(maxsize=1)
def _registrations() -> re.Pattern[bytes] | None:
    """The calls by which a file makes another file's functions workflow code or recorded zones
    (durabletask's `worker.add_orchestrator(fn)`, Azure's `Orchestrator.create(fn)`): every
    record's `registers`. A file that may register is read with every batch, and a change to it
    invalidates the whole index, whichever frameworks a run enables."""
    forms = [form for preset in presets().values() for form in preset.cheap.registers]
    return re.compile(b"|".join(forms)) if forms else None


def registers(data: bytes) -> bool:
    pattern = _registrations()
    return pattern is not None and pattern.search(data) is not None


def entry_test(needles: Iterable[bytes], packages: Iterable[str]) -> BytesTest | None:
    """The test of a spelling of a workflow entry, or of an import of a framework under an
    alias (whose entries could then be spelled any way): what a framework-importing file needs
    to be parsed."""
    names = [re.escape(p.encode()) for p in packages]
    forms = list(needles)
    aliases = []
    if names:
        # Entries live in a framework's package or its modules one or two levels down
        # (`temporalio.workflow`, `pydantic_ai.durable_exec.temporal`); an alias of a module
        # deeper than that (`import temporalio.api.common.v1.message_pb2 as m`, generated
        # protobuf) cannot spell one.
        package = rb"(?:" + b"|".join(names) + rb")(?:\.\w+){0,2}"
        aliases.append(rb"import" + SPACE + _EARLIER + package + SPACE + rb"as\b")
        aliases.append(rb"from" + SPACE + package + SPACE + rb"import\b[^\n]*\bas\b")
    return BytesTest(aliases, forms) if forms or aliases else None


def is_candidate(
    data: bytes,
    needles: tuple[bytes, ...],
    imports: Frameworks = (),
) -> bool:
    """A marker needle, or for some framework: its name, an import of it, and one of its
    entries spelled."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        # A UTF-16 file (with its byte-order mark) is never Python CPython runs, but a workflow
        # module saved that way must be reported (ADK-E001), not silently passed over.
        try:
            data = data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError:
            return False
    for needle in needles:
        if needle in data:
            return True
    return bool(frameworks_spelled(data, imports))


def frameworks_spelled(data: bytes, imports: Frameworks) -> list[Spelling]:
    """The entry names of every framework this file imports and spells an entry of."""
    found = []
    for needle, pattern, spelled, names in imports:
        if needle in data and pattern.search(data):
            if spelled is None or spelled.search(data):
                found.append(names)
    return found
