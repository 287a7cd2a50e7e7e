"""The same, create_agent reached through the module imported by its last name."""
from langchain import agents

from tools.flights import pick_seat

seats = agents.create_agent(model="openai:gpt-4o", tools=[pick_seat])
