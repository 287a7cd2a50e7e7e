"""DeterministicIds: ids derived from the run id, a namespace and a counter, never from entropy."""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class DeterministicIds:
    """An immutable id source: `next(namespace)` returns `(key, successor)`.

    The same run making the same calls gets the same keys on every replay; another run id
    gets other keys. Counters are per namespace, so adding ids in one namespace does not
    shift the keys of another.
    """

    run_id: str
    counters: tuple[tuple[str, int], ...] = field(default=())

    def __post_init__(self) -> None:
        if not isinstance(self.run_id, str) or not self.run_id:
            raise ValueError(f"DeterministicIds needs a non-empty str run_id, got {self.run_id!r}")

    def count(self, namespace: str) -> int:
        """How many keys this namespace has handed out so far."""
        return dict(self.counters).get(namespace, 0)

    def next(self, namespace: str) -> tuple[str, DeterministicIds]:
        """The next key of `namespace` and the ids to use after it (self is unchanged)."""
        if not isinstance(namespace, str) or not namespace:
            raise ValueError(f"an id namespace must be a non-empty str, got {namespace!r}")
        counters = dict(self.counters)
        n = counters.get(namespace, 0)
        counters[namespace] = n + 1
        successor = replace(self, counters=tuple(sorted(counters.items())))
        return _derive(self.run_id, namespace, n), successor


def _derive(run_id: str, namespace: str, n: int) -> str:
    # JSON framing keeps ("a:b", "c") and ("a", "b:c") apart; a separator character would not.
    digest = hashlib.sha256(json.dumps([run_id, namespace, n]).encode("utf-8")).digest()
    raw = bytearray(digest[:16])
    raw[6] = (raw[6] & 0x0F) | 0x80  # version 8: a custom, name-derived UUID (RFC 9562)
    raw[8] = (raw[8] & 0x3F) | 0x80  # the RFC variant bits, so UUID parsers accept it
    return str(uuid.UUID(bytes=bytes(raw)))
