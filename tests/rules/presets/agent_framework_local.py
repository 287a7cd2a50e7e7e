"""Agent Framework: the same kind of graph run in-process, with no durable host (clean)."""
import asyncio
import random

from agent_framework import Agent, WorkflowBuilder
from agent_framework.openai import OpenAIChatClient

a = Agent(client=OpenAIChatClient(), name="A", instructions="a")
b = Agent(client=OpenAIChatClient(), name="B", instructions="b")
flow = WorkflowBuilder(name="local", start_executor=a).add_edge(a, b, condition=lambda m: random.random() < 0.5).build()


if __name__ == "__main__":
    asyncio.run(flow.run("hello"))
