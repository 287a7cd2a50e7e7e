"""Each side's skeleton as an old run replays it: gates resolved by what the base had, gates
removed or renamed marked, deprecations dropped, and in the base, where a run ends (after a
continue-as-new nothing is in flight), so what follows is never met by a run in flight."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
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
    walk,
)

# The command kind every record gives continue-as-new: it closes the run and starts a fresh one,
# so a run in flight has never recorded it, nor anything after it.
ENDS_RUN = frozenset({"continue-as-new"})


@dataclass(frozen=True)
class RemovedGate:
    """A gate of the base that the new code dropped without deprecating it first."""

    gate: Gate

    @property
    def where(self) -> Where:
        return self.gate.where


@dataclass(frozen=True)
class RenamedGate:
    """A gate of the new code that is a base gate under another id."""

    gate: Gate  # the new gate, relabelled with the base's id
    was: str

    @property
    def where(self) -> Where:
        return self.gate.where


@dataclass(frozen=True)
class End:
    """Where a run of the base ends (its continue-as-new): no run in flight has recorded it or
    anything after it, so whatever the new code does from here on runs fresh."""

    where: Where


def gate_ids(block: Block) -> set[str]:
    return {item.patch for item in walk(block) if isinstance(item, Gate)}


def deprecated(block: Block) -> set[str]:
    return {item.patch for item in walk(block) if isinstance(item, Deprecation)}


def renamed_gates(
    base: Block, new: Block, base_gates: set[str], new_gates: set[str]
) -> dict[str, str]:
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
    return tuple((signature(item), *map(_shape, blocks_of(item))) for item in block)


def signature(item: object) -> tuple:
    """What an item is, as alignment compares it (a command by its kind and target)."""
    if isinstance(item, DurableCommand):
        return ("command", item.kind, item.target)
    if isinstance(item, Gate):
        return ("gate", item.patch)
    if isinstance(item, RenamedGate):
        return ("gate", item.gate.patch)
    if isinstance(item, RemovedGate):
        return ("removed gate", item.gate.patch, id(item))
    return (type(item).__name__,)


def continues_as_new(block: Block) -> bool:
    return any(isinstance(c, DurableCommand) and c.kind in ENDS_RUN for c in walk(block))


def prepare_base(block: Block, kept: set[str], retired: set[str], ends: bool = True) -> Block:
    """The base as a run of it replays: a gate the new code deprecated is its new branch (the
    runs that took the old one are gone by the deprecation's promise); one it dropped without
    that is a removed gate; deprecation calls are invisible to replay; with `ends`, a command
    that ends the run is its end, and nothing after an item that always ends the run is kept.
    Without it (the new code never continues as new), continue-as-new is a command like any
    other: a run the base continued is replayed whole (a query of a closed run, the framework's
    replayer over a stored history) and would complete where it had continued."""
    items: list[object] = []
    for item in block:
        if isinstance(item, Deprecation):
            continue
        if ends and isinstance(item, DurableCommand) and item.kind in ENDS_RUN:
            items.append(End(item.where))
            break
        if isinstance(item, Gate) and item.patch in retired:
            items.extend(prepare_base(item.new, kept, retired, ends))
        elif isinstance(item, Gate):
            new = prepare_base(item.new, kept, retired, ends)
            old = prepare_base(item.old, kept, retired, ends)
            gate = Gate(item.patch, new, old, item.where)
            items.append(gate if item.patch in kept else RemovedGate(gate))
        else:
            items.append(rebuilt(item, lambda b: prepare_base(b, kept, retired, ends)))
        if _ends(items[-1]):
            # Every way through it ends the run (a loop each turn of which continues as new).
            items.append(End(cast(Item, items[-1]).where))
            break
    return cast(Block, tuple(items))


def _ends(item: object) -> bool:
    """Does every run that goes through this item end in it?"""
    if isinstance(item, End):
        return False  # it is the end itself, already last
    if isinstance(item, Loop):
        return _block_ends(item.body)
    if isinstance(item, Branches):
        return all(arm and _block_ends(arm) for arm in item.arms)
    if isinstance(item, (Gate, RemovedGate)):
        gate = item.gate if isinstance(item, RemovedGate) else item
        return _block_ends(gate.new) and _block_ends(gate.old)
    if isinstance(item, Guarded):
        through = _block_ends(item.body) and all(_block_ends(h) for h in item.handlers)
        return through or _block_ends(item.final)
    return False


def _block_ends(block: Block) -> bool:
    return any(isinstance(item, End) for item in cast(tuple[object, ...], block))


def prepare_new(block: Block, base_gates: set[str], renamed: dict[str, str]) -> Block:
    """The new code as an old run replays it: a gate the base did not have answers "not
    patched", so the run takes its old branch; deprecation calls are invisible to replay."""
    items: list[object] = []
    for item in block:
        if isinstance(item, Deprecation):
            continue
        if isinstance(item, Gate):
            new = prepare_new(item.new, base_gates, renamed)
            old = prepare_new(item.old, base_gates, renamed)
            if item.patch in renamed:
                gate = Gate(renamed[item.patch], new, old, item.where)
                items.append(RenamedGate(gate, item.patch))
            elif item.patch in base_gates:
                items.append(Gate(item.patch, new, old, item.where))
            else:
                items.extend(old)
            continue
        items.append(rebuilt(item, lambda b: prepare_new(b, base_gates, renamed)))
    return cast(Block, tuple(items))


def loosened(block: Block, kinds: set[str]) -> Block:
    """The block with the targets of these kinds chosen at run time: a branch that chooses the
    target of one of them is that one command."""
    items: list[object] = []
    # Removed and renamed gates ride along as items of the prepared blocks.
    for item in cast(tuple[object, ...], block):
        if isinstance(item, DurableCommand) and item.kind in kinds:
            items.append(dataclasses.replace(item, target=ANY))
        elif isinstance(item, Branches) and item.chooses in kinds:
            first = next(c for arm in item.arms for c in arm if isinstance(c, DurableCommand))
            items.append(dataclasses.replace(first, target=ANY))
        elif isinstance(item, Gate):
            new, old = loosened(item.new, kinds), loosened(item.old, kinds)
            items.append(Gate(item.patch, new, old, item.where))
        elif isinstance(item, (RemovedGate, RenamedGate)):
            gate = item.gate
            new, old = loosened(gate.new, kinds), loosened(gate.old, kinds)
            items.append(dataclasses.replace(item, gate=Gate(gate.patch, new, old, gate.where)))
        else:
            items.append(rebuilt(cast(Item, item), lambda b: loosened(b, kinds)))
    return cast(Block, tuple(items))


def rebuilt(item: Item, prepare: Callable[[Block], Block]) -> Item:
    """A branch, loop or try with each of its blocks prepared; any other item as it is."""
    if isinstance(item, Branches):
        return Branches(tuple(prepare(arm) for arm in item.arms), item.where, item.chooses)
    if isinstance(item, Loop):
        return Loop(prepare(item.body), item.where)
    if isinstance(item, Guarded):
        handlers = tuple(prepare(h) for h in item.handlers)
        return Guarded(prepare(item.body), handlers, prepare(item.final), item.where)
    return item
