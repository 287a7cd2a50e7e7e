from openai import OpenAI

from replaylint.workflows import model_call_activity

__adk_workflow__ = True

client = OpenAI()


class Provider:
    def complete(self, prompt):
        return "canned"


async def run(prompt, provider: Provider, chat):
    reply = await model_call_activity(client.chat.completions.create, model="gpt-4o", messages=[])
    local = Provider().complete(prompt)
    other = provider.complete(prompt)
    unknown = chat.completions.create(model="x")
    opts = client.with_options(timeout=5)
    return reply, local, other, unknown, opts
