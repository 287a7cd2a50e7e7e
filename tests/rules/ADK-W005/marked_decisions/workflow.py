import logging

from helpers import bump, debug_note, region, settings, shard, warn_old

__adk_workflow__ = True
log = logging.getLogger(__name__)


def flow(order: dict) -> str:
    log.info("debug %s", debug_note())
    warn_old()
    settings()
    bump()
    shard(order["id"])
    if region() == "us":  # expect: ADK-W005
        return order["id"].upper()
    return order["id"]
