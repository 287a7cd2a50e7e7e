"""A parameter that takes a function of a run context is no run context: the function holding
it is not an entry (only the decorated handler inside is)."""
import time
from typing import Any, Callable

from aws_durable_execution_sdk_python.context import DurableContext
from aws_durable_execution_sdk_python.execution import durable_execution


class Runner:
    def __init__(self, block: Callable[[DurableContext], Any]) -> None:
        self.started = time.time()  # builds the runner: not replayed

        @durable_execution
        def handler(event: Any, context: DurableContext) -> Any:
            return block(context), time.time()  # expect: ADK-W003

        self.handler = handler


def run_later(factory: "type[DurableContext]") -> float:
    return time.time()  # a class, not an instance: no entry
