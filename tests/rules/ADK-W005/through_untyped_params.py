"""A helper calls a method through a parameter nothing types (unannotated, or `Any`): each
call of it that hands the parameter an object of the checked code resolves the method on that
object, as an annotation naming its class would. An object whose method is safe, a parameter
rebound in the body, or an object handed over off the workflow path (by an activity) gives
nothing; nor does an object of an outside package (a known limit:
its hazard would be a fact of the helper's own walk, made before its callers are known)."""
import time
from typing import Any

import httpx
from temporalio import activity, workflow


class Gateway:
    async def generate(self, prompt: str) -> str:
        return f"{prompt}@{time.time()}"  # expect: ADK-W003

    async def echo(self, prompt: str) -> str:
        return prompt


class Deps:
    def __init__(self) -> None:
        self.gateway = Gateway()


async def plan(deps: Any) -> str:
    return await deps.gateway.generate("plan")  # expect: ADK-W005


async def review(deps, prompt):
    return await deps.gateway.generate(prompt)  # expect: ADK-W005


async def echoed(deps: Any) -> str:
    return await deps.gateway.echo("hello")


async def rebound(deps, make) -> str:
    deps = make()  # no longer what the caller handed: what `make` builds is not known
    return await deps.gateway.generate("again")


async def fetched(client) -> int:
    response = await client.get("https://example.com")
    return response.status_code


class Loud:
    async def say(self) -> float:
        return time.time()


class Quiet:
    async def say(self) -> str:
        return "hush"


async def announce(speaker) -> object:
    return await speaker.say()


@activity.defn
async def shout() -> object:
    return await announce(Loud())  # an activity's call: it resolves nothing for the workflow


@workflow.defn
class Planner:
    @workflow.run
    async def run(self) -> str:
        deps = Deps()
        first = await plan(deps)  # expect: ADK-W005
        second = await review(prompt="again", deps=deps)  # expect: ADK-W005
        third = await echoed(deps)
        fourth = await rebound(deps, Quiet)
        await announce(Quiet())
        await fetched(httpx.AsyncClient())  # not followed: an outside package's client
        return first + second + third + fourth
