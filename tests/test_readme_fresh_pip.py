"""The README's pip lines as the pip of a fresh venv reads them.

tests/test_readme.py runs them with the project's own pip, which is recent; a user runs them
with the pip `python -m venv` puts in a new environment (ensurepip's, 23.x on Python 3.11),
which refused `git+file:///...` as an invalid requirement. Each line is resolved and built here
by that pip as a dry run without dependencies, from the index the project's own tests use (its
build backend, as in tests/test_readme.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.test_readme import HOSTED, ROOT, commands, git, section


@pytest.fixture(scope="module")
def fresh_pip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv with the pip ensurepip gives it, as `python -m venv` makes it."""
    fresh = tmp_path_factory.mktemp("fresh") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(fresh)], check=True)
    return fresh / "bin" / "pip"


def test_the_fresh_venv_has_its_own_pip(fresh_pip: Path) -> None:
    version = subprocess.run([fresh_pip, "--version"], capture_output=True, text=True, check=True)
    assert str(fresh_pip.parents[1]) in version.stdout, version.stdout


def test_every_pip_line_of_install_is_accepted_by_a_fresh_venvs_pip(
    fresh_pip: Path, tmp_path: Path
) -> None:
    bare = tmp_path / "replaylint.git"
    git(ROOT, "clone", "--quiet", "--bare", str(ROOT), str(bare))
    (tmp_path / "replaylint").symlink_to(ROOT, target_is_directory=True)
    lines = [c for c in commands(section("Install")) if c.startswith("pip install ")]
    assert len(lines) == 4, lines
    env = {
        k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PIP_REQUIRE_VIRTUALENV")
    }
    env["PATH"] = os.pathsep.join([str(fresh_pip.parent), env["PATH"]])
    for line in lines:
        command = line.replace(HOSTED, str(bare)) + " --dry-run --no-deps"
        done = subprocess.run(
            ["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, (line, done.stdout, done.stderr)
        assert "Would install replaylint-" in done.stdout, (line, done.stdout)
