import datetime
import uuid

import azure.durable_functions as df
import azure.functions as func

app = df.DFApp(http_auth_level=func.AuthLevel.ANONYMOUS)


@app.orchestration_trigger(context_name="context")
def hello_orchestrator(context: df.DurableOrchestrationContext):
    now = context.current_utc_datetime
    token = context.new_uuid()
    deadline = now + datetime.timedelta(minutes=5)
    yield context.create_timer(deadline)
    result = yield context.call_activity("hello", "Tokyo")
    wall = datetime.datetime.utcnow()  # expect: ADK-W003
    other = uuid.uuid4()  # expect: ADK-W002
    return [result, token, wall, other]


@app.activity_trigger(input_name="city")
def hello(city: str):
    return f"Hello {city} at {datetime.datetime.now()}"


def legacy_orchestrator(context):
    started = datetime.datetime.now()  # expect: ADK-W003
    value = yield context.call_activity("hello", "Paris")
    return value, started


main = df.Orchestrator.create(legacy_orchestrator)
