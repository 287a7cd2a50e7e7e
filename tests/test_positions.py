"""Positions from one statement's code generation agree with the whole module's, on every node."""

from __future__ import annotations

import libcst as cst
import pytest

from replaylint import positions
from replaylint.parsing import parse

LAYOUTS = {
    "decorators and comments": (
        '"""Doc."""\n# header comment\n\nimport time\n\n\n# before\n@a.b(\n    1,\n)\n'
        "# between decorators\n@c\ndef f(x=time.time()):\n    return g(x)  # trailing\n\n"
        "class K(Base):\n    y = h()\n\n    def m(self):\n        return self.y.z()\n"
    ),
    "semicolons and one-line suites": "a = f(); b = g()\nif a: c = h()\nelse: c = k()\nwhile x(): pass\n",
    "continuations and brackets": "x = (\n    f(1,\n      2)\n    + g())\ny = \\\n    h()\n",
    "crlf": "import time\r\n\r\ndef f():\r\n    return time.time()\r\n",
    "lone cr": "import time\r\rdef f():\r    return g(time.time())\r",
    "compound statements": (
        "try:\n    f()\nexcept E as e:\n    g(e)\nfinally:\n    h()\n"
        "with a() as b, c():\n    d()\nfor i in it():\n    j(i)\nelse:\n    k()\n"
        "match m():\n    case [x]:\n        n(x)\n"
    ),
    "async and nested": (
        "async def run():\n    async with a() as b:\n        await b.c()\n"
        "    def inner():\n        return lambda: d()\n    return inner()\n"
    ),
}


class _Nodes(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, (cst.Call, cst.Name, cst.Attribute, cst.SimpleStatementLine)):
            self.found.append(node)
        return True


@pytest.mark.parametrize("source", LAYOUTS.values(), ids=list(LAYOUTS))
def test_statement_spans_match_module_spans(source: str) -> None:
    tree, origins = parse(source.encode())
    assert origins is not None
    wanted: dict[cst.CSTNode, int] = {}
    for index, statement in enumerate(tree.body):
        visitor = _Nodes()
        statement.visit(visitor)
        wanted.update(dict.fromkeys(visitor.found, index))
    assert wanted
    assert positions.spans_in_statements(tree, wanted, origins) == positions.spans(tree, wanted)


def test_statements_the_parsers_cannot_pair_fall_back_to_the_whole_module() -> None:
    tree, _ = parse(b"x = f()\n")
    call = tree.body[0].body[0].value  # type: ignore[attr-defined]
    assert positions.spans_in_statements(tree, {call: 0}, None) == positions.spans(tree, [call])
