"""WorkflowClock: the run's own notion of time, derived from its recorded start, never the host."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from replaylint.workflows.errors import HistoryError


@dataclass(frozen=True)
class WorkflowClock:
    """An immutable clock: `now()` is `started_at` plus whatever the workflow advanced it by.

    Arithmetic is done on the instant (in UTC) and the result is rendered in the time zone
    `started_at` was given in. With a named zone (``ZoneInfo("Europe/Berlin")``) an hour
    across a daylight-saving change is still an hour, only the local rendering moves.
    Only time-zone-aware instants are accepted: a naive datetime means "local time of
    whichever host replays this", which is exactly the nondeterminism the clock removes.
    The clock never reads the host's clock or its local time zone.
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
        """The current instant of the run (same value on every replay), in the start's zone."""
        zone = self.started_at.tzinfo
        assert zone is not None  # checked in __post_init__
        return (self.started_at.astimezone(timezone.utc) + self.elapsed).astimezone(zone)

    def advanced(self, seconds: float) -> WorkflowClock:
        """A new clock `seconds` later; this one is unchanged. Time never runs backwards."""
        return replace(self, elapsed=self.elapsed + timedelta(seconds=duration(seconds)))


def duration(seconds: object, what: str = "advanced()") -> float:
    """`seconds` checked: an int or float (not bool), finite and non-negative; integral floats become int."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise TypeError(f"{what} takes seconds as int or float, got {type(seconds).__name__}")
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"{what} needs a finite, non-negative number of seconds, got {seconds!r}")
    if isinstance(seconds, float) and seconds.is_integer():
        return int(seconds)
    return seconds


def _require_aware(value: object, what: str) -> None:
    if not isinstance(value, datetime):
        raise TypeError(f"{what} must be a datetime, got {type(value).__name__}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(
            f"{what} must be time-zone-aware, got naive {value.isoformat()}; "
            "pass tzinfo (e.g. datetime(..., tzinfo=timezone.utc))"
        )


# --- instants as text: ISO 8601 with an offset, plus the zone's name as RFC 9557 writes it ---

_SUFFIX = re.compile(r"^(?P<instant>[^\[\]]+)\[(?P<critical>!?)(?P<zone>[A-Za-z0-9_+\-/]+)\]$")


def zone_name(moment: datetime) -> str | None:
    """The IANA name of `moment`'s zone (zoneinfo's `key`, pytz's `zone`), or None for a fixed offset."""
    zone: tzinfo | None = moment.tzinfo
    for attribute in ("key", "zone"):
        name = getattr(zone, attribute, None)
        if isinstance(name, str) and name:
            return name
    return None


def format_instant(moment: datetime) -> str:
    """``2024-10-27T02:30:00+01:00[Europe/Berlin]`` for a named zone, plain ISO 8601 otherwise.

    The offset is the one `moment` has, so a wall time inside a gap keeps the side its
    fold picks (``2024-03-31T02:30:00+01:00[Europe/Berlin]``); `parse_instant` reads it back.
    """
    name = zone_name(moment)
    text = moment.isoformat()
    return f"{text}[{name}]" if name else text


def parse_instant(text: str, *, zones: bool) -> datetime:
    """Read what `format_instant` writes (a trailing ``Z`` is UTC); ValueError says what is wrong.

    With `zones` False (history version 1) a ``[Zone]`` suffix is refused. The offset must
    agree with the zone at that instant, or be the offset one side of a gap gives the wall
    time written (which then reads back as written, fold included), so an edited file
    cannot shift the start silently.
    Each message is a predicate ("is not an ISO 8601 instant: ...") for the caller to prefix.
    """
    name = None
    match = _SUFFIX.match(text)
    if match is not None:
        if not zones:
            raise ValueError(f"holds a time zone name, which needs history version 2: {text!r}")
        text, name = match["instant"], match["zone"]
    # Python 3.10's fromisoformat does not read a trailing "Z".
    try:
        moment = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
    except ValueError:
        raise ValueError(f"is not an ISO 8601 instant: {text!r}") from None
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"must carry a UTC offset, got naive {text!r}")
    if name is None:
        return moment
    try:
        zone = ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"names an unknown time zone {name!r}") from None
    local = moment.astimezone(zone)
    if local.utcoffset() == moment.utcoffset():
        return local
    # A wall time the zone skips (02:30 as Berlin springs forward) has the offset of one
    # side of the gap, chosen by its fold: it reads back as written, the same instant.
    wall = moment.replace(tzinfo=None)
    for fold in (0, 1):
        written = wall.replace(tzinfo=zone, fold=fold)
        if written.utcoffset() == moment.utcoffset():
            return written
    raise ValueError(
        f"has the offset {_offset(moment)}, which is not {name}'s offset at that instant "
        f"({_offset(local)})"
    )


def check_start(moment: datetime) -> None:
    """Refuse a start instant a history cannot write so that it reads back the same.

    The file keeps an offset and, for a zone with an IANA name, that name; so the start
    must be in such a zone, or in a fixed offset that has no name of its own. The check
    compares the clock's renderings a year ahead, so a zone whose offset changes cannot
    pass as a fixed one. Raises the clock's own errors for a naive or non-datetime start,
    and HistoryError (a ValueError) naming the problem otherwise.
    """
    _require_aware(moment, "started_at")
    text = format_instant(moment)
    try:
        back = parse_instant(text, zones=True)
    except ValueError as exc:
        raise HistoryError(f"started_at {text} cannot be written and read back: it {exc}") from None
    for days in (0, 91, 182, 273):
        ahead = timedelta(days=days)
        then = WorkflowClock(moment, ahead).now()
        read = WorkflowClock(back, ahead).now()
        if (then.replace(tzinfo=None), then.utcoffset(), then.tzname()) != (
            read.replace(tzinfo=None),
            read.utcoffset(),
            read.tzname(),
        ):
            raise HistoryError(
                f"started_at {text} cannot be written so that it reads back the same: its zone "
                f"{moment.tzinfo!r} has no IANA name a history can keep (its {days}-day "
                f"rendering {then.isoformat()} {then.tzname()} would read back as "
                f"{read.isoformat()} {read.tzname()}); use zoneinfo.ZoneInfo(name), or "
                "datetime.timezone(offset) for a fixed offset"
            )


def _offset(moment: datetime) -> str:
    offset = moment.utcoffset() or timedelta(0)
    sign = "-" if offset < timedelta(0) else "+"
    minutes = abs(offset) // timedelta(minutes=1)
    return f"{sign}{minutes // 60:02d}:{minutes % 60:02d}"
