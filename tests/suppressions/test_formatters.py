"""Suppressions survive the formatters: after `--add-ignore`, `ruff format` and `black` at two
line lengths split long headers and statements and move their comments (to the `):` of a
split header, the closing bracket of a split call); every directive still covers its finding,
so nothing comes back and no directive goes unused (ADK-S001)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from replaylint.cli.main import cli

HEAD = "import random\nimport time\nimport uuid\n\n__adk_workflow__ = True\n\n\n"
# One module per family of statement forms, each finding where a formatter may split.
MODULES = {
    "definitions.py": (
        "def stamp(default=time.time()):\n    return default\n\n\n"
        "async def later(default=time.time(), *, key=uuid.uuid4()) -> float:\n"
        "    return default\n\n\n"
        "def cached(value):\n    return lambda f: f\n\n\n"
        "@cached(time.time())\ndef decorated():\n    return 1\n\n\n"
        "class Base(dict if random.random() > 0.5 else list):\n    pass\n\n\n"
        "class Keyed(Base, metaclass=type(str(uuid.uuid4()), (type,), {})):\n    pass\n"
    ),
    "loops.py": (
        "def loops(deadline, stream):\n"
        "    for y in range(int(time.time())):\n        print(y)\n"
        "    while time.time() < deadline:\n        break\n"
        "    for z in [random.random() for _ in range(3)]:\n        print(z)\n\n\n"
        "async def aloops(stream):\n"
        "    async for item in stream(time.time()):\n        print(item)\n"
    ),
    "branches.py": (
        "def branches(value):\n"
        "    if random.random() > 0.5:\n        return 1\n"
        "    elif uuid.uuid4():\n        return 2\n"
        "    else:\n        if time.time() > value:\n            return 3\n"
        "    match time.time():\n"
        "        case 1 if random.random() > 0.5:\n            pass\n"
        "        case _:\n            pass\n"
        "    return value if random.random() > 0.5 else None\n"
    ),
    "contexts.py": (
        "def contexts(opener, other):\n"
        "    with opener(str(time.time())) as handle, other() as second:\n"
        "        print(handle, second)\n"
        "    try:\n        pass\n"
        "    except (ValueError if random.random() else KeyError):\n        pass\n\n\n"
        "async def acontexts(stream):\n"
        "    async with stream(uuid.uuid4()) as s:\n        print(s)\n"
    ),
    "simple.py": (
        "def simple(values):\n"
        "    started = time.time()\n"
        "    values += [random.random(), random.random(), random.random()]\n"
        "    total: float = sum(values) + time.time() - started * random.random()\n"
        "    assert time.time() > started, 'the clock went back while checking the values'\n"
        "    key = {str(uuid.uuid4()): value for value in values if value > random.random()}\n"
        "    pick = lambda: random.choice(sorted(key, key=lambda k: random.random()))\n"
        "    return max(total, time.time(), default=started), pick\n"
    ),
}


def _format(tool: str, length: int, folder: Path) -> None:
    command = {
        "ruff": ["ruff", "format", "--isolated", "--line-length", str(length), "-q"],
        "black": ["black", "--line-length", str(length), "-q"],
    }[tool]
    subprocess.run([sys.executable, "-m", *command, str(folder)], check=True)


@pytest.mark.parametrize("length", [40, 88])
@pytest.mark.parametrize("tool", ["ruff", "black"])
def test_suppressions_survive_the_formatter(
    tool: str, length: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip(tool)
    monkeypatch.chdir(tmp_path)
    for name, body in MODULES.items():
        (tmp_path / name).write_text(HEAD + body)
    runner = CliRunner()
    before = runner.invoke(cli, ["check", "--no-cache", "--output-format", "concise", "."])
    assert before.exit_code == 1
    assert before.stdout.count(": ADK-W") >= 30
    assert {line.split(":")[0] for line in before.stdout.splitlines()[:-1]} == set(MODULES)
    added = runner.invoke(cli, ["check", "--no-cache", "--add-ignore", "."])
    assert (added.exit_code, added.stderr) == (0, "")
    suppressed = {name: (tmp_path / name).read_text() for name in MODULES}
    _format(tool, length, tmp_path)
    moved = [name for name in MODULES if (tmp_path / name).read_text() != suppressed[name]]
    assert len(moved) >= 3  # the formatter did split lines and move comments
    after = runner.invoke(cli, ["check", "--no-cache", "--output-format", "concise", "."])
    assert (after.exit_code, after.stdout) == (
        0,
        "0 findings in 5 workflow modules (5 files checked).\n",
    ), after.stdout
