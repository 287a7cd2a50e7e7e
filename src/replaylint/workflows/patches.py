"""Patches: versioning a workflow's code path through a decision that is itself recorded."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from replaylint.workflows.session import Session


class Patches:
    """``applied(name)`` says whether this run takes the code path introduced under `name`.

    - A new (live) run takes the new path and records a ``patch`` command saying so.
    - A replay of a run recorded with that command takes the new path again.
    - A replay of a run recorded before the patch existed (no such command in its history)
      takes the old path, and nothing is consumed, so there is no divergence.

    The answer is fixed per run at its first question, so asking again costs no command.
    `withheld` names patches a live run treats as not yet written: how a history of the
    old code is recorded with today's code (see `record(..., without_patches=...)`).
    Outside a run (``Patches()`` in a unit test) every patch not withheld is applied.
    """

    def __init__(self, *, withheld: Iterable[str] = (), _session: Session | None = None) -> None:
        self._withheld = frozenset(withheld)
        self._session = _session
        self._decided: dict[str, bool] = {}

    def applied(self, name: str) -> bool:
        if not isinstance(name, str) or not name:
            raise ValueError(f"a patch name must be a non-empty str, got {name!r}")
        if name not in self._decided:
            if self._session is None:
                self._decided[name] = name not in self._withheld
            else:
                self._decided[name] = self._session.decide_patch(name, self._withheld)
        return self._decided[name]

    def __repr__(self) -> str:
        decided = ", ".join(f"{k}={v}" for k, v in sorted(self._decided.items()))
        return f"Patches({decided})"
