"""Traps that must stay clean: orders by value, sorted or stable uses, membership and counts."""
from typing import Set

from replaylint.workflows import stable

__adk_workflow__ = True

NUMBERS = {3, 1, 2}
FLAGS = frozenset([True, False, None])
TAGS = {"alpha", "beta"}
PAIRS = {(1, 2), (3, 4)}


def by_value(n: int, ids: Set[int], counts: set[float]):
    for x in NUMBERS:
        print(x)
    for x in FLAGS:
        print(x)
    for x in PAIRS:
        print(x)
    for x in ids:
        print(x)
    for x in counts:
        print(x)
    for x in set(range(n)):
        print(x)
    for x in {i for i in range(n)}:
        print(x)
    for x in NUMBERS | {4, 5}:
        print(x)
    return hash(42), hash((1, 2)), list(NUMBERS)


def defined_orders(names: set[str], other: set[str]):
    for x in sorted(names):
        print(x)
    for x in stable(names):
        print(x)
    first = sorted(list(names))
    joined = ", ".join(sorted(names))
    lazy = sorted(n.upper() for n in names)
    ordered = stable(n for n in names)
    unique = {n.lower() for n in names}
    also = set(n for n in names)
    big = max(len(n) for n in names)
    some = any(n.startswith("a") for n in names)
    total = sum(len(n) for n in names | other)
    return first, joined, lazy, ordered, unique, also, big, some, total


def membership(name: str, names: set[str], other: set[str], counts: dict):
    if name in names | other:
        return len(names & other)
    if name in TAGS:
        return len(TAGS)
    for key in counts.keys():
        print(key)
    for key in counts:
        print(key)
    return sorted(counts.keys() - names)


def not_sets(tags: list[str], index: dict[str, set[str]], pair: tuple[str, str]):
    for tag in tags:
        print(tag)
    for key in index:
        print(key)
    for x in pair:
        print(x)
    return list(tags), ", ".join(tags), tags.pop()


class Point:
    def __init__(self, x: str, y: str):
        self.x, self.y = x, y

    def __hash__(self):
        return hash((self.x, self.y))

    def __eq__(self, other):
        return id(self) == id(other) or (self.x, self.y) == (other.x, other.y)


def shadowed(names: set[str]):
    def list(items):
        return items

    return list(names)


def identity_as_key(nodes, a, b):
    memo = {}
    seen = set()
    for node in nodes:
        if id(node) in seen or memo.get(id(node)):
            continue
        seen.add(id(node))
        memo[id(node)] = {id(node): node}
    return id(a) == id(b), hash(a) != hash(b), a is b
