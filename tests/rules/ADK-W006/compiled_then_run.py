"""`eval(compile(tree, ...))` is one dynamic access: reported once, by the eval; a compile
whose code object is run elsewhere is reported where it is written."""
import ast

from temporalio import workflow


def evaluate(expression: str) -> bool:
    tree = ast.parse(expression, mode="eval")
    return bool(eval(compile(tree, "<condition>", "eval")))  # expect: ADK-W006


def prepared(source: str) -> object:
    return compile(source, "<rule>", "eval")  # expect: ADK-W006


@workflow.defn
class Playbook:
    @workflow.run
    async def run(self, cond: str) -> bool:
        code = prepared(cond)
        return evaluate(cond) and bool(code)
