"""Dataclass, attrs and pydantic fields: which call declares one, where it holds the default
factory, and what building an instance runs besides `__init__`."""

from __future__ import annotations

import libcst as cst

from replaylint.resolve.model import ClassInfo, Func, FunctionInfo

# Calls that declare a field, and where they hold the factory run at construction.
FIELD_FACTORIES: dict[str, tuple[str, ...]] = {
    "dataclasses.field": ("default_factory",),
    "pydantic.Field": ("default_factory",),
    "pydantic.fields.Field": ("default_factory",),
    "sqlmodel.Field": ("default_factory",),
    "attrs.field": ("factory", "default"),
    "attr.ib": ("factory", "default"),
    "attr.attrib": ("factory", "default"),
    "attr.field": ("factory", "default"),
    "attrs.Factory": ("0", "factory"),
    "attr.Factory": ("0", "factory"),
}
_VALIDATORS = frozenset({"field_validator", "model_validator", "validator", "root_validator"})


def is_factory(arg: cst.Arg, index: int, where: tuple[str, ...]) -> bool:
    if arg.keyword is not None:
        return arg.keyword.value in where
    return index == 0 and "0" in where and not arg.star


def declared_field(statement: cst.CSTNode | None) -> str:
    """`order_id` of `order_id: str = field(...)` (or `order_id = attr.ib(...)`); "" if none."""
    small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) else None
    if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
        return small.target.value
    if isinstance(small, cst.Assign) and isinstance(small.targets[0].target, cst.Name):
        return small.targets[0].target.value
    return ""


def construction(info: ClassInfo, given: set[str]) -> list[FunctionInfo]:
    """What building an instance runs besides `__init__`, the bases' included: the default
    factories of the fields not `given` by keyword, `__post_init__`, and pydantic validators."""
    found: list[FunctionInfo] = []
    for current in info.lineage():
        found.extend(runs for name, runs in current.defaults.items() if name not in given)
        for name, value in current.attrs.items():
            if not isinstance(value, Func):
                continue
            decorated = {d.rsplit(".", 1)[-1] for d in value.info.decorators}
            if name == "__post_init__" or decorated & _VALIDATORS:
                found.append(value.info)
    return found
