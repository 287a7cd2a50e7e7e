"""A helper that reads the environment makes its callers unsafe (ADK-W005, chain to the read)."""
import os

__adk_workflow__ = True


def region():
    return os.environ["REGION"]  # expect: ADK-W007


def endpoint():
    return f"https://{region()}.example.com"  # expect: ADK-W005


async def run(order):
    url = endpoint()  # expect: ADK-W005
    return url, order
