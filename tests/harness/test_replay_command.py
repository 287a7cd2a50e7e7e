"""`replaylint replay`: the command over the committed histories and over broken ones."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from replaylint.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]


def test_committed_histories_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(cli, ["replay", "tests/histories"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    count = len(list((ROOT / "tests" / "histories").glob("*.json")))
    assert len(lines) == count
    assert all(line.startswith("ok tests/histories/") for line in lines)
    assert result.stderr == f"{count} histories: {count} ok, 0 diverged, 0 errors\n"


def test_divergence_and_invalid_history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    source = ROOT / "tests" / "histories" / "payment.json"
    data = json.loads(source.read_text())
    data["result"] = {"status": "something else"}
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(data))
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    diverged = CliRunner().invoke(cli, ["replay", str(changed)])
    assert diverged.exit_code == 1
    assert "(result-mismatch)" in diverged.output and diverged.output.startswith("diverged ")
    invalid = CliRunner().invoke(cli, ["replay", str(changed), str(broken)])
    assert invalid.exit_code == 2
    assert any(
        line.startswith("error ") and "broken.json" in line for line in invalid.output.splitlines()
    )
    shutil.rmtree(tmp_path)


def test_a_workflow_calling_sys_exit_does_not_end_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "quitter.py").write_text(
        "import sys\n\ndef run(ctx, order):\n    sys.exit(0)\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(ROOT))  # the examples the second history names
    monkeypatch.delitem(sys.modules, "quitter", raising=False)
    data = json.loads((ROOT / "tests" / "histories" / "payment.json").read_text())
    (tmp_path / "a.json").write_text(json.dumps({**data, "workflow": "quitter:run"}))
    shutil.copy(ROOT / "tests" / "histories" / "payment.json", tmp_path / "b.json")
    result = CliRunner().invoke(cli, ["replay", "a.json", "b.json"])
    monkeypatch.delitem(sys.modules, "quitter", raising=False)
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "diverged a.json: command 0 (workflow-error): the code raised SystemExit: 0 "
        "where the recorded run completed"
    )
    assert lines[1:] == ["ok b.json (6 commands)"]  # the next history is still replayed


def test_the_workflow_option_replays_a_temporal_export(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("temporalio.worker")
    monkeypatch.syspath_prepend(str(ROOT))
    from tests.workflows.test_wf_replay_temporal import WORKFLOWS, greeting_history

    (tmp_path / "cli_greetings.py").write_text(WORKFLOWS, encoding="utf-8")
    (tmp_path / "exported.json").write_text(json.dumps(greeting_history()), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    try:
        ok = CliRunner().invoke(
            cli, ["replay", "--workflow", "cli_greetings:Greeting", "exported.json"]
        )
        changed = CliRunner().invoke(
            cli, ["replay", "exported.json", "--workflow", "cli_greetings:GreetingAfterAWait"]
        )
        missing = CliRunner().invoke(cli, ["replay", "exported.json"])
    finally:
        sys.modules.pop("cli_greetings", None)
    assert (ok.exit_code, ok.output) == (0, "ok exported.json (11 events, Temporal)\n")
    assert changed.exit_code == 1
    assert changed.output.startswith("diverged exported.json: Temporal replay (nondeterminism): ")
    assert missing.exit_code == 2
    assert "pass --workflow package.module:Class" in missing.output


WORKFLOWS = """
import os
import time

from replaylint.workflows import activity


@activity(name="price")
def price(sku):
    return {"S-1": 500}[sku]


def run(ctx, order):
    return {"total": sum(price(sku) for sku in order["skus"])}


def quits(ctx, order):
    os._exit(0)


def crashes(ctx, order):
    print("about to fail hard")
    os.abort()


def blocks(ctx, order):
    time.sleep(3600)


def chatty(ctx, order):
    print("a line the workflow prints")
    return run(ctx, order)
