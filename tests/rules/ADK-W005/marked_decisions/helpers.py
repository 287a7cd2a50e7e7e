"""Helpers of a marked workflow module, in a module of their own (not marked): their own lines
are not reported, and a call of one is an ADK-W005 only when what it reads decides something
the way the rule of its root says (an environment value that only reaches a log line, state
written and never read back, a hash only logged: none)."""
import logging
import os
from functools import cache

log = logging.getLogger(__name__)
RUNS = 0


def debug_note() -> str | None:
    return os.getenv("DEBUG")


def warn_old() -> None:
    if os.getenv("LEGACY"):
        log.warning("legacy mode is set")


@cache
def settings() -> dict:
    return {"url": os.environ.get("URL", "")}


def bump() -> None:
    global RUNS
    RUNS += 1


def shard(key: str) -> None:
    log.info("shard %s", hash(key))


def region() -> str:
    return os.environ.get("REGION", "eu")
