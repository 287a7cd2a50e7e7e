from helpers import shard, sorted_shard

__adk_workflow__ = True


def route(key: str) -> int:
    return shard(key)  # expect: ADK-W005


def route_sorted(keys: list[str]) -> list[str]:
    return sorted_shard(keys)
