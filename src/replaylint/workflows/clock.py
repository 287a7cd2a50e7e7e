"""WorkflowClock: the run's own notion of time, derived from its recorded start, never the host."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta


@dataclass(frozen=True)
class WorkflowClock:
    """An immutable clock: `now()` is `started_at` plus whatever the workflow advanced it by.

    Only time-zone-aware instants are accepted: a naive datetime means "local time of
    whichever host replays this", which is exactly the nondeterminism the clock removes.
    """

    started_at: datetime
    elapsed: timedelta = field(default=timedelta(0))

    def __post_init__(self) -> None:
        _require_aware(self.started_at, "WorkflowClock started_at")
        if not isinstance(self.elapsed, timedelta):
            raise TypeError(
                f"WorkflowClock elapsed must be a timedelta, got {type(self.elapsed).__name__}"
            )
        if self.elapsed < timedelta(0):
            raise ValueError(f"WorkflowClock elapsed must not be negative, got {self.elapsed}")

    def now(self) -> datetime:
        """The current instant of the run (same value on every replay)."""
        return self.started_at + self.elapsed

    def advanced(self, seconds: float) -> WorkflowClock:
        """A new clock `seconds` later; this one is unchanged. Time never runs backwards."""
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise TypeError(
                f"advanced() takes seconds as int or float, got {type(seconds).__name__}"
            )
        if not math.isfinite(seconds) or seconds < 0:
            raise ValueError(
                f"advanced() needs a finite, non-negative number of seconds, got {seconds!r}"
            )
        return replace(self, elapsed=self.elapsed + timedelta(seconds=seconds))


def _require_aware(value: object, what: str) -> None:
    if not isinstance(value, datetime):
        raise TypeError(f"{what} must be a datetime, got {type(value).__name__}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(
            f"{what} must be time-zone-aware, got naive {value.isoformat()}; "
            "pass tzinfo (e.g. datetime(..., tzinfo=timezone.utc))"
        )
