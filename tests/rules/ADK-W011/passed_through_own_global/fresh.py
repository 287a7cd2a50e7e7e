"""Imported as usual: the sandbox gives each run a copy of its own."""
SEEN = []


def remember(x: str) -> int:
    SEEN.append(x)
    return len(SEEN)
