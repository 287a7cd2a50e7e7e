"""@activity and model_call_activity: executed once live, served from history on replay."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

import pytest

from replaylint.workflows import (
    ActivityError,
    HistoryError,
    NonDeterminismError,
    RunContext,
    activity,
    assert_replays,
    model_call_activity,
    record,
)
from replaylint.workflows.errors import UnrecordableError

START = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)
EXECUTED: list[str] = []


@pytest.fixture(autouse=True)
def clear_log() -> None:
    EXECUTED.clear()


@activity
def fetch_rate(currency: str) -> float:
    EXECUTED.append(f"fetch_rate {currency}")
    return {"EUR": 1.0, "USD": 1.08}[currency]


@activity(name="convert")
def convert_amount(amount: int, rate: float) -> dict:
    EXECUTED.append("convert")
    return {"amount": round(amount * rate), "parts": (1, 2)}


@activity(name="fail_always")
def fail_always(reason: str) -> None:
    EXECUTED.append("fail_always")
    raise LookupError(reason)


class Provider:
    def complete(self, *, model: str, prompt: str) -> str:
        EXECUTED.append(f"complete {prompt}")
        return f"echo: {prompt}"

    async def acomplete(self, *, model: str, prompt: str) -> str:
        EXECUTED.append(f"acomplete {prompt}")
        await asyncio.sleep(0)
        return f"async echo: {prompt}"


PROVIDER = Provider()


def pricing(ctx: RunContext, order: dict) -> dict:
    rate = fetch_rate(order["currency"])
    converted = convert_amount(order["amount"], rate)
    summary = model_call_activity(
        PROVIDER.complete, model="m-1", prompt=f"summarise {converted['amount']}"
    )
    return {"converted": converted, "summary": summary}


def recovering(ctx: RunContext, input: dict) -> dict:
    try:
        fail_always("no such sku")
    except ActivityError as error:
        return {
            "type": error.type_name,
            "message": error.message,
            "name": error.name,
            "kind": error.kind,
        }
    return {"type": None}


def test_outside_a_run_an_activity_just_runs() -> None:
    assert fetch_rate("USD") == 1.08
    assert EXECUTED == ["fetch_rate USD"]
    with pytest.raises(LookupError, match="plain"):
        fail_always("plain")
    assert model_call_activity(PROVIDER.complete, model="m", prompt="hi") == "echo: hi"


def test_a_live_run_executes_each_activity_once_and_records_it() -> None:
    history = record(pricing, {"currency": "USD", "amount": 100}, run_id="r-1", started_at=START)
    assert EXECUTED == ["fetch_rate USD", "convert", "complete summarise 108"]
    assert [(c.seq, c.kind, c.name) for c in history.commands] == [
        (0, "activity", "fetch_rate"),
        (1, "activity", "convert"),
        (2, "model_call", "Provider.complete"),
    ]
    assert history.commands[0].request == {"args": ["USD"], "kwargs": {}}
    assert history.commands[0].result == 1.08
    assert history.commands[2].request == {
        "args": [],
        "kwargs": {"model": "m-1", "prompt": "summarise 108"},
    }
    assert history.result == {
        "converted": {"amount": 108, "parts": [1, 2]},
        "summary": "echo: summarise 108",
    }


def test_a_replay_never_executes_an_activity_or_model_call() -> None:
    history = record(pricing, {"currency": "USD", "amount": 100}, run_id="r-1", started_at=START)
    EXECUTED.clear()
    assert_replays(pricing, history)
    assert EXECUTED == []


def test_live_results_are_the_json_form_a_replay_would_serve() -> None:
    # The tuple comes back as a list live too, so live and replayed code see the same value.
    history = record(pricing, {"currency": "EUR", "amount": 5}, run_id="r-1", started_at=START)
    assert history.result["converted"]["parts"] == [1, 2]


def test_an_activity_error_is_recorded_and_replayed_as_the_same_activity_error() -> None:
    history = record(recovering, None, run_id="r-1", started_at=START)
    command = history.commands[0]
    assert command.result is None
    assert (command.error.type, command.error.message) == ("LookupError", "no such sku")
    expected = {
        "type": "LookupError",
        "message": "no such sku",
        "name": "fail_always",
        "kind": "activity",
    }
    assert history.result == expected
    EXECUTED.clear()
    assert_replays(recovering, history)
    assert EXECUTED == []


def test_a_live_activity_error_chains_the_original_exception() -> None:
    seen: list[BaseException] = []

    def flow(ctx: RunContext, input: None) -> str:
        try:
            fail_always("gone")
        except ActivityError as error:
            seen.append(error)
        return "done"

    record(flow, None, run_id="r-1", started_at=START)
    assert isinstance(seen[0].__cause__, LookupError)
    assert str(seen[0]) == "activity 'fail_always' failed: LookupError: gone"


def test_a_replayed_error_names_the_original_type_and_message() -> None:
    history = record(recovering, None, run_id="r-1", started_at=START)
    raised: list[ActivityError] = []

    def observing(ctx: RunContext, input: None) -> dict:
        try:
            fail_always("no such sku")
        except ActivityError as error:
            raised.append(error)
            return {
                "type": error.type_name,
                "message": error.message,
                "name": error.name,
                "kind": error.kind,
            }
        return {}

    assert_replays(observing, history)
    assert str(raised[0]) == "activity 'fail_always' failed: LookupError: no such sku"
    assert raised[0].__cause__ is None


def test_errors_of_non_builtin_types_are_recorded_with_their_module() -> None:
    class Declined(Exception):
        pass

    @activity(name="charge")
    def charge() -> None:
        raise Declined("insufficient funds")

    def flow(ctx: RunContext, input: None) -> str:
        try:
            charge()
        except ActivityError as error:
            return error.type_name
        return "charged"

    history = record(flow, None, run_id="r-1", started_at=START)
    qualified = f"{__name__}.test_errors_of_non_builtin_types_are_recorded_with_their_module.<locals>.Declined"
    assert history.commands[0].error.type == qualified
    assert history.result == qualified


def test_an_argument_that_is_not_json_is_refused_at_record_time_naming_the_activity() -> None:
    def flow(ctx: RunContext, input: None) -> None:
        fetch_rate({"when": START})

    with pytest.raises(UnrecordableError) as caught:
        record(flow, None, run_id="r-1", started_at=START)
    assert isinstance(caught.value, HistoryError) and isinstance(caught.value, TypeError)
    assert str(caught.value).startswith(
        "activity 'fetch_rate': args[0]['when'] is not JSON-serialisable (datetime: datetime.datetime(2024, 3, 1"
    )
    assert EXECUTED == []


def test_dict_keys_that_are_not_strings_are_refused_rather_than_stringified() -> None:
    def flow(ctx: RunContext, input: None) -> None:
        fetch_rate({1: "x"})

    with pytest.raises(
        UnrecordableError, match=r"activity 'fetch_rate': args\[0\] has a int key 1"
    ):
        record(flow, None, run_id="r-1", started_at=START)


def test_a_result_that_is_not_json_is_refused_naming_the_activity() -> None:
    @activity(name="make_set")
    def make_set() -> set:
        return {1, 2}

    def flow(ctx: RunContext, input: None) -> None:
        make_set()

    with pytest.raises(
        UnrecordableError,
        match=r"^activity 'make_set' result: value is not JSON-serialisable \(set",
    ):
        record(flow, None, run_id="r-1", started_at=START)


def test_a_refusal_swallowed_by_workflow_code_still_fails_the_recording() -> None:
    def flow(ctx: RunContext, input: None) -> str:
        try:
            fetch_rate(object())
        except Exception:  # swallowed on purpose: the run must still fail
            pass
        return "carried on"

    with pytest.raises(UnrecordableError, match="activity 'fetch_rate'"):
        record(flow, None, run_id="r-1", started_at=START)


def test_nested_activities_belong_to_their_caller() -> None:
    @activity(name="outer")
    def outer(currency: str) -> float:
        return fetch_rate(currency) * 2

    def flow(ctx: RunContext, input: None) -> float:
        return outer("USD")

    history = record(flow, None, run_id="r-1", started_at=START)
    assert [c.name for c in history.commands] == ["outer"]
    assert EXECUTED == ["fetch_rate USD"]
    EXECUTED.clear()
    assert_replays(flow, history)
    assert EXECUTED == []


def test_the_decorator_keeps_the_function_metadata() -> None:
    assert fetch_rate.__name__ == "fetch_rate"
    assert fetch_rate.activity_name == "fetch_rate"
    assert convert_amount.__name__ == "convert_amount"
    assert convert_amount.activity_name == "convert"


def test_the_decorator_refuses_a_positional_name() -> None:
    with pytest.raises(TypeError, match=r"use @activity\(name=...\)"):
        activity("charge")  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="non-empty str"):
        activity(name="")


def test_an_async_activity_and_async_model_call_are_recorded_and_replayed() -> None:
    @activity(name="slow_lookup")
    async def slow_lookup(key: str) -> dict:
        EXECUTED.append(f"slow_lookup {key}")
        await asyncio.sleep(0)
        return {"key": key}

    async def flow(ctx: RunContext, input: dict) -> list:
        found = await slow_lookup(input["key"])
        text = await model_call_activity(PROVIDER.acomplete, model="m-2", prompt=found["key"])
        return [found, text]

    history = record(flow, {"key": "k1"}, run_id="r-1", started_at=START)
    assert EXECUTED == ["slow_lookup k1", "acomplete k1"]
    assert [(c.kind, c.name) for c in history.commands] == [
        ("activity", "slow_lookup"),
        ("model_call", "Provider.acomplete"),
    ]
    assert history.result == [{"key": "k1"}, "async echo: k1"]
    EXECUTED.clear()
    assert_replays(flow, history)
    assert EXECUTED == []


def test_model_call_names_come_from_the_callables_qualified_name() -> None:
    import functools

    def plain_function(prompt: str) -> str:
        return prompt.upper()

    def flow(ctx: RunContext, input: None) -> list:
        return [
            model_call_activity(plain_function, "a"),
            model_call_activity(functools.partial(PROVIDER.complete, model="m"), prompt="b"),
        ]

    history = record(flow, None, run_id="r-1", started_at=START)
    assert [c.name for c in history.commands] == [
        "test_model_call_names_come_from_the_callables_qualified_name.<locals>.plain_function",
        "Provider.complete",
    ]
    # Arguments bound in the partial are part of the recorded request.
    assert history.commands[1].request == {"args": [], "kwargs": {"model": "m", "prompt": "b"}}


def test_a_divergence_swallowed_by_workflow_code_still_fails_the_replay() -> None:
    history = record(pricing, {"currency": "USD", "amount": 100}, run_id="r-1", started_at=START)

    def swallowing(ctx: RunContext, order: dict) -> dict:
        try:
            fetch_rate("EUR")
        except Exception:  # swallowed on purpose: the run must still fail
            pass
        return history.result

    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(swallowing, history)
    assert (caught.value.reason, caught.value.index) == ("key-mismatch", 0)


def test_enum_arguments_are_recorded_by_value() -> None:
    import enum

    class Currency(str, enum.Enum):
        USD = "USD"

    class Rounding(enum.IntEnum):
        CENTS = 2

    def flow(ctx: RunContext, input: None) -> float:
        return fetch_rate(Currency.USD) if Rounding.CENTS == 2 else 0.0

    history = record(flow, None, run_id="r-1", started_at=START)
    assert history.commands[0].request == {"args": ["USD"], "kwargs": {}}
    assert type(history.commands[0].request["args"][0]) is str
    # Live, the activity itself still receives the original object (`{}` of a str-mixin enum
    # prints its member name from Python 3.11 on, its value before).
    assert EXECUTED == [f"fetch_rate {Currency.USD}"]
