"""An element taken from a set known to hold at most one, whatever its hash order, is that
element (or a KeyError on none): it decides nothing. A set that may hold more still does."""
from temporalio import workflow


def common_root(paths: list[str]) -> str:
    roots = {p.rsplit("/", 1)[0] for p in paths}
    if len(roots) != 1:
        raise ValueError(f"no single root: {sorted(roots)!r}")
    return roots.pop()


def sole_owner(owners: list[str]) -> str | None:
    found = set(owners)
    if len(found) == 1:
        return found.pop()
    return None


def first_label(labels: list[str]) -> str:
    chosen = set(labels)
    assert len(chosen) <= 1
    return chosen.pop() if chosen else ""


def guarded_by_or(tags: list[str]) -> str:
    unique = set(tags)
    if len(unique) > 1 or not tags:
        return ""
    return unique.pop()


def any_tag(tags: list[str]) -> str:
    unique = set(tags)
    if len(unique) > 2:
        raise ValueError("too many")
    return unique.pop()  # expect: ADK-W010


def after_a_check_that_stays(tags: list[str]) -> str:
    unique = set(tags)
    if len(unique) != 1:
        workflow.logger.warning("several tags")
    return unique.pop()  # expect: ADK-W010


def grown_after_the_check(tags: list[str], extra: list[str]) -> str:
    unique = set(tags)
    if len(unique) != 1:
        raise ValueError("one tag")
    unique.update(extra)
    return unique.pop()  # expect: ADK-W010


def rebound_after_the_check(tags: list[str], extra: list[str]) -> str:
    unique = set(tags)
    assert len(unique) == 0x1
    unique = set(extra)
    return unique.pop()  # expect: ADK-W010


def popped_twice(tags: list[str]) -> list[str]:
    unique = set(tags)
    taken = []
    if len(unique) == 1:
        taken.append(unique.pop())  # taken before anything is added
        unique |= {"a", "b"}
        taken.append(unique.pop())  # expect: ADK-W010
    return taken


def grown_in_the_loop(tags: list[str]) -> list[str]:
    unique = set(tags[:1])
    taken = []
    if len(unique) <= 1:
        for tag in tags:
            if unique:
                taken.append(unique.pop())  # expect: ADK-W010
            unique.add(tag)
    return taken


@workflow.defn
class Roots:
    @workflow.run
    async def run(self, paths: list[str]) -> list:
        return [
            common_root(paths),
            sole_owner(paths),
            first_label(paths),
            guarded_by_or(paths),
            any_tag(paths),  # expect: ADK-W005
            after_a_check_that_stays(paths),  # expect: ADK-W005
            grown_after_the_check(paths, paths),  # expect: ADK-W005
            rebound_after_the_check(paths, paths),  # expect: ADK-W005
            popped_twice(paths),  # expect: ADK-W005
            grown_in_the_loop(paths),  # expect: ADK-W005
        ]
