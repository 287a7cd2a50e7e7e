from models import Batch, Envelope
from replaylint.workflows import RunContext, activity

__adk_workflow__ = True


@activity
def send(payload: dict) -> str:
    return str(payload)


def run(ctx: RunContext, body: str) -> str:
    envelope = Envelope(body=body)  # expect: ADK-W005
    batch = Batch()  # expect: ADK-W005
    return send({"e": envelope.body, "n": len(batch.items)})
