"""An identity kept in a set the function builds only to ask "met it already?" (a walk over an
exception chain that stops at a cycle) decides nothing: the answer is the same in every
process. A set that is iterated, handed in, or another object's is still followed."""
from dbos import DBOS

_VISITED: set[int] = set()


def root_cause(error: BaseException) -> BaseException:
    pending = [error]
    seen: set[int] = set()
    while pending:
        current = pending.pop()
        identity = id(current)
        if identity in seen:
            continue
        seen.add(identity)
        if current.__cause__ is None:
            return current
        pending.append(current.__cause__)
    return error


def first_seen_order(items: list[object]) -> list[int]:
    seen = set()
    for item in items:
        key = id(item)  # expect: ADK-W010
        if key not in seen:
            seen.add(key)
    return sorted(seen)  # the numbers themselves come back out


def handed_in(items: list[object], seen: set[int]) -> int:
    count = 0
    for item in items:
        key = id(item)  # expect: ADK-W010
        if key not in seen:
            count += 1
    return count


def through_a_module_set(items: list[object]) -> int:
    seen = _VISITED
    count = 0
    for item in items:
        key = id(item)  # expect: ADK-W010
        if key in seen:
            count += 1
    return count


def rebound_by_a_loop(groups: list[set[int]], items: list[object]) -> int:
    seen = set()
    count = 0
    for seen in groups:
        for item in items:
            key = id(item)  # expect: ADK-W010
            if key in seen:
                count += 1
    return count


def rebound_by_walrus(load, items: list[object]) -> int:
    seen = set()
    count = 0
    if (seen := load()) is not None:
        for item in items:
            key = id(item)  # expect: ADK-W010
            if key in seen:
                count += 1
    return count


def build(item: object) -> str:
    return str(item)


def memo_per_object(items: list[object]) -> list[str]:
    """A dict of the run's own objects' entries, found by identity: never iterated."""
    memo: dict[int, str] = {}
    out = []
    for item in items:
        key = id(item)
        if key not in memo:
            memo[key] = build(item)
        out.append(memo[key])
    return out


def memo_keys_read_back(items: list[object]) -> list[int]:
    memo = {}
    for item in items:
        key = id(item)  # expect: ADK-W010
        if key not in memo:
            memo[key] = build(item)
    return list(memo)


def has_cycle(node) -> bool:
    """A recursive walk whose enclosing function builds the set of identities on the path."""
    on_path: set[int] = set()

    def visit(n) -> bool:
        key = id(n)
        if key in on_path:
            return True
        on_path.add(key)
        found = any(visit(child) for child in n.children)
        on_path.discard(key)
        return found

    return visit(node)


def identities_returned(node) -> set[int]:
    reached: set[int] = set()

    def visit(n) -> None:
        key = id(n)  # expect: ADK-W010
        if key not in reached:
            reached.add(key)
            for child in n.children:
                visit(child)

    visit(node)  # expect: ADK-W005
    return reached


@DBOS.workflow()
def workflow(error: BaseException, items: list[object]) -> None:
    root_cause(error)
    first_seen_order(items)  # expect: ADK-W005
    handed_in(items, set())  # expect: ADK-W005
    through_a_module_set(items)  # expect: ADK-W005
    rebound_by_a_loop([], items)  # expect: ADK-W005
    rebound_by_walrus(set, items)  # expect: ADK-W005
    memo_per_object(items)
    memo_keys_read_back(items)  # expect: ADK-W005
    has_cycle(error)
    identities_returned(error)  # expect: ADK-W005
