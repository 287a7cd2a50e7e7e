"""`replaylint check --add-ignore`: a directive for each finding, in place, once."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from replaylint.cli.main import cli

UNSAFE = "import time\n\n__adk_workflow__ = True\n\n\ndef run():\n    return time.time()\n"
REASON = "<reason: why this is replay safe>"


@pytest.fixture()
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "wf.py").write_text(UNSAFE)
    return CliRunner()


def test_add_ignore_comments_each_finding_once(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "wf.py").write_text(
        "import time\nimport uuid\n\n__adk_workflow__ = True\n\n\n"
        "def charge():\n    return uuid.uuid4()  # the idempotency key\n\n\n"
        "def run():\n"
        "    key = charge()\n"
        "    total = max(\n        time.time(),\n        time.monotonic(),\n    )\n"
        "    when = time.time()  # replaylint: ignore[ADK-W002] -- logged only\n"
        "    return key, total, when\n"
    )
    result = runner.invoke(cli, ["check", "--add-ignore", "."])
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "Added 3 suppressions in 1 file.\n",
        # The ADK-W002 directive was stale before the run: no comment can silence that.
        "replaylint: warning: wf.py:17: ADK-S001 cannot be suppressed: "
        "remove the comment, or the codes in it that no longer apply\n",
    )
    assert (tmp_path / "wf.py").read_text() == (
        "import time\nimport uuid\n\n__adk_workflow__ = True\n\n\n"
        "def charge():\n"
        # A directive on the root vouches for it: the call of charge() needs none.
        "    return uuid.uuid4()  # the idempotency key"
        f"  # replaylint: ignore[ADK-W002] -- {REASON}\n"
        "\n\n"
        "def run():\n"
        "    key = charge()\n"
        # Two clock reads in one statement: one directive covers the statement.
        f"    total = max(\n        time.time(),  # replaylint: ignore[ADK-W003] -- {REASON}\n"
        "        time.monotonic(),\n    )\n"
        "    when = time.time()  # replaylint: ignore[ADK-W002, ADK-W003] -- logged only\n"
        "    return key, total, when\n"
    )
    again = runner.invoke(cli, ["check", "--add-ignore", "."])
    assert (again.exit_code, again.stdout) == (0, "Added 0 suppressions in 0 files.\n")
    after = runner.invoke(cli, ["check", "."])
    assert after.stdout == (
        "wf.py:17: ADK-S001 a suppression comment matches no finding (ADK-W002)\n"
        "    remove the comment, or the codes in it that no longer apply\n"
        "1 finding in 1 workflow module (1 file checked).\n"
    )


def test_add_ignore_puts_a_call_of_an_unsafe_helper_module_on_the_call(
    runner: CliRunner, tmp_path: Path
) -> None:
    (tmp_path / "wf.py").write_text(
        "from helpers import key\n\n__adk_workflow__ = True\n\n\ndef run():\n"
        "    return key()  # noqa: ADK-W001\n"
    )
    (tmp_path / "helpers.py").write_text("import uuid\n\n\ndef key():\n    return uuid.uuid4()\n")
    result = runner.invoke(cli, ["check", "--add-ignore", "wf.py"])
    assert result.stdout == "Added 1 suppression in 1 file.\n"
    # Merged into the noqa that already names our codes; the helper module is not touched.
    assert (tmp_path / "wf.py").read_text().splitlines()[-1] == (
        "    return key()  # noqa: ADK-W001, ADK-W005"
    )
    assert (tmp_path / "helpers.py").read_text().endswith("return uuid.uuid4()\n")


def test_add_ignore_keeps_every_other_byte(runner: CliRunner, tmp_path: Path) -> None:
    latin = (
        b"# -*- coding: latin-1 -*-\r\nimport time\r\n__adk_workflow__ = True\r\n"
        b"NAME = '\xe9t\xe9'\r\nT = time.time()   \r\nU = 1"
    )
    bom = b"\xef\xbb\xbfimport time\n__adk_workflow__ = True\nT = time.time()"
    (tmp_path / "wf.py").unlink()
    (tmp_path / "latin.py").write_bytes(latin)
    (tmp_path / "bom.py").write_bytes(bom)
    result = runner.invoke(cli, ["check", "--add-ignore", "."])
    assert result.stdout == "Added 2 suppressions in 2 files.\n"
    directive = f"  # replaylint: ignore[ADK-W003] -- {REASON}".encode()
    assert (tmp_path / "latin.py").read_bytes() == latin.replace(
        b"T = time.time()   \r\n", b"T = time.time()" + directive + b"\r\n"
    )
    assert (tmp_path / "bom.py").read_bytes() == bom + directive


def test_a_header_continued_by_a_backslash_takes_its_comment_on_its_colon_line(
    runner: CliRunner, tmp_path: Path
) -> None:
    # The clock read ends its line with a backslash: the `if` header's other line takes the
    # directive, which covers every line of the header.
    (tmp_path / "wf.py").write_text(
        "import time\n__adk_workflow__ = True\nif time.time() > \\\n        5:\n    pass\n"
    )
    result = runner.invoke(cli, ["check", "--add-ignore", "wf.py"])
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "Added 1 suppression in 1 file.\n",
        "",
    )
    assert (tmp_path / "wf.py").read_text().splitlines()[3] == (
        f"        5:  # replaylint: ignore[ADK-W003] -- {REASON}"
    )
    assert runner.invoke(cli, ["check", "wf.py"]).exit_code == 0


def test_add_ignore_refuses_stdin_and_reports_unreadable_paths(runner: CliRunner) -> None:
    stdin = runner.invoke(cli, ["check", "--add-ignore", "-"], input=UNSAFE)
    assert stdin.exit_code == 2
    assert stdin.stderr == (
        "replaylint: error: --add-ignore edits files; it cannot read a module from stdin\n"
    )
    missing = runner.invoke(cli, ["check", "--add-ignore", "nope.py", "wf.py"])
    assert missing.exit_code == 2
    assert missing.stderr == "replaylint: error: nope.py: no such file or directory\n"
    assert missing.stdout == "Added 1 suppression in 1 file.\n"


def test_add_ignore_names_the_stale_suppressions_it_cannot_silence(
    runner: CliRunner, tmp_path: Path
) -> None:
    (tmp_path / "wf.py").write_text(
        "import time\n__adk_workflow__ = True\n\n\ndef run():\n"
        "    q = time.time()  # noqa: ADK-W002\n"
        "    r = 1  # replaylint: ignore[ADK-W003] -- stale\n"
        "    return q, r\n"
    )
    result = runner.invoke(cli, ["check", "--add-ignore", "wf.py"])
    assert result.exit_code == 0
    assert result.stdout == "Added 1 suppression in 1 file.\n"
    assert result.stderr.splitlines() == [
        "replaylint: warning: wf.py:6: ADK-S001 cannot be suppressed: "
        "remove the comment, or the codes in it that no longer apply",
        "replaylint: warning: wf.py:7: ADK-S001 cannot be suppressed: "
        "remove the comment, or the codes in it that no longer apply",
    ]
    assert "# noqa: ADK-W002, ADK-W003" in (tmp_path / "wf.py").read_text()
