"""Two skeletons of one workflow entry compared as an old run replays the new code: where it
would first take a different durable command (ADK-V001), or where a gate it depends on went
away (ADK-V003)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import NamedTuple

from replaylint.versioning.model import (
    ANY,
    Block,
    DurableCommand,
    Gate,
    Guarded,
    Item,
    Loop,
    Where,
    blocks_of,
    first_command,
    first_of,
    walk,
)
from replaylint.versioning.replayed import (
    End,
    RemovedGate,
    RenamedGate,
    continues_as_new,
    deprecated,
    gate_ids,
    loosened,
    prepare_base,
    prepare_new,
    renamed_gates,
    signature,
)

ADDED, REMOVED, CHANGED = "added", "removed", "changed"
_UNRETIRED = "removed without deprecate_patch"
_IN_USE = "removed while runs in flight may still replay through it"


@dataclass(frozen=True)
class Difference:
    """What a replay of an old run meets at `where` in the new code."""

    code: str  # "V001" or "V003"
    where: Where
    detail: str  # the message's text between its parentheses
    at_statement: bool = False  # reported on the first line of the statement holding `where`


class Next(NamedTuple):
    """The command a run meets after a block, on each side (a `def` line's empty command
    where the workflow ends): what a message names when a block's own commands run out."""

    old: DurableCommand
    new: DurableCommand


def compare(
    base: Block, new: Block, definition: Where, fresh_tail: bool = False, retirable: bool = True
) -> list[Difference]:
    """The differences an old run meets replaying `new`; `definition` is the entry's def line,
    where a removal with nothing after it is reported. `fresh_tail`: what is added after every
    command of the base is new work for a run in flight (its history ends before it);
    `retirable`: the framework has a call that retires a gate (deprecate_patch)."""
    base_gates, new_gates = gate_ids(base), gate_ids(new)
    retired = deprecated(new) - new_gates
    renamed = renamed_gates(base, new, base_gates, new_gates)
    old = prepare_base(
        base, new_gates | retired | set(renamed.values()), retired, continues_as_new(new)
    )
    current = prepare_new(new, base_gates, renamed)
    # A kind whose target either side chooses at run time is compared by kind alone.
    loose = {
        c.kind
        for b in (old, current)
        for c in walk(b)
        if isinstance(c, DurableCommand) and c.target == ANY
    }
    if loose:
        old, current = loosened(old, loose), loosened(current, loose)
    ends = DurableCommand("", "", definition)
    found = _block(old, current, Next(ends, ends), fresh_tail)
    if retirable:
        return found
    # Nothing retires a gate: removing it is early while any run may still replay through it.
    return [
        dataclasses.replace(d, detail=d.detail.replace(_UNRETIRED, _IN_USE))
        if d.code == "V003"
        else d
        for d in found
    ]


# ---------------------------------------------------------------- alignment


def _block(base: Block, new: Block, after: Next, tail: bool = False) -> list[Difference]:
    """The first difference of a sequence (a run that meets it goes no further), and those of
    the alternatives before it. A replay walks both from the start, so the common prefix is
    matched first; only where they part is the rest aligned, to tell an addition from a
    removal or a change. `tail`: nothing of the base follows this block, so what the new code
    adds after its last item is fresh work (where the framework says so)."""
    start = 0
    while start < min(len(base), len(new)) and _key(base[start]) == _key(new[start]):
        last = tail and start == len(base) - 1
        found = _item(base[start], new[start], _following(base, new, start + 1, after), last)
        if found:
            return found
        start += 1
    old_rest, new_rest = base[start:], new[start:]
    if not old_rest and (tail or not new_rest):
        return []
    keys = ([_key(i) for i in old_rest], [_key(i) for i in new_rest])
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, *keys, autojunk=False).get_opcodes():
        if i1 < len(old_rest) and isinstance(old_rest[i1], End):
            return []  # the base's run ended here: nothing from here on is in its history
        if tag == "insert" and tail and i1 == len(old_rest):
            return []  # added after everything of the base: fresh work
        if tag == "equal" or (tag == "replace" and _alike(old_rest[i1:i2], new_rest[j1:j2])):
            # The same commands (their arguments aside, which only told them apart).
            for offset in range(i2 - i1):
                last = tail and i1 + offset == len(old_rest) - 1
                place = _following(old_rest, new_rest, (i1 + offset + 1, j1 + offset + 1), after)
                found = _item(old_rest[i1 + offset], new_rest[j1 + offset], place, last)
                if found:
                    return found
            continue
        was = _first(old_rest[i1:] if i1 == i2 else old_rest[i1:i2]) or after.old
        now_after = _next_place(new_rest, j2, after.new)
        return _gap(old_rest[i1:i2], new_rest[j1:j2], was, now_after)
    return []


