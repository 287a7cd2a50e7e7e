import os
import threading

import azure.durable_functions as df
import azure.functions as func

app = df.DFApp(http_auth_level=func.AuthLevel.ANONYMOUS)


@app.orchestration_trigger(context_name="context")
def fan_out(context: df.DurableOrchestrationContext):
    tasks = [context.call_activity("work", item) for item in range(3)]
    results = yield context.task_all(tasks)
    threading.Thread(target=print, args=(results,)).start()  # expect: ADK-W009
    return results


@app.activity_trigger(input_name="item")
def work(item: int):
    return os.system(f"echo {item}")
