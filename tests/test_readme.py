"""The README's Install, Pre-commit and CI sections, run as written.

Every shell command in their fenced `sh` blocks, every `run:` step of the GitHub Actions job and
every `script:` line of the GitLab job is read from README.md and run by bash, so the test fails
when the text drifts. The network is not needed: `pip` is the project's pip aimed at one fresh
venv (`pip --python`), with `--no-deps` since the venv borrows the project's dependencies
through a .pth file. The first pip command really installs (a built wheel, its entry point, the
rule pages it ships); the later ones are resolved and built as a dry run, which checks the same
requirement without installing it twice. pipx is not installed here: `pipx install SPEC` hands
SPEC to pip in an environment of its own, so the shim checks that pip accepts and builds it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
WORKFLOW = "import time\n\n__adk_workflow__ = True\n\n\ndef run():\n    return time.time()\n"
FINDING = "flow.py:7: ADK-W003 the wall clock is used on the workflow path (time.time)"


def section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## )", README, re.M | re.S)
    assert match is not None, f"README has no section {title!r}"
    return match.group(1)


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```\n", text, re.M | re.S)


def commands(text: str) -> list[str]:
    """The shell commands of the `sh` blocks, each without its trailing comment."""
    lines = [line for block in blocks(text, "sh") for line in block.splitlines()]
    return [re.sub(r"\s+#.*$", "", line) for line in lines if line.strip()]


SHIM_PIP = """#!/bin/sh
# The project's pip, aimed at the fresh venv; the first call installs, later ones dry-run.
if [ "$1" = install ] && [ -e "$MARKER" ]; then set -- "$@" --dry-run; fi
"$PROJECT_PYTHON" -m pip --python "$FRESH_PYTHON" "$@" --no-deps --no-input || exit $?
[ "$1" = install ] && touch "$MARKER"
exit 0
"""
SHIM_PIPX = """#!/bin/sh
[ "$1" = install ] || { echo "pipx $1: not checked here" >&2; exit 64; }
shift
exec "$PROJECT_PYTHON" -m pip --python "$FRESH_PYTHON" install --dry-run --no-deps "$@"
"""


@pytest.fixture(scope="module")
def shell(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The environment the README's commands run in: shims first, then the fresh venv."""
    base = tmp_path_factory.mktemp("readme")
    fresh = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(fresh)], check=True)
    [site] = (fresh / "lib").glob("python*/site-packages")
    project_site = next(p for p in map(Path, sys.path) if p.name == "site-packages" and p.is_dir())
    (site / "project-dependencies.pth").write_text(f"{project_site}\n")
    shims = base / "shims"
    shims.mkdir()
    for name, text in (("pip", SHIM_PIP), ("pipx", SHIM_PIPX)):
        (shims / name).write_text(text)
        (shims / name).chmod(0o755)
    env = {
        **os.environ,
        "PATH": os.pathsep.join(
            [str(shims), str(fresh / "bin"), str(Path(sys.executable).parent), os.environ["PATH"]]
        ),
        "PROJECT_PYTHON": sys.executable,
        "FRESH_PYTHON": str(fresh / "bin" / "python"),
        "MARKER": str(base / "installed"),
        "PRE_COMMIT_HOME": str(base / "pre-commit-home"),
        "FRESH_VENV": str(fresh),
    }
    for name in ("FORCE_COLOR", "NO_COLOR", "VIRTUAL_ENV"):
        env.pop(name, None)
    yield env


