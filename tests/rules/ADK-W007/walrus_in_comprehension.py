"""A value bound by an assignment expression in a comprehension's filter is read by the element
the same statement builds: where that goes decides."""
import logging
import os

import azure.durable_functions as df

app = df.DFApp()


@app.orchestration_trigger(context_name="context")
def fan_out(context: df.DurableOrchestrationContext):
    rows = yield context.call_activity("rows", None)
    tasks = [
        context.call_activity("work", {"conn": conn, "row": row})
        for row in rows
        if (conn := os.environ.get(row["name"]))  # expect: ADK-W007
    ]
    yield context.task_all(tasks)
    names = [label for row in rows if (label := os.environ.get(row["label"]))]
    logging.info("labels: %s", names)  # only logged: decides nothing
    return len(rows)
