"""Positions from one statement's code generation agree with the whole module's, on every node."""

from __future__ import annotations

import libcst as cst
import pytest

from replaylint.parse import deep_positions, positions
from replaylint.parse.parsing import parse, statement_lines

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
    "nested blocks and tabs": (
        "class A:\n\tdef m(self):\n\t\tif x:\n\t\t\ty = f(g())\n\t\telif z():\n\t\t\tpass\n"
        "\t\telse:\n\t\t\treturn h(\n\t\t\t\t1)\n"
    ),
    "non-ascii text": "name = 'café' + f('é')[0].upper()\nπ = g(name, 'naïve').h\n",
    "async and nested": (
        "async def run():\n    async with a() as b:\n        await b.c()\n"
        "    def inner():\n        return lambda: d()\n    return inner()\n"
    ),
}


class _Nodes(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, (cst.Call, cst.Name, cst.Attribute, cst.Subscript)):
            self.found.append(node)
        return True


class _Innermost(cst.CSTVisitor):
    """Every Call, Name and Attribute, with the innermost statement holding it (as the walk
    records it: a simple statement line, or a compound statement for its header and suites)."""

    def __init__(self) -> None:
        self.stack: list[cst.CSTNode] = []
        self.found: dict[cst.CSTNode, cst.CSTNode | None] = {}

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, (cst.SimpleStatementLine, cst.BaseCompoundStatement)) and not (
            isinstance(node, cst.If)
            and self.stack
            and getattr(self.stack[-1], "orelse", None) is node
        ):
            self.stack.append(node)
        elif isinstance(node, (cst.Call, cst.Name, cst.Attribute)):
            self.found[node] = self.stack[-1] if self.stack else None
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        if self.stack and self.stack[-1] is original_node:
            self.stack.pop()


@pytest.mark.parametrize("source", LAYOUTS.values(), ids=list(LAYOUTS))
def test_statement_spans_match_module_spans(source: str) -> None:
    tree, _ = parse(source.encode())
    first_lines = statement_lines(source.encode())
    assert positions.statement_origins(tree, first_lines) is not None  # the parsers pair up
    visitor = _Innermost()
    tree.visit(visitor)
    wanted = visitor.found
    assert wanted
    assert positions.spans_in_statements(tree, wanted, first_lines) == positions.spans(tree, wanted)


# CPython dates a decorator from its expression's first token, a line after its `@` here.
LATER_EXPRESSIONS = {
    "parenthesized": "@(\n    lambda f: f\n)\nasync def reminder(ctx, at=time.time()):\n",
    "continued": "class K:\n    @ \\\n    staticmethod\n    def m(at=time.time()):\n",
    "a comment": "@(  # comment\n    staticmethod)\ndef m(at=time.time()):\n",
}


@pytest.mark.parametrize("name", sorted(LATER_EXPRESSIONS))
def test_a_decorator_whose_expression_starts_after_its_at_is_placed_from_the_whole_module(
    name: str,
) -> None:
    from replaylint import guard_source

    body = LATER_EXPRESSIONS[name]
    source = f"import time\n__adk_workflow__ = True\n\n{body}        return at\n"
    tree, _ = parse(source.encode())
    assert positions.statement_origins(tree, statement_lines(source.encode())) is None
    [finding] = guard_source(source, source="wf.py").findings
    line = source[: source.index("time.time()")].count("\n") + 1
    assert (finding.code.value, finding.span.line) == ("ADK-W003", line)


def test_statements_the_parsers_cannot_pair_fall_back_to_the_whole_module() -> None:
    tree, _ = parse(b"x = f()\n")
    statement = tree.body[0]
    call = statement.body[0].value  # type: ignore[attr-defined]
    spans = positions.spans_in_statements(tree, {call: statement}, [5, 6])
    assert spans == positions.spans(tree, [call])


@pytest.mark.parametrize("source", LAYOUTS.values(), ids=list(LAYOUTS))
def test_cpythons_positions_agree_with_code_generation(source: str) -> None:
    tree, _ = parse(source.encode())
    first_lines = statement_lines(source.encode())
    origins = positions.statement_origins(tree, first_lines)
    assert origins is not None
    kinds = (cst.Call, cst.Attribute, cst.Subscript)
    checked = 0
    for statement in tree.body:
        visitor = _Nodes()
        statement.visit(visitor)
        wanted = {node for node in visitor.found if isinstance(node, kinds)}
        if not wanted:
            continue
        index = origins[id(statement)][2]
        found = deep_positions.locate(source.encode(), statement, index, wanted)
        assert found == positions.spans(tree, wanted)
        checked += len(wanted)
    assert checked


def test_a_finding_inside_an_expression_too_deep_to_generate_is_placed_exactly() -> None:
    from replaylint import guard_source

    source = "import time\n__adk_workflow__ = True\ndef run():\n    return (1\n"
    source += "+ 1\n" * 1000 + "+ time.time())\n"
    [finding] = guard_source(source, source="wf.py").findings
    assert (finding.code.value, finding.span) == ("ADK-W003", positions.Span(1005, 2, 1005, 13))
