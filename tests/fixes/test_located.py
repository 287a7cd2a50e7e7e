"""A fix's positions, worked out for the top-level statements holding its findings only, are
LibCST's PositionProvider ranges of every node there; the statements holding the lines are
those whose code holds them."""

from __future__ import annotations

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from replaylint.fixes.located import located

SOURCES = {
    "plain": (
        "# a header comment\n\n"
        '"""The docstring."""\n'
        "import time\n\n\n"
        "# leading comment of f\n"
        "@decorated(  # a comment inside\n"
        "    1,\n"
        ")\n"
        "def f(x):\n"
        "    if x: a(); b()\n"
        "    return time.time() + \\\n"
        "        x\n\n\n"
        "class C:\n"
        "    '''Docs\n"
        "    on lines.'''\n\n"
        "    def m(self):\n"
        "        return [i for i in range(3)]\n"
        "    # footer comment of the body\n"
        "\n"
        "value = f(1); other = 2\n"
    ),
    "crlf": "import time\r\n\r\ndef f():\r\n    return time.time()\r\n\r\nx = 1\r\n",
    "no trailing newline": "import time\n\ndef f():\n    return time.time()",
    "tabs and a form feed": "import time\n\f\nclass K:\n\tdef m(self):\n\t\treturn time.time()\n",
    "only a header": "# nothing but comments\n",
    # CPython dates these decorators from their expressions, a line after the `@`.
    "a decorator's expression on the next line": (
        "import time\n\n\n@(\n    lambda c: c\n)\nclass W:\n    def run(self):\n"
        "        return time.time()\n\n\n@ \\\n  deco\ndef f():\n    return time.time()\n"
    ),
}


def _every_line(source: str) -> set[int]:
    return set(range(1, source.count("\n") + source.count("\r") - source.count("\r\n") + 2))


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_positions_are_position_providers_for_every_node_of_the_statements_holding_the_lines(
    name: str,
) -> None:
    source = SOURCES[name]
    module = cst.parse_module(source)
    whole = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    for line in sorted(_every_line(source)):
        where = located(module, {line}, source)
        assert where.holding is not None
        statements = [s for s in module.body if id(s) in where.holding]
        assert len(statements) <= 1
        for statement in statements:
            nodes = [statement, *_under(statement)]
            assert {n: where.positions[n] for n in nodes} == {n: whole[n] for n in nodes}
        # The statement holding a line of code is the one whose range holds it.
        ranges = [s for s in module.body if whole[s].start.line <= line <= whole[s].end.line]
        for statement in ranges:
            assert statements == [statement], (name, line)


def test_the_statements_of_several_lines_and_bytes_with_a_declared_encoding() -> None:
    source = "# -*- coding: latin-1 -*-\nimport time\n\ndef f():\n    return 'é', time.time()\n"
    data = source.encode("latin-1")
    module = cst.parse_module(data)
    where = located(module, {2, 5}, data)
    assert where.holding == {id(module.body[0]), id(module.body[1])}
    call = module.body[1].body.body[0].body[0].value.elements[1].value  # type: ignore[attr-defined]
    assert (
        where.positions[call]
        == (MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)[call])
    )
    assert where.positions[call].start.line == 5


def test_without_lines_every_node_is_positioned_and_every_statement_held() -> None:
    module = cst.parse_module(SOURCES["plain"])
    where = located(module, None, SOURCES["plain"])
    assert where.holding is None
    assert len(where.positions) == len(
        MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    )


def _under(node: cst.CSTNode) -> list[cst.CSTNode]:
    found = []
    stack = list(node.children)
    while stack:
        child = stack.pop()
        found.append(child)
        stack.extend(child.children)
    return found
