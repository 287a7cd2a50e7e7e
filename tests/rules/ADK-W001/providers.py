import boto3
import cohere
import google.generativeai as legacy
import litellm
import ollama
from google import genai
from groq import Groq
from huggingface_hub import InferenceClient
from langchain_anthropic import ChatAnthropic
from mistralai import Mistral
from together import Together

__adk_workflow__ = True


async def ask(prompt):
    g = genai.Client()
    a = g.models.generate_content(model="gemini", contents=prompt)  # expect: ADK-W001
    b = await g.aio.models.generate_content(model="gemini", contents=prompt)  # expect: ADK-W001
    chat = g.chats.create(model="gemini")
    c = chat.send_message(prompt)  # expect: ADK-W001
    d = legacy.GenerativeModel("gemini-pro").generate_content(prompt)  # expect: ADK-W001
    e = litellm.completion(model="gpt-4o", messages=[])  # expect: ADK-W001
    f = await litellm.acompletion(model="gpt-4o", messages=[])  # expect: ADK-W001
    h = litellm.embedding(model="text-embedding", input=[prompt])  # expect: ADK-W001
    llm = ChatAnthropic(model="claude")
    i = llm.invoke(prompt)  # expect: ADK-W001
    j = list(llm.stream(prompt))  # expect: ADK-W001
    k = llm.batch([prompt])  # expect: ADK-W001
    runtime = boto3.client("bedrock-runtime")
    m = runtime.converse(modelId="m", messages=[])  # expect: ADK-W001
    n = runtime.invoke_model(modelId="m", body="{}")  # expect: ADK-W001
    o = runtime.converse_stream(modelId="m", messages=[])  # expect: ADK-W001
    p = ollama.chat(model="llama3", messages=[])  # expect: ADK-W001
    q = cohere.ClientV2().chat(model="command", messages=[])  # expect: ADK-W001
    r = Mistral(api_key="k").chat.complete(model="mistral", messages=[])  # expect: ADK-W001
    s = InferenceClient().chat_completion(messages=[])  # expect: ADK-W001
    t = Groq().chat.completions.create(model="llama", messages=[])  # expect: ADK-W001
    u = Together().chat.completions.create(model="llama", messages=[])  # expect: ADK-W001
    chain = prompt_template() | llm
    v = chain.invoke({"q": prompt})  # expect: ADK-W001
    return a, b, c, d, e, f, h, i, j, k, m, n, o, p, q, r, s, t, u, v


def prompt_template():
    return None
