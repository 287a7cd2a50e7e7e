"""Workflows with an unannotated context, registered by app.py."""
import time

import requests


def audit(ctx, entry: dict):
    stamp = time.time()  # expect: ADK-W003
    saved = yield ctx.call_activity(store, input={**entry, "at": stamp})
    return saved


def store(ctx, entry: dict) -> int:
    return requests.post("https://audit.example.com", json=entry).status_code
