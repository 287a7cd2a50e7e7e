"""A warm re-run answered from the memo of the last identical run (index/rerun.py): the same
output and exit status, and never once anything that run read has changed."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.index.test_named_and_tree_runs import FLOWS as FLOW  # ADK-W002 on line 10

from replaylint.__main__ import main
from replaylint.index import recording, rerun, stamps

CLEAN = FLOW.replace("random.random()", "workflow.random().random()")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (root / "flows.py").write_text(FLOW)
    monkeypatch.chdir(root)
    # Files written a moment ago are "racily clean" (stamps.py): a memo would never be
    # trusted within the test. Each edit below changes a file's size as well as its stamp.
    monkeypatch.setattr(stamps, "RACY_SECONDS", 0.0)  # the memo's and the index's
    for name in ("REPLAYLINT_CACHE_DIR", "FORCE_COLOR", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    return root


def _made(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[object, str, str]:
    """The run made in full, as the command line makes it (status, stdout, stderr)."""
    sys_argv = sys.argv
    sys.argv = ["replaylint", *argv]
    try:
        with pytest.raises(SystemExit) as end:
            main()
    finally:
        sys.argv = sys_argv
    out, err = capsys.readouterr()
    return end.value.code, out, err


def _answered(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[object, str, str]:
    """What the memo alone answers (status None: it does not)."""
    code = rerun.answer(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _warm(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[object, str, str]:
    _made(argv, capsys)  # cold: modules checked afresh, nothing remembered
    assert _answered(argv, capsys)[0] is None
    return _made(argv, capsys)  # warm: the index answered it whole, so it is remembered


def test_a_warm_runs_output_and_status_answer_the_next(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    warm = _warm(["check", "."], capsys)
    assert warm[0] == 1
    assert "flows.py:10: ADK-W002" in warm[1]
    assert _answered(["check", "."], capsys) == warm
    assert len(list((project / ".replaylint_cache").glob("v*/rerun-*.marshal"))) == 1


def test_a_note_on_stderr_is_answered_too(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "flows.py").write_text("x = 1\n")
    cold = _made(["check", "."], capsys)  # no candidate: nothing is checked afresh even now
    warm = _made(["check", "."], capsys)
    assert cold == warm
    assert warm[0] == 0
    assert warm[2].startswith("replaylint: note: no workflow module in 1 file checked")
    assert _answered(["check", "."], capsys) == warm


@pytest.mark.parametrize(
    "change",
    [
        "edit the module",
        "add a module",
        "remove the module",
        "settings in the folder",
        "settings above the project",
    ],
)
def test_nothing_changed_since_is_answered_never_a_change(
    project: Path, capsys: pytest.CaptureFixture[str], change: str
) -> None:
    _warm(["check", "."], capsys)
    if change == "edit the module":
        (project / "flows.py").write_text(CLEAN)
    elif change == "add a module":
        (project / "more.py").write_text(FLOW.replace("Draw", "More"))
    elif change == "remove the module":
        (project / "flows.py").unlink()
    elif change == "settings in the folder":
        (project / "replaylint.toml").write_text('ignore = ["ADK-W002"]\n')
    else:
        (project.parent / ".replaylint.toml").write_text('ignore = ["ADK-W002"]\n')
    assert _answered(["check", "."], capsys)[0] is None
    made = _made(["check", "."], capsys)
    assert "ADK-W002" not in made[1] or change == "add a module"
    again = _made(["check", "."], capsys)  # the index answers it whole: remembered anew
    assert _answered(["check", "."], capsys) == again == made


def test_other_arguments_or_terminals_are_not_answered_by_it(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _warm(["check", "."], capsys)
    assert _answered(["check", "--format", "json", "."], capsys)[0] is None
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert _answered(["check", "."], capsys)[0] is None


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "--fix"],
        ["check", "--diff", "."],
        ["check", "-"],
        ["check", "--stdin-filename", "x.py"],
        ["check", "-v"],
        ["check", "--debug"],
        ["check", "-n"],
        ["check", "--no-cache"],
        ["check", "--base", "main"],
        ["check", "--base=main"],
        ["check", "-o", "report.txt"],
        ["check", "--watch"],
        ["check", "--add-ignore"],
        ["check", "--show-files"],
        ["check", "-qv"],
        ["check", "--", "x.py"],
        ["check", "--select"],
        ["rule", "ADK-W001"],
        [],
    ],
)
def test_forms_that_print_edit_or_read_anything_else_are_never_answered(
    argv: list[str],
) -> None:
    assert rerun.answerable(argv) is None


def test_the_plain_forms_are_answerable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REPLAYLINT_CACHE_DIR", raising=False)
    argv = ["check", "--select", "ADK-W002", "-j", "2", "-q", "src", "--format=json"]
    assert rerun.answerable(argv) == (["src"], None)
    assert rerun.answerable(["check", "--cache-dir=/c", "a.py", "-j2"]) == (["a.py"], "/c")


def test_a_stamp_within_a_clock_tick_of_the_run_is_not_trusted(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("x = 1\n")
    kept = {str(module): stamps.stamp_of(os.stat(module)), str(tmp_path / "gone.py"): None}
    later = time.time() + 2 * stamps.RACY_SECONDS
    assert not rerun._unchanged(kept, time.time())  # written just now: an edit may hide
    assert rerun._unchanged(kept, later)
    (tmp_path / "gone.py").write_text("")  # a path that was missing, made since
    assert not rerun._unchanged(kept, later)


def test_a_run_that_started_another_process_is_not_remembered(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _warm(["check", "."], capsys)
    memo = next((project / ".replaylint_cache").glob("v*/rerun-*.marshal"))
    memo.unlink()
    where = rerun.memo_file(["check", "."])
    assert where is not None
    run = recording.Recording(["check", "."], where)
    run.heard("os.fork", ())
    run.keep(1)
    assert not memo.exists()
    recording.Recording(["check", "."], where).keep(1)  # the same, with no process started
    assert memo.exists()


def test_the_command_answers_its_next_run_without_importing_the_checker(
    tmp_path: Path,
) -> None:
    """The real entry point, in processes of its own, with the real clock tick."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (root / "flows.py").write_text(FLOW)
    # The cache outside the project: its first writing would make the project's own folder
    # too recent to trust for another clock tick.
    env = {**os.environ, "REPLAYLINT_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("FORCE_COLOR", None)
    command = [sys.executable, "-X", "importtime", "-m", "replaylint", "check", "."]

    def made() -> tuple[int, str, bool]:
        done = subprocess.run(command, cwd=root, capture_output=True, text=True, env=env)
        return done.returncode, done.stdout, " click" in done.stderr

    time.sleep(stamps.RACY_SECONDS + 0.2)  # the files' stamps are then trusted
    cold, warm, answered = made(), made(), made()
    assert cold == warm[:2] + (True,) and warm[2]
    assert answered == (1, warm[1], False)
    assert "flows.py:10: ADK-W002" in answered[1]
    (root / "flows.py").write_text(CLEAN)
    assert made()[:2] == (0, "0 findings in 1 workflow module (1 file checked).\n")


def test_another_import_path_is_not_answered_by_it(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """PYTHONPATH decides which installed package `follow` reads: another is another run."""
    warm = _warm(["check", "."], capsys)
    with monkeypatch.context() as patched:
        patched.setattr(sys, "path", [*sys.path, str(project / "elsewhere")])
        assert _answered(["check", "."], capsys)[0] is None
    assert _answered(["check", "."], capsys) == warm


def test_a_folder_that_stops_being_a_virtual_environment_is_seen(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "env").mkdir()
    (project / "env" / "pyvenv.cfg").write_text("home = /usr\n")
    (project / "env" / "more.py").write_text(FLOW.replace("Draw", "More"))
    assert "env/more.py" not in _warm(["check", "."], capsys)[1]  # skipped, as a venv is
    (project / "env" / "pyvenv.cfg").unlink()
    assert _answered(["check", "."], capsys)[0] is None
    assert "env/more.py:10: ADK-W002" in _made(["check", "."], capsys)[1]


def test_a_cache_in_the_project_folder_itself_hides_no_edit(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["check", "--cache-dir", str(project), "."]
    assert "ADK-W002" in _warm(argv, capsys)[1]
    with open(project / "flows.py", "r+") as module:  # in place: the folder's stamp stays
        module.write(CLEAN)
    assert _answered(argv, capsys)[0] is None
    assert _made(argv, capsys)[0] == 0


@pytest.mark.parametrize(
    "damage",
    [
        {"code": "1"},
        {"code": 2**70},
        {"code": 2},
        {"started": float("nan")},
        {"said": [(1, "flows.py")]},
        {"said": [(False, b"flows.py")]},
        {"stamps": None},
    ],
)
def test_a_memo_of_another_shape_answers_nothing_and_prints_nothing(
    project: Path, capsys: pytest.CaptureFixture[str], damage: dict[str, object]
) -> None:
    import marshal

    _warm(["check", "."], capsys)
    path = next((project / ".replaylint_cache").glob("v*/rerun-*.marshal"))
    memo = marshal.loads(path.read_bytes())
    path.write_bytes(marshal.dumps({**memo, **damage}))
    assert _answered(["check", "."], capsys) == (None, "", "")


def test_settings_read_above_the_checked_folder_keep_their_stamp(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "app").mkdir()
    (project / "flows.py").rename(project / "app" / "flows.py")
    settings = "[project]\nname = 'p'\n[tool.replaylint]\nextend-ignore = ['ADK-W005']\n"
    (project / "pyproject.toml").write_text(settings)
    assert "ADK-W002" in _warm(["check", "app"], capsys)[1]
    (project / "pyproject.toml").write_text(settings.replace("W005", "W002"))
    assert _answered(["check", "app"], capsys)[0] is None
    assert "ADK-W002" not in _made(["check", "app"], capsys)[1]


def test_a_folder_of_the_import_path_made_since_is_seen(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A package `follow` names, installed after the run, would change what it finds."""
    later = project.parent / "site"
    monkeypatch.setattr(sys, "path", [*sys.path, str(later)])
    _warm(["check", "."], capsys)
    later.mkdir()
    assert _answered(["check", "."], capsys)[0] is None


def test_a_project_below_a_folder_named_like_bytecode_is_followed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "a__pycache__" / "proj"
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (root / "flows.py").write_text(FLOW)
    (root / "other.py").write_text("x = 1\n")  # no candidate: vouched for by its stamp alone
    monkeypatch.chdir(root)
    monkeypatch.setattr(stamps, "RACY_SECONDS", 0.0)  # the memo's and the index's
    monkeypatch.delenv("REPLAYLINT_CACHE_DIR", raising=False)
    _warm(["check", "."], capsys)
    with open(root / "other.py", "r+") as module:  # in place: the folder's stamp stays
        module.write(FLOW.replace("Draw", "Other"))
    assert _answered(["check", "."], capsys)[0] is None
    assert "other.py:10: ADK-W002" in _made(["check", "."], capsys)[1]
