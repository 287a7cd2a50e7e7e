"""The Functions app that hosts the workflow durably."""
from agent_framework_azurefunctions import AgentFunctionApp

from graph import claims

app = AgentFunctionApp(workflows=[claims])
