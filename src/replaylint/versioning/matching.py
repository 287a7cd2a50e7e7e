"""How a framework's replay finds each recorded command again, and so which changes an old run
meets: by position in one sequence (Temporal, Dapr), in a sequence of its own kind (LangGraph
counts interrupts apart from tasks), or by its key (Inngest's step id, Cloudflare's step name),
where only a key that changed under the same work makes a run do that work again."""

from __future__ import annotations

from collections.abc import Callable

from replaylint.presets.records import Versioning
from replaylint.versioning.compare import Difference, compare
from replaylint.versioning.model import (
    ANY,
    Block,
    Branches,
    DurableCommand,
    Gate,
    Guarded,
    Item,
    Loop,
    Where,
    walk,
)


def differences(base: Block, new: Block, definition: Where, facts: Versioning) -> list[Difference]:
    """What an old run of `base` meets replaying `new`, as the framework matches its history."""
    keyed, apart, tail = facts.keyed, facts.apart, facts.fresh_tail
    retirable = bool(facts.deprecations.sources)
    if not keyed and not apart:
        return compare(base, new, definition, tail, retirable)

    def positional(kind: str) -> bool:
        return kind not in keyed and kind not in apart

    found = compare(_only(base, positional), _only(new, positional), definition, tail, retirable)
    for kind in sorted(apart):
        one = _kind(kind)
        apart_found = compare(_only(base, one), _only(new, one), definition, tail)
        # The gates are judged once, with the main sequence.
        found += [d for d in apart_found if d.code == "V001"]
    return found + _keyed(base, new, keyed)


def _kind(kind: str) -> Callable[[str], bool]:
    return lambda other: other == kind


def _only(block: Block, keep: Callable[[str], bool]) -> Block:
    """The block with only the commands of the kinds kept (the gates and deprecations stay;
    control flow left with no command goes, as the skeleton builder leaves it out)."""
    items: list[Item] = []
    for item in block:
        if isinstance(item, DurableCommand):
            if keep(item.kind):
                items.append(item)
        elif isinstance(item, Gate):
            new, old = _only(item.new, keep), _only(item.old, keep)
            items.append(Gate(item.patch, new, old, item.where))
        elif isinstance(item, Branches):
            arms = tuple(_only(arm, keep) for arm in item.arms)
            if any(arms):
                items.append(Branches(arms, item.where))
        elif isinstance(item, Loop):
            body = _only(item.body, keep)
            if body:
                items.append(Loop(body, item.where))
        elif isinstance(item, Guarded):
            items += _guarded(item, keep)
        else:
            items.append(item)
    return tuple(items)


def _guarded(item: Guarded, keep: Callable[[str], bool]) -> list[Item]:
    body = _only(item.body, keep)
    handlers = tuple(_only(h, keep) for h in item.handlers)
    final = _only(item.final, keep)
    if not any(handlers) and not final:
        return list(body)
    return [Guarded(body, handlers, final, item.where)]


def _keyed(base: Block, new: Block, kinds: frozenset[str]) -> list[Difference]:
    """Commands found by their key: added, removed and reordered keys are silent (a new key runs
    when it is reached, an old one is no longer asked for); a key that now names another kind
    of command, or the same work under a new key (a renamed step: a run that did it does it
    again), is reported on the new command. A key chosen at run time is not judged."""
    old = [c for c in _commands(base) if c.kind in kinds and c.target not in ("", ANY)]
    now = [c for c in _commands(new) if c.kind in kinds and c.target not in ("", ANY)]
    by_key: dict[str, DurableCommand] = {}
    for command in old:
        by_key.setdefault(command.target, command)
    kept = {c.target for c in now}
    gone = [c for c in old if c.target not in kept]
    found: list[Difference] = []
    for command in now:
        was = by_key.get(command.target)
        if was is None and command.work:
            was = next((g for g in gone if (g.kind, g.work) == (command.kind, command.work)), None)
            if was is not None:
                gone.remove(was)
        if was is not None and (was.kind, was.target) != (command.kind, command.target):
            detail = f"was: {was.describe()}, now: {command.describe()}"
            found.append(Difference("V001", command.where, detail))
    return found


def _commands(block: Block) -> list[DurableCommand]:
    return [item for item in walk(block) if isinstance(item, DurableCommand)]


__all__ = ["differences"]
