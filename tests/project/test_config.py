"""[tool.replaylint]: every key, its effect, and every kind of mistake (exit 2, one line)."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from replaylint.cli.main import cli
from replaylint.project.config import Config, ConfigError, discover, load

CLOCK = "import time\n__adk_workflow__ = True\n\n\ndef run():\n    return time.time()\n"


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    return tmp_path


def write_config(root: Path, body: str) -> None:
    (root / "pyproject.toml").write_text("[project]\nname = 'demo'\n\n[tool.replaylint]\n" + body)


def codes(root: Path, *args: str) -> list[tuple[str, int, str]]:
    result = CliRunner().invoke(cli, ["check", "--format", "json", *args])
    assert result.exit_code in (0, 1), result.output
    return [(f["path"], f["line"], f["code"]) for f in json.loads(result.stdout)["findings"]]


def test_defaults_without_a_table(project: Path) -> None:
    (project / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    config = discover()
    assert config == Config(base=str(project))


def test_select_and_ignore(project: Path) -> None:
    (project / "wf.py").write_text(CLOCK + "\nimport uuid\nKEY = uuid.uuid4()\n")
    write_config(project, 'select = ["ADK-W002"]\n')
    assert codes(project) == [("wf.py", 9, "ADK-W002")]
    write_config(project, 'ignore = ["random-id-in-workflow"]\n')
    assert codes(project) == [("wf.py", 6, "ADK-W003")]


def test_exclude_and_extend_exclude(project: Path) -> None:
    (project / "generated").mkdir()
    (project / "generated" / "wf.py").write_text(CLOCK)
    (project / "build").mkdir()
    (project / "build" / "wf.py").write_text(CLOCK)
    (project / "wf.py").write_text(CLOCK)
    assert codes(project) == [("generated/wf.py", 6, "ADK-W003"), ("wf.py", 6, "ADK-W003")]
    write_config(project, 'extend-exclude = ["generated"]\n')
    assert codes(project) == [("wf.py", 6, "ADK-W003")]
    write_config(project, 'exclude = ["generated"]\n')  # replaces the defaults: build/ is read
    assert sorted(codes(project)) == [("build/wf.py", 6, "ADK-W003"), ("wf.py", 6, "ADK-W003")]


def test_gitignored_files_are_skipped(project: Path) -> None:
    (project / ".gitignore").write_text("scratch/\n*_local.py\n!keep_local.py\n")
    (project / "scratch").mkdir()
    (project / "scratch" / "wf.py").write_text(CLOCK)
    (project / "wf_local.py").write_text(CLOCK)
    (project / "keep_local.py").write_text(CLOCK)
    assert codes(project) == [("keep_local.py", 6, "ADK-W003")]
    write_config(project, "respect-gitignore = false\n")
    assert len(codes(project)) == 3


def test_per_file_ignores(project: Path) -> None:
    (project / "tests").mkdir()
    (project / "tests" / "wf.py").write_text(CLOCK)
    (project / "wf.py").write_text(CLOCK)
    write_config(project, '[tool.replaylint.per-file-ignores]\n"tests/*" = ["ADK-W003"]\n')
    assert codes(project) == [("wf.py", 6, "ADK-W003")]


def test_markers(project: Path) -> None:
    (project / "wf.py").write_text(
        "import time\nDURABLE = True\n\n\ndef run():\n    return time.time()\n"
    )
    assert codes(project) == []
    write_config(project, 'markers = ["DURABLE"]\n')
    assert codes(project) == [("wf.py", 6, "ADK-W003")]


def test_frameworks_limits_the_presets(project: Path) -> None:
    (project / "flow.py").write_text(
        "import time\nfrom dbos import DBOS\n\n\n@DBOS.workflow()\ndef run():\n    return time.time()\n"
    )
    assert codes(project) == [("flow.py", 7, "ADK-W003")]
    write_config(project, 'frameworks = ["temporal"]\n')
    assert codes(project) == []


def test_unsafe_declares_a_company_client(project: Path) -> None:
    (project / "wf.py").write_text(
        "from acme.llm import Gateway\nfrom acme import http\n__adk_workflow__ = True\n\n\n"
        "def run(q):\n    answer = Gateway().complete(q)\n    return http.fetch(q), answer\n"
    )
    assert codes(project) == []
    write_config(
        project,
        '[tool.replaylint.unsafe]\n"ADK-W001" = ["acme.llm.Gateway"]\n"ADK-W004" = ["acme.http"]\n',
    )
    assert codes(project) == [("wf.py", 7, "ADK-W001"), ("wf.py", 8, "ADK-W004")]


def test_unsafe_names_of_the_projects_own_modules(project: Path) -> None:
    """A declared name of the checked project itself (its in-house gateway, read by the walk
    and found harmless) is judged by the declaration, however it is imported."""
    (project / "acme").mkdir()
    (project / "acme" / "__init__.py").write_text("")
    (project / "acme" / "llm.py").write_text(
        "class Gateway:\n    def complete(self, p):\n        return p\n"
    )
    (project / "acme" / "http.py").write_text("def fetch(url):\n    return url\n")
    (project / "wf.py").write_text(
        "import acme.llm\nimport acme.http as web\nfrom acme.llm import Gateway\n"
        "__adk_workflow__ = True\n\n\ndef run(q):\n    a = Gateway().complete(q)\n"
        "    b = acme.llm.Gateway().complete(q)\n    return web.fetch(q), a, b\n"
    )
    assert codes(project) == []
    write_config(
        project,
        '[tool.replaylint.unsafe]\n"ADK-W001" = ["acme.llm.Gateway"]\n"ADK-W004" = ["acme.http"]\n',
    )
    assert codes(project) == [
        ("wf.py", 8, "ADK-W001"),
        ("wf.py", 9, "ADK-W001"),
        ("wf.py", 10, "ADK-W004"),
    ]


def test_safe_names_stop_findings_and_propagation(project: Path) -> None:
    (project / "wf.py").write_text(
        "import time\n__adk_workflow__ = True\n\n\ndef audit_stamp():\n    return time.monotonic()\n\n\n"
        "def run():\n    return audit_stamp(), time.time()\n"
    )
    assert codes(project) == [
        ("wf.py", 6, "ADK-W003"),
        ("wf.py", 10, "ADK-W005"),
        ("wf.py", 10, "ADK-W003"),
    ]
    write_config(project, 'safe = ["time.monotonic", "time.time"]\n')
    assert codes(project) == []
    write_config(project, 'safe = ["wf.audit_stamp"]\n')  # declared deterministic, body included
    assert codes(project) == [("wf.py", 10, "ADK-W003")]


def test_activity_decorators(project: Path) -> None:
    (project / "wf.py").write_text(
        "import time\nfrom ourlib import recorded\n__adk_workflow__ = True\n\n\n@recorded\n"
        "def stamp():\n    return time.time()\n\n\ndef run():\n    return stamp()\n"
    )
    assert codes(project) == [("wf.py", 8, "ADK-W003"), ("wf.py", 12, "ADK-W005")]
    write_config(project, 'activity-decorators = ["ourlib.recorded"]\n')
    assert codes(project) == []


def test_activity_decorators_of_the_project(project: Path) -> None:
    """A declared recorder the project defines itself is named by its module and name."""
    (project / "recorders.py").write_text(
        "def recorded(fn):\n    def wrapper(*args):\n        return fn(*args)\n\n    return wrapper\n"
    )
    (project / "wf.py").write_text(
        "import time\nfrom recorders import recorded\n__adk_workflow__ = True\n\n\n@recorded\n"
        "def stamp():\n    return time.time()\n\n\ndef run():\n    return stamp()\n"
    )
    assert codes(project) == [("wf.py", 8, "ADK-W003"), ("wf.py", 12, "ADK-W005")]
    write_config(project, 'activity-decorators = ["recorders.recorded"]\n')
    assert codes(project) == []


def test_nearest_config_wins_and_root_stops(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_config(project, 'ignore = ["ADK-W003"]\nmarkers = ["FAR"]\n')
    inner = project / "service"
    inner.mkdir()
    (inner / "pyproject.toml").write_text('[tool.replaylint]\nselect = ["ADK-W00"]\n')
    monkeypatch.chdir(inner)
    merged = discover()
    assert (
        merged.select == ("ADK-W00",)
        and merged.ignore == ("ADK-W003",)
        and merged.markers == ("FAR",)
    )
    assert merged.sources == (str(inner / "pyproject.toml"), str(project / "pyproject.toml"))
    (inner / "pyproject.toml").write_text('[tool.replaylint]\nroot = true\nselect = ["ADK-W00"]\n')
    assert discover().ignore == ()


def test_explicit_config_file(project: Path) -> None:
    (project / "wf.py").write_text(CLOCK)
    (project / "ci.toml").write_text('ignore = ["ADK-W003"]\n')
    assert codes(project, "--config", "ci.toml") == []
    assert load(project / "ci.toml").ignore == ("ADK-W003",)


@pytest.mark.parametrize(
    "body,message",
    [
        ('selct = ["ADK-W001"]\n', "[tool.replaylint] selct: unknown key"),
        ('select = ["ADK-W999"]\n', "[tool.replaylint] select: unknown rule code 'ADK-W999'"),
        (
            'ignore = "ADK-W003"\n',
            '[tool.replaylint] ignore: expected a list of strings, got "ADK-W003"',
        ),
        ('frameworks = ["celery"]\n', "[tool.replaylint] frameworks: unknown framework 'celery'"),
        (
            'markers = ["not a name"]\n',
            "[tool.replaylint] markers: 'not a name' is not a Python name",
        ),
        (
            "respect-gitignore = 1\n",
            "[tool.replaylint] respect-gitignore: expected true or false, got 1",
        ),
        (
            '[tool.replaylint.unsafe]\n"ADK-W005" = ["x"]\n',
            "[tool.replaylint] unsafe.ADK-W005: expected one of",
        ),
        (
            '[tool.replaylint.per-file-ignores]\n"a/*" = ["nope"]\n',
            "per-file-ignores.a/*: unknown rule code 'nope'",
        ),
        ("select = [\n", "invalid TOML"),
        (
            '[tool.replaylint.versioning]\ntemporal = "sometimes"\n',
            "[tool.replaylint] versioning.temporal: expected one of",
        ),
        (
            '[tool.replaylint.versioning]\ncelery = "pinned"\n',
            "[tool.replaylint] versioning.celery: expected one of",
        ),
    ],
)
def test_mistakes_exit_two_with_one_line(project: Path, body: str, message: str) -> None:
    (project / "wf.py").write_text(CLOCK)
    write_config(project, body)
    result = CliRunner().invoke(cli, ["check", "wf.py"])
    assert result.exit_code == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("replaylint: error: ") and str(project / "pyproject.toml") in line
    assert message in line
    with pytest.raises(ConfigError):
        discover()


def test_versioning_models_per_framework(project: Path) -> None:
    write_config(project, '[tool.replaylint.versioning]\ntemporal = "pinned"\ndbos = "patching"\n')
    assert discover().versioning == {"temporal": "pinned", "dbos": "patching"}


def test_missing_explicit_config(project: Path) -> None:
    result = CliRunner().invoke(cli, ["check", "--config", "nope.toml"])
    assert result.exit_code == 2
    assert "nope.toml: cannot read" in result.stderr


def test_show_config(project: Path) -> None:
    write_config(
        project, 'ignore = ["ADK-W003"]\n[tool.replaylint.unsafe]\n"ADK-W004" = ["acme.http"]\n'
    )
    result = CliRunner().invoke(cli, ["check", "--show-config"])
    assert result.exit_code == 0
    lines = dict(line.split(" = ", 1) for line in result.stdout.splitlines())
    assert json.loads(lines["ignore"]) == ["ADK-W003"]
    assert json.loads(lines["unsafe"]) == {"ADK-W004": ["acme.http"]}
    assert json.loads(lines["sources"]) == [str(project / "pyproject.toml")]


def test_nearest_config_is_found_from_the_checked_paths(project: Path) -> None:
    write_config(project, 'ignore = ["ADK-W002"]\n')
    package = project / "pkg"
    package.mkdir()
    (package / "pyproject.toml").write_text(
        '[tool.replaylint]\nignore = ["ADK-W003"]\nroot = true\n'
    )
    (package / "wf.py").write_text(CLOCK)
    assert codes(project, "pkg") == []
    assert codes(project, "pkg/wf.py") == []


def test_per_file_ignored_codes_are_not_unused_suppressions(project: Path) -> None:
    (project / "tests").mkdir()
    (project / "tests" / "wf.py").write_text(
        "import time\n__adk_workflow__ = True\nT = time.time()  # replaylint: ignore[ADK-W003]\n"
    )
    write_config(project, '[tool.replaylint.per-file-ignores]\n"tests/*" = ["ADK-W003"]\n')
    assert codes(project) == []


def test_cli_selector_typo_is_one_line(project: Path) -> None:
    (project / "wf.py").write_text(CLOCK)
    result = CliRunner().invoke(cli, ["check", "--ignore", "ADK-W123", "wf.py"])
    assert result.exit_code == 2
    assert result.stderr == (
        "replaylint: error: --ignore: unknown rule code or prefix 'ADK-W123'"
        " (did you mean 'ADK-W011'?)\n"
    )


@pytest.fixture()
def no_hang() -> Iterator[None]:
    """A run that opens a FIFO for reading would block; fail after 20 s instead."""

    def expire(signum: int, frame: Any) -> None:
        raise TimeoutError("blocked: a FIFO was opened for reading")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def one_error(*args: str) -> str:
    """The one stderr line of a run that must exit 2 (settings are read before any file)."""
    result = CliRunner().invoke(cli, ["check", *args])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    [line] = result.stderr.splitlines()
    assert line.startswith("replaylint: error: ")
    return line.removeprefix("replaylint: error: ")


def test_config_files_that_are_not_utf8(project: Path) -> None:
    (project / "wf.py").write_text(CLOCK)
    (project / "pyproject.toml").write_bytes(b"[tool.replaylint]\nselect = []\n# caf\xe9\n")
    message = "not UTF-8 (byte 0xe9 on line 3); TOML files are UTF-8"
    assert one_error("wf.py") == f"{project / 'pyproject.toml'}: {message}"
    with pytest.raises(ConfigError, match="byte 0xe9 on line 3"):
        discover()
    os.remove(project / "pyproject.toml")
    (project / "replaylint.toml").write_bytes(b'ignore = ["ADK-W003"]  # \xff\n')
    line = one_error("--config", "replaylint.toml", "wf.py")
    assert line == "replaylint.toml: not UTF-8 (byte 0xff on line 1); TOML files are UTF-8"


def test_explicit_config_that_is_not_toml(project: Path) -> None:
    (project / "wf.py").write_text(CLOCK)
    (project / "replaylint.toml").write_text("ignore = [\n")
    line = one_error("--config", "replaylint.toml", "wf.py")
    assert line == "replaylint.toml: invalid TOML: Invalid value (at end of document)"


def test_config_with_a_byte_order_mark_is_read(project: Path) -> None:
    (project / "wf.py").write_text(CLOCK)
    (project / "pyproject.toml").write_bytes(
        b'\xef\xbb\xbf[tool.replaylint]\nignore = ["ADK-W003"]\n'
    )
    assert codes(project) == []


def test_config_that_is_not_a_regular_file(project: Path, no_hang: None) -> None:
    (project / "wf.py").write_text(CLOCK)
    pyproject = project / "pyproject.toml"
    os.mkfifo(pyproject)
    assert one_error("wf.py") == f"{pyproject}: cannot read: not a regular file (a FIFO)"
    assert one_error("--config", "pyproject.toml", "wf.py") == (
        "pyproject.toml: cannot read: not a regular file (a FIFO)"
    )
    os.remove(pyproject)
    os.symlink("gone.toml", pyproject)
    assert one_error("wf.py") == f"{pyproject}: cannot read: dangling symbolic link"
    os.remove(pyproject)
    os.symlink("pyproject.toml", pyproject)
    assert one_error("wf.py") == f"{pyproject}: cannot read: Too many levels of symbolic links"


def test_unreadable_config(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "wf.py").write_text(CLOCK)
    write_config(project, "")
    (project / "pyproject.toml").chmod(0)
    if os.geteuid() == 0:  # root opens any file: refuse this one as the kernel would
        real = os.open

        def fake_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
            if os.fspath(path).endswith("pyproject.toml"):
                raise PermissionError(13, "Permission denied", os.fspath(path))
            return real(path, flags, *args, **kwargs)

        monkeypatch.setattr(os, "open", fake_open)
    try:
        assert one_error("wf.py") == f"{project / 'pyproject.toml'}: cannot read: Permission denied"
    finally:
        (project / "pyproject.toml").chmod(0o644)


def test_key_with_a_newline_stays_one_line(project: Path) -> None:
    (project / "wf.py").write_text(CLOCK)
    write_config(project, '"se\\nlect" = []\n')
    line = one_error("wf.py")
    assert line == (
        f"{project / 'pyproject.toml'}: [tool.replaylint] se\\nlect: unknown key"
        " (did you mean 'select'?)"
    )
