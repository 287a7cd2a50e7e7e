"""A rule's fix offered as a code action by the real server, its edit worked out once chosen."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_lsp import LanguageClient
from test_server import actions_at, apply, client, open_document

from replaylint import guard_source

pytestmark = pytest.mark.asyncio
__all__ = ["client"]  # the session fixture, shared with test_server.py

TEMPORAL = """import time

from temporalio import workflow


@workflow.defn
class Flow:
    @workflow.run
    async def run(self) -> float:
        return time.time()
"""


async def test_a_rules_fix_gets_its_edit_once_chosen(client: LanguageClient, tmp_path: Path):
    from replaylint.fixes import fix_for

    path = tmp_path / "temporal_flow.py"
    path.write_text(TEMPORAL)
    uri = path.as_uri()
    [diagnostic] = await open_document(client, path)
    actions = await actions_at(client, uri, diagnostic.range)
    [finding] = guard_source(TEMPORAL, source=str(path)).findings
    info = fix_for(finding, TEMPORAL)
    assert info is not None
    assert [a.title for a in actions] == [
        info.title,
        "Ignore ADK-W003 on this line",
        "Ignore ADK-W003 in this file",
    ]
    offered = actions[0]
    assert offered.edit is None and offered.is_preferred is True  # worked out when chosen
    chosen = await client.code_action_resolve_async(offered)
    assert chosen.edit is not None and chosen.edit.changes is not None
    edited = apply(TEMPORAL, list(chosen.edit.changes[uri]))
    # `time` has no other reader: the fix takes its import out, as `check --fix` does.
    assert edited == TEMPORAL.replace("time.time()", "workflow.time()").replace(
        "import time\n\n", ""
    )
    assert guard_source(edited, source=str(path)).findings == ()
