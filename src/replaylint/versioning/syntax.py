"""What the skeleton builder reads off LibCST nodes: suites, tests, arguments and names."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from replaylint.parse import children as fields
from replaylint.resolve.facts import Call
from replaylint.resolve.model import Func, FunctionInfo
from replaylint.resolve.values import Const, Value
from replaylint.versioning.model import Block, Branches, DurableCommand, Where


def suite(suite: cst.BaseSuite) -> Sequence[cst.CSTNode]:
    return suite.body if isinstance(suite, (cst.IndentedBlock, cst.SimpleStatementSuite)) else ()


def ends_block(statement: cst.CSTNode) -> bool:
    if isinstance(statement, cst.SimpleStatementLine):
        return any(isinstance(s, (cst.Return, cst.Raise)) for s in statement.body)
    return False


def unnegated(test: cst.BaseExpression) -> tuple[cst.BaseExpression, bool]:
    negated = False
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test, negated = test.expression, not negated
    return test, negated


def call_of(expr: cst.BaseExpression) -> cst.Call | None:
    """The call an expression is, through `await` (`if await DBOS.patch_async("x"):`)."""
    if isinstance(expr, cst.Await):
        expr = expr.expression
    return expr if isinstance(expr, cst.Call) else None


def argument_nodes(node: cst.Call, keys: Sequence[str]) -> list[cst.BaseExpression]:
    positional = [a.value for a in node.args if a.keyword is None and not a.star]
    found = []
    for key in keys:
        if key.isdigit():
            if int(key) < len(positional):
                found.append(positional[int(key)])
        else:
            found += [
                a.value for a in node.args if a.keyword is not None and a.keyword.value == key
            ]
    return found


def argument_values(node: cst.Call, fact: Call | None, keys: Sequence[str]) -> list[Value]:
    if fact is None or not fact.values:
        return []
    by_node = dict(zip([id(a.value) for a in node.args], fact.values, strict=False))
    return [by_node[id(n)] for n in argument_nodes(node, keys) if id(n) in by_node]


def text_argument(node: cst.Call, fact: Call | None, keys: Sequence[str]) -> str | None:
    for value in argument_values(node, fact, keys):
        if isinstance(value, Const) and isinstance(value.value, str):
            return value.value
    for arg in argument_nodes(node, keys):
        if isinstance(arg, cst.SimpleString):
            return str(arg.evaluated_value)
    return None


# The target key naming the decorated function whose method a command is (`child.aio_run()`).
RECEIVER = "receiver"


def receiver_of(node: cst.Call, function: FunctionInfo | None) -> FunctionInfo | None:
    """The decorated function of the module whose method is called: a Hatchet task's
    `child.aio_run(...)` spawns that task as a child run."""
    func = node.func
    if function is None or not isinstance(func, cst.Attribute):
        return None
    if not isinstance(func.value, cst.Name):
        return None
    value = function.module.exports.get(func.value.value)
    return value.info if isinstance(value, Func) and value.info.decorators else None


MAKER = "maker"


def made_by(node: cst.Call, function: FunctionInfo | None) -> cst.BaseExpression | None:
    """The last positional argument of the call that made the object whose method is called:
    an Agent Framework agent's name, whether the run is chained to it
    (`app.get_agent(context, "Drafter").run(...)`) or the agent is kept in a name the function
    binds once (`critic = ctx.get_agent("critic")`, then `critic.run(...)`)."""
    func = node.func
    if not isinstance(func, cst.Attribute):
        return None
    maker: cst.BaseExpression | None = func.value
    if isinstance(maker, cst.Name) and function is not None:
        maker = _sole_value(function.node, maker.value)
    if not isinstance(maker, cst.Call):
        return None
    positional = [a.value for a in maker.args if a.keyword is None and not a.star]
    return positional[-1] if positional else None


def _sole_value(scope: cst.CSTNode, name: str) -> cst.BaseExpression | None:
    """What the one assignment to `name` in a function's body assigns (None for none or more)."""
    body = scope.body if isinstance(scope, cst.FunctionDef) else scope
    found = [
        assign.value
        for assign in _assignments(body)
        for target in assign.targets
        if isinstance(target.target, cst.Name) and target.target.value == name
    ]
    return found[0] if len(found) == 1 else None


