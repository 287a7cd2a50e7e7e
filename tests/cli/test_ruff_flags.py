"""ruff's flags and keys with ruff's meanings: -o, -e, -n, -s, -v, --show-files,
--exit-non-zero-on-fix, --extend-select, --exclude, --extend-exclude, --force-exclude and the
force-exclude key, --select ALL, --output-format full, .replaylint.toml, "did you mean"."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from replaylint.cli.main import cli
from replaylint.index.cache import SCHEMA

UNSAFE = "import time\n\n__adk_workflow__ = True\n\n\ndef run():\n    return time.time()\n"
FINDING = "wf.py:7: ADK-W003 the wall clock is used on the workflow path (time.time)\n"
TAIL = "1 finding in 1 workflow module (1 file checked).\n"


@pytest.fixture()
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    for name in ("FORCE_COLOR", "NO_COLOR", "CI", "REPLAYLINT_CACHE_DIR"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / ".git").mkdir()  # a project: its cache goes to its root
    (tmp_path / "wf.py").write_text(UNSAFE)
    return CliRunner()


def check(runner: CliRunner, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(cli, ["check", *args])
    return result.exit_code, result.stdout, result.stderr


def test_short_flags_mean_what_they_mean_in_ruff(runner: CliRunner, tmp_path: Path) -> None:
    assert check(runner, "-n", "wf.py")[0] == 1
    assert not (tmp_path / ".replaylint_cache").exists()  # -n: no cache read nor written
    assert check(runner, "-o", "out.txt", "wf.py")[:2] == (1, "")
    assert (tmp_path / "out.txt").read_text().startswith(FINDING)
    assert check(runner, "-e", "wf.py")[0] == 0
    assert check(runner, "-s", "wf.py") == (1, "", "")  # silent: only the exit status
    assert check(runner, "-s", "missing.py") == (2, "", "")
    code, out, err = check(runner, "-v", "wf.py")
    assert (code, out) == (
        1,
        FINDING + "    use WorkflowClock, whose instants come from the run's own state\n" + TAIL,
    )
    assert f"replaylint: cache: {tmp_path / '.replaylint_cache'}\n" in err


def test_show_files_lists_what_would_be_checked_absolute_and_sorted(
    runner: CliRunner, tmp_path: Path
) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("x = 1\n")
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "skipped.py").write_text("x = 1\n")
    (tmp_path / "notes.txt").write_text("not python\n")
    code, out, _ = check(runner, "--show-files")
    assert code == 0
    assert out == f"{tmp_path / 'pkg' / 'a.py'}\n{tmp_path / 'wf.py'}\n"
    assert (
        check(runner, "--show-files", "--extend-exclude", "pkg/*")[1] == f"{tmp_path / 'wf.py'}\n"
    )


def test_show_files_names_a_broken_nested_settings_file_in_one_line(
    runner: CliRunner, tmp_path: Path
) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "replaylint.toml").write_bytes(b"\xff = 1\n")
    (tmp_path / "sub" / "a.py").write_text("x = 1\n")
    code, out, err = check(runner, "--show-files")
    assert (code, out) == (2, "")
    assert err == (
        f"replaylint: error: {tmp_path / 'sub' / 'replaylint.toml'}: not UTF-8 (byte 0xff on"
        " line 1); TOML files are UTF-8\n"
    )


def test_exit_non_zero_on_fix_fails_a_run_whose_fix_changed_a_file(
    runner: CliRunner, tmp_path: Path
) -> None:
    flow = (
        "import time\n\nfrom replaylint.workflows import RunContext\n\n__adk_workflow__ = True\n\n\n"
        "def run(ctx: RunContext, order: dict) -> float:\n    return time.time()\n"
    )
    (tmp_path / "wf.py").write_text(flow)
    fixed = check(runner, "--fix", "wf.py")
    assert fixed[0] == 0, fixed  # fixed, nothing left
    (tmp_path / "wf.py").write_text(flow)
    code, out, err = check(runner, "--fix", "--exit-non-zero-on-fix", "wf.py")
    assert (code, err) == (1, "Fixed 1 finding in 1 file.\n")
    assert out == "0 findings in 1 workflow module (1 file checked).\n"
    assert check(runner, "--fix", "--exit-non-zero-on-fix", "wf.py")[0] == 0  # nothing to fix
    (tmp_path / "wf.py").write_text(flow)
    assert check(runner, "--fix", "--exit-non-zero-on-fix", "-e", "wf.py")[0] == 0


def test_extend_select_adds_to_the_configured_selection(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.replaylint]\nselect = ["ADK-W001"]\n')
    assert check(runner, "wf.py")[0] == 0
    assert check(runner, "--extend-select", "ADK-W003", "wf.py")[:2] == (
        1,
        FINDING + "    use WorkflowClock, whose instants come from the run's own state\n" + TAIL,
    )


def test_select_all_selects_every_rule(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.replaylint]\nselect = ["ADK-W001"]\n')
    assert check(runner, "--select", "ALL", "wf.py")[0] == 1
    (tmp_path / "pyproject.toml").write_text('[tool.replaylint]\nselect = ["ALL"]\n')
    assert check(runner, "wf.py")[0] == 1


def test_exclude_and_extend_exclude_on_the_command_line(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "gen").mkdir()
    (tmp_path / "gen" / "made.py").write_text(UNSAFE)
    assert check(runner, "-q", "--output-format", "concise", ".")[1].count("ADK-W003") == 2
    assert (
        check(runner, "-q", "--extend-exclude", "gen/*", ".")[1]
        == FINDING + "    use WorkflowClock, whose instants come from the run's own state\n"
    )
    # --exclude replaces the default exclusions: a .venv is walked again.
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "vendored.py").write_text(UNSAFE)
    out = check(runner, "-q", "--output-format", "concise", "--exclude", "gen/*", ".")[1]
    assert [line.split(":")[0] for line in out.splitlines()] == [".venv/vendored.py", "wf.py"]


def test_force_exclude_leaves_out_excluded_files_named_on_the_command_line(
    runner: CliRunner, tmp_path: Path
) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.replaylint]\nextend-exclude = ["wf.py"]\n')
    assert check(runner, "wf.py")[0] == 1  # named: checked, as ruff checks it
    assert check(runner, "--force-exclude", "wf.py")[:2] == (
        0,
        "0 findings in 0 workflow modules (0 files checked).\n",
    )
    (tmp_path / "pyproject.toml").write_text(
        '[tool.replaylint]\nextend-exclude = ["wf.py"]\nforce-exclude = true\n'
    )
    assert check(runner, "wf.py")[0] == 0


HELPER = "import time\n\n\ndef stamp():\n    return time.time()\n"
TEMPORAL = """from temporalio import workflow

