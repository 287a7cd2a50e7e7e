"""Two skeletons of one workflow entry compared as an old run replays the new code: where it
would first take a different durable command (ADK-V001), or where a gate it depends on went
away (ADK-V003)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import cast

from replaylint.versioning.model import (
    ANY,
    Block,
    Branches,
    Deprecation,
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


@dataclass(frozen=True)
class _RemovedGate:
    """A gate of the base that the new code dropped without deprecating it first."""

    gate: Gate

    @property
    def where(self) -> Where:
        return self.gate.where


@dataclass(frozen=True)
class _RenamedGate:
    """A gate of the new code that is a base gate under another id."""

    gate: Gate  # the new gate, relabelled with the base's id
    was: str

    @property
    def where(self) -> Where:
        return self.gate.where


def compare(
    base: Block, new: Block, definition: Where, fresh_tail: bool = False, retirable: bool = True
) -> list[Difference]:
    """The differences an old run meets replaying `new`; `definition` is the entry's def line,
    where a removal with nothing after it is reported. `fresh_tail`: what is added after every
    command of the base is new work for a run in flight (its history ends before it);
    `retirable`: the framework has a call that retires a gate (deprecate_patch)."""
    base_gates, new_gates = _gate_ids(base), _gate_ids(new)
    retired = _deprecated(new) - new_gates
    renamed = _renamed(base, new, base_gates, new_gates)
    old = _prepare_base(base, new_gates | retired | set(renamed.values()), retired)
    current = _prepare_new(new, base_gates, renamed)
    # A kind whose target either side chooses at run time is compared by kind alone.
    loose = {
        c.kind
        for b in (old, current)
        for c in walk(b)
        if isinstance(c, DurableCommand) and c.target == ANY
    }
    if loose:
        old, current = _loosened(old, loose), _loosened(current, loose)
    found = _block(old, current, DurableCommand("", "", definition), fresh_tail)
    if retirable:
        return found
    # Nothing retires a gate: removing it is early while any run may still replay through it.
    return [
        dataclasses.replace(d, detail=d.detail.replace(_UNRETIRED, _IN_USE))
        if d.code == "V003"
        else d
        for d in found
    ]


# ---------------------------------------------------------------- what each side replays


def _gate_ids(block: Block) -> set[str]:
    return {item.patch for item in walk(block) if isinstance(item, Gate)}


def _deprecated(block: Block) -> set[str]:
    return {item.patch for item in walk(block) if isinstance(item, Deprecation)}


def _renamed(base: Block, new: Block, base_gates: set[str], new_gates: set[str]) -> dict[str, str]:
    """new id -> base id, for a gate whose id alone changed (both branches the same)."""
    gone = [g for g in walk(base) if isinstance(g, Gate) and g.patch not in new_gates]
    added = [g for g in walk(new) if isinstance(g, Gate) and g.patch not in base_gates]
    found: dict[str, str] = {}
    for gate in added:
        for old in gone:
            same = _shape(old.new) == _shape(gate.new) and _shape(old.old) == _shape(gate.old)
            if same and old.patch not in found.values():
                found[gate.patch] = old.patch
                break
    return found


def _shape(block: Block) -> tuple:
    return tuple((_signature(item), *map(_shape, blocks_of(item))) for item in block)


def _prepare_base(block: Block, kept: set[str], retired: set[str]) -> Block:
    """The base as a run of it replays: a gate the new code deprecated is its new branch (the
    runs that took the old one are gone by the deprecation's promise); one it dropped without
    that is a removed gate; deprecation calls are invisible to replay."""
    items: list[Item] = []
    for item in block:
        if isinstance(item, Deprecation):
            continue
        if isinstance(item, Gate):
            if item.patch in retired:
                items.extend(_prepare_base(item.new, kept, retired))
                continue
            new, old = (
                _prepare_base(item.new, kept, retired),
                _prepare_base(item.old, kept, retired),
            )
            gate = Gate(item.patch, new, old, item.where)
            items.append(gate if item.patch in kept else _RemovedGate(gate))  # type: ignore[arg-type]
            continue
        items.append(_rebuilt(item, lambda b: _prepare_base(b, kept, retired)))
    return tuple(items)


def _prepare_new(block: Block, base_gates: set[str], renamed: dict[str, str]) -> Block:
    """The new code as an old run replays it: a gate the base did not have answers "not
    patched", so the run takes its old branch; deprecation calls are invisible to replay."""
    items: list[Item] = []
    for item in block:
        if isinstance(item, Deprecation):
            continue
        if isinstance(item, Gate):
            new = _prepare_new(item.new, base_gates, renamed)
            old = _prepare_new(item.old, base_gates, renamed)
            if item.patch in renamed:
                gate = Gate(renamed[item.patch], new, old, item.where)
                items.append(_RenamedGate(gate, item.patch))  # type: ignore[arg-type]
            elif item.patch in base_gates:
                items.append(Gate(item.patch, new, old, item.where))
            else:
                items.extend(old)
            continue
        items.append(_rebuilt(item, lambda b: _prepare_new(b, base_gates, renamed)))
    return tuple(items)


def _loosened(block: Block, kinds: set[str]) -> Block:
    items: list[object] = []
    # Removed and renamed gates ride along as items of the prepared blocks.
    for item in cast(tuple[object, ...], block):
        if isinstance(item, DurableCommand) and item.kind in kinds:
            items.append(dataclasses.replace(item, target=ANY))
        elif isinstance(item, Gate):
            new, old = _loosened(item.new, kinds), _loosened(item.old, kinds)
            items.append(Gate(item.patch, new, old, item.where))
        elif isinstance(item, (_RemovedGate, _RenamedGate)):
            gate = item.gate
            new, old = _loosened(gate.new, kinds), _loosened(gate.old, kinds)
            items.append(dataclasses.replace(item, gate=Gate(gate.patch, new, old, gate.where)))
        else:
            items.append(_rebuilt(cast(Item, item), lambda b: _loosened(b, kinds)))
    return cast(Block, tuple(items))


def _rebuilt(item: Item, prepare: Callable[[Block], Block]) -> Item:
    if isinstance(item, Branches):
        return Branches(tuple(prepare(arm) for arm in item.arms), item.where)
    if isinstance(item, Loop):
        return Loop(prepare(item.body), item.where)
    if isinstance(item, Guarded):
        handlers = tuple(prepare(h) for h in item.handlers)
        return Guarded(prepare(item.body), handlers, prepare(item.final), item.where)
    return item


# ---------------------------------------------------------------- alignment


def _signature(item: object) -> tuple:
    if isinstance(item, DurableCommand):
        return ("command", item.kind, item.target)
    if isinstance(item, Gate):
        return ("gate", item.patch)
    if isinstance(item, _RenamedGate):
        return ("gate", item.gate.patch)
    if isinstance(item, _RemovedGate):
        return ("removed gate", item.gate.patch, id(item))
    return (type(item).__name__,)


def _block(base: Block, new: Block, after: DurableCommand, tail: bool = False) -> list[Difference]:
    """The first difference of a sequence (a run that meets it goes no further), and those of
    the alternatives before it. A replay walks both from the start, so the common prefix is
    matched first; only where they part is the rest aligned, to tell an addition from a
    removal or a change. `tail`: nothing of the base follows this block, so what the new code
    adds after its last item is fresh work (where the framework says so)."""
    start = 0
    while start < min(len(base), len(new)) and _key(base[start]) == _key(new[start]):
        last = tail and start == len(base) - 1
        found = _item(base[start], new[start], _next_place(new, start + 1, after), last)
        if found:
            return found
        start += 1
    old_rest, new_rest = base[start:], new[start:]
    if not old_rest and (tail or not new_rest):
        return []
    keys = ([_key(i) for i in old_rest], [_key(i) for i in new_rest])
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, *keys, autojunk=False).get_opcodes():
        if tag == "insert" and tail and i1 == len(old_rest):
            return []  # added after everything of the base: fresh work
        if tag == "equal" or (tag == "replace" and _alike(old_rest[i1:i2], new_rest[j1:j2])):
            # The same commands (their arguments aside, which only told them apart).
            for offset in range(i2 - i1):
                last = tail and i1 + offset == len(old_rest) - 1
                place = _next_place(new_rest, j1 + offset + 1, after)
                found = _item(old_rest[i1 + offset], new_rest[j1 + offset], place, last)
                if found:
                    return found
            continue
        was = _first(tuple(old_rest[i1:])) if i1 == i2 else _first(tuple(old_rest[i1:i2]))
        return [_gap(old_rest[i1:i2], new_rest[j1:j2], was, _next_place(new_rest, j2, after))]
    return []


