"""Deadlock detection: a replay whose workflow waits on nothing the history can deliver fails fast."""

from __future__ import annotations

import asyncio
import io
import json
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

import pytest

from replaylint.harness.replay import replay_paths
from replaylint.workflows import (
    NonDeterminismError,
    RunContext,
    activity,
    assert_replays,
    record,
)

START = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)
PHRASE = "the workflow waits for something the history never delivers"


@activity(name="greet")
async def greet(name: str) -> str:
    return f"Hello, {name}!"


async def greeting(ctx: RunContext, name: str) -> str:
    return await greet(name)


def replay_error(workflow, history) -> tuple[NonDeterminismError, float]:
    began = time.monotonic()
    with pytest.raises(NonDeterminismError) as caught:
        assert_replays(workflow, history)
    return caught.value, time.monotonic() - began


def test_code_that_awaits_an_event_nothing_sets_diverges_within_a_second() -> None:
    history = record(greeting, "Ana", run_id="r-1", started_at=START)

    async def changed(ctx: RunContext, name: str) -> str:
        await asyncio.Event().wait()  # new code: waits for a signal no history can give
        return await greet(name)

    error, took = replay_error(changed, history)
    assert took < 1.0
    assert (error.reason, error.index) == ("diverged", 0)
    assert error.recorded == history.commands[0] and error.requested is None
    assert str(error) == (
        f"command 0 (diverged): {PHRASE}: nothing it awaits can finish, and it never "
        'requested the history\'s next command, activity greet("Ana")'
    )


def test_waiting_after_the_last_recorded_command_is_a_deadlock_too() -> None:
    history = record(greeting, "Ana", run_id="r-1", started_at=START)

    async def changed(ctx: RunContext, name: str) -> str:
        answer = await greet(name)
        await asyncio.get_running_loop().create_future()  # a future nothing resolves
        return answer

    error, took = replay_error(changed, history)
    assert took < 1.0
    assert str(error) == (
        f"command 1 (diverged): {PHRASE}: nothing it awaits can finish, and the history "
        "has no command left"
    )


def test_code_that_swallows_the_cancellation_and_waits_again_still_ends() -> None:
    history = record(greeting, "Ana", run_id="r-1", started_at=START)

    async def stubborn(ctx: RunContext, name: str) -> str:
        while True:
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                continue

    error, took = replay_error(stubborn, history)
    assert took < 3.0
    assert error.reason == "diverged" and PHRASE in str(error)


def test_waits_that_something_will_end_are_no_deadlock() -> None:
    async def patient(ctx: RunContext, name: str) -> str:
        await asyncio.sleep(0.3)  # a loop timer is pending
        await asyncio.to_thread(time.sleep, 0.3)  # a thread is at work
        event = asyncio.Event()
        asyncio.get_running_loop().call_later(0.3, event.set)
        await event.wait()
        return await greet(name)

    history = record(patient, "Ana", run_id="r-1", started_at=START)
    assert_replays(patient, history)


def test_a_pool_made_before_the_run_that_works_for_the_workflow_is_no_deadlock() -> None:
    pool = ThreadPoolExecutor(max_workers=1)
    pool.submit(time.sleep, 0).result()  # its worker thread exists before the replay starts

    async def offloads(ctx: RunContext, name: str) -> str:
        await asyncio.get_running_loop().run_in_executor(pool, time.sleep, 0.4)
        return await greet(name)

    try:
        history = record(offloads, "Ana", run_id="r-1", started_at=START)
        assert_replays(offloads, history)
    finally:
        pool.shutdown()


def test_the_replay_command_prints_the_deadlock_as_diverged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = textwrap.dedent(
        """
        import asyncio
        from replaylint.workflows import activity

        @activity(name="greet")
        async def greet(name):
            return "Hello, " + name

        async def run(ctx, name):
            await asyncio.Event().wait()
            return await greet(name)
        """
    )
    (tmp_path / "waits_forever_wf.py").write_text(source, encoding="utf-8")
    history = record(greeting, "Ana", run_id="r-1", started_at=START).to_dict()
    history["workflow"] = "waits_forever_wf:run"
    (tmp_path / "h.json").write_text(json.dumps(history), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    assert replay_paths(["h.json"], out, timeout=30) == 1
    assert out.getvalue().startswith(f"diverged h.json: command 0 (diverged): {PHRASE}: ")
