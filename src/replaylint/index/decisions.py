"""What the scan decided of one file: its verdict, and what the index and the engine need of
it (a candidate's bytes and hash, the stat stamp taken before it was read)."""

from __future__ import annotations

from typing import NamedTuple

NOT_CANDIDATE, CANDIDATE, REGISTRAR = 0, 1, 2


class FileDecision(NamedTuple):
    path: str
    verdict: int
    data: bytes | None  # a candidate's bytes, read once; None otherwise
    sha: str  # a candidate's sha256; "" otherwise
    stamp: tuple[int, ...]  # what stat said before the read (stamps.py)
    error: str = ""  # why it could not be read
