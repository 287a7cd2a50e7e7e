"""No framework import here: the worker module registers `nightly` as an orchestrator."""
from datetime import datetime


def nightly(ctx, _):
    stamp = datetime.now()  # expect: ADK-W003
    return stamp.isoformat()
