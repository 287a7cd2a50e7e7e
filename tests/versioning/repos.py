"""Fixture repositories for `check --base`: two commits built with git, then compared."""

from __future__ import annotations

import os
import subprocess
import textwrap
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

from replaylint.versioning import Versioned, check_against

_GIT = ["git", "-c", "user.name=replaylint", "-c", "user.email=dev@replaylint.invalid"]


def git(root: Path, *args: str) -> str:
    done = subprocess.run([*_GIT, *args], cwd=root, capture_output=True, text=True, check=True)
    return done.stdout


def write(root: Path, files: dict[str, str | None]) -> None:
    """Each file's text (dedented); None removes the file."""
    for name, text in files.items():
        path = root / name
        if text is None:
            if path.exists():
                path.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")


def repository(root: Path, base: dict[str, str | None], new: dict[str, str | None]) -> Path:
    """A repository whose HEAD holds `base` and whose working tree holds `base` updated by
    `new` (committed too when `commit_new`)."""
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q")
    write(root, base)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    write(root, new)
    return root


@contextmanager
def inside(folder: Path):
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(cwd)


def compared(root: Path, base: str = "HEAD", paths: tuple[str, ...] = ()) -> Versioned:
    with inside(root):
        return check_against(base, paths)


def found(root: Path, base: str = "HEAD") -> set[tuple[str, int, str]]:
    result = compared(root, base)
    assert not result.errors, result.errors
    return {(f.path, f.line, f.code.value) for f in result.findings}


def reported(root: Path, base: str = "HEAD") -> list[tuple[str, int, str, str]]:
    """Each finding as (path, line, code, the message's text in parentheses), in report order."""
    result = compared(root, base)
    assert not result.errors, result.errors
    return [(f.path, f.line, f.code.value, f.call) for f in result.findings]


def marked(name: str, text: str, details: list[str]) -> list[tuple[str, int, str, str]]:
    """What the `# expect: ADK-V00x` markers of `text` (the new version of file `name`) ask
    for, in line order, each with its message's detail, given in the same order."""
    from replaylint.api.testing import expectations

    marks = sorted(expectations(textwrap.dedent(text).lstrip("\n"), name))
    assert len(marks) == len(details), (marks, details)
    return [(m.path, m.line, m.code, detail) for m, detail in zip(marks, details, strict=True)]


def check_change(
    root: Path, name: str, base: str, new: str, details: list[str], **more: str
) -> list[tuple[str, int, str, str]]:
    """Commit `base` as file `name` (with the other files `more`), write `new` over it, and
    assert that `check --base HEAD` reports exactly what its markers and `details` say."""
    repository(root, {name: base, **more}, {name: new})
    found = reported(root)
    assert found == marked(name, new, details)
    return found


Render = Callable[[str], str]
# framework -> (the file's name, what writes a body into the file, case -> (base, new, details))
Tables = dict[str, tuple[str, Render, dict[str, tuple[str, str, list[str]]]]]


def body_in(template: str, body: str, indent: str = "    ") -> str:
    """`template` with its `{body}` the given lines (dedented, then indented)."""
    return template.format(body=textwrap.indent(textwrap.dedent(body).strip("\n"), indent))


def cases_of(tables: Tables) -> list[tuple[str, str]]:
    return [(framework, case) for framework, table in tables.items() for case in sorted(table[2])]


def check_case(tables: Tables, framework: str, case: str, root: Path) -> None:
    name, render, cases = tables[framework]
    base, new, details = cases[case]
    check_change(root, name, render(base), render(new), details)


def check_renamed(
    root: Path, name: str, base: str, change: tuple[str, str], definition: str, detail: str
) -> None:
    """`base` with `change` made in it (old text, new text): ADK-V002 on the line of
    `definition` (the renamed workflow's def), with `detail` in its message, and nothing else."""
    new = base.replace(*change).replace(definition, f"{definition}  # expect: ADK-V002\n    ")
    check_change(root, name, base, new, [detail])
