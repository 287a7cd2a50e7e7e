"""The model of the checked code one walk builds: modules, functions, classes, what each reaches
(hits reported by rules, helper calls, import edges), and the values that point at them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import libcst as cst

from replaylint.core.codes import Code
from replaylint.core.findings import ChainLink
from replaylint.parse.parsing import statement_lines
from replaylint.resolve.values import UNKNOWN, Ext, Value


@dataclass(eq=False)
class Hit:
    """What a rule reported at node (a call, or an unsafe callable passed on), kept on the
    function it is in until the project knows which functions are on the workflow path."""

    code: Code
    node: cst.CSTNode
    call: str
    reason: str
    governed: bool  # not inside an exempt region (an activity body, a __main__ block)
    path: str = ""  # the resolved qualified name of the root
    dead: bool = False  # under `if TYPE_CHECKING:` or `if __name__ == "__main__":`: never replayed
    propagates: bool = True  # False for unproven accesses: reported where they are, not to callers
    statement: cst.CSTNode | None = None  # the innermost statement holding node (positions)
    # Hops inside installed code the call leads into (path, line, call), ending at the root.
    tail: tuple[ChainLink, ...] = ()
    # Decided once the workflow path is known (the rule's confirm): whether the value reaches
    # something a replay depends on. "" for a finding wherever it is.
    pending: str = ""


@dataclass(eq=False)
class HelperCall:
    """A call (or a reference passed on) to a function of the checked code."""

    target: FunctionInfo
    node: cst.CSTNode
    call: str
    governed: bool
    reported: bool = True  # False for implicit edges such as an inline lambda
    dead: bool = False  # made under `if TYPE_CHECKING:` or `if __name__ == "__main__":`
    statement: cst.CSTNode | None = None  # the innermost statement holding node


@dataclass(eq=False)
class ThroughParam:
    """A call of a method reached from a parameter nothing types (`agent_ctx.gateway.generate`),
    resolved at each call of its function on what the call hands it (through_params.py)."""

    param: str
    chain: tuple[str, ...]  # the attributes after the parameter, the method's name last
    node: cst.Call
    written: str
    governed: bool
    dead: bool
    statement: cst.CSTNode | None


@dataclass(eq=False)
class ImportEdge:
    module: str  # absolute dotted name as far as it is known
    node: cst.CSTNode
    local: ModuleInfo | None = None
    dynamic: bool = False
    relative: bool = False  # `from . import x`: local by definition, so unresolved means missing
    broken: Path | None = None  # a local module that cannot be read or parsed (ADK-E001)


@dataclass(eq=False)
class FunctionInfo:
    name: str
    qualname: str
    module: ModuleInfo
    node: cst.CSTNode
    cls: ClassInfo | None = None
    activity: str | None = None  # "recorded" or "inline" (see catalog [activities])
    exempt: bool = False  # body not on the workflow path (an activity, a __main__ block)
    hits: list[Hit] = field(default_factory=list)
    calls: list[HelperCall] = field(default_factory=list)
    # id(call node) -> the resolved path of each call of something outside the checked code
    external: dict[int, str] = field(default_factory=dict)
    returns: Value = UNKNOWN
    decorators: tuple[str, ...] = ()
    parent: FunctionInfo | None = None  # the enclosing function, for nested defs and lambdas
    entry: str | None = None  # the framework whose replayed code this function is
    by_context: bool = False  # an entry only by its run-context parameter's type
    statement: cst.CSTNode | None = None  # the statement that defines it (a lambda's body is in it)
    # The framework that replays this function only when it reaches one of its suspending calls
    # (a LangGraph node, a Prefect flow, a Resonate child): settled once the project is read.
    suspending: str | None = None
    # Its direct suspending calls: (call, innermost statement, framework).
    suspends: list[tuple[cst.CSTNode, cst.CSTNode | None, str]] = field(default_factory=list)
    # ids of its statements after the last suspending call of a prefix entry: run once.
    dropped: frozenset[int] = frozenset()
    # A recorded unit its framework replays on its own (a task that suspends, a task placed in
    # the workflow): its lines are reported where they are, a call of it is no helper call.
    unit: bool = False
    # The call that registered it with its framework (`add_node("review", review)`,
    # `register_workflow(fn, name=...)`), where its registered name is read.
    registration: cst.Call | None = None
    # Called by its framework from the framework's own workflow (a hosted workflow's edge
    # condition): replayed code that no run looks up by its name.
    hosted: bool = False
    # Whether its body only looks at a parameter, by name, once asked (resolve/parameters.py).
    looks_only: dict[str, bool] = field(default_factory=dict)
    # A handler of a plain base class, an entry because a workflow class inherits it.
    inherited: bool = False
    # Its parameters bound to nothing known (unannotated, `Any`), and the methods its body
    # calls through them (resolve/through_params.py).
    open_params: frozenset[str] = frozenset()
    through_params: list[ThroughParam] = field(default_factory=list)

    def replays(self, statement: cst.CSTNode | None) -> bool:
        """Is the statement (a hit's or a call's innermost one) in the replayed part?"""
        return not self.dropped or id(statement) not in self.dropped

    def is_exempt(self) -> bool:
        """Inside a recorded zone: an activity or step (maybe registered after its definition)."""
        info: FunctionInfo | None = self
        while info is not None:
            if info.exempt or info.activity is not None:
                return True
            info = info.parent
        return False


@dataclass(eq=False)
class ClassInfo:
    name: str
    qualname: str
    module: ModuleInfo
    node: cst.CSTNode
    attrs: dict[str, Value] = field(default_factory=dict)  # the class body's namespace
    instance_attrs: dict[str, Value] = field(default_factory=dict)  # self.x = ... in methods
    local_bases: list[ClassInfo] = field(default_factory=list)
    external_bases: list[str] = field(default_factory=list)
    decorators: tuple[str, ...] = ()
    workflow: str | None = None  # the framework when the class is a workflow (Temporal)
    by_base: bool = False  # a workflow because it derives from a `workflow-bases` class
    # A workflow because it derives from its framework's own base class (Cloudflare's
    # WorkflowEntrypoint, Temporal's interceptors): its record's `method-names` are entries.
    framework_base: bool = False
    # What constructing an instance runs besides __init__: each field's default factory
    # (`order_id: str = field(default_factory=uuid4)`), as a function of its own, by field.
    defaults: dict[str, FunctionInfo] = field(default_factory=dict)
    # Keywords its decorator, applied by a call, was given a literal False
    # (`workflow.defn(sandboxed=False)(Greeting)`): what a written decorator's node says.
    false_keywords: frozenset[str] = frozenset()

    def lookup(self, name: str, instance: bool) -> Value | None:
        seen: set[int] = set()
        stack: list[ClassInfo] = [self]
        while stack:
            info = stack.pop(0)
            if id(info) in seen:
                continue
            seen.add(id(info))
            if instance and name in info.instance_attrs:
                return info.instance_attrs[name]
            if name in info.attrs:
                return info.attrs[name]
            stack.extend(info.local_bases)
        return None

    def lineage(self) -> Iterator[ClassInfo]:
        """This class, then its local bases, theirs and so on, each once, depth first (the
        last base written first, as a stack pops them)."""
        seen: set[int] = set()
        stack: list[ClassInfo] = [self]
        while stack:
            current = stack.pop()
            if id(current) in seen:
                continue
            seen.add(id(current))
            yield current
            stack.extend(current.local_bases)

    def ancestors(self) -> list[ClassInfo]:
        """Its local base classes, theirs, and so on (each once)."""
        found: list[ClassInfo] = []
        stack = list(self.local_bases)
        while stack:
            current = stack.pop(0)
            if current not in found:
                found.append(current)
                stack.extend(current.local_bases)
        return found

    def client_base(self, catalog: object) -> str | None:
        """A provider client class this class derives from, if any (a user's ChatOpenAI subclass)."""
        for base in self.external_bases:
            found = catalog.client_class(base)  # type: ignore[attr-defined]
            if found is not None:
                return found
        for local in self.local_bases:
            found = local.client_base(catalog)
            if found is not None:
                return found
        return None


@dataclass(eq=False)
class ModuleInfo:
    """What the guard knows of one module after its single walk."""

    path: Path
    display: str  # the path as reports show it
    name: str  # dotted module name when known, else the file stem
    source: bytes
    tree: cst.Module
    marked: bool
    top: FunctionInfo = field(init=False)  # module-level code, as a pseudo-function
    functions: list[FunctionInfo] = field(default_factory=list)
    classes: list[ClassInfo] = field(default_factory=list)
    exports: dict[str, Value] = field(default_factory=dict)
    imports: list[ImportEdge] = field(default_factory=list)
    frameworks: list[str] = field(default_factory=list)  # presets with workflow code here
    dynamic_accesses: int = 0  # accesses the walk could not fold: the coverage is unproven
    # Whether CPython read the module (not a newer Python's syntax, which LibCST alone reads),
    # so that its statements' first lines can be asked of CPython.
    read_by_cpython: bool = False
    # The module's name from the project's roots, whichever import first reached it: what the
    # identity digest uses, so it does not depend on the order modules were loaded in.
    canonical: str = ""
    # Files other than modules that decided what this module is (a framework's settings file).
    settings_files: list[Path] = field(default_factory=list)

    def entries(self) -> list[FunctionInfo]:
        return [f for f in self.functions if f.entry is not None]

    @cached_property
    def first_lines(self) -> list[int] | None:
        """CPython's first line of every statement, in preorder, built when a position in the
        module is first wanted; None when CPython did not read it."""
        return statement_lines(self.source) if self.read_by_cpython else None

    @property
    def is_workflow(self) -> bool:
        return self.marked or any(f.entry is not None for f in self.functions)

    def workflow_path(self) -> list[FunctionInfo]:
        """The functions replayed: all of a marked module; else the framework entries and every
        function they reach, in this module or in a local module they import (the framework's
        replayed region is all the code its workflow runs). A marked module's helpers elsewhere
        are reported at the call, as ADK-W005: only the marked module is opted in."""
        if self.marked:
            return [self.top, *self.functions]
        return self._reached(self.entries())

    def confirmed_path(self) -> list[FunctionInfo]:
        """What the decision-aware rules confirm their findings on for this module: its workflow
        path, and for a marked module the helpers of other modules it reaches too. Their lines
        are not reported, but whether what they read decides anything still decides whether
        the call of them is an ADK-W005."""
        if not self.marked:
            return self.workflow_path()
        own = [self.top, *self.functions]
        return own + [f for f in self._reached(own) if f.module is not self]

    def _reached(self, starts: list[FunctionInfo]) -> list[FunctionInfo]:
        reached: dict[int, FunctionInfo] = {id(f): f for f in starts}
        queue = list(reached.values())
        while queue:
            info = queue.pop()
            if info.is_exempt():
                continue  # a step or activity: what it calls runs inside the recorded zone
            for call in info.calls:
                target = call.target
                if not info.replays(call.statement):
                    continue  # after a prefix entry's last suspend: run once
                if id(target) not in reached and not call.dead and not target.module.marked:
                    reached[id(target)] = target
                    queue.append(target)
        order = {id(f): i for i, f in enumerate(self.functions)}
        return sorted(
            reached.values(),
            key=lambda f: (f.module is not self, f.module.display, order.get(id(f), 0)),
        )

    def __post_init__(self) -> None:
        self.top = FunctionInfo("<module>", "<module>", self, self.tree)


class Func(Value):
    """A function, method or lambda of the checked code; `bound` when reached through an instance."""

    __slots__ = ("info", "bound")

    def __init__(self, info: FunctionInfo, bound: bool = False) -> None:
        self.info = info
        self.bound = bound


class Holding(Ext):
    """An outside object that holds callables of the checked code its framework calls inside a
    workflow (an agent's tools, a graph builder's routers): `held` grows as a builder's methods
    are called with more (presets/mechanisms.py, Hosted). `hosted_by`: the framework that hosts
    what it holds since it was handed over (`DBOSAgent(agent)`), so that a callable it is given
    later (`@agent.tool` below the wrapping) becomes that framework's entry too."""

    __slots__ = ("held", "hosted_by", "plain")

    def __init__(self, path: str, held: list[FunctionInfo] | None = None) -> None:
        super().__init__(path)
        self.held: list[FunctionInfo] = held if held is not None else []
        self.hosted_by: str | None = None
        # ids of functions it holds plain whose module name a step wraps (`@DBOS.step()` over
        # `@agent.tool_plain`): run unrecorded once a framework hosts what it holds.
        self.plain: set[int] = set()

    def hold(self, functions: list[FunctionInfo]) -> None:
        for function in functions:
            if function not in self.held:
                self.held.append(function)


class Class(Value):
    __slots__ = ("info",)

    def __init__(self, info: ClassInfo) -> None:
        self.info = info


class Obj(Value):
    """An instance of a class of the checked code."""

    __slots__ = ("info",)

    def __init__(self, info: ClassInfo) -> None:
        self.info = info


class LocalModule(Value):
    """A module of the checked project (a local file), imported by name."""

    __slots__ = ("info",)

    def __init__(self, info: ModuleInfo) -> None:
        self.info = info


class Super(Value):
    """`super()` inside a method: attribute lookups start at the class's bases."""

    __slots__ = ("info",)

    def __init__(self, info: ClassInfo) -> None:
        self.info = info
