"""A tree of no project (no repository, no pyproject.toml: an exported tree, an Azure Functions
app) imports its helpers from the folder it is run from, however deep the importing file is."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint.api import run
from replaylint.project.config import Resolver

HELPER = (
    "import datetime\n\n\n"
    "def stamp(name: str) -> str:\n"
    "    return name + datetime.datetime.utcnow().isoformat()\n"
)
ORCHESTRATOR = (
    "import azure.durable_functions as df\n"
    "from libs.helpers import stamp\n\n"
    "app = df.DFApp()\n\n\n"
    '@app.orchestration_trigger(context_name="context")\n'
    "def orchestrator(context: df.DurableOrchestrationContext):\n"
    '    result = yield context.call_activity("hello", "x")\n'
    "    return stamp(result)\n"
)


@pytest.mark.parametrize("depth", [1, 7, 8, 12])
def test_a_helper_at_the_top_is_found_from_any_depth(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, depth: int
) -> None:
    (tmp_path / "libs").mkdir()
    (tmp_path / "libs" / "helpers.py").write_text(HELPER)
    folder = tmp_path.joinpath(*(f"level{i}" for i in range(depth)))
    folder.mkdir(parents=True)
    (folder / "orchestrator.py").write_text(ORCHESTRATOR)
    monkeypatch.chdir(tmp_path)
    outcome = run(["."], resolver=Resolver())
    found = sorted((f.path, f.line, f.code.value) for f in outcome.findings)
    flow = "/".join([*(f"level{i}" for i in range(depth)), "orchestrator.py"])
    assert found == [(flow, 10, "ADK-W005"), ("libs/helpers.py", 5, "ADK-W003")]
