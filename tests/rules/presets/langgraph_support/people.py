"""Asking a person: the interrupt lives in a helper module."""
from langgraph.types import interrupt


def ask_human(question: str, payload: dict) -> str:
    return interrupt({"question": question, **payload})
