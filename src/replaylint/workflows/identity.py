"""A workflow's identity: its import path, and the name it may declare with @workflow."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, overload

F = TypeVar("F", bound=Callable[..., Any])
_ATTRIBUTE = "__replaylint_workflow_name__"


@overload
def workflow(fn: F, /) -> F: ...
@overload
def workflow(*, name: str | None = None) -> Callable[[F], F]: ...


def workflow(fn: Callable[..., Any] | None = None, /, *, name: str | None = None) -> Any:
    """Declare a workflow's name: ``@workflow`` (its `__qualname__`) or ``@workflow(name="payment")``.

    The function is returned unchanged, only marked. `record()` writes the name into the
    history, and a replay refuses (``workflow-mismatch``, naming both) to run a history
    recorded under one name against a workflow that declares another or none. Histories
    without a name (and workflows that never declare one) are replayed as before, so a
    changed copy of the code can be tested against the same file.
    """
    if name is not None and (not isinstance(name, str) or not name):
        raise ValueError(f"@workflow(name=...) needs a non-empty str, got {name!r}")

    def declare(func: Callable[..., Any]) -> Callable[..., Any]:
        if not callable(func):
            raise TypeError(f"@workflow decorates a function, got {type(func).__name__}")
        setattr(func, _ATTRIBUTE, name or func.__qualname__)
        return func

    if fn is None:
        return declare
    if isinstance(fn, str):
        raise TypeError(
            "use @workflow(name=...) to name a workflow, not @workflow(...) with a positional str"
        )
    return declare(fn)


def workflow_name(workflow: Callable[..., Any]) -> str | None:
    """The name `workflow` declared with @workflow, or None."""
    name = getattr(workflow, _ATTRIBUTE, None)
    return name if isinstance(name, str) else None


def workflow_path(workflow: Callable[..., Any]) -> str:
    """The import path a history names its workflow by: ``package.module:function``."""
    module = getattr(workflow, "__module__", None)
    qualname = getattr(workflow, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str):
        raise TypeError(
            f"a workflow must be a function with __module__ and __qualname__, got {workflow!r}"
        )
    return f"{module}:{qualname}"
