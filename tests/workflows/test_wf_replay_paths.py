"""replay_paths(): what `replaylint replay` prints and returns for good, divergent and broken histories."""

from __future__ import annotations

import io
import itertools
import json
import sys
import textwrap
from datetime import datetime, timezone
from pathlib import Path

import pytest

from replaylint.harness.replay import replay_paths
from replaylint.workflows import RecordedHistory, record

START = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)
ROOT = Path(__file__).resolve().parents[2]
_names = itertools.count()

SOURCE = '''
"""A tiny shop workflow for the replay command tests."""
from replaylint.workflows import activity

__adk_workflow__ = True


@activity(name="price")
def price(sku):
    return {"S-1": 500, "S-2": 700}[sku]


def run(ctx, order):
    return {"total": sum(price(sku) for sku in order["skus"])}
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A project root holding one workflow module (uniquely named) and a histories folder; cwd is the root."""
    module = f"shop_{next(_names)}_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{module}.py").write_text(textwrap.dedent(SOURCE), encoding="utf-8")
    (tmp_path / "histories").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    __import__(module)
    yield tmp_path, sys.modules[module]
    sys.modules.pop(module, None)


def save(project, name: str, skus: list) -> Path:
    root, module = project
    history = record(module.run, {"skus": skus}, run_id=f"run-{name}", started_at=START)
    path = root / "histories" / name
    history.save(path)
    return path


def edit(path: Path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def run(paths: list, root: Path | None = None) -> tuple[int, list[str]]:
    out = io.StringIO()
    status = replay_paths(paths, out, root=root)
    return status, out.getvalue().splitlines()


def test_every_history_replays_exit_0(project) -> None:
    save(project, "b.json", ["S-1", "S-2"])
    save(project, "a.json", ["S-2"])
    (project[0] / "histories" / "notes.txt").write_text("not a history", encoding="utf-8")
    assert run(["histories"]) == (
        0,
        ["ok histories/a.json (1 command)", "ok histories/b.json (2 commands)"],
    )


def test_a_single_file_can_be_named(project) -> None:
    save(project, "a.json", ["S-1", "S-2"])
    assert run(["histories/a.json"]) == (0, ["ok histories/a.json (2 commands)"])


def test_a_divergence_exits_1_and_prints_the_message(project) -> None:
    path = save(project, "a.json", ["S-1"])
    save(project, "b.json", ["S-2"])
    edit(path, lambda d: d["input"].update(skus=["S-1", "S-2"]))
    status, lines = run(["histories"])
    assert status == 1
    assert lines == [
        (
            'diverged histories/a.json: command 1 (extra-command): the code requested activity price("S-2") '
            "but the history ends after 1 command"
        ),
        "ok histories/b.json (1 command)",
    ]


def test_an_invalid_history_exits_2_and_the_others_still_run(project) -> None:
    bad = save(project, "a.json", ["S-1"])
    diverging = save(project, "b.json", ["S-1"])
    save(project, "c.json", ["S-2"])
    edit(bad, lambda d: d.update(version=3))
    edit(diverging, lambda d: d.update(result={"total": 1}))
    status, lines = run(["histories"])
    assert status == 2  # the worst status wins
    assert lines == [
        "error histories/a.json: history version 3 is newer than this runtime supports (version 2); upgrade replaylint",
        'diverged histories/b.json: result (result-mismatch): recorded {"total":1}, code returned {"total":500}',
        "ok histories/c.json (1 command)",
    ]


def test_bad_json_exits_2(project) -> None:
    (project[0] / "histories" / "broken.json").write_text("{", encoding="utf-8")
    status, lines = run(["histories"])
    assert status == 2
    assert lines == [
        "error histories/broken.json: not valid JSON: Expecting property name enclosed in double quotes (line 1, column 2)"
    ]


def test_a_workflow_that_cannot_be_imported_exits_2(project) -> None:
    path = save(project, "a.json", ["S-1"])
    edit(path, lambda d: d.update(workflow="no_such_module_xyz:run"))
    status, lines = run(["histories/a.json"])
    assert status == 2
    assert lines == [
        (
            "error histories/a.json: cannot import workflow 'no_such_module_xyz:run': "
            "ModuleNotFoundError: No module named 'no_such_module_xyz'"
        )
    ]


def test_a_missing_attribute_exits_2(project) -> None:
    path = save(project, "a.json", ["S-1"])
    edit(path, lambda d: d.update(workflow=d["workflow"].replace(":run", ":gone")))
    status, lines = run(["histories/a.json"])
    assert status == 2
    assert lines[0].endswith(":gone': no attribute 'gone'")


def test_a_missing_path_exits_2(project) -> None:
    assert run(["histories/absent.json"]) == (
        2,
        ["error histories/absent.json: no such file or directory"],
    )


def test_a_folder_without_histories_exits_2(project) -> None:
    assert run(["histories"]) == (2, ["error histories: no *.json histories"])


def test_the_root_is_put_on_sys_path_and_paths_print_relative_to_cwd(project, monkeypatch) -> None:
    root, module = project
    save(project, "a.json", ["S-1"])
    elsewhere = root / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    sys.modules.pop(module.__name__)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p != str(root)])
    assert run(["../histories"], root=root) == (0, ["ok ../histories/a.json (1 command)"])
    assert str(root) not in sys.path  # removed again afterwards


def test_without_the_root_on_sys_path_the_workflow_cannot_be_imported(project, monkeypatch) -> None:
    root, module = project
    save(project, "a.json", ["S-1"])
    elsewhere = root / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    sys.modules.pop(module.__name__)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p != str(root)])
    status, lines = run(["../histories"])  # root defaults to cwd, which lacks the module
    assert status == 2
    assert "ModuleNotFoundError" in lines[0]


def test_a_changed_input_is_reported_as_diverged(project) -> None:
    path = save(project, "a.json", ["S-1"])
    edit(path, lambda d: d["input"].update(skus=["S-9"]))
    status, lines = run(["histories"])
    assert status == 1
    assert lines == [
        'diverged histories/a.json: command 0 (key-mismatch): recorded activity price("S-1"), code requested activity price("S-9")'
    ]


def test_a_workflow_that_now_raises_is_reported_as_diverged(project) -> None:
    path = save(project, "a.json", ["S-1"])
    edit(path, lambda d: d["commands"][0].update(result="five hundred"))
    status, lines = run(["histories"])
    assert status == 1
    assert lines == [
        (
            "diverged histories/a.json: command 1 (workflow-error): the code raised "
            "TypeError: unsupported operand type(s) for +: 'int' and 'str' where the recorded run completed"
        )
    ]


def test_the_committed_fixtures_all_replay(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    status, lines = run(["tests/histories"])
    names = sorted(p.name for p in (ROOT / "tests" / "histories").glob("*.json"))
    assert status == 0
    assert [line.split(" ")[1] for line in lines] == [f"tests/histories/{name}" for name in names]
    assert all(line.startswith("ok ") for line in lines)
    counts = {
        name: len(RecordedHistory.load(ROOT / "tests" / "histories" / name).commands)
        for name in names
    }
    assert (
        lines[names.index("payment.json")]
        == f"ok tests/histories/payment.json ({counts['payment.json']} commands)"
    )


EXITING = '''
"""Workflows that end the process, or try to."""
import sys

