"""Path.cwd() and Path.home() read the worker's directories (ADK-W007) and give paths whose
reads and stats use its disk (ADK-W008); so does an expanded home path."""
from pathlib import Path

__adk_workflow__ = True


def exists_here(name: str) -> bool:
    here = Path.cwd()  # expect: ADK-W007
    return (here / name).exists()  # expect: ADK-W008


def read_home(name: str) -> str:
    return Path.home().joinpath(name).read_text()  # expect: ADK-W007, ADK-W008


def read_expanded(name: str) -> str:
    return Path("~").expanduser().joinpath(name).read_text()  # expect: ADK-W007, ADK-W008
