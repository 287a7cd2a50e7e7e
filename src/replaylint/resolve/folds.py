"""Constant folds: strings built from literals, and the text of a call as the user wrote it."""

from __future__ import annotations

from typing import Any

import libcst as cst

from replaylint.parse import pyast
from replaylint.resolve.values import UNKNOWN, Const, Seq, Value

# str methods that map constant strings to constant strings, so `"TIME".lower()` folds.
_STR_METHODS = frozenset(
    {
        "lower",
        "upper",
        "strip",
        "lstrip",
        "rstrip",
        "replace",
        "format",
        "title",
        "capitalize",
        "casefold",
        "removeprefix",
        "removesuffix",
        "swapcase",
    }
)


def literal(node: cst.BaseExpression) -> Value:
    """The value of a literal node, or UNKNOWN when it is not one."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = pyast.evaluated(node)
        return Const(value) if value is not None else UNKNOWN
    if isinstance(node, (cst.Integer, cst.Float)):
        return Const(pyast.evaluated(node))
    return UNKNOWN


def str_const(value: Value) -> str | None:
    if isinstance(value, Const) and isinstance(value.value, str):
        return value.value
    return None


def binary(op: cst.BaseBinaryOp, left: Value, right: Value) -> Value:
    if isinstance(op, cst.Add) and isinstance(left, Seq):
        # `[ask_human] + EXTRA`: what the left holds, then the right's (known or not).
        return Seq(left.items + (right.items if isinstance(right, Seq) else (UNKNOWN,)))
    if not (isinstance(left, Const) and isinstance(right, Const)):
        return UNKNOWN
    a, b = left.value, right.value
    try:
        if isinstance(op, cst.Add) and type(a) is type(b) and isinstance(a, (str, int)):
            return Const(a + b)
        if isinstance(op, cst.Multiply):
            product = _repeat(a, b) if isinstance(a, str) else _repeat(b, a)
            if product is not None:
                return Const(product) if len(product) <= 256 else UNKNOWN
        if isinstance(op, cst.Modulo) and isinstance(a, str):
            args: Any = tuple(x.value for x in b) if isinstance(b, tuple) else b
            return Const(a % args)
    except (TypeError, ValueError):
        return UNKNOWN
    return UNKNOWN


def _repeat(text: object, times: object) -> str | None:
    """`"ab" * 3`, either way round; None unless one side is a string and the other an int."""
    if isinstance(text, str) and isinstance(times, int):
        return text * times
    return None


def str_method(text: str, method: str, args: list[Value]) -> Value:
    """Fold `"x".join([...])` and the pure str methods when every argument is constant."""
    if method == "join" and len(args) == 1 and isinstance(args[0], Seq):
        parts = [str_const(item) for item in args[0].items]
        return Const(text.join(parts)) if all(p is not None for p in parts) else UNKNOWN  # type: ignore[arg-type]
    if method not in _STR_METHODS:
        return UNKNOWN
    plain = []
    for arg in args:
        if not isinstance(arg, Const):
            return UNKNOWN
        plain.append(arg.value)
    try:
        result = getattr(text, method)(*plain)
    except (TypeError, ValueError, IndexError, KeyError):
        return UNKNOWN
    return Const(result) if isinstance(result, str) else UNKNOWN


def subscript(text: str, parts: list[Value | None], is_slice: bool) -> Value:
    """Fold indexing and slicing of a constant string: `"emit"[::-1]`."""
    ints: list[int | None] = []
    for part in parts:
        if part is None:
            ints.append(None)
        elif isinstance(part, Const) and isinstance(part.value, int):
            ints.append(part.value)
        else:
            return UNKNOWN
    try:
        if is_slice:
            return Const(text[slice(*ints)])
        return Const(text[ints[0]])  # type: ignore[index]
    except (IndexError, ValueError, TypeError):
        return UNKNOWN


_COMPUTED_ACCESS = frozenset(
    {"getattr", "vars", "globals", "locals", "__import__", "import_module", "eval", "get"}
)


def dotted(node: cst.BaseExpression) -> str | None:
    """`a.b.c` for a chain of names and attributes, else None."""
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if not isinstance(node, cst.Name):
        return None
    parts.append(node.value)
    return ".".join(reversed(parts))


def written(node: cst.BaseExpression) -> str | None:
    """The callee as the user wrote it, when it is a plain chain: `client.chat.completions.create`,
    `OpenAI().responses.create`. None for computed forms, which are named by what they resolve to."""
    parts = []
    while True:
        if isinstance(node, cst.Attribute):
            parts.append("." + node.attr.value)
            node = node.value
        elif isinstance(node, cst.Call):
            callee = node.func
            name = (
                callee.value
                if isinstance(callee, cst.Name)
                else (callee.attr.value if isinstance(callee, cst.Attribute) else None)
            )
            if name in _COMPUTED_ACCESS:
                return None
            parts.append("()")
            node = node.func
        elif isinstance(node, cst.Name):
            parts.append(node.value)
            break
        else:
            return None
    return "".join(reversed(parts))
