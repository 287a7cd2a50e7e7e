"""Agent Framework's own agents and chat clients call their model: run in a @workflow body they
answer again on every resume; run in a @step, their answer is cached."""
from agent_framework import Agent, RunContext, step, workflow
from agent_framework.openai import OpenAIChatClient

client = OpenAIChatClient()
writer = Agent(name="writer", instructions="Write a poem.", client=client)
reviewer = client.as_agent(name="reviewer", instructions="Review it.")


@step
async def drafted(topic: str) -> str:
    return (await writer.run(f"A poem about {topic}")).text


@workflow
async def poem(topic: str, ctx: RunContext) -> str:
    draft = await drafted(topic)
    review = (await reviewer.run(draft)).text  # expect: ADK-W001
    reply = await client.get_response(f"Shorten: {draft}")  # expect: ADK-W001
    ok = await ctx.request_info({"draft": draft, "review": review}, response_type=bool)
    return reply.text if ok else draft
