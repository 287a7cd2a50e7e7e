"""@activity and model_call_activity: calls whose results are recorded live and served on replay."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar, overload

from replaylint.workflows.session import Step, active, current_session

F = TypeVar("F", bound=Callable[..., Any])


@overload
def activity(fn: F, /) -> F: ...
@overload
def activity(*, name: str | None = None) -> Callable[[F], F]: ...


def activity(fn: Callable[..., Any] | None = None, /, *, name: str | None = None) -> Any:
    """Mark a function whose result is recorded: ``@activity`` or ``@activity(name="charge")``.

    In a live run the function executes once and its result (or its exception's type and
    message) is appended to the history; on replay the result is served from the history
    and the function never runs. Either way a failure reaches the workflow as an
    `ActivityError`. Outside any run the function simply runs. The recorded name defaults
    to the function's `__qualname__`; pass `name=` to keep histories valid across renames.
    Arguments and results must be plain JSON (see `canonical.to_json_value`).
    """
    if name is not None and (not isinstance(name, str) or not name):
        raise ValueError(f"@activity(name=...) needs a non-empty str, got {name!r}")

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        if not callable(func):
            raise TypeError(f"@activity decorates a function, got {type(func).__name__}")
        recorded_name = name or func.__qualname__
        if inspect.iscoroutinefunction(func):

            @functools.wraps(func)
            async def async_activity(*args: Any, **kwargs: Any) -> Any:
                return await _call_async("activity", recorded_name, func, args, kwargs)

            wrapper: Any = async_activity
        else:

            @functools.wraps(func)
            def sync_activity(*args: Any, **kwargs: Any) -> Any:
                return _call_sync("activity", recorded_name, func, args, kwargs)

            wrapper = sync_activity
        wrapper.activity_name = recorded_name
        return wrapper

    if fn is None:
        return decorate
    if isinstance(fn, str):
        raise TypeError(
            "use @activity(name=...) to name an activity, not @activity(...) with a positional str"
        )
    return decorate(fn)


def model_call_activity(call: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """Make one model-provider call as a recorded command of kind ``model_call``.

    ``model_call_activity(client.messages.create, model=..., messages=...)``: executed once
    live, served from the history on replay. The recorded name is the callable's qualified
    name (e.g. ``Messages.create``). If `call` is an async function this returns an
    awaitable, otherwise the result itself.
    """
    if not callable(call):
        raise TypeError(
            f"model_call_activity() takes the provider call first, got {type(call).__name__}"
        )
    # Arguments bound in a partial are part of the request: changing them must show on replay.
    while isinstance(call, functools.partial):
        args = (*call.args, *args)
        kwargs = {**call.keywords, **kwargs}
        call = call.func
    name = _callable_name(call)
    if inspect.iscoroutinefunction(call):
        return _call_async("model_call", name, call, args, kwargs)
    return _call_sync("model_call", name, call, args, kwargs)


def _callable_name(call: Callable[..., Any]) -> str:
    for attribute in ("__qualname__", "__name__"):
        value = getattr(call, attribute, None)
        if isinstance(value, str) and value:
            return value
    return type(call).__qualname__


def _call_sync(
    kind: str, name: str, func: Callable[..., Any], args: Sequence[Any], kwargs: Mapping[str, Any]
) -> Any:
    step = _begin(kind, name, args, kwargs)
    if step is None:
        return func(*args, **kwargs)
    if step.recorded is not None:
        return step.replay()
    # The body runs outside the run: an activity it calls is part of this one's result,
    # not a command of its own (a replay never executes this body to ask for it).
    with active(None):
        try:
            value = func(*args, **kwargs)
        except Exception as exc:
            raise step.fail(exc) from exc
    return step.succeed(value)


async def _call_async(
    kind: str, name: str, func: Callable[..., Any], args: Sequence[Any], kwargs: Mapping[str, Any]
) -> Any:
    # The command is claimed before the first await, so concurrent activities started in
    # a fixed order (asyncio.gather) get fixed ordinals however their completions interleave.
    step = _begin(kind, name, args, kwargs)
    if step is None:
        return await func(*args, **kwargs)
    if step.recorded is not None:
        return step.replay()
    with active(None):
        try:
            value = await func(*args, **kwargs)
        except Exception as exc:
            raise step.fail(exc) from exc
    return step.succeed(value)


def _begin(kind: str, name: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Step | None:
    session = current_session()
    if session is None:
        return None
    return session.begin(session.request(kind, name, args, kwargs))
