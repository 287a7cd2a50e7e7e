"""An update's validator runs when the update arrives and never on a replay (Temporal sets the
activation's run_validator false while replaying): an order, an environment value or a state
read that only it decides on, no replay compares. The clock, randomness, network and model
calls are still reported in it, wherever called, as in all workflow code. Its handler, and a
helper the handler shares with it, are replayed: that helper is an unsafe helper wherever it
is called, the validator included."""
import os
import time

from temporalio import workflow


def missing(given: dict[str, str]) -> list[str]:
    return [key for key in set(given) if not given[key]]


def first_blank(given: dict[str, str]) -> str:
    for key in set(given):  # expect: ADK-W010
        if not given[key]:
            return key
    return ""


@workflow.defn
class Review:
    def __init__(self) -> None:
        self.given: dict[str, str] = {}

    @workflow.update
    async def approve(self, given: dict[str, str]) -> str:
        self.given = given
        return first_blank(given)  # expect: ADK-W005

    @approve.validator
    def validate_approve(self, given: dict[str, str]) -> None:
        if os.environ.get("STRICT") and missing(given):
            raise ValueError("blank answers")
        if first_blank(given):  # expect: ADK-W005
            raise ValueError(f"blank at {time.time()}")  # expect: ADK-W003

    @workflow.run
    async def run(self) -> bool:
        await workflow.wait_condition(lambda: bool(self.given))
        return True