from replaylint.workflows import activity

__adk_workflow__ = True


@activity(name="price")
def price(sku):
    return 500


class Abort(BaseException):
    pass


def exits_zero(ctx, order):
    price(order["skus"][0])
    sys.exit(0)


def exits_with_message(ctx, order):
    sys.exit("stock feed unavailable")


def raises_base_exception(ctx, order):
    raise Abort("operator abort")
'''


def test_a_workflow_that_exits_is_reported_and_every_other_history_still_runs(
    project, monkeypatch
) -> None:
    root, module = project
    (root / "exiting.py").write_text(textwrap.dedent(EXITING), encoding="utf-8")
    monkeypatch.delitem(sys.modules, "exiting", raising=False)
    for name, function in [
        ("a.json", "exits_zero"),
        ("b.json", "exits_with_message"),
        ("c.json", "raises_base_exception"),
    ]:
        edit(save(project, name, ["S-1"]), lambda d, f=function: d.update(workflow=f"exiting:{f}"))
    save(project, "d.json", ["S-1"])
    edit(save(project, "e.json", ["S-1"]), lambda d: d.update(result={"total": 1}))
    status, lines = run(["histories"])
    assert status == 1
    assert lines == [
        "diverged histories/a.json: command 1 (workflow-error): the code raised SystemExit: 0 "
        "where the recorded run completed",
        "diverged histories/b.json: command 0 (workflow-error): the code raised SystemExit: "
        "stock feed unavailable where the recorded run completed",
        "diverged histories/c.json: command 0 (workflow-error): the code raised exiting.Abort: "
        "operator abort where the recorded run completed",
        "ok histories/d.json (1 command)",
        'diverged histories/e.json: result (result-mismatch): recorded {"total":1}, code returned {"total":500}',
    ]


def test_a_module_that_exits_at_import_is_an_error_and_the_others_still_run(
    project, monkeypatch
) -> None:
    root, _ = project
    (root / "quits.py").write_text("import sys\nsys.exit(0)\ndef run(ctx, o):\n    return 1\n")
    monkeypatch.delitem(sys.modules, "quits", raising=False)
    edit(save(project, "a.json", ["S-1"]), lambda d: d.update(workflow="quits:run"))
    edit(save(project, "b.json", ["S-1"]), lambda d: d.update(result={"total": 2}))
    status, lines = run(["histories"])
    assert status == 2
    assert lines == [
        "error histories/a.json: cannot import workflow 'quits:run': SystemExit: 0",
        'diverged histories/b.json: result (result-mismatch): recorded {"total":2}, code returned {"total":500}',
    ]
    assert "quits" not in sys.modules


def test_a_failed_run_replays_as_ok_and_says_so(project) -> None:
    root, module = project
    history = record(
        module.run, {"skus": ["S-9"]}, run_id="r-1", started_at=START, record_failure=True
    )
    assert history.failure.type == "replaylint.workflows.errors.ActivityError"
    history.save(root / "histories" / "failed.json")
    assert run(["histories"]) == (0, ["ok histories/failed.json (1 command, failed as recorded)"])
