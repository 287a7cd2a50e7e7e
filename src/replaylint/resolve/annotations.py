"""Annotations read as values: `client: OpenAI` holds an OpenAI client, `ctx: restate.Context`
a run context, `tags: set[str]` a set of strings, `order: Order` an instance of the project's
class; `def datasource() -> SQLAlchemyDatasource` returns one."""

from __future__ import annotations

import libcst as cst

from replaylint.parse import pyast
from replaylint.resolve import folds
from replaylint.resolve.model import Class, Obj
from replaylint.resolve.values import UNKNOWN, Ext, Value
from replaylint.resolve.walker import Walker

# Generic types whose arguments describe something else than the value itself: a callable's
# parameters, a class rather than an instance of it.
_NOT_AN_INSTANCE = frozenset(
    f"{module}.{name}"
    for module in ("typing", "typing_extensions", "collections.abc")
    for name in ("Callable", "Concatenate", "Type", "Coroutine", "Awaitable")
)


class Annotations(Walker):
    def sole_annotation_value(self, node: cst.BaseExpression) -> Value:
        """annotation_value of an annotation that names one type, or one and None
        (`T | None`, `Optional[T]`); UNKNOWN for a union of several (`str | Path`), whose
        value may be any of them."""
        if isinstance(node, cst.SimpleString):  # `-> "str | Path"`: read as written
            written = _written_in(node)
            if written is None:
                return UNKNOWN
            node = written
        members = _union_members(node)
        if len(members) != 1:
            return UNKNOWN
        return self.annotation_value(members[0])

    def annotation_value(self, node: cst.BaseExpression) -> Value:
        """An instance of a provider client when the annotation names one (`client: OpenAI`,
        `Optional[AsyncAnthropic]`, `"ChatOpenAI | None"`), a set when it names one (`set[str]`);
        UNKNOWN otherwise."""
        declared = self._set_annotation(node)  # containers.py: `set[str]`, `frozenset[int]`
        if declared is not None:
            return declared
        if isinstance(node, (cst.Name, cst.Attribute)):
            value = self._peek(node)
            if isinstance(value, Ext):
                cls = self.catalog.client_class(value.path)
                if cls is not None:
                    return Ext(cls + "()")
                if self.frameworks.is_framework_path(value.path):
                    return Ext(value.path + "()")  # a run context: `ctx: restate.Context`
            if isinstance(value, Class):
                return Obj(value.info)
            return UNKNOWN
        if isinstance(node, cst.Subscript):
            wrapper = self._peek(node.value)
            builtin_type = isinstance(node.value, cst.Name) and node.value.value == "type"
            if (isinstance(wrapper, Ext) and wrapper.path in _NOT_AN_INSTANCE) or (
                builtin_type and self.scope.lookup("type") is None
            ):
                return UNKNOWN  # `Callable[[DurableContext], T]` takes a context; it is none
            for element in node.slice:
                if isinstance(element.slice, cst.Index):
                    found = self.annotation_value(element.slice.value)
                    if found is not UNKNOWN:
                        return found
            return UNKNOWN
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
            found = self.annotation_value(node.left)
            return found if found is not UNKNOWN else self.annotation_value(node.right)
        if isinstance(node, cst.SimpleString):
            written = _written_in(node)
            return self.annotation_value(written) if written is not None else UNKNOWN
        return UNKNOWN


def _written_in(node: cst.SimpleString) -> cst.BaseExpression | None:
    """The annotation a string annotation holds (`"ChatOpenAI | None"`), None if none."""
    text = pyast.evaluated(node)
    if not isinstance(text, str):
        return None
    try:
        return cst.parse_expression(text)
    except cst.ParserSyntaxError:
        return None


def _union_members(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The types a `|` union or `Union[...]`/`Optional[...]` names, None left out; a string
    annotation is one member (read as written when its value is wanted)."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
        return _union_members(node.left) + _union_members(node.right)
    if isinstance(node, cst.Name) and node.value == "None":
        return []
    if isinstance(node, cst.Subscript) and folds.dotted(node.value) in _UNION_NAMES:
        found: list[cst.BaseExpression] = []
        for element in node.slice:
            if isinstance(element.slice, cst.Index):
                found += _union_members(element.slice.value)
        return found
    return [node]


_UNION_NAMES = frozenset(
    {"Union", "Optional", "typing.Union", "typing.Optional", "t.Union", "t.Optional"}
)
