"""A saved history hands a replay what the run saw: key order, types, and nothing it cannot write."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replaylint.workflows import (
    HistoryError,
    RecordedHistory,
    RunContext,
    activity,
    assert_replays,
    model_call_activity,
    record,
)
from replaylint.workflows.errors import UnrecordableError

START = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)
SERVED: dict[str, Any] = {}  # what the activities below hand the workflow in a live run


@activity(name="lookup")
def lookup() -> Any:
    return SERVED["value"]


@activity(name="ship")
def ship(item: str) -> None:
    return None


@activity(name="observe")
def observe(seen: str) -> None:
    return None


def per_item(ctx: RunContext, order: dict) -> list:
    # Code that follows the order of a dict it was handed: the input's and a result's.
    stock = lookup()
    for item in order["items"]:
        ship(item)
    for item in stock:
        ship(item)
    return list(stock)


def saved_and_loaded(history: RecordedHistory, tmp_path: Path) -> RecordedHistory:
    path = tmp_path / "h.json"
    history.save(path)
    return RecordedHistory.load(path)


def test_unchanged_code_replays_its_saved_file_whatever_the_key_order(tmp_path: Path) -> None:
    SERVED["value"] = {"zebra": 1, "apple": 2, "mango": 3}  # not sorted, as a service answers
    order = {"items": {"tea": 1, "bread": 2}}
    history = record(per_item, order, run_id="run-1", started_at=START)
    assert [c.request["args"][0] for c in history.commands[1:]] == [
        "tea",
        "bread",
        "zebra",
        "apple",
        "mango",
    ]
    loaded = saved_and_loaded(history, tmp_path)
    assert list(loaded.input["items"]) == ["tea", "bread"]
    assert list(loaded.commands[0].result) == ["zebra", "apple", "mango"]
    assert_replays(per_item, history)
    assert_replays(per_item, loaded)
    assert_replays(per_item, tmp_path / "h.json")


def test_a_model_reply_keeps_its_key_order_in_the_file(tmp_path: Path) -> None:
    def reply(*, prompt: str) -> dict:
        return {"tool_calls": [{"name": "b", "arguments": {"y": 1, "x": 2}}], "content": ""}

    def agent(ctx: RunContext, prompt: str) -> list:
        answer = model_call_activity(reply, prompt=prompt)
        call = answer["tool_calls"][0]
        return [list(answer), list(call["arguments"])]

    history = record(agent, "hi", run_id="run-1", started_at=START)
    assert history.result == [["tool_calls", "content"], ["y", "x"]]
    assert_replays(agent, saved_and_loaded(history, tmp_path))


def test_ints_floats_and_tuples_reach_the_workflow_alike_live_and_from_the_file(
    tmp_path: Path,
) -> None:
    SERVED["value"] = {"int": 1, "float": 1.0, "negative_zero": -0.0, "pair": (1, 2), "big": 2**70}
    seen: list[str] = []

    def typed(ctx: RunContext, _: None) -> None:
        seen.append(repr(lookup()))

    history = record(typed, None, run_id="run-1", started_at=START)
    assert_replays(typed, saved_and_loaded(history, tmp_path))
    # Tuples are lists in a history, and the live run already sees the list it will replay.
    expected = "{'int': 1, 'float': 1.0, 'negative_zero': -0.0, 'pair': [1, 2], 'big': 1180591620717411303424}"
    assert seen == [expected, expected]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


def sees_everything(ctx: RunContext, given: Any) -> str:
    # The workflow's decisions depend on everything it was handed, types and order included.
    seen = repr((given, lookup()))
    observe(seen)
    return seen


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(given=json_values, served=json_values)
def test_record_save_replay_is_record_replay_for_any_json_value(given: Any, served: Any) -> None:
    SERVED["value"] = served
    history = record(sees_everything, given, run_id="run-1", started_at=START)
    assert_replays(sees_everything, history)
    loaded = RecordedHistory.from_json(history.to_json())
    assert_replays(sees_everything, loaded)
    assert loaded.to_json() == history.to_json()
    assert repr(loaded.input) == repr(history.input)
    assert repr(loaded.commands[0].result) == repr(history.commands[0].result)


@pytest.mark.parametrize(
    ("served", "detail"),
    [
        (
            {"notes": ["ok", "bad \udc80 byte"]},
            "activity 'lookup' result: value['notes'][1] holds a lone surrogate ('\\udc80' at index 4)",
        ),
        (
            {"\ud800": 1},
            "activity 'lookup' result: value key '\\ud800' holds a lone surrogate",
        ),
        (
            {"n": 10**5000},
            "activity 'lookup' result: value['n'] is an int of more than 4300 digits",
        ),
    ],
)
def test_a_value_a_file_cannot_hold_is_refused_at_record(served: Any, detail: str) -> None:
    SERVED["value"] = served

    def flow(ctx: RunContext, _: None) -> None:
        lookup()

    with pytest.raises(UnrecordableError) as caught:
        record(flow, None, run_id="run-1", started_at=START)
    assert detail in str(caught.value)
    assert isinstance(caught.value, HistoryError) and isinstance(caught.value, TypeError)


def test_a_value_nested_deeper_than_a_file_can_be_read_back_is_refused() -> None:
    nested: Any = "leaf"
    for _ in range(250):
        nested = [nested]
    SERVED["value"] = nested

    def flow(ctx: RunContext, _: None) -> None:
        lookup()

    with pytest.raises(
        UnrecordableError,
        match=r"activity 'lookup' result: value(\[0\]){200} is nested more than 200 levels deep",
    ):
        record(flow, None, run_id="run-1", started_at=START)


def test_a_lone_surrogate_in_the_input_an_argument_or_an_error_is_refused_at_record() -> None:
    @activity(name="complain")
    def complain() -> None:
        raise ValueError("cannot decode \udcff")

    def calls(ctx: RunContext, _: None) -> None:
        observe("\ud83d")  # half of an emoji

    def fails(ctx: RunContext, _: None) -> None:
        complain()

    def anything(ctx: RunContext, _: Any) -> None:
        return None

    cases = [
        (anything, {"name": "x\udc80"}, "workflow input: value['name'] holds a lone surrogate"),
        (calls, None, "activity 'observe': args[0] holds a lone surrogate"),
        (fails, None, "activity 'complain': its error holds a lone surrogate"),
    ]
    for workflow, handed, detail in cases:
        with pytest.raises(UnrecordableError) as caught:
            record(workflow, handed, run_id="run-1", started_at=START)
        assert detail in str(caught.value)


def test_a_history_built_by_hand_with_an_unwritable_value_says_where(tmp_path: Path) -> None:
    history = RecordedHistory(
        workflow="shop:run",
        run_id="run-1",
        started_at=START,
        input={"note": "\udc80"},
        commands=(),
        result=None,
    )
    with pytest.raises(HistoryError, match=r"the workflow input: value\['note'\] holds a lone"):
        history.save(tmp_path / "h.json")


def test_the_files_own_fields_stay_in_name_order_and_requests_canonical() -> None:
    SERVED["value"] = {"b": 1, "a": 2}

    def flow(ctx: RunContext, _: None) -> None:
        lookup()
        observe(json.dumps({"z": 1}))

    text = record(flow, None, run_id="run-1", started_at=START).to_json()
    data = json.loads(text)
    assert list(data) == sorted(data)
    assert all(list(command) == sorted(command) for command in data["commands"])
    assert list(data["commands"][0]["result"]) == ["b", "a"]
