"""An id() that only keys a once-per-process cache decides nothing: whether the entry is built
now or was built before, the code after reads the same entry. It still decides where the test
guards more than the fill, a durable command, or state a run builds for itself."""
import asyncio

from dbos import DBOS

_engines: dict[int, object] = {}
_seen: dict[int, bool] = {}


def engine_for_loop() -> object:
    key = id(asyncio.get_running_loop())
    if key not in _engines:
        _engines[key] = object()
    return _engines[key]


def engine_returned_early() -> object:
    key = id(asyncio.get_running_loop())
    if key in _engines:
        return _engines[key]
    engine = object()
    _engines[key] = engine
    return engine


def returned_early_or_not(item: object) -> object:
    key = id(item)  # expect: ADK-W010
    if key in _engines:
        return _engines[key]
    return object()  # returns before storing: the key picks what is returned


def returned_early_or_stepped(item: object) -> object:
    key = id(item)  # expect: ADK-W010
    if key in _engines:
        return _engines[key]
    engine = build()  # a step: whether it runs is recorded
    _engines[key] = engine
    return engine


def stepped_after_store(item: object) -> object:
    key = id(item)  # expect: ADK-W010
    if key in _engines:
        return _engines[key]
    _engines[key] = object()
    build()  # a step that runs only on a miss: the key decides a command
    return _engines[key]


def other_result_after_store(item: object) -> object:
    key = id(item)  # expect: ADK-W010
    if key in _engines:
        return _engines[key]
    _engines[key] = object()
    return "fresh"  # not the entry: the key decides the result


def nested_return_before_store(item: object, flag: bool) -> object:
    key = id(item)  # expect: ADK-W010
    if key in _engines:
        return _engines[key]
    if flag:
        return object()  # returns before storing
    _engines[key] = object()
    return _engines[key]


def once(item: object) -> None:
    key = id(item)  # expect: ADK-W010
    if key not in _seen:
        _seen[key] = True  # expect: ADK-W011
        print("first time", key)


@DBOS.step()
def build() -> object:
    return object()


def stepped(item: object) -> object:
    key = id(item)  # expect: ADK-W010
    if key not in _engines:
        _engines[key] = build()  # a step: whether it runs is recorded
    return _engines[key]


def per_run(item: object) -> list[int]:
    local: dict[int, object] = {}
    key = id(item)  # expect: ADK-W010
    if key not in local:
        local[key] = object()
    return list(local)


def built_by_a_helper(item: object) -> object:
    key = id(item)  # expect: ADK-W010
    if key not in _engines:
        _engines[key] = through_a_step()
    return _engines[key]


def through_a_step() -> object:
    return build()


COLORS = ["blue", "green"]


def bucketed(name: str) -> str:
    bucket = hash(name) % 2  # expect: ADK-W010
    if COLORS[bucket] == "blue":  # a number of its own, not a key: it picks the branch
        return "first"
    return "second"


@DBOS.workflow()
def workflow(item: object) -> None:
    engine_for_loop()
    engine_returned_early()
    returned_early_or_not(item)  # expect: ADK-W005
    returned_early_or_stepped(item)  # expect: ADK-W005
    stepped_after_store(item)  # expect: ADK-W005
    other_result_after_store(item)  # expect: ADK-W005
    nested_return_before_store(item, True)  # expect: ADK-W005
    once(item)  # expect: ADK-W005
    stepped(item)  # expect: ADK-W005
    per_run(item)  # expect: ADK-W005
    built_by_a_helper(item)  # expect: ADK-W005
    bucketed(str(item))  # expect: ADK-W005
