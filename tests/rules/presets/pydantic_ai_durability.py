from pydantic_ai import Agent
from pydantic_ai.durable_exec.dbos import DBOSDurability
from pydantic_ai.durable_exec.temporal import TemporalDurability
from temporalio import workflow

durable = Agent("openai:gpt-4o", capabilities=[TemporalDurability()])
capabilities = [TemporalDurability(activity_config=None)]
through_a_variable = Agent("openai:gpt-4o", capabilities=capabilities)
dbos_durable = Agent("openai:gpt-4o", capabilities=(DBOSDurability(),))
plain = Agent("openai:gpt-4o")
other_capability = Agent("openai:gpt-4o", capabilities=[object()])
# The generic form the pydantic-ai tests use: the class specialised for its deps, then built.
typed = TemporalDurability[dict](deps_type=dict)
specialised = Agent("openai:gpt-4o", deps_type=dict, capabilities=[typed])
inline_specialised = Agent("openai:gpt-4o", capabilities=[TemporalDurability[dict]()])


@workflow.defn
class Assistant:
    @workflow.run
    async def run(self, prompt: str) -> str:
        # Each model call of a durable agent is an activity of its own: recorded.
        first = await durable.run(prompt)
        second = await through_a_variable.run(prompt)
        third = await dbos_durable.run(prompt)
        fourth = await plain.run(prompt)  # expect: ADK-W001
        fifth = await other_capability.run(prompt)  # expect: ADK-W001
        sixth = await specialised.run(prompt, deps={})
        seventh = await inline_specialised.run(prompt)
        return f"{first}{second}{third}{fourth}{fifth}{sixth}{seventh}"