def _following(base: Block, new: Block, start: int | tuple[int, int], after: Next) -> Next:
    """What a run meets after the items before `start` (one index, or one per side)."""
    old_start, new_start = start if isinstance(start, tuple) else (start, start)
    return Next(_next_place(base, old_start, after.old), _next_place(new, new_start, after.new))


def _key(item: object) -> tuple:
    """What aligns two items: the signature, and the code of a command's arguments where the
    framework gives it (two interrupts with different questions are told apart)."""
    return (signature(item), item.work if isinstance(item, DurableCommand) else "")


def _alike(old: Block, new: Block) -> bool:
    return len(old) == len(new) and all(
        signature(a) == signature(b) for a, b in zip(old, new, strict=True)
    )


def _item(base: Item, new: Item, after: Next, tail: bool) -> list[Difference]:
    if isinstance(new, RenamedGate):
        detail = f"was: patch {new.gate.patch}, now: patch {new.was}"
        return [Difference("V003", new.where, detail)]
    if isinstance(base, Gate) and isinstance(new, Gate):
        # A gate that existed at the base: runs took either branch, and both replay.
        return _block(base.new, new.new, after, tail) + _block(base.old, new.old, after, tail)
    found: list[Difference] = []
    ends = _ends(new, tail)
    paired = _paired_blocks(base, new)
    for index, ((old_block, new_block), next_one) in enumerate(
        zip(paired, _afters(base, new, after), strict=True)
    ):
        found += _block(old_block, new_block, next_one, index < len(ends) and ends[index])
    return found


def _afters(base: Item, new: Item, after: Next) -> list[Next]:
    """For each pair of blocks of two items, what a run meets when it leaves the block: a
    loop's next turn, a try's final block, else what follows the item."""
    width = max(len(blocks_of(base)), len(blocks_of(new)))
    if isinstance(base, Loop) and isinstance(new, Loop):
        return [Next(first_command(base.body) or after.old, first_command(new.body) or after.new)]
    if isinstance(base, Guarded) and isinstance(new, Guarded):
        final = Next(first_command(base.final) or after.old, first_command(new.final) or after.new)
        return [final] * (width - 1) + [after]
    return [after] * width


def _ends(item: Item, tail: bool) -> list[bool]:
    """For each block of an item: does nothing of its run follow it (an arm of the last
    branches, a try's final block; never a loop's body, whose next turn follows it)?"""
    if isinstance(item, Guarded):
        return [False] * (1 + len(item.handlers)) + [tail]
    return [tail and not isinstance(item, Loop)] * len(blocks_of(item))


def _paired_blocks(base: Item, new: Item) -> list[tuple[Block, Block]]:
    old_blocks, new_blocks = blocks_of(base), blocks_of(new)
    width = max(len(old_blocks), len(new_blocks))
    padded_old = old_blocks + ((),) * (width - len(old_blocks))
    padded_new = new_blocks + ((),) * (width - len(new_blocks))
    return list(zip(padded_old, padded_new, strict=True))


def _gap(
    removed: tuple, added: tuple, was: DurableCommand, after: DurableCommand
) -> list[Difference]:
    """The difference where the sequences part: a removed gate (V003), else V001 on the first
    differing command of the new code (after a removal, the first command after the gap). A
    run that meets the same command either way (the next turn of a loop is what the removed
    command was) meets no difference here."""
    if removed and isinstance(removed[0], RemovedGate):
        patch = removed[0].gate.patch
        where = _place(added[0]) if added else after.where
        detail = f"patch {patch} {_UNRETIRED}"
        return [Difference("V003", where, detail, at_statement=True)]
    now = _first(added) or after
    if _key(now) == _key(was) and now.kind:
        return []
    return [Difference("V001", now.where, f"was: {_told(was)}, now: {_told(now)}")]


def _first(items: tuple) -> DurableCommand | None:
    for item in items:
        found = _first_any(item)
        if found is not None:
            return found
    return None


def _first_any(item: object) -> DurableCommand | None:
    if isinstance(item, (RemovedGate, RenamedGate)):
        return first_of(item.gate)
    return first_of(item)  # type: ignore[arg-type]


def _place(item: object) -> Where:
    command = _first_any(item)
    return command.where if command is not None else item.where  # type: ignore[attr-defined]


def _next_place(block: Block, start: int, after: DurableCommand) -> DurableCommand:
    """The first command at or after `start`, else what follows the block (at the top, the
    entry's def line, standing for the workflow's end)."""
    command = _first(tuple(block[start:]))
    return command if command is not None else after


def _told(command: DurableCommand) -> str:
    if not command.kind:
        return "nothing (the workflow ends)"
    return command.describe()


__all__ = ["Difference", "compare", "first_command"]
