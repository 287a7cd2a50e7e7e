"""A Prefect notification block posts when notified: before a suspend, again on every resume;
after the last one, once."""
from prefect import flow, suspend_flow_run, task
from prefect.blocks.notifications import SlackWebhook

ops = SlackWebhook.load("ops")


@task(persist_result=True)
def ping(message: str) -> None:
    ops.notify(message)


@flow(persist_result=True)
async def approve() -> str:
    await ops.notify("please approve")  # expect: ADK-W004
    ping("please approve (recorded)")
    user = await suspend_flow_run(wait_for_input=str, timeout=120)
    SlackWebhook(url="https://hooks.slack.com/x").notify(f"approved by {user}")
    return user
