"""Patches: versioning a workflow's code path through a decision that is itself recorded."""

from __future__ import annotations

import threading
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

    ``deprecated(name)`` retires a patch once no run from before it is left, as Temporal's
    ``deprecate_patch`` does: the code keeps only the new path, and calls
    ``deprecated(name)`` where it asked ``applied(name)``. A new run records a
    ``deprecated_patch`` command; a replay accepts a recorded ``patch`` or
    ``deprecated_patch`` command of that name there, or none. A replay of code that no
    longer mentions the patch at all skips recorded ``deprecated_patch`` commands, so the
    call can finally be deleted. A run from before the patch replayed against code that
    deprecated it takes the new path and diverges, which is what the replay must show.

    The life cycle of a change, in three releases, each checked by ``replaylint check --base``:

    1. applied: ``if ctx.patched(name): <new> else: <old>``, with ``<old>`` the code runs
       in flight were started on (a change outside a gate is ADK-V001);
    2. deprecated: once no run from before the patch is left, ``ctx.deprecate_patch(name)``
       and ``<new>`` alone (deleting the gate at once is ADK-V003: runs that took either
       branch may still replay);
    3. removed: once no run that recorded the patch is left either, the call is deleted.

    Renaming a patch is ADK-V003 too: a run that recorded the old name would take the old
    branch.

    The answer is fixed per run at its first question, so asking again costs no command.
    `withheld` names patches a live run treats as not yet written: how a history of the
    old code is recorded with today's code (see `record(..., without_patches=...)`); a
    deprecated patch cannot be withheld. Outside a run (``Patches()`` in a unit test) every
    patch not withheld is applied.
    """

    def __init__(self, *, withheld: Iterable[str] = (), _session: Session | None = None) -> None:
        self._withheld = frozenset(withheld)
        self._session = _session
        self._decided: dict[str, bool] = {}
        self._lock = threading.Lock()

    def applied(self, name: str) -> bool:
        _check_name(name)
        with self._lock:  # threads that carry the run must not record the decision twice
            if name not in self._decided:
                if self._session is None:
                    self._decided[name] = name not in self._withheld
                else:
                    self._decided[name] = self._session.decide_patch(name, self._withheld)
            return self._decided[name]

    def deprecated(self, name: str) -> None:
        """The patch `name` is now always applied; see the class docstring."""
        _check_name(name)
        if name in self._withheld:
            raise ValueError(f"patch {name!r} is deprecated, so it cannot be withheld")
        with self._lock:
            if name not in self._decided:
                if self._session is not None:
                    self._session.deprecate_patch(name, self._withheld)
                self._decided[name] = True

    def __repr__(self) -> str:
        decided = ", ".join(f"{k}={v}" for k, v in sorted(self._decided.items()))
        return f"Patches({decided})"


def _check_name(name: object) -> None:
    if not isinstance(name, str) or not name:
        raise ValueError(f"a patch name must be a non-empty str, got {name!r}")
