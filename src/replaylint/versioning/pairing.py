"""Which workflow of the base each workflow of the new code continues: by registered name (a
moved file keeps its workflow), else in place (a rename); what is left of the base was removed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from replaylint.versioning.model import Handler, Workflow


@dataclass(frozen=True)
class Pairs:
    same: list[tuple[Workflow, Workflow]]  # (base, new) under one registered name
    renamed: list[tuple[Workflow, Workflow]]  # (base, new): the same entry under a new name
    removed: list[Workflow]  # base workflows nothing continues


def pair(
    base: list[Workflow], new: list[Workflow], scope: Callable[[Workflow], str] = lambda w: ""
) -> Pairs:
    """`scope`: the application a workflow belongs to (its nearest project folder): a name
    another application of the repository still registers is no successor."""
    left_base = list(base)
    left_new = list(new)
    names = {_key(w) for w in new}
    same: list[tuple[Workflow, Workflow]] = []

    def take(match: Callable[[Workflow, Workflow], bool]) -> list[tuple[Workflow, Workflow]]:
        found = []
        for old in list(left_base):
            candidates = [w for w in left_new if match(old, w)]
            if len(candidates) == 1:
                found.append((old, candidates[0]))
                left_base.remove(old)
                left_new.remove(candidates[0])
        return found

    # The same name: the same definition first (a module may hold several versions of one
    # name), then in the same module, then anywhere in its application (a moved or renamed
    # file).
    same += take(
        lambda a, b: _key(a) == _key(b) and (a.module, a.qualname) == (b.module, b.qualname)
    )
    same += take(lambda a, b: _key(a) == _key(b) and a.module == b.module)
    same += take(lambda a, b: _key(a) == _key(b) and scope(a) == scope(b))
    # In place under a new name: the same definition, the same body, or the one entry of its
    # module left on both sides.
    renamed: list[tuple[Workflow, Workflow]] = []

    def renamed_when(test: Callable[[Workflow, Workflow], bool]) -> None:
        def match(a: Workflow, b: Workflow) -> bool:
            gone = _key(a) not in names  # no workflow left under the old name
            return a.framework == b.framework and a.name != b.name and gone and test(a, b)

        renamed.extend(take(match))

    renamed_when(lambda a, b: a.module == b.module and a.qualname == b.qualname)
    renamed_when(lambda a, b: a.body == b.body)
    renamed_when(lambda a, b: a.module == b.module and _alone(a, left_base) and _alone(b, left_new))
    # A name still registered somewhere in its application (several definitions of it) has a
    # successor.
    scoped = {(*_key(w), scope(w)) for w in new}
    left_base[:] = [w for w in left_base if (*_key(w), scope(w)) not in scoped]
    return Pairs(same, renamed, left_base)


def _key(workflow: Workflow) -> tuple[str, str]:
    return (workflow.framework, workflow.name)


def _alone(workflow: Workflow, left: list[Workflow]) -> bool:
    return sum(1 for w in left if w.module == workflow.module) == 1


@dataclass(frozen=True)
class HandlerChange:
    old: Handler
    new: Handler | None  # None: removed


def handler_changes(base: Workflow, new: Workflow) -> list[HandlerChange]:
    """Handlers of the base that the new code removed, or renamed (a handler of the same kind
    with the same method, or the same body, or the only one of its kind left on both sides)."""
    names = {(h.kind, h.name) for h in new.handlers}
    gone = [h for h in base.handlers if (h.kind, h.name) not in names]
    old_names = {(h.kind, h.name) for h in base.handlers}
    fresh = [h for h in new.handlers if (h.kind, h.name) not in old_names]
    changes: list[HandlerChange] = []

    def take(old: Handler, new: Handler) -> None:
        changes.append(HandlerChange(old, new))
        gone.remove(old)
        fresh.remove(new)

    for same in (lambda a, b: a.method == b.method, lambda a, b: a.body == b.body):
        for old in list(gone):
            candidates = [h for h in fresh if h.kind == old.kind and same(old, h)]
            if len(candidates) == 1:
                take(old, candidates[0])
    for old in list(gone):
        candidates = [h for h in fresh if h.kind == old.kind]
        if len(candidates) == 1 and sum(1 for g in gone if g.kind == old.kind) == 1:
            take(old, candidates[0])
    changes += [HandlerChange(old, None) for old in gone]
    return changes
