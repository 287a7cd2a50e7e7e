"""An id() that only keys a once-per-process cache decides nothing: whether the entry is built
now or was built before, the code after reads the same entry. One that decides whether other
work runs still does."""
import asyncio

from dbos import DBOS

_engines: dict[int, object] = {}
_seen: dict[int, bool] = {}


def engine_for_loop() -> object:
    key = id(asyncio.get_running_loop())
    if key not in _engines:
        _engines[key] = object()
    return _engines[key]


def once(item: object) -> None:
    key = id(item)  # expect: ADK-W010
    if key not in _seen:
        _seen[key] = True  # expect: ADK-W011
        print("first time", key)


@DBOS.workflow()
def workflow(item: object) -> None:
    engine_for_loop()
    once(item)  # expect: ADK-W005
