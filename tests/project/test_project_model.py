"""Imports resolve as Python resolves them, in every project layout the issue names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from replaylint.cli.main import cli

TEMPORAL = (
    "from temporalio import workflow\nimport time\n\n\n@workflow.defn\nclass Greeting:\n"
    "    @workflow.run\n    async def run(self) -> float:\n        return time.time()\n"
)


@pytest.fixture()
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    return tmp_path


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def check(*args: str) -> dict:
    result = CliRunner().invoke(cli, ["check", "--format", "json", *args])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def found(data: dict) -> list[tuple[str, int, str]]:
    return [(f["path"], f["line"], f["code"]) for f in data["findings"]]


@pytest.mark.parametrize(
    "folder",
    ["temporalio/__init__.py", "app/temporalio/__init__.py", "tests/temporalio/__init__.py"],
)
def test_a_local_folder_named_like_the_framework_does_not_hide_it(repo: Path, folder: str) -> None:
    write(repo, {folder: "", "app/__init__.py": "", "app/workflows.py": TEMPORAL})
    data = check(".")
    assert found(data) == [("app/workflows.py", 9, "ADK-W003")]
    assert data["summary"]["workflow_modules"] == 1


def test_the_frameworks_own_repository_its_tests_are_checked_its_source_is_not_helpers(
    repo: Path,
) -> None:
    write(
        repo,
        {
            "pyproject.toml": "[project]\nname = 'temporalio'\n",
            "temporalio/__init__.py": "",
            # The framework's own module: reading the clock is its job, not a workflow's.
            "temporalio/workflow.py": "import time\n\n\ndef now():\n    return time.time()\n",
            "temporalio/worker/__init__.py": "from ..workflow import now\n",
            "tests/test_workflows.py": TEMPORAL.replace(
                "return time.time()", "return workflow.now()"
            ),
        },
    )
    data = check(".")
    assert found(data) == []  # workflow.now() is the framework's safe clock, not a local helper
    assert [m["path"] for m in data["modules"]] == ["tests/test_workflows.py"]


def test_src_layout_namespace_packages_and_reexports(repo: Path) -> None:
    write(
        repo,
        {
            "pyproject.toml": "[project]\nname = 'demo'\n",
            "src/demo/__init__.py": "from .ids import make_id\n",
            "src/demo/ids.py": "import uuid\n\n\ndef make_id():\n    return uuid.uuid4()\n",
            "src/shared/clock.py": "import time\n\n\ndef now():\n    return time.time()\n",  # no __init__
            "src/demo/wf.py": (
                "from demo import make_id\nfrom shared.clock import now\n__adk_workflow__ = True\n\n\n"
                "def run():\n    return make_id(), now()\n"
            ),
        },
    )
    data = check(".")
    assert found(data) == [("src/demo/wf.py", 7, "ADK-W005"), ("src/demo/wf.py", 7, "ADK-W005")]
    chains = sorted(f["chain"][-1]["path"] for f in data["findings"])
    assert chains == ["src/demo/ids.py", "src/shared/clock.py"]


def test_a_script_style_sibling_and_a_deep_tree(repo: Path) -> None:
    deep = "/".join(f"d{i}" for i in range(12))
    write(
        repo,
        {
            f"{deep}/helpers.py": "import random\n\n\ndef pick():\n    return random.random()\n",
            f"{deep}/worker.py": "from helpers import pick\n__adk_workflow__ = True\nX = pick()\n",
        },
    )
    assert found(check(".")) == [(f"{deep}/worker.py", 3, "ADK-W005")]


def test_a_pyproject_inside_a_package_folder_does_not_cut_the_chain(repo: Path) -> None:
    write(
        repo,
        {
            "pyproject.toml": "[project]\nname = 'app'\n",
            "app/__init__.py": "",
            "app/pyproject.toml": "[project]\nname = 'inner'\n",
            "app/clock.py": "import time\n\n\ndef now():\n    return time.time()\n",
            "app/flows/wf.py": "from app.clock import now\n__adk_workflow__ = True\nX = now()\n",
        },
    )
    assert found(check(".")) == [("app/flows/wf.py", 3, "ADK-W005")]


def test_a_local_folder_named_like_the_standard_library_does_not_hide_it(repo: Path) -> None:
    write(
        repo,
        {
            "time/__init__.py": "def time():\n    return 0\n",
            "wf.py": "import time\n__adk_workflow__ = True\nX = time.time()\n",
        },
    )
    assert found(check(".")) == [("wf.py", 3, "ADK-W003")]


def test_a_relative_import_of_a_missing_module_is_unproven_and_counted(repo: Path) -> None:
    write(
        repo,
        {"pkg/__init__.py": "", "pkg/wf.py": "from .gone import helper\n__adk_workflow__ = True\n"},
    )
    data = check(".")
    assert [m["coverage"] for m in data["modules"]] == ["unproven"]
    assert data["summary"]["unresolved_imports"] == 1


def test_the_identity_does_not_depend_on_the_working_directory(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        repo,
        {
            "svc/pyproject.toml": "[project]\nname = 'svc'\n",
            "svc/app/__init__.py": "",
            "svc/app/util.py": "def f():\n    return 1\n",
            "svc/app/wf.py": "from app.util import f\n__adk_workflow__ = True\nX = f()\n",
        },
    )
    from_top = check("svc")["modules"][0]["identity"]
    monkeypatch.chdir(repo / "svc")
    assert check(".")["modules"][0]["identity"] == from_top


def test_a_framework_import_without_workflow_entries_is_not_parsed_but_still_followed(
    repo: Path,
) -> None:
    write(
        repo,
        {
            # Imports the framework, declares nothing of it, and would not even parse: it is no
            # candidate, so no ADK-E001 (it is not a workflow module).
            "tooling/broken.py": "from temporalio import client\ndef oops(:\n",
            # Declares nothing either, but a workflow imports it: read as a helper all the same.
            "app/helpers.py": "from temporalio import activity\nimport uuid\n\n\ndef key():\n    return uuid.uuid4()\n",
            "app/__init__.py": "",
            # An aliased import hides the entry's spelling: parsed to be sure.
            "app/aliased.py": (
                "import temporalio.workflow as wf\nfrom app.helpers import key\n\n\n@wf.defn\nclass Flow:\n"
                "    @wf.run\n    async def run(self) -> str:\n        return str(key())\n"
            ),
        },
    )
    data = check(".")
    # Under a preset, the helper's own line is reported in its file too (its framework's code).
    assert found(data) == [("app/aliased.py", 9, "ADK-W005"), ("app/helpers.py", 6, "ADK-W002")]
    assert data["findings"][0]["chain"][-1]["path"] == "app/helpers.py"


def test_a_folder_that_may_not_be_searched_is_no_internal_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """stat of a module under a folder the user may not search raises PermissionError: the
    lookup takes the module as there, so the module is ADK-E001 naming the cause (before, the
    import was dropped, or the whole importing file was an internal error)."""
    from replaylint.api import guard_source
    from replaylint.project import roots

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(
        "import time\n\n\ndef helper():\n    return time.time()\n"
    )
    source = "from pkg.mod import helper\n\n__adk_workflow__ = True\n\n\ndef run():\n    return helper()\n"
    real_is_file = Path.is_file

    def denied(path: Path) -> bool:
        if path.parent.name == "pkg":
            raise PermissionError(13, "Permission denied", str(path))
        return real_is_file(path)

    monkeypatch.setattr(roots.Path, "is_file", denied)
    findings = guard_source(source, str(tmp_path / "wf.py")).findings
    assert [(f.code.value, Path(f.path).name, f.line, f.message) for f in findings] == [
        (
            "ADK-E001",
            "mod.py",
            1,
            "the workflow module cannot be read or parsed (cannot read: Permission denied)",
        )
    ]
