"""DeterministicIds: ids derived from the run id, a namespace and a counter, never from entropy."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class DeterministicIds:
    """An immutable id source: `next(namespace)` returns `(key, successor)`.

    The same run making the same calls gets the same keys on every replay; another run id
    gets other keys. Counters are per namespace, so adding ids in one namespace does not
    shift the keys of another.

    `run_id` is a non-empty str. `counters` says how many keys each namespace has already
    handed out: pairs ``(namespace, count)`` or a mapping. Each namespace is a non-empty
    str named once and each count a non-negative int (not a bool). Anything else raises
    ValueError naming the entry. When the value has the wrong type (a run id or namespace
    that is not a str, a count that is not an int, an entry that is not a pair) that error
    is also a TypeError, so either `except` clause catches it; `next()` checks its
    namespace the same way. The pairs are kept sorted by namespace, so two sources with
    the same counts are equal however the counts were written.
    """

    run_id: str
    counters: tuple[tuple[str, int], ...] = field(default=())

    def __post_init__(self) -> None:
        if not isinstance(self.run_id, str) or not self.run_id:
            error = ValueError if isinstance(self.run_id, str) else _WrongType
            raise error(f"DeterministicIds needs a non-empty str run_id, got {self.run_id!r}")
        # Frozen: the validated, sorted form replaces what was passed.
        object.__setattr__(self, "counters", _checked_counters(self.counters))

    def count(self, namespace: str) -> int:
        """How many keys this namespace has handed out so far."""
        return dict(self.counters).get(namespace, 0)

    def next(self, namespace: str) -> tuple[str, DeterministicIds]:
        """The next key of `namespace` and the ids to use after it (self is unchanged)."""
        _check_namespace(namespace, "an id namespace")
        counters = dict(self.counters)
        n = counters.get(namespace, 0)
        counters[namespace] = n + 1
        successor = replace(self, counters=tuple(sorted(counters.items())))
        return _derive(self.run_id, namespace, n), successor


class _WrongType(ValueError, TypeError):
    """A counter entry of the wrong type: invalid input (ValueError) and a type error alike."""


def _checked_counters(value: Any) -> tuple[tuple[str, int], ...]:
    if isinstance(value, Mapping):
        pairs: Iterable[Any] = value.items()
    elif isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise _WrongType(
            "DeterministicIds counters must be (namespace, count) pairs or a mapping, "
            f"got {type(value).__name__}"
        )
    else:
        pairs = value
    seen: dict[str, int] = {}
    for pair in pairs:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise _WrongType(
                f"DeterministicIds counters must hold (namespace, count) pairs, got {pair!r}"
            )
        namespace, count = pair
        _check_namespace(namespace, "a counter namespace")
        if namespace in seen:
            raise ValueError(f"DeterministicIds counters name namespace {namespace!r} twice")
        if isinstance(count, bool) or not isinstance(count, int):
            raise _WrongType(
                f"the count of namespace {namespace!r} must be an int, got {type(count).__name__}"
            )
        if count < 0:
            raise ValueError(
                f"the count of namespace {namespace!r} must not be negative, got {count}"
            )
        seen[namespace] = int(count)
    return tuple(sorted(seen.items()))


def _check_namespace(namespace: object, what: str) -> None:
    if not isinstance(namespace, str):
        raise _WrongType(f"{what} must be a non-empty str, got {namespace!r}")
    if not namespace:
        raise ValueError(f"{what} must be a non-empty str, got {namespace!r}")


def _derive(run_id: str, namespace: str, n: int) -> str:
    # JSON framing keeps ("a:b", "c") and ("a", "b:c") apart; a separator character would not.
    digest = hashlib.sha256(json.dumps([run_id, namespace, n]).encode("utf-8")).digest()
    raw = bytearray(digest[:16])
    raw[6] = (raw[6] & 0x0F) | 0x80  # version 8: a custom, name-derived UUID (RFC 9562)
    raw[8] = (raw[8] & 0x3F) | 0x80  # the RFC variant bits, so UUID parsers accept it
    return str(uuid.UUID(bytes=bytes(raw)))
