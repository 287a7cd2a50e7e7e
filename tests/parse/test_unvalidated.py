"""parse.unvalidated parses as LibCST does, and leaves node validation as it found it."""

from __future__ import annotations

import threading

import libcst as cst
import pytest
from libcst._nodes.base import CSTNode

from replaylint.parse import unvalidated

SOURCE = b"import os\n\ndef f(x):\n    return [y for y in x if y] or os.sep\n"


def test_the_tree_is_libcsts_tree() -> None:
    tree = unvalidated.parse_module(SOURCE)
    assert tree.deep_equals(cst.parse_module(SOURCE))
    assert tree.bytes == SOURCE


def test_validation_is_back_after_a_parse_and_after_a_failed_one() -> None:
    unvalidated.parse_module(SOURCE)
    with pytest.raises(cst.ParserSyntaxError):
        unvalidated.parse_module(b"def (:\n")
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not a name")  # built by hand: still checked


def test_concurrent_parses_leave_validation_on() -> None:
    errors: list[BaseException] = []

    def parse_many() -> None:
        try:
            for _ in range(30):
                assert unvalidated.parse_module(SOURCE).bytes == SOURCE
        except BaseException as error:  # handed to the test below
            errors.append(error)

    threads = [threading.Thread(target=parse_many) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert CSTNode.__post_init__ is unvalidated._VALIDATING
