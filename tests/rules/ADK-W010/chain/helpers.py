def shard(key: str) -> int:
    return hash(key) % 16  # reported at the call, in the workflow module


def sorted_shard(keys: list[str]) -> list[str]:
    return sorted(set(keys))
