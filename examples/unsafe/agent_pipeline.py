"""A support-triage agent written the way it first works in development.

Every model call goes straight to the provider, and the tool order follows the registry's load
order: both change between the run and its replay.
"""

from __future__ import annotations

import time

from anthropic import Anthropic

from tools import TOOLS, lookup_customer

__adk_workflow__ = True


class TriageAgent:
    def __init__(self, model: str = "claude-sonnet-4-5") -> None:
        self.model = model
        self.client = Anthropic()

    def _ask(self, prompt: str) -> str:
        reply = self.client.messages.create(
            model=self.model,
            max_tokens=512,
            messages=[{"role": "user", "content": prompt}],
        )
        return reply.content[0].text

    async def run(self, ticket: dict) -> dict:
        started = time.monotonic()
        customer = lookup_customer(ticket["email"])
        tool_list = ", ".join(name for name in TOOLS)
        category = self._ask(f"Classify this ticket. Tools: {tool_list}\n{ticket['body']}")
        draft = self._ask(f"Draft a reply for a {category} ticket from {customer['name']}")
        return {"category": category, "draft": draft, "seconds": time.monotonic() - started}
