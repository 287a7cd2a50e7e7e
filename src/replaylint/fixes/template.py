"""Turns a fix template into the expression that replaces a call (or wraps an expression),
moving the original's arguments, callee and receiver into it untouched, comments included."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import libcst as cst

_CALLEE, _RECEIVER, _CONTEXT = (
    "__replaylint_callee__",
    "__replaylint_receiver__",
    "__replaylint_ctx__",
)


@dataclass(frozen=True)
class Parts:
    """What of the original goes into the replacement."""

    node: cst.BaseExpression  # the call (or the wrapped expression) being replaced
    name: str  # last part of the resolved name: `randint`
    context: str  # the run-context parameter's name ("" when the template has none)
    spellings: Mapping[str, str]  # an import's local name -> how this module spells it


def render(template: str, wraps: bool, parts: Parts) -> cst.BaseExpression | None:
    """The replacement for `parts.node`, or None when the original does not fit the template
    (no receiver to move, or a comment of the original would be lost)."""
    text = (
        template.replace("{name}", parts.name)
        .replace("{callee}", _CALLEE)
        .replace("{receiver}", _RECEIVER)
        .replace("{ctx}", _CONTEXT)
    )
    expression = cst.parse_expression(text)
    node = parts.node
    if wraps:
        args: Sequence[cst.Arg] = [cst.Arg(value=_unparenthesized(node))]
        nodes: dict[str, cst.BaseExpression] = {}
        before_args: cst.BaseParenthesizableWhitespace | None = None
    elif isinstance(node, cst.Call):
        args = node.args
        before_args = node.whitespace_before_args
        nodes = {_CALLEE: node.func}
        if isinstance(node.func, cst.Attribute):
            nodes[_RECEIVER] = node.func.value
    else:
        return None
    if _RECEIVER in text and _RECEIVER not in nodes:
        return None
    for local, spelled in parts.spellings.items():
        if spelled != local:
            nodes[local] = cst.parse_expression(spelled)
    nodes[_CONTEXT] = cst.Name(parts.context) if parts.context else cst.Name(_CONTEXT)
    fill = _Fill(nodes, args, before_args)
    replaced = expression.visit(fill)
    assert isinstance(replaced, cst.BaseExpression)
    if fill.unfilled:
        return None
    if not wraps and (node.lpar or node.rpar):
        # `(time.time())`: the parentheses, and what they hold, stay where they were.
        replaced = replaced.with_changes(lpar=node.lpar, rpar=node.rpar)
    if _comments(replaced) != _comments(node):
        return None
    return replaced


def free_names(template: str) -> set[str]:
    """Names a template uses that are neither placeholders nor attributes nor keywords:
    its imports' local names and builtins such as `sorted`."""
    text = template
    for placeholder in ("{name}", "{callee}", "{receiver}", "{ctx}"):
        text = text.replace(placeholder, "x" if placeholder == "{name}" else _CALLEE)
    collector = _Names()
    cst.parse_expression(text).visit(collector)
    return collector.names - {_CALLEE, "True", "False", "None"}


class _Names(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)


class _Fill(cst.CSTTransformer):
    """Puts the original's pieces where the template has placeholders and `...`."""

    def __init__(
        self,
        nodes: Mapping[str, cst.BaseExpression],
        args: Sequence[cst.Arg],
        before_args: cst.BaseParenthesizableWhitespace | None,
    ) -> None:
        self.nodes = nodes
        self.args = args
        self.before_args = before_args
        self._skip: set[int] = set()  # attribute names and keywords: never a placeholder
        self._spliced: set[int] = set()  # `...` standing for all the arguments
        self.unfilled = False  # a `...` value with no single argument to put there

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._skip.add(id(node.attr))

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self._skip.add(id(node.keyword))
        if _is_ellipsis_arg(node):
            self._spliced.add(id(node.value))

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        if id(original) in self._skip:
            return updated
        return self.nodes.get(original.value, updated)

    def leave_Ellipsis(self, original: cst.Ellipsis, updated: cst.Ellipsis) -> cst.BaseExpression:
        # `...` as a value (not a whole argument: those are spliced in leave_Call): the single
        # argument of the original call.
        if id(original) in self._spliced:
            return updated
        if len(self.args) != 1 or self.args[0].star:
            self.unfilled = True
            return updated
        return self.args[0].value

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        spliced = [i for i, arg in enumerate(original.args) if _is_ellipsis_arg(arg)]
        if not spliced:
            return updated
        index = spliced[0]
        kept = list(updated.args[:index])
        if not self.args and kept:
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        changes: dict[str, object] = {"args": [*kept, *self.args]}
        if index == 0 and self.before_args is not None:
            changes["whitespace_before_args"] = self.before_args
        return updated.with_changes(**changes)


def _unparenthesized(node: cst.BaseExpression) -> cst.BaseExpression:
    """`(names)` handed to `sorted(...)` as `names`: an atom's parentheses say nothing there
    (a tuple's would, and parentheses holding a comment stay)."""
    atom = isinstance(node, (cst.Name, cst.Attribute, cst.Call, cst.Subscript))
    bare = node.with_changes(lpar=[], rpar=[])
    if atom and node.lpar and _comments(bare) == _comments(node):
        return bare
    return node


def _is_ellipsis_arg(arg: cst.Arg) -> bool:
    return isinstance(arg.value, cst.Ellipsis) and arg.keyword is None and not arg.star


def _comments(node: cst.CSTNode) -> Counter[str]:
    found: Counter[str] = Counter()

    class _Comments(cst.CSTVisitor):
        def visit_Comment(self, comment: cst.Comment) -> None:
            found[comment.value] += 1

    node.visit(_Comments())
    return found