def _key(item: object) -> tuple:
    """What aligns two items: the signature, and the code of a command's arguments where the
    framework gives it (two interrupts with different questions are told apart)."""
    return (_signature(item), item.work if isinstance(item, DurableCommand) else "")


def _alike(old: Block, new: Block) -> bool:
    return len(old) == len(new) and all(
        _signature(a) == _signature(b) for a, b in zip(old, new, strict=True)
    )


def _item(base: Item, new: Item, after: DurableCommand, tail: bool) -> list[Difference]:
    if isinstance(new, _RenamedGate):
        detail = f"was: patch {new.gate.patch}, now: patch {new.was}"
        return [Difference("V003", new.where, detail)]
    if isinstance(base, Gate) and isinstance(new, Gate):
        # A gate that existed at the base: runs took either branch, and both replay.
        return _block(base.new, new.new, after, tail) + _block(base.old, new.old, after, tail)
    found: list[Difference] = []
    ends = _ends(new, tail)
    for index, (old_block, new_block) in enumerate(_paired_blocks(base, new)):
        found += _block(old_block, new_block, after, index < len(ends) and ends[index])
    return found


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
    removed: tuple, added: tuple, was: DurableCommand | None, after: DurableCommand
) -> Difference:
    """The difference where the sequences part: a removed gate (V003), else V001 on the first
    differing command of the new code (after a removal, the first command after the gap)."""
    if removed and isinstance(removed[0], _RemovedGate):
        patch = removed[0].gate.patch
        where = _place(added[0]) if added else after.where
        detail = f"patch {patch} {_UNRETIRED}"
        return Difference("V003", where, detail, at_statement=True)
    now = _first(added)
    if now is None:
        return Difference("V001", after.where, f"was: {_told(was)}, now: {_told(after)}")
    return Difference("V001", now.where, f"was: {_told(was)}, now: {_told(now)}")


def _first(items: tuple) -> DurableCommand | None:
    for item in items:
        found = _first_any(item)
        if found is not None:
            return found
    return None


def _first_any(item: object) -> DurableCommand | None:
    if isinstance(item, (_RemovedGate, _RenamedGate)):
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


def _told(command: DurableCommand | None) -> str:
    if command is None or not command.kind:
        return "nothing (the workflow ends)"
    return command.describe()


__all__ = ["Difference", "compare", "first_command"]
