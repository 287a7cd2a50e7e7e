"""A loop over a set whose every pass sets its own element's entry of a dict to a value no pass
changes (`results[k] = {...}`), or adds such a value to the set that entry holds
(`dependents[k].add(step)`), leaves the same state in any order; while the dict is only asked
for entries by key, the order its keys went in is never seen either. A value a call makes, a
value read from the dict being filled, or a dict that is iterated later follows the order."""
from temporalio import workflow


@workflow.defn
class Plan:
    @workflow.run
    async def run(self, steps: dict[str, list[str]], skip: list[str]) -> list[object]:
        skipped: set[str] = set(skip)
        results: dict[str, dict] = {}
        for sid in skipped:
            results[sid] = {"status": "skipped", "step_id": sid}
        dependents: dict[str, set[str]] = {sid: set() for sid in steps}
        for sid, raw in steps.items():
            for d in set(raw):
                dependents[d].add(sid)
        counted: dict[str, int] = {}
        for sid in skipped:  # expect: ADK-W010
            counted[sid] = len(counted)
        stamped: dict[str, object] = {}
        for sid in skipped:  # expect: ADK-W010
            stamped[sid] = workflow.uuid4()
        shown: dict[str, str] = {}
        for sid in skipped:  # expect: ADK-W010
            shown[sid] = sid
        ready = [sid for sid in steps if not dependents[sid] and sid not in results]
        return [*ready, *shown, counted.get("a"), stamped.get("b")]


@workflow.defn
class Annotated:
    @workflow.run
    async def run(self, ids: list[str], skip: list[str]) -> list[dict]:
        pre: set[str] = set(skip)
        found: dict[str, dict] = {sid: {"s": sid} for sid in pre}
        return [found[sid] for sid in ids if sid in found]


@workflow.defn
class Longest:
    @workflow.run
    async def run(self, names: list[str]) -> list[str]:
        pool = set(names)
        return [max(pool), max(pool, key=len), min(sorted(pool), key=len)]  # expect: ADK-W010
