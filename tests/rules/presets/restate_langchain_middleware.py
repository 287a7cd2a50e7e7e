"""Restate's LangChain middleware journals every model and tool call of an agent built with it;
an agent without it still calls the model on every replay of the handler."""
import restate
from langchain.agents import create_agent
from langchain.chat_models import init_chat_model
from restate.ext.langchain import RestateMiddleware

chat = restate.VirtualObject("Chat")
durable = create_agent(model=init_chat_model("openai:gpt-4o"), middleware=[RestateMiddleware()])
middlewares = [RestateMiddleware()]
through_a_variable = create_agent(init_chat_model("openai:gpt-4o"), middleware=middlewares)
plain = create_agent(model=init_chat_model("openai:gpt-4o"))


@chat.handler()
async def message(ctx: restate.ObjectContext, text: str) -> str:
    first = await durable.ainvoke({"messages": [text]})
    second = await through_a_variable.ainvoke({"messages": [text]})
    third = await plain.ainvoke({"messages": [text]})  # expect: ADK-W001
    return f"{first}{second}{third}"
