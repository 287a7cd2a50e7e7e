"""@activity and model_call_activity: calls whose results are recorded live and served on replay."""

from __future__ import annotations

import asyncio
import functools
import inspect
import types
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any, TypeVar, overload

from replaylint.workflows.session import INSIDE_ACTIVITY, Step, active, session_for_call

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
    `ActivityError`. Outside any run the function simply runs; called from a thread that
    does not carry the run while a run is in progress, it raises ActivityContextError.
    The recorded name defaults to the function's `__qualname__`; pass `name=` to keep
    histories valid across renames. Arguments and results must be plain JSON (see
    `canonical.to_json_value`).

    Calling an async activity claims its ordinal at once (call order, not the order the
    event loop happens to start tasks in) and returns the coroutine to await; its result
    is delivered to the workflow in the order recorded for the run.
    """
    if name is not None and (not isinstance(name, str) or not name):
        raise ValueError(f"@activity(name=...) needs a non-empty str, got {name!r}")

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        if not callable(func):
            raise TypeError(f"@activity decorates a function, got {type(func).__name__}")
        recorded_name = name or func.__qualname__
        if inspect.iscoroutinefunction(func):
            return AsyncActivity(func, recorded_name)

        @functools.wraps(func)
        def sync_activity(*args: Any, **kwargs: Any) -> Any:
            return _call_sync("activity", recorded_name, func, args, kwargs)

        sync_activity.activity_name = recorded_name  # type: ignore[attr-defined]
        return sync_activity

    if fn is None:
        return decorate
    if isinstance(fn, str):
        raise TypeError(
            "use @activity(name=...) to name an activity, not @activity(...) with a positional str"
        )
    return decorate(fn)


class AsyncActivity:
    """An async `@activity`: a call claims its command at once and returns the coroutine to await.

    It carries the function's metadata and code object, so `inspect.iscoroutinefunction`
    and `inspect.signature` see the decorated function, and it binds as a method does.
    """

    def __init__(self, func: Callable[..., Any], name: str) -> None:
        functools.update_wrapper(self, func)
        # inspect reads the code flags of a function-like object: it still looks async.
        for attribute in ("__code__", "__defaults__", "__kwdefaults__"):
            if hasattr(func, attribute):
                setattr(self, attribute, getattr(func, attribute))
        self.activity_name = name
        self._func = func

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return start_async("activity", self.activity_name, self._func, args, kwargs)

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        return self if instance is None else types.MethodType(self, instance)

    def __repr__(self) -> str:
        return f"<async activity {self.activity_name!r}>"


def model_call_activity(call: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """Make one model-provider call as a recorded command of kind ``model_call``.

    ``model_call_activity(client.messages.create, model=..., messages=...)``: executed once
    live, served from the history on replay. The recorded name is the callable's qualified
    name (e.g. ``Messages.create``). If `call` is an async function this returns an
    awaitable (its ordinal claimed already), otherwise the result itself.
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
        return start_async("model_call", name, call, args, kwargs)
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
    session = session_for_call(kind, name)
    if session is None:
        return func(*args, **kwargs)
    step = session.begin(session.request(kind, name, args, kwargs))
    if step.recorded is not None:
        session.scheduler.delivered_now(step.seq)
        return step.replay()
    # The body runs outside the run: an activity it calls is part of this one's result,
    # not a command of its own (a replay never executes this body to ask for it).
    with active(INSIDE_ACTIVITY):
        try:
            value = func(*args, **kwargs)
        except Exception as exc:
            error = step.fail(exc)
            session.scheduler.delivered_now(step.seq)
            raise error from exc
    result = step.succeed(value)
    session.scheduler.delivered_now(step.seq)
    return result


def start_async(
    kind: str, name: str, func: Callable[..., Any], args: Sequence[Any], kwargs: Mapping[str, Any]
) -> Any:
    """Claim the command now (or run plainly outside a run) and return the coroutine to await."""
    session = session_for_call(kind, name)
    if session is None:
        return func(*args, **kwargs)
    step = session.begin(session.request(kind, name, args, kwargs))
    return _run_async(step, func, args, kwargs)


def _run_async(
    step: Step, func: Callable[..., Any], args: Sequence[Any], kwargs: Mapping[str, Any]
) -> Coroutine[Any, Any, Any]:
    async def run() -> Any:
        scheduler = step.session.scheduler
        gated = scheduler.on_run_loop()  # awaited by a task of the run, not on another loop
        if step.recorded is not None:
            if gated:
                await scheduler.turn(step.seq)
            else:
                scheduler.delivered_now(step.seq)
            return step.replay()
        failure: tuple[BaseException, BaseException] | None = None
        if gated:
            scheduler.body_started()
        try:
            with active(INSIDE_ACTIVITY):
                value = await func(*args, **kwargs)
        except asyncio.CancelledError as exc:
            step.fail(exc)  # recorded as cancelled; a replay cancels it at the same point
            raise
        except Exception as exc:
            failure = (step.fail(exc), exc)
        finally:
            if gated:
                scheduler.body_finished()
        result = None if failure else step.succeed(value)
        if gated:
            await scheduler.hold(step.seq)
        else:
            scheduler.delivered_now(step.seq)
        if failure:
            raise failure[0] from failure[1]
        return result

    return run()
