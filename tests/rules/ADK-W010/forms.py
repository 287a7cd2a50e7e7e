"""Every form that lets hash order decide: loops, comprehensions, conversions, pops, hashes."""
from typing import AbstractSet, FrozenSet, Optional, Set

__adk_workflow__ = True

TAGS = {"alpha", "beta"}
FROZEN = frozenset(["alpha", "beta"])


def loops(names, other: AbstractSet[str]):
    for tag in TAGS:  # expect: ADK-W010:15
        print(tag)
    for tag in set(names):  # expect: ADK-W010
        print(tag)
    for tag in FROZEN | other:  # expect: ADK-W010
        print(tag)
    for tag in other:  # expect: ADK-W010
        print(tag)


def comprehensions(names):
    unique = set(names)
    upper = [n.upper() for n in unique]  # expect: ADK-W010
    pairs = {n: len(n) for n in unique}  # expect: ADK-W010
    lazy = list(n for n in unique)  # expect: ADK-W010
    return upper, pairs, lazy


def conversions(names: Set[str], more: Optional[FrozenSet[str]]):
    first = list(names)  # expect: ADK-W010
    second = tuple(names)  # expect: ADK-W010
    joined = ", ".join(names)  # expect: ADK-W010
    one = names.pop()  # expect: ADK-W010
    head = next(iter(names))  # expect: ADK-W010
    numbered = enumerate(names)  # expect: ADK-W010
    paired = zip(names, more)  # expect: ADK-W010
    mapped = map(str.upper, more)  # expect: ADK-W010
    keyed = dict.fromkeys(names)  # expect: ADK-W010
    ranked = sorted(enumerate(names))  # expect: ADK-W010
    return first, second, joined, one, head, numbered, paired, mapped, keyed, ranked


def algebra(a: set[str], b: set[str], counts: dict):
    for x in a.union(b):  # expect: ADK-W010
        print(x)
    for x in a & b:  # expect: ADK-W010
        print(x)
    for x in set.difference(a, b):  # expect: ADK-W010
        print(x)
    fresh = counts.keys() - {"total"}
    for key in fresh:  # expect: ADK-W010
        print(key)
    seen = set()
    seen |= a
    for x in seen:  # expect: ADK-W010
        print(x)
    built = {n.strip() for n in b}
    for x in built:  # expect: ADK-W010
        print(x)


class Batch:
    def __init__(self, ids: set[str]):
        self.ids = ids

    def flush(self):
        for item in self.ids:  # expect: ADK-W010
            print(item)
        return self.ids.pop()  # expect: ADK-W010


def identities(key: str, payload, order):
    bucket = hash(key) % 8  # expect: ADK-W010
    other = hash(payload)  # expect: ADK-W010
    where = id(order)  # expect: ADK-W010
    earlier = id(key) < id(order)  # expect: ADK-W010:14, ADK-W010:24
    label = f"order-{id(order)}"  # expect: ADK-W010
    return bucket, other, where, earlier, label


def returned():
    return {"x", "y"}


def through_a_return():
    for x in returned():  # expect: ADK-W010
        print(x)
