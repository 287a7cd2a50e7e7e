"""A fix's scope questions are answered from the part of the module that holds its findings:
the same answers as the whole module's analysis, which is worked out only for a node outside
that part."""

from __future__ import annotations

import libcst as cst

from replaylint.fixes.located import located
from replaylint.fixes.names import Names
from replaylint.fixes.scopes import Scopes
from replaylint.parse.children import parent_map

SOURCE = """\
import time
from temporalio import workflow


def declares():
    global CLOCK
    CLOCK = time.monotonic


def unrelated(value=1):
    workflow_id = value
    return workflow_id


@workflow.defn
class Kept:
    @workflow.run
    async def run(self, when: float) -> float:
        return time.time() + when
"""
NAMES = ["CLOCK", "workflow_id", "value", "when", "time", "workflow", "declares", "len", "x"]


def _scopes(module: cst.Module, lines: set[int]) -> Scopes:
    return Scopes(module, located(module, lines, SOURCE).holding, parent_map(module))


def _nodes(node: cst.CSTNode) -> list[cst.CSTNode]:
    return [node, *parent_map(node)]  # every node under it has a parent


def test_the_answers_in_the_kept_part_are_the_whole_modules() -> None:
    module = cst.parse_module(SOURCE)
    scopes = _scopes(module, {19})
    part, whole = Names(module, scopes), Names(module)
    kept = module.body[-1]
    assert scopes.part.body[3].body.body[0].body[0].deep_equals(cst.Pass())  # unrelated's
    assert scopes.part.body[2] is module.body[2]  # declares `global`: kept
    assert scopes.part.body[4] is kept
    for node in _nodes(kept):
        for name in NAMES:
            assert part.is_free(name, node) == whole.is_free(name, node), (name, node)
            assert part.is_builtin(name, node) == whole.is_builtin(name, node)
        assert part.names_of(node) == whole.names_of(node)
    assert not part.is_free("CLOCK", kept.body.body[0])  # bound by the `global` in declares
    assert "whole" not in vars(scopes)  # never needed


def test_a_node_of_a_body_left_out_is_asked_of_the_whole_module() -> None:
    module = cst.parse_module(SOURCE)
    scopes = _scopes(module, {19})
    left_out = module.body[3].body.body[0]  # `workflow_id = value`, in unrelated
    names = Names(module, scopes)
    assert names.is_free("workflow_id", left_out) is False
    assert "whole" in vars(scopes)
