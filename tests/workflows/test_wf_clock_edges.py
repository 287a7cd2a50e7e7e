"""Clocks at the edges: starts inside a DST gap or fold are written so they read back the same."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from replaylint.workflows import (
    HistoryError,
    RecordedHistory,
    RunContext,
    WorkflowClock,
    assert_replays,
    record,
)
from replaylint.workflows.clock import format_instant, parse_instant

BERLIN = ZoneInfo("Europe/Berlin")
ZONES = [BERLIN, ZoneInfo("America/New_York"), ZoneInfo("Australia/Lord_Howe"), timezone.utc]


def seen(ctx: RunContext, _: None) -> list:
    # What a workflow can read of its start and of later instants, in full.
    start = ctx.started_at
    later = [ctx.clock.advanced(1800 * i).now() for i in range(3)]
    return [f"{t.isoformat()} fold={t.fold} {t.tzname()}" for t in (start, *later)]


def same(a: datetime, b: datetime) -> bool:
    """The same instant, wall time, offset and zone name, and the same side of a gap or fold.

    (A fold on a wall time the zone has once is meaningless: no offset depends on it.)
    """

    def seen(t: datetime) -> tuple[object, ...]:
        sided = t.replace(fold=0).utcoffset() != t.replace(fold=1).utcoffset()
        return (
            t.astimezone(timezone.utc),
            t.replace(tzinfo=None, fold=0),
            t.fold if sided else None,
            t.utcoffset(),
            t.tzname(),
            getattr(t.tzinfo, "key", None),
        )

    return seen(a) == seen(b)


@pytest.mark.parametrize("fold", [0, 1])
def test_a_start_inside_the_spring_gap_reads_back_and_replays(fold: int, tmp_path: Path) -> None:
    # 02:30 does not exist in Berlin on 2024-03-31: the clocks jump from 02:00 to 03:00.
    start = datetime(2024, 3, 31, 2, 30, fold=fold, tzinfo=BERLIN)
    history = record(seen, None, run_id="r-1", started_at=start)
    path = tmp_path / "gap.json"
    history.save(path)
    written = json.loads(path.read_text(encoding="utf-8"))["started_at"]
    assert written == f"2024-03-31T02:30:00+0{1 + fold}:00[Europe/Berlin]"
    loaded = RecordedHistory.load(path)
    assert same(loaded.started_at, start)
    assert_replays(seen, history)
    assert_replays(seen, path)


@pytest.mark.parametrize("fold", [0, 1])
def test_a_start_inside_the_autumn_fold_keeps_its_side(fold: int, tmp_path: Path) -> None:
    start = datetime(2024, 10, 27, 2, 30, fold=fold, tzinfo=BERLIN)
    history = record(seen, None, run_id="r-1", started_at=start)
    history.save(tmp_path / "fold.json")
    loaded = RecordedHistory.load(tmp_path / "fold.json")
    assert same(loaded.started_at, start)
    assert_replays(seen, tmp_path / "fold.json")


def test_an_offset_no_side_of_a_gap_has_is_still_refused() -> None:
    with pytest.raises(ValueError, match=r"has the offset \+03:00, which is not Europe/Berlin's"):
        parse_instant("2024-03-31T02:30:00+03:00[Europe/Berlin]", zones=True)


@settings(max_examples=300, deadline=None)
@given(
    moment=st.datetimes(
        min_value=datetime(1970, 1, 1), max_value=datetime(2100, 1, 1), allow_imaginary=True
    ),
    fold=st.sampled_from([0, 1]),
    zone=st.sampled_from(ZONES),
    ahead=st.integers(min_value=0, max_value=400 * 24 * 3600),
)
@example(moment=datetime(2024, 3, 31, 2, 30), fold=0, zone=BERLIN, ahead=0)  # Berlin's gap
@example(moment=datetime(2024, 3, 10, 2, 30), fold=1, zone=ZONES[1], ahead=0)  # New York's
@example(moment=datetime(2024, 4, 7, 1, 45), fold=1, zone=ZONES[2], ahead=0)  # a half-hour fold
def test_every_instant_a_clock_can_give_reads_back_the_same(
    moment: datetime, fold: int, zone: tzinfo, ahead: int
) -> None:
    start = moment.replace(tzinfo=zone, fold=fold)
    for instant in (start, WorkflowClock(start).advanced(ahead).now()):
        assert same(parse_instant(format_instant(instant), zones=True), instant)


class _Fixed(tzinfo):
    """A fixed offset with a name of its own, which no history can write."""

    def utcoffset(self, dt: datetime | None) -> timedelta:
        return timedelta(hours=1)

    def dst(self, dt: datetime | None) -> timedelta:
        return timedelta(0)

    def tzname(self, dt: datetime | None) -> str:
        return "MY"


@pytest.mark.parametrize(
    "zone", [timezone(timedelta(hours=1), "CET"), _Fixed()], ids=["named-offset", "custom"]
)
def test_a_start_whose_zone_cannot_be_written_is_refused_at_record(zone: tzinfo) -> None:
    with pytest.raises(HistoryError, match="cannot be written so that it reads back the same"):
        record(seen, None, run_id="r-1", started_at=datetime(2024, 1, 5, 9, tzinfo=zone))


@pytest.mark.parametrize("zone", [timezone.utc, timezone(timedelta(hours=-3, minutes=-30)), BERLIN])
def test_the_zones_a_history_can_keep_are_accepted(zone: tzinfo) -> None:
    history = record(seen, None, run_id="r-1", started_at=datetime(2024, 1, 5, 9, tzinfo=zone))
    assert_replays(seen, RecordedHistory.from_json(history.to_json()))


def test_a_history_built_by_hand_with_such_a_start_is_refused_when_written() -> None:
    history = RecordedHistory(
        workflow="shop:run",
        run_id="r-1",
        started_at=datetime(2024, 1, 5, 9, tzinfo=timezone(timedelta(hours=1), "CET")),
        input=None,
        commands=(),
        result=None,
    )
    with pytest.raises(HistoryError, match="cannot be written so that it reads back the same"):
        history.to_json()