def work_of(node: cst.Call, keys: Sequence[str], function: FunctionInfo | None) -> str:
    """What a keyed command does besides its key: the code of its other arguments."""
    if function is None:
        return ""
    key_nodes = {id(n) for n in argument_nodes(node, keys)}
    code = function.module.tree.code_for_node
    parts = [
        (f"{arg.keyword.value}=" if arg.keyword is not None else "") + code(arg.value)
        for arg in node.args
        if id(arg.value) not in key_nodes
    ]
    return " ".join(", ".join(parts).split())


def body_of(function: FunctionInfo) -> str:
    """A step function's body, as what it does (whitespace aside)."""
    body = getattr(function.node, "body", None)
    if not isinstance(body, cst.CSTNode):
        return ""
    return " ".join(function.module.tree.code_for_node(body).split())


def written_name(expr: cst.BaseExpression) -> str:
    if isinstance(expr, cst.Name):
        return expr.value
    if isinstance(expr, cst.Attribute):
        return expr.attr.value
    if isinstance(expr, cst.SimpleString):
        return str(expr.evaluated_value)
    return ""


def alternatives(expr: cst.IfExp) -> list[cst.BaseExpression]:
    """The values a conditional expression can take, nested ones flattened, in order written."""
    found: list[cst.BaseExpression] = []
    for part in (expr.body, expr.orelse):
        found += alternatives(part) if isinstance(part, cst.IfExp) else [part]
    return found


def attribute_chain(expr: cst.BaseExpression) -> list[str]:
    parts: list[str] = []
    while isinstance(expr, cst.Attribute):
        parts.append(expr.attr.value)
        expr = expr.value
    if not isinstance(expr, cst.Name):
        return []
    return [expr.value, *reversed(parts)]


def parameters(function: FunctionInfo | None) -> list[str]:
    node = function.node if function is not None else None
    if not isinstance(node, cst.FunctionDef):
        return []
    return [p.name.value for p in node.params.params]


def elements(node: cst.CSTNode) -> list[cst.BaseExpression]:
    if isinstance(node, cst.DictComp):
        return [node.key, node.value]
    return [node.elt]  # type: ignore[attr-defined]


def raises(body: cst.BaseSuite) -> bool:
    """Does this suite end in a `raise` (a run that takes it goes no further)?"""
    statements = suite(body)
    last = statements[-1] if statements else None
    if isinstance(body, cst.SimpleStatementSuite):
        return any(isinstance(small, cst.Raise) for small in body.body)
    return isinstance(last, cst.SimpleStatementLine) and any(
        isinstance(small, cst.Raise) for small in last.body
    )


def raising_arms(orelse: cst.If | cst.Else | None) -> list[bool]:
    """For each arm after an if's body (its elifs, then its else): does it raise?"""
    flags: list[bool] = []
    while isinstance(orelse, cst.If):
        flags.append(raises(orelse.body))
        orelse = orelse.orelse
    flags.append(isinstance(orelse, cst.Else) and raises(orelse.body))
    return flags


def rebound(function: FunctionInfo | None) -> frozenset[str]:
    """The names a function assigns in more than one place: their value depends on the path."""
    node = function.node if function is not None else None
    if not isinstance(node, cst.FunctionDef):
        return frozenset()
    counts: dict[str, int] = {}
    for assign in _assignments(node.body):
        for target in assign.targets:
            if isinstance(target.target, cst.Name):
                counts[target.target.value] = counts.get(target.target.value, 0) + 1
    return frozenset(name for name, count in counts.items() if count > 1)


def chosen_here(function: FunctionInfo | None) -> frozenset[str]:
    """What holds a value the run chooses in the function: its parameters, the locals it
    assigns, and the attributes of `self` it sets (`self.tool`). A command's target held by one
    of them (`execute_activity(tool, ...)`, `tool` the run's input) is named by nothing the
    name as written says."""
    node = function.node if function is not None else None
    if not isinstance(node, cst.FunctionDef):
        return frozenset()
    params = node.params
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    every += [p for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)]
    found = {p.name.value for p in every}
    for assign in _assignments(node.body):
        for target in assign.targets:
            written = held_by(target.target)
            if written:
                found.add(written)
    return frozenset(found)


