"""`replaylint server` without the `lsp` extra: one line naming the install, exit 2."""

from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner

from replaylint.cli.main import cli
from replaylint.server import missing_dependency


def test_without_pygls_the_server_says_what_to_install(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "pygls", None)  # as if it were not installed
    result = CliRunner().invoke(cli, ["server"])
    assert result.exit_code == 2
    assert result.stderr == (
        "replaylint: error: the editor server needs pygls, which is not installed: "
        "pip install './replaylint[lsp]' from the folder holding a clone, or "
        "pip install 'replaylint[lsp] @ git+URL' with the URL of its repository\n"
    )


def test_with_pygls_nothing_is_missing():
    assert missing_dependency() is None