"""


@pytest.fixture
def shop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project whose histories name workflows that exit, crash, block or print; cwd is its root."""
    from datetime import datetime, timezone

    from replaylint.workflows import record

    (tmp_path / "shop_exits.py").write_text(WORKFLOWS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    import shop_exits

    start = datetime(2024, 3, 1, tzinfo=timezone.utc)
    recorded = record(shop_exits.run, {"skus": ["S-1"]}, run_id="r-1", started_at=start)
    data = recorded.to_dict()
    for name in ("run", "quits", "crashes", "blocks", "chatty"):
        history = {**data, "workflow": f"shop_exits:{name}"}
        (tmp_path / f"{name}.json").write_text(json.dumps(history), encoding="utf-8")
    (tmp_path / "zz_diverges.json").write_text(
        json.dumps({**data, "workflow": "shop_exits:run", "result": {"total": 1}}),
        encoding="utf-8",
    )
    yield tmp_path
    sys.modules.pop("shop_exits", None)


def test_a_workflow_that_ends_its_process_gets_its_line_and_the_rest_still_run(shop) -> None:
    result = CliRunner().invoke(cli, ["replay", "quits.json", "crashes.json", "zz_diverges.json"])
    assert result.exit_code == 2  # an error is the worst status; the divergence still shows
    assert result.stdout.splitlines() == [
        "error quits.json: the replay's process ended with exit status 0 before it gave a "
        "verdict (os._exit or a crash in the code it ran)",
        "error crashes.json: the replay's process was killed by SIGABRT before it gave a "
        "verdict; its last output: about to fail hard",
        'diverged zz_diverges.json: result (result-mismatch): recorded {"total":1}, code '
        'returned {"total":500}',
    ]
    assert result.stderr == "3 histories: 0 ok, 1 diverged, 2 errors\n"


def test_a_replay_that_makes_no_progress_is_stopped_at_the_time_limit(shop) -> None:
    began = time.monotonic()
    result = CliRunner().invoke(cli, ["replay", "--timeout", "1.5", "blocks.json", "run.json"])
    assert time.monotonic() - began < 10
    assert result.exit_code == 2
    assert result.stdout.splitlines() == [
        "error blocks.json: no progress after 1.5 s (the replay was stopped; --timeout sets "
        "the limit)",
        "ok run.json (1 command)",
    ]


def test_what_a_workflow_prints_stays_out_of_the_verdicts(shop) -> None:
    result = CliRunner().invoke(cli, ["replay", "chatty.json"])
    assert (result.exit_code, result.output) == (0, "ok chatty.json (1 command)\n")


def test_the_time_limit_must_be_positive(shop) -> None:
    result = CliRunner().invoke(cli, ["replay", "--timeout", "0", "run.json"])
    assert result.exit_code == 2
    assert "--timeout" in result.output


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_both_ways_of_starting_the_child_give_the_same_answers(shop, method: str) -> None:
    from replaylint.harness.isolate import Ended, run_isolated
    from replaylint.harness.replay import replay_verdict

    def verdict(name: str, timeout: float = 30) -> object:
        return run_isolated(replay_verdict, (name, []), timeout=timeout, method=method)

    assert verdict("run.json") == [0, "(1 command)"]
    assert verdict("quits.json") == Ended(timed_out=False, exit_status=0)
    assert verdict("blocks.json", timeout=1) == Ended(timed_out=True)
    crashed = verdict("crashes.json")
    assert isinstance(crashed, Ended) and crashed.signal_name == "SIGABRT"


def test_the_command_itself_survives_an_exit_from_a_subprocess_run(shop) -> None:
    # Not through CliRunner: a real process, as CI runs it, with both streams apart.
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "replaylint", "replay", "quits.json", "run.json"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(shop)])},
    )
    assert done.returncode == 2
    assert [line.split(" ")[0] for line in done.stdout.splitlines()] == ["error", "ok"]
    assert done.stderr == "2 histories: 1 ok, 0 diverged, 1 error\n"
