"""No comment silences a versioning finding (a comment on the new side cannot vouch for the
runs the old side started): each form is ADK-S001 beside the finding it did not silence; only
the configuration (ignore, per-file ignores, select) turns the codes off."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from tests.versioning.repos import inside, repository
from tests.versioning.test_temporal import CHARGE, NOTIFY, module

from replaylint.cli.main import cli

CHANGED = "Checkout: was: activity charge_card, now: activity notify"
UNUSED = "a suppression comment matches no finding (ADK-V001, which no comment can silence)"


def _check(tmp_path: Path, new: str, **more: str) -> list[str]:
    root = repository(tmp_path, {"flows.py": module(CHARGE), **more}, {"flows.py": new})
    with inside(root):
        result = CliRunner().invoke(cli, ["check", "--no-cache", "--base", "HEAD", "-q"])
    return [line for line in result.output.splitlines() if ": ADK-" in line]


# case -> (the new module, the line of the changed command, the line of the comment)
COMMENTS = {
    "on the line": (module(NOTIFY + "  # replaylint: ignore[ADK-V001] -- reviewed"), 27, 27),
    "as a noqa": (module(NOTIFY + "  # noqa: ADK-V001"), 27, 27),
    "on the def line": (module(NOTIFY, mark="  # replaylint: ignore[ADK-V001]"), 27, 26),
    "for the file": ("# replaylint: file-ignore[ADK-V001]\n" + module(NOTIFY), 28, 1),
}


@pytest.mark.parametrize("case", sorted(COMMENTS))
def test_a_comment_silences_no_versioning_finding(case: str, tmp_path: Path) -> None:
    new, command_line, comment_line = COMMENTS[case]
    changed = f"ADK-V001 a durable command changed where runs in flight replay ({CHANGED})"
    assert set(_check(tmp_path, new)) == {
        f"flows.py:{command_line}: {changed}",
        f"flows.py:{comment_line}: ADK-S001 {UNUSED}",
    }


def test_the_configuration_turns_it_off(tmp_path: Path) -> None:
    config = '[tool.replaylint.per-file-ignores]\n"flows.py" = ["ADK-V001"]\n'
    assert _check(tmp_path, module(NOTIFY), **{"pyproject.toml": config}) == []
