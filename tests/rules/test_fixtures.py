"""Every fixture under tests/rules/<group>/ raises exactly the findings its `# expect:` markers name."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint.api.testing import check_tree

RULES = Path(__file__).parent


def _cases() -> list[Path]:
    cases = []
    for group in sorted(RULES.iterdir()):
        if not group.is_dir():  # this folder's own test modules
            continue
        for entry in sorted(group.iterdir()):
            if entry.is_dir() or entry.suffix == ".py":
                cases.append(entry)
    return cases


@pytest.mark.parametrize("case", _cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixture(case: Path) -> None:
    missing, unexpected = check_tree(case)
    assert not missing and not unexpected, (
        "missing: "
        + ", ".join(f"{m.path}:{m.line} {m.code}" for m in missing)
        + "\nunexpected: "
        + "\n".join(unexpected)
    )
