"""temporalio's side of `replaylint replay`: its workflow classes, failures and event loop."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

# How temporalio's core prefixes a failure to process the history itself (not the code).
_MACHINES_FAILED = "Fatal error in workflow machines: "


def definition_name(cls: type) -> str | None:
    """The workflow type name of a ``@workflow.defn`` class; None for any other class."""
    # @workflow.defn stores its definition on the class under this (stable) attribute.
    definition = getattr(cls, "__temporal_workflow_definition", None)
    name = getattr(definition, "name", None)
    return name if isinstance(name, str) else None


def temporal_type(data: dict[str, Any]) -> str | None:
    """The workflow type an export's first event names, if it names one."""
    first = data["events"][0]
    attributes = first.get("workflowExecutionStartedEventAttributes") or {}
    name = (attributes.get("workflowType") or {}).get("name")
    return name if isinstance(name, str) else None


def classify_failure(failure: BaseException, nondeterminism: type) -> tuple[str, str]:
    """What kind of replay failure this is, and Temporal's message for it, in one line.

    ``nondeterminism``: the code differs from the history; ``invalid history``: core could
    not process the history itself (the file is at fault, not the code); otherwise
    ``workflow task failed``: the code raised.
    """
    message = temporal_message(failure)
    if isinstance(failure, nondeterminism):
        return "nondeterminism", message
    if message.startswith(_MACHINES_FAILED):
        # Temporal's reason is kept; the event it dumps whole is named by its id.
        reason = message[len(_MACHINES_FAILED) :].split(" Event detail:")[0]
        event = re.search(r"event_id: (\d+)", message)
        where = (
            f" (event {event.group(1)})"
            if event and f"event {event.group(1)}" not in reason
            else ""
        )
        return "invalid history", f"{reason}{where}"
    return "workflow task failed", message


def temporal_message(failure: BaseException) -> str:
    """The sentence of a replay failure, on one line."""
    # Core's failures print as a Rust struct; its `message: "..."` is the sentence to show.
    text = str(failure)
    found = re.search(r'message: "((?:[^"\\]|\\.)*)"', text)
    message = found.group(1).encode().decode("unicode_escape") if found else text
    return " ".join(message.split())


def run_coroutine(make: Callable[[], Any]) -> Any:
    """Run the coroutine `make()` returns to its end on a loop of its own, and return its result."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _run_unattended(make())
    with ThreadPoolExecutor(max_workers=1) as pool:  # called from inside a running loop
        return pool.submit(lambda: _run_unattended(make())).result()


def _run_unattended(coroutine: Any) -> Any:
    # A fresh loop that is never cleaned up: this runs in a child process that ends right
    # after, and after a SystemExit escaped the Replayer its tasks would never finish.
    return asyncio.new_event_loop().run_until_complete(coroutine)


def preload() -> None:
    """Import temporalio's replay modules now, if they can be, so forked children start with them.

    Each history's child starts from this process: this spares every child a quarter of
    a second. Importing temporalio starts no thread (its runtime does), so forking stays safe.
    """
    for name in ("temporalio.worker", "temporalio.client", "temporalio.runtime"):
        try:
            importlib.import_module(name)
        except Exception:  # not installed (or broken): each history says so in its line
            return


@contextlib.contextmanager
def quiet_logger(name: str) -> Iterator[None]:
    """Silence the logger `name` for the duration of the block."""
    # The Replayer logs a traceback for each failed activation; the one line we print says it.
    logger = logging.getLogger(name)
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        logger.setLevel(level)
