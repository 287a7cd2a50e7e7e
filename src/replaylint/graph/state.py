"""Module and class state on the workflow path: whose it is, whether a sandbox gives each run
its own copy, and where the path reads it back."""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from replaylint.graph.bodies import Body
from replaylint.graph.flow import Flow
from replaylint.graph.unsandboxed import EVERY_CLASS
from replaylint.parse.children import children
from replaylint.presets.frameworks import Frameworks
from replaylint.resolve.model import ClassInfo, FunctionInfo, ModuleInfo


def written_state(node: cst.CSTNode) -> cst.BaseExpression | None:
    """The expression whose state a write changes: a store's target, a method call's receiver."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        return node.func.value
    return node if isinstance(node, cst.BaseExpression) else None


def root_of(expr: cst.BaseExpression) -> tuple[cst.Name | None, list[str]]:
    """The name an expression starts from, and the attributes taken of it in order."""
    attributes: list[str] = []
    node = expr
    while isinstance(node, (cst.Attribute, cst.Subscript, cst.Call)):
        if isinstance(node, cst.Attribute):
            attributes.append(node.attr.value)
            node = node.value
        elif isinstance(node, cst.Subscript):
            node = node.value
        else:
            node = node.func
    attributes.reverse()
    return (node if isinstance(node, cst.Name) else None), attributes


def imported_names(module: ModuleInfo) -> dict[str, str]:
    """The names a module's top level binds by importing (in `with`, `if` and `try` blocks too):
    name -> the module it comes from."""
    found: dict[str, str] = {}
    for names in _imports_in(module.tree, deep=True):
        found.update(names)
    return found


def passed_through(module: ModuleInfo, frameworks: Frameworks) -> set[str]:
    """The names and modules imported under a context manager that makes every run share them
    (Temporal's `workflow.unsafe.imports_passed_through()`): written as the module spells them."""
    patterns = [
        p.replay.passed_through for p in frameworks.presets if p.replay.passed_through.sources
    ]
    if not patterns:
        return set()
    found: set[str] = set()
    calls = {
        i
        for f in [module.top, *module.functions]
        for i, path in f.external.items()
        if any(p.matches(path) for p in patterns)
    }
    stack: list[cst.CSTNode] = [module.tree]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.With) and any(id(item.item) in calls for item in node.items):
            for inner in _imports_in(node.body):
                found.update(inner)
                found.update(inner.values())
            continue
        stack.extend(children(node))
    return found


def unsandboxed_classes(modules: Iterable[ModuleInfo], frameworks: Frameworks) -> frozenset[str]:
    """The workflow classes a worker of the project runs without the sandbox, by their names
    (EVERY_CLASS when a worker's list of workflows is not written out)."""
    runners = [p.replay.shared_when_runners for p in frameworks.presets]
    runners = [r for r in runners if r.sources]
    if not runners:
        return frozenset()
    names: set[str] = set()
    for module in modules:
        for function in [module.top, *module.functions]:
            built = {i for i, p in function.external.items() if any(r.matches(p) for r in runners)}
            if built:
                # The worker call that is handed the runner is in the same function.
                names |= _workers_running(function.node, built)
    return frozenset(names)


def sandboxed(
    module: ModuleInfo, function: FunctionInfo, frameworks: Frameworks, unsandboxed: frozenset[str]
) -> bool:
    """Does the sandbox of `module`'s framework give each run its own copy of its modules?"""
    presets = [frameworks.get(name) for name in module.frameworks]
    per_run = [p for p in presets if p is not None and p.replay.module_state == "per-run"]
    if not per_run or EVERY_CLASS in unsandboxed:
        return False
    own = function.cls if function.cls is not None and function.cls.workflow else None
    # A method of a workflow class runs in its class's sandbox; a helper in any workflow's of
    # the module that reaches it.
    for cls in [own] if own is not None else module.classes:
        if cls.workflow is None:
            continue
        if cls.name in unsandboxed:
            return False
        keyword = next((p.replay.shared_when_keyword for p in per_run), "")
        if keyword and _says_false(cls, keyword):
            return False
    return True


