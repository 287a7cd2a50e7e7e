"""Fixtures shared by the test modules."""

from __future__ import annotations

import pytest

from replaylint.engine import check as engine


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The display names of the candidates the engine actually parses and walks, run by run
    (what the cache and the ast gate spare it is not there)."""
    seen: list[str] = []
    for name in ("check_records", "check_registrars"):  # registrars are checked apart
        original = getattr(engine, name)

        def spy(candidates, *args, _original=original, **kwargs):
            candidates = list(candidates)
            seen.extend(display for _, display, _ in candidates)
            return _original(candidates, *args, **kwargs)

        monkeypatch.setattr(engine, name, spy)
    return seen
