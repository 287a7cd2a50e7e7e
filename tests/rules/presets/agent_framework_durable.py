"""Microsoft Agent Framework on Durable Functions: orchestrators on an AgentFunctionApp are
replayed, in the unannotated form its docstring shows; agent runs are durable entity calls."""
import uuid
from datetime import datetime, timedelta

import requests
from agent_framework import Agent, tool
from agent_framework.openai import OpenAIChatClient
from agent_framework_azurefunctions import AgentFunctionApp
from openai import OpenAI


@tool(description="Today's exchange rate")
def rate(currency: str) -> float:
    # Runs inside the agent's entity, not the orchestrator.
    return requests.get(f"https://fx.example.com/{currency}").json()["rate"]


planner = Agent(client=OpenAIChatClient(), name="Planner", instructions="Plan.", tools=[rate])
app = AgentFunctionApp(agents=[planner])
raw = OpenAI()


@app.activity_trigger(input_name="city")
def book(city: str) -> str:
    return requests.post("https://book.example.com", json={"city": city, "at": datetime.now().isoformat()}).text


@app.orchestration_trigger(context_name="context")
def trip(context):
    city = context.get_input()
    agent = app.get_agent(context, "Planner")
    plan = yield agent.run(f"Plan {city}", session=agent.create_session())
    booking = yield context.call_activity("book", city)
    request_id = str(uuid.uuid4())  # expect: ADK-W002
    stable_id = context.new_uuid()
    hour = datetime.utcnow().hour  # expect: ADK-W003
    extra = raw.chat.completions.create(model="m", messages=[])  # expect: ADK-W001
    yield context.create_timer(context.current_utc_datetime + timedelta(minutes=hour))
    return {"plan": plan.text, "booking": booking, "ids": [request_id, stable_id], "extra": extra}
