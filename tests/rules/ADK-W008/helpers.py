"""A helper that touches the disk makes its callers unsafe (ADK-W005, chain to the access)."""
from pathlib import Path

__adk_workflow__ = True


def load_prompt(name):
    return Path("prompts", name).read_text()  # expect: ADK-W008


async def run(order):
    prompt = load_prompt("checkout.txt")  # expect: ADK-W005
    return prompt, order
