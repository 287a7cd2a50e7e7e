"""Functions a framework replays only when they reach one of its suspending calls (records'
`[suspends]`): which of them do, once every module is read, and for a prefix framework how far
each is replayed, since what follows its last suspending call runs once."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

import libcst as cst

from replaylint.graph.bodies import Body, statements_in
from replaylint.presets.frameworks import Frameworks
from replaylint.resolve.model import FunctionInfo, HelperCall, ModuleInfo

_LOOPS = (cst.For, cst.While)
_Caller = tuple[FunctionInfo, HelperCall]  # a function calling another, and the call
_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def settle(modules: Iterable[ModuleInfo], frameworks: Frameworks) -> list[FunctionInfo]:
    """Make entries of the functions whose framework replays them because they reach one of its
    suspending calls (directly or through what they call); the ones made, in module order."""
    functions = [f for module in modules for f in module.functions]
    reach = _reaching(functions)
    made = [f for f in functions if _promote(f, frameworks, reach)]
    callers = _callers(functions)
    replayed = _reached_from_entries(functions)
    for function in functions:
        # A helper that suspends (`ask_human` calling interrupt()) runs what follows its last
        # suspend once too, when each replayed call of it is its caller's last suspending
        # statement, up to an entry; a caller that suspends again after it, or calls it again
        # in a loop, runs the helper again, whole, on its next replay.
        if function.entry is None and not function.dropped:
            for name in reach.get(id(function), ()):
                preset = frameworks.get(name)
                if preset is None or not preset.suspends.prefix:
                    continue
                if _tail_once(function, name, reach, callers, replayed):
                    points = _points(function, name, reach)
                    function.dropped = after_last_suspend(function, points)
    return made


def _callers(functions: list[FunctionInfo]) -> Callable[[FunctionInfo], list[_Caller]]:
    found: dict[int, list[_Caller]] = {}
    for function in functions:
        for call in function.calls:
            if not call.dead:
                found.setdefault(id(call.target), []).append((function, call))
    return lambda function: found.get(id(function), [])


def _tail_once(
    function: FunctionInfo,
    name: str,
    reach: dict[int, set[str]],
    callers: Callable[[FunctionInfo], list[_Caller]],
    replayed: set[int],
    seen: frozenset[int] = frozenset(),
) -> bool:
    """Does what follows `function`'s last suspending call run once? An entry's does (what calls
    it directly, a script or a test, replays nothing); a helper's, when it is called on a
    replayed path (`replayed`: ids of the entries and what they reach) and each such call is its
    caller's last suspending statement, in no loop or comprehension, in a caller whose own tail
    runs once."""
    if function.entry is not None:
        return True
    if id(function) in seen:
        return False  # recursion: a later turn may suspend again
    seen = seen | {id(function)}
    calls = [(c, call) for c, call in callers(function) if id(c) in replayed]
    if not calls:
        return False
    for caller, call in calls:
        if not isinstance(caller.node, cst.Lambda):  # a lambda's call is all it does
            body = Body(caller)
            statement = call.statement
            if statement is None or id(statement) not in body.order:
                return False
            if _again(body, statement, call.node):
                return False
            if _end(body, statement) < _last(body, _points(caller, name, reach)):
                return False
        if not _tail_once(caller, name, reach, callers, replayed, seen):
            return False
    return True


def _reached_from_entries(functions: list[FunctionInfo]) -> set[int]:
    """ids of the entries and of every function their calls reach."""
    queue = [f for f in functions if f.entry is not None]
    found = {id(f) for f in queue}
    while queue:
        function = queue.pop()
        for call in function.calls:
            if not call.dead and id(call.target) not in found:
                found.add(id(call.target))
                queue.append(call.target)
    return found


def _again(body: Body, statement: cst.CSTNode, node: cst.CSTNode) -> bool:
    """Is this call made again in the same run: in a loop, a `while` test, a comprehension?"""
    if isinstance(statement, cst.While) or any(
        isinstance(loop, _LOOPS) for loop in body.loops_around(statement)
    ):
        return True
    current = body.parents.get(id(node))
    while current is not None and current is not statement:
        if isinstance(current, _COMPREHENSIONS):
            return True
        current = body.parents.get(id(current))
    return False


def _promote(function: FunctionInfo, frameworks: Frameworks, reach: dict[int, set[str]]) -> bool:
    """Make `function` an entry when its framework replays it because it suspends."""
    name = function.suspending
    if name is None or function.entry is not None or function.exempt:
        return False
    preset = frameworks.get(name)
    if preset is None or name not in reach.get(id(function), ()):
        return False  # never stops the run: it runs once (a node), or is recorded (a leaf)
    function.entry = name
    function.unit = function.activity is not None
    function.activity = None  # a recorded task that suspends is replayed instead
    if name not in function.module.frameworks:
        function.module.frameworks.append(name)
    if preset.suspends.prefix:
        function.dropped = after_last_suspend(function, _points(function, name, reach))
    return True


def _reaching(functions: list[FunctionInfo]) -> dict[int, set[str]]:
    """id(function) -> the frameworks one of whose suspending calls it reaches."""
    callers: dict[int, list[FunctionInfo]] = {}
    for function in functions:
        for call in function.calls:
            if not call.dead:
                callers.setdefault(id(call.target), []).append(function)
    reach: dict[int, set[str]] = {}
    queue: deque[tuple[FunctionInfo, str]] = deque()
    for function in functions:
        for _, _, name in function.suspends:
            found = reach.setdefault(id(function), set())
            if name not in found:
                found.add(name)
                queue.append((function, name))
    while queue:
        callee, name = queue.popleft()
        for caller in callers.get(id(callee), ()):
            found = reach.setdefault(id(caller), set())
            if name not in found:
                found.add(name)
                queue.append((caller, name))
    return reach


def _points(
    function: FunctionInfo, name: str, reach: dict[int, set[str]]
) -> list[cst.CSTNode | None]:
    """The statements of `function` that suspend: a suspending call, or a call of what reaches one."""
    points = [statement for _, statement, framework in function.suspends if framework == name]
    points += [
        call.statement
        for call in function.calls
        if not call.dead and name in reach.get(id(call.target), ())
    ]
    return points


def after_last_suspend(function: FunctionInfo, points: list[cst.CSTNode | None]) -> frozenset[int]:
    """ids of the statements that run only after the last of `points` (statements in source
    order): later in the body, in no loop around a suspending statement, whose next turn
    would suspend again, and in no `finally` of a `try` holding one (the suspension unwinds
    through it: LangGraph's GraphInterrupt, Inngest's ResponseInterrupt)."""
    body = Body(function)
    last = _last(body, points)
    if last < 0:
        return frozenset()
    unwound = _finally_around(body, points)
    return frozenset(
        key for key, index in body.order.items() if index > last and key not in unwound
    )


def _last(body: Body, points: list[cst.CSTNode | None]) -> int:
    """Where the last suspending statement ends, a loop around it included (-1: none)."""
    ends = [_end(body, p) for p in points if p is not None and id(p) in body.order]
    return max(ends, default=-1)


def _end(body: Body, point: cst.CSTNode) -> int:
    loops = [loop for loop in body.loops_around(point) if isinstance(loop, _LOOPS)]
    if isinstance(point, cst.While):
        loops.insert(0, point)  # a step in its test: every turn takes one
    return _last_inside(body, loops[-1]) if loops else body.order[id(point)]


def _finally_around(body: Body, points: list[cst.CSTNode | None]) -> set[int]:
    """ids of the statements of every `finally` block whose `try` holds one of `points`."""
    found: set[int] = set()
    for point in points:
        if point is None:
            continue
        parent = body.parents.get(id(point))
        while parent is not None:
            final = getattr(parent, "finalbody", None)
            if isinstance(parent, (cst.Try, cst.TryStar)) and final is not None:
                if not body.inside(point, final):
                    found |= {id(node) for node in statements_in(final)}
            parent = body.parents.get(id(parent))
    return found


def _last_inside(body: Body, ancestor: cst.CSTNode) -> int:
    """The position of the last statement inside `ancestor` (a loop), in source order."""
    last = body.order.get(id(ancestor), -1)
    start = last
    for key, index in body.order.items():  # in source order: a loop's statements follow it
        if index <= start:
            continue
        parent = body.parents.get(key)
        while parent is not None and parent is not ancestor:
            parent = body.parents.get(id(parent))
        if parent is not ancestor:
            break
        last = index
    return last
