"""Support agent: a model picks tools turn by turn; every model call and tool call is recorded.

Replay-safety notes: the model is reached only through model_call_activity, the tools are
activities, and the tool catalogue is built with stable() so that the prompt (and so the
recorded request key) does not depend on the order TOOLS happens to be written in.
"""

from __future__ import annotations

import json

from examples.workflows.providers import SUPPORT_MODEL, KnowledgeBase, OrderDesk
from replaylint.workflows import RunContext, activity, model_call_activity, stable

__adk_workflow__ = True

MODEL = "scripted-support-1"
MAX_TURNS = 6
SYSTEM = (
    "You are a support agent. Reply with exactly one line: either\n"
    "TOOL <name> <json arguments>   to use a tool, or\n"
    "ANSWER <text>                  to answer the customer.\n"
    "Tools:\n{catalogue}"
)


@activity(name="lookup_order")
async def lookup_order(order_id: str) -> dict:
    """Fetch an order's status and total by its number."""
    return OrderDesk().lookup(order_id)


@activity(name="search_policy")
async def search_policy(topic: str) -> list:
    """Search the policy knowledge base for articles on a topic."""
    return KnowledgeBase().search(topic)


# Written in whatever order; stable() decides the order the model sees.
TOOLS = {"search_policy": search_policy, "lookup_order": lookup_order}


async def run(ctx: RunContext, request: dict) -> dict:
    tools = stable(TOOLS)
    by_name = dict(tools)
    catalogue = "\n".join(f"- {name}: {tool.__doc__}" for name, tool in tools)
    conversation_id = ctx.new_id("conversation")
    messages = [{"role": "user", "content": f"Customer: {request['question']}"}]
    used = []
    for _turn in range(MAX_TURNS):
        reply = await model_call_activity(
            SUPPORT_MODEL.complete,
            model=MODEL,
            system=SYSTEM.format(catalogue=catalogue),
            messages=messages,
        )
        verb, _, rest = reply.partition(" ")
        messages = messages + [{"role": "assistant", "content": reply}]
        if verb == "ANSWER":
            return {
                "conversation_id": conversation_id,
                "status": "answered",
                "answer": rest,
                "tools_used": used,
            }
        name, _, raw_arguments = rest.partition(" ")
        tool = by_name.get(name) if verb == "TOOL" else None
        if tool is None:
            note = f"Unknown instruction {reply!r}; use one of the listed tools or ANSWER."
        else:
            output = await tool(**json.loads(raw_arguments or "{}"))
            used.append(name)
            note = f"Tool {name} returned: {json.dumps(output, sort_keys=True)}"
        messages = messages + [{"role": "user", "content": note}]
    return {
        "conversation_id": conversation_id,
        "status": "gave_up",
        "answer": None,
        "tools_used": used,
    }
