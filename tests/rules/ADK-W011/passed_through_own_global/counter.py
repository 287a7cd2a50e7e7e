"""Imported under imports_passed_through(): one copy for every run on a worker."""
SEEN = []


def remember(x: str) -> int:
    SEEN.append(x)  # expect: ADK-W011
    return len(SEEN)
