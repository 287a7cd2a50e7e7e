"""Building an agent framework's tool object from a function (pydantic-ai's `Tool(fn)`,
LangChain's `StructuredTool.from_function(fn)`) keeps the function for an agent to call later:
the build calls nothing, so a workflow helper that only builds tools is no unsafe helper. An
unknown library's call handed a function may run it, and still counts."""
from typing import Any

import httpx
from langchain_core.tools import StructuredTool
from pydantic_ai.tools import Tool
from somelib import register
from temporalio import workflow


class Searcher:
    async def __call__(self, q: str) -> str:
        return httpx.get("https://example.com", params={"q": q}).text


async def fetch(q: str) -> str:
    return httpx.get("https://example.com/f", params={"q": q}).text  # expect: ADK-W004


def make_tools() -> list[Any]:
    return [
        Tool[Any](Searcher().__call__, name="search"),
        Tool(fetch, name="fetch"),
        StructuredTool.from_function(coroutine=fetch, name="fetch2"),
    ]


def registered() -> object:
    return register(fetch, name="search")  # expect: ADK-W005


@workflow.defn
class Flow:
    @workflow.run
    async def run(self) -> str:
        tools = make_tools()
        found = registered()  # expect: ADK-W005
        return f"{len(tools)} {found}"
