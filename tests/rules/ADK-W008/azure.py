import azure.durable_functions as df
import azure.functions as func

app = df.DFApp(http_auth_level=func.AuthLevel.ANONYMOUS)


@app.orchestration_trigger(context_name="context")
def exporter(context: df.DurableOrchestrationContext):
    rows = yield context.call_activity("load_rows", "orders.csv")
    with open("export.csv", "w") as out:  # expect: ADK-W008
        out.write(str(rows))
    return len(rows)


@app.activity_trigger(input_name="name")
def load_rows(name: str):
    with open(name) as handle:
        return handle.readlines()
