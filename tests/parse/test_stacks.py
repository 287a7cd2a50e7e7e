"""Work on a fresh stack still runs when the large stack cannot be had (`ulimit -v`)."""

from __future__ import annotations

import threading

import pytest

from replaylint.parse import stacks


def test_a_smaller_stack_is_taken_when_the_large_one_cannot_be_had(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    start = threading.Thread.start

    def refusing(self: threading.Thread) -> None:
        if threading.stack_size() > 32 * stacks.MIB:
            raise RuntimeError("can't start new thread")
        start(self)

    monkeypatch.setattr(threading.Thread, "start", refusing)
    assert stacks.on_fresh_stack(lambda: 42, 256 * stacks.MIB, "test") == 42
    assert threading.stack_size() == 0  # the process-wide setting is left as it was


def test_no_stack_at_all_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def refusing(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refusing)
    with pytest.raises(RuntimeError):
        stacks.on_fresh_stack(lambda: 42, 256 * stacks.MIB, "test")
