"""State written by a cached function that takes no argument (`@lru_cache def get_settings()`)
is written once per process, the same for every run of a worker: no run's state leaks into
another. A cached function with arguments writes again for each new one."""
import os
from functools import cache, lru_cache

from dbos import DBOS

REGISTERED: list[str] = []


def _export(keys: dict[str, str]) -> None:
    for name, value in keys.items():
        os.environ[name] = value


@lru_cache
def get_settings() -> dict[str, str]:
    keys = {"OPENAI_API_KEY": "k"}
    _export(keys)
    return keys


@cache
def register(name: str) -> str:
    REGISTERED.append(name)  # expect: ADK-W011
    return name


def every_run() -> None:
    os.environ["REGION"] = "eu"  # expect: ADK-W011


@DBOS.workflow()
def workflow(name: str) -> int:
    get_settings()
    register(name)  # expect: ADK-W005
    every_run()  # expect: ADK-W005
    return len(REGISTERED)