from helpers import stamp


@workflow.defn
class Greeter:
    @workflow.run
    async def run(self) -> float:
        return stamp()
"""


def test_force_exclude_drops_the_findings_of_a_named_helper_not_the_workflows_w005(
    runner: CliRunner, tmp_path: Path
) -> None:
    """pre-commit names the excluded helper with the workflow: the helper's own root is left
    out, the workflow's call through it is not."""
    (tmp_path / "pyproject.toml").write_text('[tool.replaylint]\nextend-exclude = ["helpers.py"]\n')
    (tmp_path / "helpers.py").write_text(HELPER)
    (tmp_path / "wf.py").write_text(TEMPORAL)
    reported = check(runner, "helpers.py", "wf.py")[1]
    assert reported.startswith("helpers.py:5: ADK-W003 ")  # named, not forced: reported
    code, out, _ = check(runner, "--force-exclude", "helpers.py", "wf.py")
    assert code == 1
    assert [line for line in out.splitlines() if not line.startswith(" ")] == [
        "wf.py:10: ADK-W005 a helper that is itself unsafe is called on the workflow path (stamp)",
        "1 finding in 1 workflow module (1 file checked).",
    ]


FULL = """\
ADK-W003 the wall clock is used on the workflow path (time.time)
 --> wf.py:7:12
  |
5 |
6 | def run():
7 |     return time.time()
  |            ^^^^^^^^^^^
  |
help: use WorkflowClock, whose instants come from the run's own state

1 finding in 1 workflow module (1 file checked).
"""


def test_output_format_full_shows_the_source_with_the_call_underlined(runner: CliRunner) -> None:
    assert check(runner, "--output-format", "full", "wf.py")[:2] == (1, FULL)


