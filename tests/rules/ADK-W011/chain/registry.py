_NAMES: list[str] = []


def register(name: str) -> None:
    _NAMES.append(name)  # reported at the call, in the workflow module


def lookup(name: str) -> str:
    return name if name in _NAMES else ""
