"""LangChain's create_agent builds a LangGraph agent whose tool node re-runs a tool that
interrupts from its first line on resume, the tool defined in another module of the project. A
module that imports only langchain.agents registers it."""
from langchain.agents import create_agent

from tools import pick_flight, quote

graph = create_agent(model="openai:gpt-4o", tools=[pick_flight, quote])