@pytest.mark.parametrize("name", [".replaylint.toml", "replaylint.toml"])
def test_both_settings_file_names_are_read(runner: CliRunner, tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text('ignore = ["ADK-W003"]\n')
    assert check(runner, "wf.py")[0] == 0
    shown = check(runner, "--show-config", "wf.py")[1]
    assert f"sources = {json.dumps([str(tmp_path / name)])}" in shown


def test_dot_replaylint_toml_comes_first(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / ".replaylint.toml").write_text('ignore = ["ADK-W003"]\n')
    (tmp_path / "replaylint.toml").write_text("select = []\n")
    (tmp_path / "pyproject.toml").write_text("[tool.replaylint]\nselect = []\n")
    assert check(runner, "wf.py")[0] == 0


@pytest.mark.parametrize(
    "body,message",
    [
        ('selct = ["ADK-W001"]\n', "selct: unknown key (did you mean 'select'?)"),
        ('extend-exlude = ["x"]\n', "extend-exlude: unknown key (did you mean 'extend-exclude'?)"),
        (
            'ignore = ["ADK-W03"]\n',
            "ignore: unknown rule code 'ADK-W03' (did you mean 'ADK-W003'?)",
        ),
        (
            'ignore = ["wall-clock"]\n',
            "ignore: unknown rule code 'wall-clock' (did you mean 'wall-clock-in-workflow'?)",
        ),
        (
            'frameworks = ["temporl"]\n',
            "frameworks: unknown framework 'temporl' (did you mean 'temporal'?)",
        ),
    ],
)
def test_typos_in_settings_get_the_nearest_name(
    runner: CliRunner, tmp_path: Path, body: str, message: str
) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.replaylint]\n" + body)
    code, _, err = check(runner, "wf.py")
    assert code == 2
    assert err.startswith(
        f"replaylint: error: {tmp_path / 'pyproject.toml'}: [tool.replaylint] {message}"
    )


def test_typos_on_the_command_line_get_the_nearest_name(runner: CliRunner) -> None:
    code, _, err = check(runner, "--ignore", "ADK-W03", "wf.py")
    assert (code, err) == (
        2,
        "replaylint: error: --ignore: unknown rule code or prefix 'ADK-W03' (did you mean 'ADK-W003'?)\n",
    )
    code, _, err = check(runner, "--exit-zer", "wf.py")
    assert code == 2
    assert err.endswith(
        "Error: No such option '--exit-zer'."
        " (Did you mean one of: '--exit-non-zero-on-fix', '--exit-zero'?)\n"
    )
    rule = runner.invoke(cli, ["rule", "ADK-W03"])
    assert rule.exit_code == 2
    assert "unknown rule 'ADK-W03' (did you mean 'ADK-W003'?)" in rule.stderr


def test_a_lone_file_outside_any_project_is_checked_with_its_imports_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    monkeypatch.delenv("REPLAYLINT_CACHE_DIR", raising=False)
    folder = tmp_path / "scripts"
    folder.mkdir()
    (folder / "helpers.py").write_text("import uuid\n\n\ndef new_id():\n    return uuid.uuid4()\n")
    (folder / "flow.py").write_text(
        "import helpers\n\n__adk_workflow__ = True\n\n\ndef run():\n    return helpers.new_id()\n"
    )
    for index in range(30):  # neighbours the file does not import, one of them broken
        (folder / f"other{index}.py").write_text("__adk_workflow__ = True\ndef run(:\n")
    result = CliRunner().invoke(cli, ["check", "--output-format", "concise", "scripts/flow.py"])
    assert result.exit_code == 1, result.output
    assert result.stdout == (
        "scripts/flow.py:7:12: ADK-W005 a helper that is itself unsafe is called on the workflow"
        " path (helpers.new_id)\n"
        "1 finding in 1 workflow module (1 file checked).\n"
    )
    assert not any(name.startswith(".replaylint") for name in os.listdir(tmp_path))
    assert not (folder / ".replaylint_cache").exists()
    [cache] = (tmp_path / "user-cache" / "replaylint" / "outside").iterdir()
    assert (cache / f"v{SCHEMA}").is_dir()
