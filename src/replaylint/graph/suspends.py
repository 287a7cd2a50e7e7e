"""Functions a framework replays only when they reach one of its suspending calls (records'
`[suspends]`): which of them do, once every module is read, and for a prefix framework how far
each is replayed, since what follows its last suspending call runs once."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

import libcst as cst

from replaylint.graph.bodies import Body
from replaylint.presets.frameworks import Frameworks
from replaylint.resolve.model import FunctionInfo, ModuleInfo

_LOOPS = (cst.For, cst.While)


def settle(modules: Iterable[ModuleInfo], frameworks: Frameworks) -> list[FunctionInfo]:
    """Make entries of the functions whose framework replays them because they reach one of its
    suspending calls (directly or through what they call); the ones made, in module order."""
    functions = [f for module in modules for f in module.functions]
    reach = _reaching(functions)
    made = [f for f in functions if _promote(f, frameworks, reach)]
    for function in functions:
        # A helper that suspends (`ask_human` calling interrupt()) runs what follows its last
        # suspend once too, whichever node calls it.
        if function.entry is None and not function.dropped:
            for name in reach.get(id(function), ()):
                preset = frameworks.get(name)
                if preset is not None and preset.suspends.prefix:
                    points = _points(function, name, reach)
                    function.dropped = after_last_suspend(function, points)
    return made


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
    order): later in the body, and in no loop around a suspending statement, whose next turn
    would suspend again."""
    body = Body(function)
    last = -1
    for point in points:
        if point is None or id(point) not in body.order:
            continue
        loops = [loop for loop in body.loops_around(point) if isinstance(loop, _LOOPS)]
        end = _last_inside(body, loops[-1]) if loops else body.order[id(point)]
        last = max(last, end)
    if last < 0:
        return frozenset()
    return frozenset(key for key, index in body.order.items() if index > last)


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
