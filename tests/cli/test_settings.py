"""Settings per file, ruff's way: each file's nearest configuration, the command line on top."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from replaylint.cli.main import cli

CLOCK_AND_ID = "import time, uuid\n__adk_workflow__ = True\n\n\ndef run():\n    return time.time(), uuid.uuid4()\n"


@pytest.fixture()
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    return tmp_path


def check(*args: str) -> tuple[int, list[tuple[str, int, str]], str]:
    result = CliRunner().invoke(cli, ["check", "--format", "json", *args])
    if result.exit_code == 2:
        return 2, [], result.stderr
    found = [(f["path"], f["line"], f["code"]) for f in json.loads(result.stdout)["findings"]]
    return result.exit_code, found, result.stderr


def service(root: Path, name: str, settings: str) -> None:
    (root / name).mkdir()
    (root / name / "pyproject.toml").write_text(f"[tool.replaylint]\n{settings}\n")
    (root / name / "wf.py").write_text(CLOCK_AND_ID)


def test_each_service_keeps_its_own_settings_checked_together_or_alone(repo: Path) -> None:
    service(repo, "svc_a", 'ignore = ["ADK-W003"]')
    service(repo, "svc_b", 'select = ["ADK-W003"]')
    a, b = [("svc_a/wf.py", 6, "ADK-W002")], [("svc_b/wf.py", 6, "ADK-W003")]
    assert check("svc_a")[1] == a
    assert check("svc_b")[1] == b
    assert check("svc_a", "svc_b")[1] == a + b
    assert check(".")[1] == a + b


def test_the_command_line_selection_takes_precedence(repo: Path) -> None:
    (repo / "pyproject.toml").write_text('[tool.replaylint]\nignore = ["ADK-W003"]\n')
    (repo / "wf.py").write_text(CLOCK_AND_ID)
    assert check("wf.py")[1] == [("wf.py", 6, "ADK-W002")]
    assert check("--select", "ADK-W003", "wf.py")[1] == [("wf.py", 6, "ADK-W003")]
    assert check("--ignore", "ADK-W002", "wf.py")[1] == []


def test_extend_select_and_extend_ignore(repo: Path) -> None:
    (repo / "pyproject.toml").write_text(
        '[tool.replaylint]\nselect = ["ADK-W002"]\nextend-select = ["ADK-W003"]\n'
    )
    (repo / "wf.py").write_text(CLOCK_AND_ID)
    assert check("wf.py")[1] == [("wf.py", 6, "ADK-W003"), ("wf.py", 6, "ADK-W002")]
    (repo / "pyproject.toml").write_text('[tool.replaylint]\nextend-ignore = ["ADK-W002"]\n')
    assert check("wf.py")[1] == [("wf.py", 6, "ADK-W003")]


def test_config_key_value_overrides_every_files_settings(repo: Path) -> None:
    service(repo, "svc_a", 'ignore = ["ADK-W003"]')
    assert check("--config", "ignore = ['ADK-W002']", "svc_a")[1] == [
        ("svc_a/wf.py", 6, "ADK-W003")
    ]
    code, _, error = check("--config", "ignore = ['ADK-W999']", "svc_a")
    assert code == 2 and error.count("\n") == 1 and "ignore" in error and "ADK-W999" in error


def test_a_per_file_ignore_without_a_slash_matches_the_file_name(repo: Path) -> None:
    (repo / "pyproject.toml").write_text(
        '[tool.replaylint]\n[tool.replaylint.per-file-ignores]\n"wf.py" = ["ADK-W003"]\n'
    )
    (repo / "deep" / "er").mkdir(parents=True)
    (repo / "deep" / "er" / "wf.py").write_text(CLOCK_AND_ID)
    assert check(".")[1] == [("deep/er/wf.py", 6, "ADK-W002")]


def test_an_excluded_workflow_is_never_reported_but_its_code_still_counts(repo: Path) -> None:
    (repo / "pyproject.toml").write_text('[tool.replaylint]\nextend-exclude = ["vendored/*"]\n')
    (repo / "vendored").mkdir()
    (repo / "vendored" / "ids.py").write_text(
        "import uuid\n__adk_workflow__ = True\n\n\ndef new_id():\n    return uuid.uuid4()\n"
    )
    (repo / "wf.py").write_text(
        "from vendored.ids import new_id\n__adk_workflow__ = True\n\n\ndef run():\n    return new_id()\n"
    )
    assert check(".")[1] == [("wf.py", 6, "ADK-W005")]
    assert check("wf.py")[1] == [("wf.py", 6, "ADK-W005")]


def test_show_config_prints_the_settings_of_the_path_given(repo: Path) -> None:
    service(repo, "svc_a", 'ignore = ["ADK-W003"]')
    shown = CliRunner().invoke(cli, ["check", "--show-config", "svc_a/wf.py"])
    settings = dict(line.split(" = ", 1) for line in shown.stdout.splitlines())
    assert json.loads(settings["ignore"]) == ["ADK-W003"]
    assert json.loads(settings["sources"]) == [str(repo / "svc_a" / "pyproject.toml")]


def test_settings_above_the_repository_are_not_read(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo / "pyproject.toml").write_text('[tool.replaylint]\nignore = ["ADK-W003"]\n')
    inner = repo / "checkout"
    inner.mkdir()
    (inner / ".git").mkdir()
    (inner / "wf.py").write_text(CLOCK_AND_ID)
    monkeypatch.chdir(inner)
    assert check(".")[1] == [("wf.py", 6, "ADK-W003"), ("wf.py", 6, "ADK-W002")]


def test_a_replaylint_toml_is_read_like_a_pyproject_table(repo: Path) -> None:
    (repo / "replaylint.toml").write_text('ignore = ["ADK-W002"]\n')
    (repo / "wf.py").write_text(CLOCK_AND_ID)
    assert check(".")[1] == [("wf.py", 6, "ADK-W003")]


def test_a_tree_deeper_than_the_recursion_limit_finds_its_settings(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo / "pyproject.toml").write_text('[tool.replaylint]\nignore = ["ADK-W003"]\n')
    for _ in range(1200):  # one level at a time (pathlib's mkdir(parents=True) recurses)
        os.mkdir("d")
        os.chdir("d")
    Path("wf.py").write_text(CLOCK_AND_ID)
    deepest = os.getcwd()
    monkeypatch.chdir(repo)
    try:
        assert [(code, line) for _, line, code in check(".")[1]] == [("ADK-W002", 6)]
    finally:  # removed level by level too: a recursive rmtree would overflow as well
        os.chdir(deepest)
        os.remove("wf.py")
        for _ in range(1200):
            os.chdir("..")
            os.rmdir("d")
        os.chdir(repo)


def test_workflow_decorators_declare_a_wrapper_frameworks_entries(repo: Path) -> None:
    (repo / "pyproject.toml").write_text(
        "[tool.replaylint]\nactivity-decorators = ['acme_flows.Engine.task']\n"
        "[tool.replaylint.workflow-decorators]\n"
        '"acme_flows.Engine.flow" = "temporal"\n"acme_flows.Engine.step" = "temporal"\n'
    )
    (repo / "flows.py").write_text(
        "import random\nfrom acme_flows import Engine\n\nengine = Engine()\n\n\n"
        "@engine.task\ndef fetch():\n    return random.random()\n\n\n"
        "@engine.flow\nclass Daily:\n    @engine.step\n    async def run(self):\n"
        "        fetch()\n        return random.random()\n"
    )
    assert check(".")[1] == [("flows.py", 17, "ADK-W002")]
    code, _, error = check("--config", "workflow-decorators = {'x.y' = 'nope'}", ".")
    assert code == 2 and "workflow-decorators.x.y" in error and "unknown framework" in error


def test_ignoring_a_code_drops_the_helper_calls_that_only_reach_it(repo: Path) -> None:
    (repo / "wf.py").write_text(
        "import time, uuid\n__adk_workflow__ = True\n\n\n"
        "def stamp():\n    return time.time()\n\n\ndef key():\n    return uuid.uuid4()\n\n\n"
        "def run():\n    return stamp(), key()\n"
    )
    everything = check(".")[1]
    assert ("wf.py", 14, "ADK-W005") in everything and everything.count(
        ("wf.py", 14, "ADK-W005")
    ) == 2
    # The clock's W005 goes with ADK-W003; the id's stays.
    assert check("--ignore", "ADK-W003", ".")[1] == [
        ("wf.py", 10, "ADK-W002"),
        ("wf.py", 14, "ADK-W005"),
    ]
    result = CliRunner().invoke(cli, ["check", "--format", "json", "--select", "ADK-W005", "."])
    roots = sorted(f["root"]["code"] for f in json.loads(result.stdout)["findings"])
    assert roots == ["ADK-W002", "ADK-W003"]
