"""The durable step skeleton of a workflow: its commands in order, in the control flow they sit in."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Where:
    """A place in the checked code, as reports show it (lines 1-based, columns 0-based)."""

    path: str
    line: int
    column: int = 0
    end_line: int = 0
    end_column: int = 0
    # The line of the statement the item sits in, in the block being compared (a command a
    # helper issues is placed, there, at the statement that calls the helper).
    statement: int = 0


NOWHERE = Where("", 0)
# A target the code chooses at run time among several (a local bound in each branch): it
# matches any target of its kind, since which one an old run recorded is data.
ANY = "*"


@dataclass(frozen=True)
class DurableCommand:
    """One durable command: what the framework records in history (its kind and target)."""

    kind: str
    target: str
    where: Where = NOWHERE
    # For a command found by its key: the code of what it does besides its key (its other
    # arguments, or a step function's body), which tells a renamed key from new work.
    work: str = field(default="", compare=False)

    def describe(self) -> str:
        target = "(chosen at run time)" if self.target == ANY else self.target
        return f"{self.kind} {target}".strip()


@dataclass(frozen=True)
class Gate:
    """`if patched("id"): <new> else: <old>`: runs started before the patch take `old`."""

    patch: str
    new: Block
    old: Block
    where: Where = NOWHERE  # the gate's call


@dataclass(frozen=True)
class Deprecation:
    """`deprecate_patch("id")`: the gate's release step, tolerated by replay in both directions."""

    patch: str
    where: Where = NOWHERE


@dataclass(frozen=True)
class Branches:
    """Alternatives (if/elif/else, match, a conditional expression): a run takes one of them."""

    arms: tuple[Block, ...]
    where: Where = NOWHERE
    # The kind, when every arm a run can go on through issues one command of it: a target the
    # branch chooses (`if x: run(a) else: run(b)`, `run(a if x else b)`), which compares as one
    # command of that kind wherever the other side chooses its target at run time.
    chooses: str = ""


@dataclass(frozen=True)
class Loop:
    body: Block
    where: Where = NOWHERE


@dataclass(frozen=True)
class Guarded:
    """try: a body whose handlers or final block issue commands of their own."""

    body: Block
    handlers: tuple[Block, ...]
    final: Block
    where: Where = NOWHERE


Item = DurableCommand | Gate | Deprecation | Branches | Loop | Guarded
Block = tuple[Item, ...]


@dataclass(frozen=True)
class Unit:
    """One replayed entry of a workflow: its run, or one of its handlers, with its skeleton."""

    member: str  # "" for the workflow's run; "update approve" for a handler
    where: Where  # its def line
    skeleton: Block


@dataclass(frozen=True)
class Handler:
    """A signal, update or query handler, by the name clients send."""

    kind: str
    name: str
    method: str
    where: Where
    body: str  # the method's code without its decorators: what a renamed handler keeps


@dataclass(frozen=True)
class Workflow:
    """A workflow entry of one version of the code, under its registered name."""

    name: str
    framework: str  # a preset's name, or "runtime"
    qualname: str
    module: str  # the module's path relative to the repository's root
    where: Where  # its class or def line
    units: tuple[Unit, ...] = ()
    handlers: tuple[Handler, ...] = ()
    body: str = field(default="", compare=False)  # its code, to pair a rename in place
    # Runs in flight find it by its name (False: a callable the framework calls from its own
    # workflow, or a recorded unit replayed on its own, found by its place in its caller).
    named: bool = True
    # The file beside its module that the host reads it from (an Azure function's function.json),
    # relative to the repository's root: where that file is gone, the workflow is gone.
    host_file: str = ""
    # The model its own declaration sets ("" for the project's): a Temporal workflow's
    # `versioning_behavior`.
    model: str = field(default="", compare=False)


def first_command(block: Block) -> DurableCommand | None:
    """The first command a run of `block` can issue, in the order written."""
    for item in block:
        found = first_of(item)
        if found is not None:
            return found
    return None


def first_of(item: Item) -> DurableCommand | None:
    if isinstance(item, DurableCommand):
        return item
    if isinstance(item, Gate):
        return first_command(item.new) or first_command(item.old)
    if isinstance(item, Branches):
        return next((c for arm in item.arms if (c := first_command(arm)) is not None), None)
    if isinstance(item, Loop):
        return first_command(item.body)
    if isinstance(item, Guarded):
        blocks = (item.body, *item.handlers, item.final)
        return next((c for b in blocks if (c := first_command(b)) is not None), None)
    return None


def blocks_of(item: Item) -> tuple[Block, ...]:
    """The blocks an item holds: a gate's branches, the arms, a loop's body, a try's parts."""
    if isinstance(item, Gate):
        return (item.new, item.old)
    if isinstance(item, Branches):
        return item.arms
    if isinstance(item, Loop):
        return (item.body,)
    if isinstance(item, Guarded):
        return (item.body, *item.handlers, item.final)
    return ()


def walk(block: Block) -> Iterator[Item]:
    """Every item of a block and of the blocks its items hold, in the order written."""
    for item in block:
        yield item
        for inner in blocks_of(item):
            yield from walk(inner)
