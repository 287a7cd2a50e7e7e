"""ADK-W011 module-state-in-workflow: module or class state written from the workflow path. Docs and examples: rules/ADK-W011.md."""

from __future__ import annotations

import libcst as cst

from replaylint.core.codes import Code
from replaylint.graph.flow import Flow
from replaylint.graph.guards import first_write
from replaylint.graph.state import (
    class_reads,
    imported_names,
    passed_through,
    root_of,
    sandboxed,
    written_state,
)
from replaylint.graph.syntax import sole_store
from replaylint.resolve.facts import CLASS, MODULE, MUTATORS, Fact, MethodCall, Store
from replaylint.resolve.model import (
    Class,
    Func,
    FunctionInfo,
    Hit,
    LocalModule,
    ModuleInfo,
    Obj,
)
from replaylint.resolve.values import Const, Ext, Value
from replaylint.rules.base import FactRule, Reason, Replay

_SHARED = (MODULE, CLASS)
# External classes whose instances are containers (builtins' own are known by their literals).
_CONTAINER_CLASSES = frozenset(
    {
        "collections.deque",
        "collections.defaultdict",
        "collections.OrderedDict",
        "collections.Counter",
        "collections.ChainMap",
        "collections.UserDict",
        "collections.UserList",
        "array.array",
    }
)


def _is_container(value: Value, method: str) -> bool:
    """Is the receiver a container whose `method` changes it in place? Not a module, function or
    class (`np.append(a, x)`, `Run.update(...)` call something), not another library's object
    (a metrics counter's `add`), not an object whose class defines the method itself (it may
    change nothing); a value the guard cannot see is taken to be the container it is used as."""
    if isinstance(value, Ext):
        return value.path.endswith("()") and value.path[:-2] in _CONTAINER_CLASSES
    if isinstance(value, Obj):
        return value.info.lookup(method, instance=True) is None  # inherited from `dict`, ...
    return not isinstance(value, (LocalModule, Func, Class))


class ModuleStateInWorkflow(FactRule):
    code = Code.W011
    facts = (Store, MethodCall)

    def on_fact(self, fact: Fact) -> None:
        site = fact.site
        if site.function is site.function.module.top:
            return  # module-level code runs once, at import: it builds the state, it is no run's
        if isinstance(fact, Store):
            if fact.binding not in _SHARED:
                return
            if isinstance(fact.node, cst.Name) and fact.binding != MODULE:
                return  # a name bound in a class body, as the class is built
            if not isinstance(fact.value, Const) and _first_write(fact):
                return  # `if _client is None: _client = Client()`: a cache, filled once
            self.report(fact, fact.written(), f"writes {fact.binding} state", pending=fact.binding)
        elif isinstance(fact, MethodCall):
            if (
                fact.binding in _SHARED
                and fact.method in MUTATORS
                and _is_container(fact.receiver, fact.method)
            ):
                reason = f"changes {fact.binding} state in place"
                self.report(fact, fact.written(), reason, pending=fact.binding)

    def confirm(self, hit: Hit, function: FunctionInfo, replay: Replay) -> Reason | None:
        """Module and class state is reported where the workflow path reads it back (and the
        read decides something), or where another module's object is changed in place; never
        where a sandbox gives each run its own copy of the module (Temporal's)."""
        if id(function) in replay.once:
            return None  # `@lru_cache def get_settings()`: done once for every run of a worker
        expr = written_state(hit.node)
        root, attributes = root_of(expr) if expr is not None else (None, [])
        if root is None:
            return Reason("")  # no name to follow: an object every run may share
        module = function.module
        imported = imported_names(module)
        owner = imported.get(root.value)
        if sandboxed(replay.module, function, replay.frameworks, replay.unsandboxed):
            shared = passed_through(module, replay.frameworks)
            shared |= passed_through(replay.module, replay.frameworks)
            if owner is None and _named_in(module, shared):
                pass  # the module's own global, and the module is passed through: shared
            elif owner is None or not ({root.value, owner} & shared):
                return None  # each run imports its own copy of the module
        if owner is not None:
            return Reason("it changes another module's object, which every run on a worker shares")
        flow = replay.flow
        if hit.pending == CLASS and attributes:
            named = [a for a in attributes if a != "__class__"]  # `self.__class__.names`
            reads = class_reads(flow, module, named[0]) if named else []
        elif _module_global(flow, function, root.value):
            reads = flow.global_reads(function, root.value)
        else:
            return Reason("")  # reached through a local name: an object every run shares
        decision = flow.read_back(reads)
        return Reason("it is read back into", decision) if decision is not None else None


def _named_in(module: ModuleInfo, names: set[str]) -> bool:
    """Is the module, or a package holding it, among `names` (modules passed through)?"""
    for dotted in {module.name, module.canonical} - {""}:
        parts = dotted.split(".")
        if any(".".join(parts[:end]) in names for end in range(1, len(parts) + 1)):
            return True
    return False


def _first_write(fact: Store) -> bool:
    """Is the store the filling of a once-per-process cache (`if _client is None: _client =
    Client()`)? Not when what it keeps is the function's own argument (`if MODE is None: MODE
    = mode`): the first run's input, then pinned for every later run on the worker."""
    statement = fact.site.statement
    function = fact.site.function
    if statement is None or not first_write(function, statement, fact.node):
        return False
    store = sole_store(statement)
    value = store.value if store is not None else None
    node = function.node
    if isinstance(value, cst.Name) and isinstance(node, cst.FunctionDef):
        params = node.params
        every = [*params.posonly_params, *params.params, *params.kwonly_params]
        return all(p.name.value != value.value for p in every)
    return True


def _module_global(flow: Flow, function: FunctionInfo, name: str) -> bool:
    """Is `name`, in `function`, its module's global (declared so, or never bound locally)?"""
    body = flow.body(function)
    if name in body.globals:
        return True
    local = name in body.params or name in body.bound
    return not local and name in function.module.exports
