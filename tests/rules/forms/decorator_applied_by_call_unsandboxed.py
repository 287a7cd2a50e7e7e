"""`workflow.defn(sandboxed=False)` applied by a call: every run of the worker shares the module's
state, as under the written decorator, so a write read back is ADK-W011; the sandboxed twin
gives each run its own copy of the module."""

from temporalio import workflow

SEEN: dict[str, int] = {}
OWN: dict[str, int] = {}


class Counted:
    @workflow.run
    async def run(self, key: str) -> int:
        SEEN[key] = SEEN.get(key, 0) + 1  # expect: ADK-W011
        return SEEN[key]


class Alone:
    @workflow.run
    async def run(self, key: str) -> int:
        OWN[key] = OWN.get(key, 0) + 1
        return OWN[key]


Counted = workflow.defn(sandboxed=False)(Counted)
Alone = workflow.defn(sandboxed=True)(Alone)
