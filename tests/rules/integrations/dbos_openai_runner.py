"""DBOS's OpenAI Agents runner makes each model call a DBOS step: running an agent through it
in a workflow is recorded. The SDK's own Runner is not."""
from agents import Agent, Runner
from dbos import DBOS
from dbos_openai_agents import DBOSRunner

triage = Agent(name="triage", instructions="Route the ticket.")


class AuditedRunner(Runner):
    """A subclass of the SDK's runner still calls the model itself."""


@DBOS.workflow()
async def route(ticket: str) -> str:
    durable = await DBOSRunner.run(triage, ticket)
    raw = await AuditedRunner.run(triage, ticket)  # expect: ADK-W001
    return f"{durable.final_output}{raw.final_output}"
