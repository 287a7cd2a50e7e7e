"""Sets of ints computed by integer arithmetic are ordered by value; a string made from them is not."""
from temporalio import workflow


@workflow.defn
class Numbers:
    @workflow.run
    async def run(self, n: int) -> list:
        doubled = {i * 2 for i in range(n)}
        pairs = {(i, i + 1) for i in range(n)}
        shifted = {-i % 7 for i in range(n)}
        names = {str(i) for i in range(n)}
        out = list(doubled) + list(pairs) + list(shifted)
        out += list(names)  # expect: ADK-W010
        return out
