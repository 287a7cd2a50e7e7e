from typing import Optional

from anthropic import AsyncAnthropicBedrock
from langchain_openai import ChatOpenAI
from openai import OpenAI

__adk_workflow__ = True


class Agent:
    def __init__(self, model: str):
        self.llm = ChatOpenAI(model=model)
        self.bedrock = AsyncAnthropicBedrock()

    async def answer(self, question):
        reply = await self.llm.ainvoke(question)  # expect: ADK-W001
        more = await self.bedrock.messages.create(model="m", max_tokens=5, messages=[])  # expect: ADK-W001
        return reply, more


def summarize(text: str, llm: Optional[OpenAI] = None):
    return llm.chat.completions.create(model="gpt-4o", messages=[text])  # expect: ADK-W001


def summarize_forward(text, llm: "OpenAI | None"):
    return llm.responses.create(model="gpt-4o", input=text)  # expect: ADK-W001


def converse(brt: "BedrockRuntimeClient", prompt: str):
    return brt.converse(modelId="m", messages=[prompt])  # expect: ADK-W001


from mypy_boto3_bedrock_runtime import BedrockRuntimeClient  # noqa: E402
