"""AWS child contexts (run_in_child_context, map items, parallel branches, functions decorated
@durable_with_child_context or @durable_parallel_branch) checkpoint their result when they
complete: a replay returns it without running them again. A child that stops the execution
before it completes (a wait, a callback, an invocation, a step) runs again from its start on
resume, so its own lines are replayed code."""
import random
import time

from aws_durable_execution_sdk_python import (
    DurableContext,
    durable_execution,
    durable_parallel_branch,
    durable_with_child_context,
)
from aws_durable_execution_sdk_python.config import Duration


def once(ctx: DurableContext) -> float:
    return random.random()  # completes in one go: checkpointed


def waits(ctx: DurableContext) -> float:
    drawn = random.random()  # expect: ADK-W002
    ctx.wait(Duration.from_seconds(5))
    return drawn


def per_item(ctx: DurableContext, item: int, index: int, items: list) -> float:
    return time.time() * item  # each item's result is checkpointed


def stepped(ctx, item, index, items):
    started = time.time()  # expect: ADK-W003
    return ctx.step(lambda _: item * 2, name=f"double-{started}")


@durable_with_child_context
def decorated(ctx: DurableContext, n: int) -> float:
    return random.random() * n


@durable_with_child_context
def decorated_waits(ctx: DurableContext, n: int) -> float:
    drawn = random.random() * n  # expect: ADK-W002
    ctx.wait(Duration.from_seconds(5))
    return drawn


@durable_parallel_branch()
def branch(ctx: DurableContext) -> float:
    return random.random()


@durable_execution
def handler(event: dict, context: DurableContext) -> list:
    first = context.run_in_child_context(lambda child: random.random(), "first")
    second = context.run_in_child_context(once, "second")
    third = context.run_in_child_context(waits, "third")
    doubled = context.map([1, 2], per_item, "times")
    counted = context.map([1, 2], stepped, "stepped")
    fourth = context.run_in_child_context(decorated(3))
    fifth = context.run_in_child_context(decorated_waits(3))
    sixth = context.run_in_child_context(
        lambda child: (child.wait(Duration.from_seconds(1)), random.random()),  # expect: ADK-W002
        "sixth",
    )
    both = context.parallel([once, waits, branch()])
    # A step is recorded whatever its callable does: only child contexts nest.
    stepped_once = context.step(lambda _: (context.wait(Duration.from_seconds(1)), random.random()))
    drawn = random.random()  # expect: ADK-W002
    return [first, second, third, doubled, counted, fourth, fifth, sixth, both, stepped_once, drawn]
