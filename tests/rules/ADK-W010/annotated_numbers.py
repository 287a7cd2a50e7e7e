"""A set built from a sequence annotated with ints is ordered by value; one of strings is not."""
from collections.abc import Sequence

from dbos import DBOS


@DBOS.workflow()
def unique(ids: list[int], scores: Sequence[float], pairs: tuple[int, ...], names: list[str]):
    first = list(set(ids)) + list(set(scores)) + list(set(pairs))
    second = list(set(names))  # expect: ADK-W010
    return first, second
