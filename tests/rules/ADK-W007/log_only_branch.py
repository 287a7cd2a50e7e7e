"""A branch that only writes a log line decides nothing, whichever way it goes; one that does
anything else does."""
import logging
import os
import warnings

from dbos import DBOS

log = logging.getLogger(__name__)


@DBOS.step()
def load(name: str) -> list:
    return [name]


@DBOS.workflow()
def report(name: str) -> list:
    if os.getenv("OLD_NAME") and not os.getenv("NEW_NAME"):
        warnings.warn("OLD_NAME is deprecated", DeprecationWarning)
    if os.getenv("VERBOSE"):
        log.info("loading %s", name)
    elif os.getenv("QUIET"):
        pass
    else:
        log.debug("loading")
    if os.getenv("SKIP"):  # expect: ADK-W007
        log.info("skipped")
        return []
    return load(name)
