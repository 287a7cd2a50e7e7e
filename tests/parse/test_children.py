"""parse.children reads the same children LibCST's `node.children` builds, in the same order."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, ParentNodeProvider

from replaylint.parse.children import _visited_fields, children, parent_map

ROOT = Path(__file__).resolve().parents[2]
# Every syntax form the project's own code, its fixtures and examples use, and some it does not.
_FORMS = """
from . import (a as b, c)
from x import *
async def f[T](x: int, /, y=1, *args, z: "q" = 2, **kw) -> list[T]:
    global g
    async with a as (b, c), d:
        async for i in aiter():
            yield [j async for j in k if j if not j]
    match x:
        case {"k": [1, *rest]} | Point(x=0) if rest: pass
        case _: ...
    try:
        del a[1:2:3], b.c
    except* (E, F) as e:
        raise X from e
    else:
        lambda *, k=1: (yield)
    finally:
        nonlocal_ = {**d, 'k': {k: v for k, v in w}} if (n := 3) else {1, 2}
    return f"{x!r:>{w}} {y=}" "more" r"raw", b"b" rb"x"
type Alias[K] = dict[K, int]
@dec(1)
class C(B, metaclass=M):
    x: int = 0; y = -x ** 2 @ m
    def g(self): assert self, "m"; return ~1 if a < b <= c is not d else await z
"""


def _every_node(tree: cst.CSTNode) -> list[cst.CSTNode]:
    found, stack = [], [tree]
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(node.children)
    return found


def _modules() -> list[Path]:
    return sorted([*ROOT.glob("src/replaylint/**/*.py"), *ROOT.glob("tests/rules/**/*.py")])


@pytest.mark.parametrize("source", [_FORMS], ids=["every-form"])
def test_children_are_libcsts_children_for_every_form(source: str) -> None:
    tree = cst.parse_module(source)
    nodes = _every_node(tree)
    assert len({type(n) for n in nodes}) > 90  # the sample reaches most node types
    for node in nodes:
        assert [id(c) for c in children(node)] == [id(c) for c in node.children], type(node)


def test_children_are_libcsts_children_on_the_projects_own_code() -> None:
    checked = 0
    for path in _modules():
        try:
            tree = cst.parse_module(path.read_bytes())
        except cst.ParserSyntaxError:
            continue  # fixtures of unreadable modules
        for node in _every_node(tree):
            assert [id(c) for c in children(node)] == [id(c) for c in node.children], path
            checked += 1
    assert checked > 100_000


def test_parent_map_is_libcsts_parent_node_provider() -> None:
    trees = [cst.parse_module(_FORMS)]
    trees += [cst.parse_module(path.read_bytes()) for path in _modules()[:40]]
    for tree in trees:
        expected = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(ParentNodeProvider)
        found = parent_map(tree)
        assert {id(node): id(parent) for node, parent in found.items()} == {
            id(node): id(parent) for node, parent in expected.items()
        }


def _node_classes() -> list[type]:
    found: set[type] = set()
    stack: list[type] = [cst.CSTNode]
    while stack:
        for sub in stack.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                stack.append(sub)
    return sorted(found, key=lambda kind: kind.__qualname__)


@pytest.mark.parametrize("kind", _node_classes(), ids=lambda kind: kind.__qualname__)
def test_fields_read_are_those_each_class_visits_in_order(kind: type) -> None:
    """The fields taken from a class's compiled `_visit_and_replace_children` are the ones its
    source names in its visit calls, in the same order (a LibCST upgrade that broke this would
    reorder or lose children)."""
    method = next(
        (
            o.__dict__["_visit_and_replace_children"]
            for o in kind.__mro__
            if "_visit_and_replace_children" in o.__dict__
        ),
        None,
    )
    if method is None or inspect.isabstract(kind):  # never built: nothing is read
        assert _visited_fields(kind) is None
        return
    written = re.findall(r"visit_\w+\(\s*self,\s*\"(\w+)\"", inspect.getsource(method))
    assert _visited_fields(kind) == tuple(dict.fromkeys(written))
