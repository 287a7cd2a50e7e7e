import anthropic
from openai import AsyncOpenAI, OpenAI

__adk_workflow__ = True

client = OpenAI()


async def plan(prompt: str):
    first = client.chat.completions.create(model="gpt-4o", messages=[])  # expect: ADK-W001
    aclient = AsyncOpenAI()
    second = await aclient.responses.create(model="gpt-4o", input=prompt)  # expect: ADK-W001
    vectors = client.embeddings.create(model="text-embedding-3-small", input=[prompt])  # expect: ADK-W001
    claude = anthropic.Anthropic()
    reply = claude.messages.create(model="claude", max_tokens=10, messages=[])  # expect: ADK-W001
    with claude.messages.stream(model="claude", max_tokens=10, messages=[]) as stream:  # expect: ADK-W001
        text = stream.text_stream
    inline = OpenAI().chat.completions.create(model="gpt-4o", messages=[])  # expect: ADK-W001
    return first, second, vectors, reply, text, inline
