import os

import azure.durable_functions as df
import azure.functions as func

app = df.DFApp(http_auth_level=func.AuthLevel.ANONYMOUS)


@app.orchestration_trigger(context_name="context")
def greeter(context: df.DurableOrchestrationContext):
    city = os.environ.get("DEFAULT_CITY", "Tokyo")  # expect: ADK-W007
    result = yield context.call_activity("hello", city)
    return result


@app.activity_trigger(input_name="city")
def hello(city: str):
    return f"Hello {city} from {os.environ.get('WEBSITE_SITE_NAME')}"