def class_reads(
    flow: Flow, module: ModuleInfo, attribute: str
) -> list[tuple[FunctionInfo, cst.CSTNode]]:
    """Reads of a class attribute on the path, in the class's module: `Cls.attr`, `self.attr`,
    `type(self).attr` (by the attribute's name: a class's state is read through many spellings)."""
    found: list[tuple[FunctionInfo, cst.CSTNode]] = []
    for function in flow.path.values():
        if function.module is not module:
            continue
        body: Body = flow.body(function)
        found += [(function, n) for n in body.attributes.get(attribute, []) if _read(body, n)]
    return found


def _read(body: Body, node: cst.CSTNode) -> bool:
    parent = body.parents.get(id(node))
    if isinstance(parent, (cst.AugAssign, cst.AssignTarget)):
        return False
    if isinstance(parent, cst.Attribute) and isinstance(body.parents.get(id(parent)), cst.Call):
        return False  # `self.history.append(x)`: a write in place
    return True


def _says_false(cls: ClassInfo, keyword: str) -> bool:
    if keyword in cls.false_keywords:  # a decorator applied by a call
        return True
    node = cls.node
    if not isinstance(node, cst.ClassDef):
        return False
    for decorator in node.decorators:
        call = decorator.decorator
        if isinstance(call, cst.Call):
            for arg in call.args:
                if arg.keyword is not None and arg.keyword.value == keyword:
                    return isinstance(arg.value, cst.Name) and arg.value.value == "False"
    return False


def _workers_running(code: cst.CSTNode, runners: set[int]) -> set[str]:
    """The workflows of every call in `code` that is handed one of the `runners` (a Worker's
    keywords)."""
    found: set[str] = set()
    stack: list[cst.CSTNode] = [code]
    while stack:
        node = stack.pop()
        stack.extend(children(node))
        if type(node) is not cst.Call:  # not isinstance: LibCST's ABC check is slow on a miss
            continue
        if not any(isinstance(a.value, cst.Call) and id(a.value) in runners for a in node.args):
            continue
        found |= _workflows_named(node)
    return found


def _workflows_named(call: cst.Call) -> set[str]:
    """The workflow classes a worker call names: its `workflows=[...]`, else its positional
    arguments (`new_worker(client, Flow, workflow_runner=...)`); EVERY_CLASS when a list is
    held in a variable."""
    listed = next(
        (a.value for a in call.args if a.keyword and a.keyword.value == "workflows"), None
    )
    if listed is not None:
        if not isinstance(listed, (cst.List, cst.Tuple)):
            return {EVERY_CLASS}
        values = [element.value for element in listed.elements]
    else:
        values = [a.value for a in call.args if a.keyword is None and not a.star]
    names: set[str] = set()
    for value in values:
        name, attributes = root_of(value)
        if name is None:
            return {EVERY_CLASS}
        names.add(attributes[-1] if attributes else name.value)
    return names or {EVERY_CLASS}


def _imports_in(block: cst.CSTNode, deep: bool = False) -> Iterable[dict[str, str]]:
    """Each import statement of a block (and, `deep`, of the module-level blocks it holds):
    bound name -> the module it comes from (the module's own dotted name for `import a.b`)."""
    for statement in getattr(block, "body", ()):
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                found = _bound_by(small)
                if found:
                    yield found
        elif deep and isinstance(statement, (cst.With, cst.If, cst.Try)):
            yield from _imports_in(statement.body, deep)


def _bound_by(small: cst.BaseSmallStatement) -> dict[str, str]:
    if isinstance(small, cst.Import):
        found = {}
        for alias in small.names:
            dotted = _dotted(alias.name)
            found[alias.evaluated_alias or dotted.split(".")[0]] = dotted
            found[dotted] = dotted
        return found
    if isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
        source = "." * len(small.relative) + (_dotted(small.module) if small.module else "")
        return {a.evaluated_alias or a.evaluated_name: source for a in small.names} | {
            source: source
        }
    return {}


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""
