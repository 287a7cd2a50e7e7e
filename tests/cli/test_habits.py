"""The command-line habits of ruff users: output format and file, quiet, statistics, -V, rule
pages, colour, the progress bar and stdin by name (--add-ignore: test_add_ignore.py)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from replaylint import guard
from replaylint.cli.main import cli
from replaylint.cli.progress import ProgressBar
from replaylint.cli.terminal import color_wanted, progress_wanted
from replaylint.core.codes import RULES
from replaylint.core.docs import page
from replaylint.reporters import REPORTERS, render
from replaylint.version import __version__

UNSAFE = "import time\n\n__adk_workflow__ = True\n\n\ndef run():\n    return time.time()\n"
FINDING = "wf.py:7: ADK-W003 the wall clock is used on the workflow path (time.time)\n"
REMEDY = "    use WorkflowClock, whose instants come from the run's own state\n"
TAIL = "1 finding in 1 workflow module (1 file checked).\n"


@pytest.fixture()
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    for name in ("FORCE_COLOR", "NO_COLOR", "CI"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "wf.py").write_text(UNSAFE)
    return CliRunner()


# ------------------------------------------------------------------ formats and where they go


def test_output_format_and_format_are_one_option_with_every_reporter(runner: CliRunner) -> None:
    concise = "wf.py:7:12: ADK-W003 the wall clock is used on the workflow path (time.time)\n"
    for flag in ("--output-format", "--format"):
        result = runner.invoke(cli, ["check", flag, "concise", "wf.py"])
        assert (result.exit_code, result.stdout) == (1, concise + TAIL)
    wrong = runner.invoke(cli, ["check", "--output-format", "yaml", "wf.py"])
    assert wrong.exit_code == 2
    assert ", ".join(f"'{name}'" for name in REPORTERS) in wrong.stderr


def test_output_file_gets_the_report_and_stdout_nothing(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(
        cli,
        ["check", "--output-format", "json", "--output-file", "reports/out.json", "nope.py", "."],
        env={"FORCE_COLOR": "1"},
    )
    assert result.exit_code == 2  # the missing path, as without --output-file
    assert result.stdout == ""
    assert result.stderr == "replaylint: error: nope.py: no such file or directory\n"
    written = (tmp_path / "reports" / "out.json").read_text()
    assert json.loads(written)["findings"][0]["code"] == "ADK-W003"
    text = runner.invoke(
        cli, ["check", "--output-file", "out.txt", "wf.py"], env={"FORCE_COLOR": "1"}
    )
    assert (text.exit_code, text.stdout) == (1, "")
    assert (tmp_path / "out.txt").read_text() == FINDING + REMEDY + TAIL  # never coloured


def test_an_output_file_that_cannot_be_written_is_exit_2(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("")
    result = runner.invoke(cli, ["check", "--output-file", "taken/out.txt", "wf.py"])
    assert result.exit_code == 2
    assert result.stderr.startswith("replaylint: error: --output-file taken/out.txt: ")


def test_quiet_leaves_out_the_summary_line_of_text_and_concise(
    runner: CliRunner, tmp_path: Path
) -> None:
    text = runner.invoke(cli, ["check", "-q", "wf.py"])
    assert (text.exit_code, text.stdout) == (1, FINDING + REMEDY)
    concise = runner.invoke(cli, ["check", "--quiet", "--output-format", "concise", "wf.py"])
    assert concise.stdout == (
        "wf.py:7:12: ADK-W003 the wall clock is used on the workflow path (time.time)\n"
    )
    (tmp_path / "clean.py").write_text("__adk_workflow__ = True\n")
    clean = runner.invoke(cli, ["check", "-q", "clean.py"])
    assert (clean.exit_code, clean.stdout) == (0, "")


def test_quiet_leaves_machine_formats_whole(runner: CliRunner) -> None:
    for name in ("json", "sarif", "junit"):
        loud = runner.invoke(cli, ["check", "--output-format", name, "wf.py"])
        quiet = runner.invoke(cli, ["check", "-q", "--output-format", name, "wf.py"])
        assert quiet.stdout == loud.stdout != "", name


def test_statistics_replace_the_findings(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["check", "--statistics", "wf.py"])
    assert (result.exit_code, result.stdout) == (1, "1  ADK-W003  wall-clock-in-workflow\n")
    concise = runner.invoke(cli, ["check", "--statistics", "--output-format", "concise", "wf.py"])
    assert concise.stdout == result.stdout
    machine = runner.invoke(cli, ["check", "--statistics", "--output-format", "json", "wf.py"])
    assert machine.exit_code == 2
    assert machine.stderr == (
        "replaylint: error: --statistics prints text; it cannot be given with "
        "--output-format json\n"
    )


def test_short_and_long_version(runner: CliRunner) -> None:
    for flag in ("-V", "--version"):
        result = runner.invoke(cli, [flag])
        assert (result.exit_code, result.stdout) == (0, f"replaylint, version {__version__}\n")


# ------------------------------------------------------------------ rule pages


def test_rule_as_json_is_one_object(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["rule", "wall-clock-in-workflow", "--output-format", "json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "code": "ADK-W003",
        "slug": "wall-clock-in-workflow",
        "finding": "the wall clock is used on the workflow path",
        "remedy": "use WorkflowClock, whose instants come from the run's own state",
        "page": page(next(c for c in RULES if c.value == "ADK-W003")),
    }


def test_rule_all_prints_every_page_separated(runner: CliRunner) -> None:
    pages = [page(code) for code in RULES]
    text = runner.invoke(cli, ["rule", "--all"])
    assert (text.exit_code, text.stdout) == (0, "\n---\n\n".join(pages))
    data = json.loads(runner.invoke(cli, ["rule", "--all", "--output-format", "json"]).stdout)
    assert [item["code"] for item in data] == [code.value for code in RULES]
    assert [item["page"] for item in data] == pages


def test_rule_wants_one_code_or_all(runner: CliRunner) -> None:
    for args in ([], ["ADK-W003", "--all"]):
        result = runner.invoke(cli, ["rule", *args])
        assert result.exit_code == 2
        assert "give one rule CODE, or --all" in result.stderr


# ------------------------------------------------------------------ colour


class Stream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("tty", "environ", "to_file", "wanted"),
    [
        (True, {}, False, True),
        (False, {}, False, False),
        (True, {"NO_COLOR": "1"}, False, False),
        (True, {"NO_COLOR": ""}, False, True),  # only a non-empty NO_COLOR counts
        (False, {"FORCE_COLOR": "1"}, False, True),
        (False, {"FORCE_COLOR": ""}, False, False),
        (False, {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False, True),  # ruff's precedence
        (True, {"FORCE_COLOR": "1"}, True, False),  # never into --output-file
    ],
)
def test_when_colour_is_wanted(
    tty: bool, environ: dict[str, str], to_file: bool, wanted: bool
) -> None:
    assert color_wanted(Stream(tty), environ, to_file=to_file) is wanted


def test_force_color_colours_text_and_concise_through_a_pipe(runner: CliRunner) -> None:
    report = guard("wf.py")
    for name in ("text", "concise"):
        result = runner.invoke(
            cli, ["check", "--output-format", name, "wf.py"], env={"FORCE_COLOR": "1"}
        )
        assert "\x1b[" in result.stdout
        assert result.stdout == render(name, report, color=True)
    plain = runner.invoke(cli, ["check", "wf.py"], env={"NO_COLOR": "1"})
    assert plain.stdout == FINDING + REMEDY + TAIL
    machine = runner.invoke(
        cli, ["check", "--output-format", "json", "wf.py"], env={"FORCE_COLOR": "1"}
    )
    assert "\x1b" not in machine.stdout


# ------------------------------------------------------------------ the progress bar


@pytest.mark.parametrize(
    ("tty", "environ", "quiet", "wanted"),
    [
        (True, {}, False, True),
        (False, {}, False, False),
        (True, {"CI": "true"}, False, False),
        (True, {"CI": ""}, False, True),
        (True, {}, True, False),
    ],
)
def test_when_the_bar_is_drawn(
    tty: bool, environ: dict[str, str], quiet: bool, wanted: bool
) -> None:
    assert progress_wanted(Stream(tty), environ, quiet=quiet) is wanted


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_bar_waits_a_second_throttles_and_clears() -> None:
    clock, stream = Clock(), io.StringIO()
    bar = ProgressBar(stream, clock=clock, columns=50)
    bar(1, 4)
    clock.now = 100.9
    bar(2, 4)
    assert stream.getvalue() == ""  # a run shorter than a second draws nothing
    clock.now = 101.0
    bar(2, 4)
    half = "\rreplaylint [" + "#" * 13 + " " * 13 + "] 2/4 files"  # fitted into 49 columns
    assert stream.getvalue() == half
    clock.now = 101.05
    bar(3, 4)  # within 0.1 s of the last drawing: skipped
    bar(4, 4)  # but the last file always is drawn
    full = "\rreplaylint [" + "#" * 26 + "] 4/4 files"
    assert stream.getvalue() == half + full
    bar.clear()
    assert stream.getvalue() == half + full + "\r" + " " * 49 + "\r"
    bar.clear()  # nothing left to clear
    assert stream.getvalue() == half + full + "\r" + " " * 49 + "\r"


def test_a_shorter_line_blanks_what_a_longer_one_left() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream, clock=Clock(), delay=0, interval=0, columns=80)
    bar(99, 100)
    bar(1, 2)
    assert stream.getvalue().split("\r")[1:] == [
        "replaylint [" + "#" * 29 + " ] 99/100 files",  # at most 30 wide
        "replaylint [" + "#" * 15 + " " * 15 + "] 1/2 files" + " " * 3,
    ]


def test_the_check_ticks_the_bar_per_candidate_and_clears_it(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "other.py").write_text(UNSAFE)
    (tmp_path / "plain.py").write_text("x = 1\n")  # not a candidate: no tick
    events: list[object] = []

    class Recorder:
        def __call__(self, done: int, total: int) -> None:
            events.append((done, total))

        def clear(self) -> None:
            events.append("clear")

    asked: list[bool] = []

    def fake_bar(quiet: bool) -> Recorder:
        asked.append(quiet)
        return Recorder()

    monkeypatch.setattr("replaylint.cli.output.progress_bar", fake_bar)
    assert runner.invoke(cli, ["check", "."]).exit_code == 1
    assert events == [(1, 2), (2, 2), "clear"]
    runner.invoke(cli, ["check", "-q", "."])
    runner.invoke(cli, ["check", "--debug", "."])
    assert asked == [False, True, True]  # -q and --debug never get a bar


# ------------------------------------------------------------------ stdin by name


def test_stdin_filename_alone_reads_stdin_under_that_name(runner: CliRunner) -> None:
    for args in (
        ["--stdin-filename", "src/agent/flow.py"],
        ["-", "--stdin-filename", "src/agent/flow.py"],
    ):
        result = runner.invoke(cli, ["check", *args], input=UNSAFE)
        assert result.exit_code == 1
        # wf.py in the current folder is not checked: only the module read from stdin.
        assert result.stdout == FINDING.replace("wf.py", "src/agent/flow.py") + REMEDY + TAIL


def test_stdin_filename_beside_paths_checks_both(runner: CliRunner) -> None:
    result = runner.invoke(
        cli,
        ["check", "--output-format", "concise", "--stdin-filename", "in.py", "wf.py"],
        input=UNSAFE,
    )
    assert [line.split(":")[0] for line in result.stdout.splitlines()[:-1]] == ["in.py", "wf.py"]


def test_findings_of_stdin_keep_the_given_name_in_chains_and_suppressions(
    runner: CliRunner, tmp_path: Path
) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "helpers.py").write_text(
        "import uuid\n\n\ndef key():\n    return uuid.uuid4()\n"
    )
    source = (
        "from helpers import key\n\n__adk_workflow__ = True\n\n\ndef run():\n"
        "    return key()  # replaylint: ignore[ADK-W003]\n"
    )
    result = runner.invoke(
        cli,
        ["check", "--output-format", "concise", "--stdin-filename", "pkg/flow.py"],
        input=source,
    )
    assert result.stdout.splitlines()[:-1] == [
        "pkg/flow.py:7:12: ADK-W005 a helper that is itself unsafe is called on the workflow "
        "path (key)",
        "pkg/flow.py:7:19: ADK-S001 a suppression comment matches no finding (ADK-W003)",
    ]