def held_by(expr: cst.BaseExpression) -> str:
    """A name, or an attribute of `self` (`self.tool`), as chosen_here lists it; "" else."""
    if isinstance(expr, cst.Name):
        return expr.value
    if (
        isinstance(expr, cst.Attribute)
        and isinstance(expr.value, cst.Name)
        and expr.value.value == "self"
    ):
        return f"self.{expr.attr.value}"
    return ""


def _assignments(node: cst.CSTNode) -> list[cst.Assign]:
    """The assignment statements of a body, in its nested blocks too (not in nested defs)."""
    found: list[cst.Assign] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.SimpleStatementLine):
            found += [small for small in current.body if isinstance(small, cst.Assign)]
        elif isinstance(current, (cst.IndentedBlock, cst.SimpleStatementSuite)):
            stack.extend(current.body)
        elif isinstance(current, (cst.If, cst.For, cst.While, cst.With, cst.Try, cst.TryStar)):
            stack.append(current.body)
            orelse = getattr(current, "orelse", None)
            if orelse is not None:
                stack.append(orelse if isinstance(orelse, cst.If) else orelse.body)
            for handler in getattr(current, "handlers", ()):
                stack.append(handler.body)
            final = getattr(current, "finalbody", None)
            if final is not None:
                stack.append(final.body)
        elif isinstance(current, cst.Match):
            stack.extend(case.body for case in current.cases)
    return found


_LEAVES: tuple[type[cst.CSTNode], ...] = (
    cst.Name,
    cst.SimpleString,
    cst.Integer,
    cst.Float,
    cst.Imaginary,
    cst.Ellipsis,
    cst.Pass,
    cst.Break,
    cst.Continue,
    cst.Import,
    cst.ImportFrom,
    cst.Global,
    cst.Nonlocal,
)


def children(node: cst.CSTNode) -> Sequence[cst.CSTNode]:
    """The child nodes that can hold a call, in evaluation order: the common expression and
    small statement forms read directly (LibCST's generic `children` visits every token)."""
    if isinstance(node, _LEAVES):
        return ()
    if isinstance(node, cst.Call):
        return [node.func, *(arg.value for arg in node.args)]
    if isinstance(node, cst.Attribute):
        return (node.value,)
    if isinstance(node, (cst.Await, cst.Expr)):
        return (node.expression if isinstance(node, cst.Await) else node.value,)
    if isinstance(node, cst.Assign):
        return [node.value, *(t.target for t in node.targets)]
    if isinstance(node, (cst.AnnAssign, cst.AugAssign)):
        return (node.value, node.target) if node.value is not None else (node.target,)
    if isinstance(node, cst.Return):
        return (node.value,) if node.value is not None else ()
    if isinstance(node, cst.BinaryOperation):
        return (node.left, node.right)
    if isinstance(node, cst.Comparison):
        return [node.left, *(c.comparator for c in node.comparisons)]
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        return [element.value for element in node.elements]
    return fields.children(node)


def choice(node: cst.If, body: Block, orelse: Block, where: Where) -> Branches:
    """The branches of an if (an elif chain's arms side by side), each arm kept: a replay of a
    run that took one arm meets that arm's commands. When every arm that goes on issues one
    command of one kind (the others raise), the branch chooses that command's target, as a
    local bound in each branch would (`chooses`)."""
    arms: tuple[Block, ...] = (body, orelse)
    chained = isinstance(node.orelse, cst.If) and len(orelse) == 1
    if chained and isinstance(orelse[0], Branches):
        arms = (body, *orelse[0].arms)
    raising = [raises(node.body), *raising_arms(node.orelse)]
    going_on = [arm for index, arm in enumerate(arms) if arm or not _at(raising, index)]
    kinds = {
        arm[0].kind for arm in going_on if len(arm) == 1 and isinstance(arm[0], DurableCommand)
    }
    one_each = all(len(arm) == 1 and isinstance(arm[0], DurableCommand) for arm in going_on)
    chooses = kinds.pop() if len(going_on) > 1 and one_each and len(kinds) == 1 else ""
    return Branches(arms, where, chooses)


def _at(flags: list[bool], index: int) -> bool:
    return flags[index] if index < len(flags) else False