def bash(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


HOSTED = "/srv/git/replaylint.git"  # the README's example URL: a bare repository stands in


@pytest.fixture(scope="module")
def bare(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A hosted copy of this repository: a bare clone of its committed state."""
    where = tmp_path_factory.mktemp("hosted") / "replaylint.git"
    git(ROOT, "clone", "--quiet", "--bare", str(ROOT), str(where))
    return where


@pytest.fixture(scope="module")
def installed(
    shell: dict[str, str], tmp_path_factory: pytest.TempPathFactory, bare: Path
) -> list[str]:
    """The Install section's commands, run from a folder that holds the clone as `replaylint/`
    (the git URL line against a local bare repository)."""
    where = tmp_path_factory.mktemp("install")
    (where / "replaylint").symlink_to(ROOT, target_is_directory=True)
    ran = commands(section("Install"))
    assert [c.split()[0] for c in ran] == ["pip", "pipx", "pip", "pip", "pip"], ran
    for index, command in enumerate(ran):
        done = bash(command.replace(HOSTED, str(bare)), where, shell)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        if index:  # the first installs; the others are resolved and built as dry runs
            # (a git URL of the version just installed may count as satisfied: it was built)
            built = (
                "Would install replaylint-" in done.stdout or "Preparing metadata" in done.stdout
            )
            assert built, (command, done.stdout)
    return ran


def test_install_puts_a_working_replaylint_into_the_environment(
    installed: list[str], shell: dict[str, str], tmp_path: Path
) -> None:
    fresh = Path(shell["FRESH_VENV"])
    where = bash("command -v replaylint", tmp_path, shell).stdout.strip()
    assert where == str(fresh / "bin" / "replaylint")
    located = bash('python -c "import replaylint; print(replaylint.__file__)"', tmp_path, shell)
    assert located.stdout.startswith(str(fresh)), located.stdout  # the wheel, not this tree
    (tmp_path / "flow.py").write_text(WORKFLOW)
    done = bash("replaylint check flow.py", tmp_path, shell)
    assert done.returncode == 1 and done.stdout.startswith(FINDING + "\n"), done.stdout
    shipped = bash("replaylint rule ADK-W003", tmp_path, shell)  # the pages are in the wheel
    assert shipped.stdout.startswith("# wall-clock-in-workflow (ADK-W003)\n"), shipped.stderr


def scratch_repository(path: Path) -> Path:
    path.mkdir()
    git(path, "init", "-q")
    git(path, "config", "user.email", "dev@example.com")
    git(path, "config", "user.name", "dev")
    (path / "flow.py").write_text(WORKFLOW)
    (path / "notes.txt").write_text("not python\n")
    return path


def test_the_pre_commit_snippet_runs_the_hook(
    installed: list[str], shell: dict[str, str], tmp_path: Path
) -> None:
    text = section("Pre-commit and editors")
    [config] = blocks(text, "yaml")
    repo = scratch_repository(tmp_path / "project")
    (repo / ".pre-commit-config.yaml").write_text(config)
    git(repo, "add", ".")
    ran = commands(text)
    assert ran == ["pre-commit install", "pre-commit run replaylint --all-files"]
    install = bash(ran[0], repo, shell)
    assert install.returncode == 0, install.stdout + install.stderr
    assert (repo / ".git" / "hooks" / "pre-commit").is_file()
    failing = bash(ran[1], repo, shell)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert FINDING in failing.stdout
    (repo / "flow.py").write_text("__adk_workflow__ = True\n")
    passing = bash(ran[1], repo, shell)
    assert passing.returncode == 0, passing.stdout + passing.stderr


def ci_project(path: Path, bare: Path) -> Path:
    project = scratch_repository(path)
    # The dev tools of the project: replaylint by its git URL, as Install says.
    (project / "requirements-dev.txt").write_text(f"replaylint @ git+file://localhost{bare}\n")
    return project


def run_steps(steps: list[str], project: Path, env: dict[str, str]) -> None:
    *installs, check = steps
    assert installs == ["pip install -r requirements-dev.txt"], installs
    for command in installs:
        done = bash(command, project, env)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
    done = bash(check, project, env)
    assert done.returncode == 1, (check, done.stdout, done.stderr)  # findings fail the job
    assert done.stdout == "" and done.stderr == ""


def test_the_github_actions_job_writes_the_sarif_it_uploads(
    installed: list[str], shell: dict[str, str], tmp_path: Path, bare: Path
) -> None:
    [workflow] = [b for b in blocks(section("CI"), "yaml") if "jobs:" in b]
    job = yaml.safe_load(workflow)["jobs"]["replaylint"]
    assert job["permissions"]["security-events"] == "write"
    steps = job["steps"]
    [upload] = [
        s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")
    ]
    assert upload["if"] == "success() || failure()"  # findings fail the check step
    project = ci_project(tmp_path / "project", bare)
    run_steps([s["run"] for s in steps if "run" in s], project, shell)
    sarif = json.loads((project / upload["with"]["sarif_file"]).read_text())
    assert sarif["version"] == "2.1.0"
    [result] = sarif["runs"][0]["results"]
    assert result["ruleId"] == "ADK-W003"
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "flow.py"
    assert location["region"]["startLine"] == 7


def test_the_gitlab_job_writes_the_code_quality_report_it_keeps(
    installed: list[str], shell: dict[str, str], tmp_path: Path, bare: Path
) -> None:
    [pipeline] = [b for b in blocks(section("CI"), "yaml") if "artifacts:" in b]
    job = yaml.safe_load(pipeline)["replaylint"]
    assert job["artifacts"]["when"] == "always"
    project = ci_project(tmp_path / "project", bare)
    run_steps(job["script"], project, shell)
    report = json.loads((project / job["artifacts"]["reports"]["codequality"]).read_text())
    [issue] = report
    assert issue["check_name"] == "ADK-W003"
    assert issue["location"]["path"] == "flow.py"
    assert issue["location"]["lines"]["begin"] == 7


def test_every_command_of_the_sections_is_one_the_tests_run() -> None:
    quoted = [*commands(section("Install")), *commands(section("Pre-commit and editors"))]
    assert quoted == [
        "pip install ./replaylint",
        "pipx install ./replaylint",
        "pip install './replaylint[lsp]'",
        "pip install './replaylint[mcp]'",
        f"pip install 'replaylint[lsp] @ git+file://localhost{HOSTED}'",
        "pre-commit install",
        "pre-commit run replaylint --all-files",
    ]
    ci = [yaml.safe_load(b) for b in blocks(section("CI"), "yaml")]
    assert len(ci) == 2 and commands(section("CI")) == []


BASE_FLOW = """from temporalio import workflow


@workflow.defn
class Checkout:
    @workflow.run
    async def run(self) -> None:
        await workflow.execute_activity("charge", start_to_close_timeout=5)
"""
NEW_FLOW = BASE_FLOW.replace('"charge"', '"reserve"')


def test_the_versioning_job_and_hook_compare_with_the_base(
    installed: list[str], shell: dict[str, str], tmp_path: Path, bare: Path
) -> None:
    text = section("Versioning: `check --base`")
    [workflow] = [b for b in blocks(text, "yaml") if "jobs:" in b]
    job = yaml.safe_load(workflow)["jobs"]["versioning"]
    assert job["steps"][0]["with"]["fetch-depth"] == 0  # the base branch must be there
    [upload] = [s for s in job["steps"] if "upload-sarif" in s.get("uses", "")]
    project = ci_project(tmp_path / "project", bare)
    (project / "flow.py").write_text(BASE_FLOW)
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "base")
    git(project, "update-ref", "refs/remotes/origin/main", "HEAD")
    (project / "flow.py").write_text(NEW_FLOW)
    run_steps([s["run"] for s in job["steps"] if "run" in s], project, shell)
    sarif = json.loads((project / upload["with"]["sarif_file"]).read_text())
    [result] = sarif["runs"][0]["results"]
    assert (
        result["ruleId"],
        result["locations"][0]["physicalLocation"]["region"]["startLine"],
    ) == (
        "ADK-V001",
        8,
    )
    [hook] = yaml.safe_load([b for b in blocks(text, "yaml") if "stages:" in b][0])
    assert hook["stages"] == ["pre-push"]
    pushed = bash(f"{hook['entry']} flow.py", project, {**shell, "PRE_COMMIT_FROM_REF": "HEAD"})
    assert pushed.returncode == 1 and "flow.py:8: ADK-V001" in pushed.stdout, pushed
