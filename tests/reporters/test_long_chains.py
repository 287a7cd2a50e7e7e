"""A long ADK-W005 chain says where it is cut: the text report shows its first hops, how many
it leaves out and its root; the JSON and SARIF reports hold every hop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replaylint import guard

HOPS = 3000
# helpers.py: h2999 -> h2998 -> ... -> h0 -> time.time(); the workflow calls h2999.
HELPERS = "import time\n\n\ndef h0():\n    return time.time()\n\n\n" + "".join(
    f"def h{i}():\n    return h{i - 1}()\n\n\n" for i in range(1, HOPS)
)
FLOW = (
    f"from helpers import h{HOPS - 1}\n__adk_workflow__ = True\n\n\ndef run():\n    h{HOPS - 1}()\n"
)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("chain")
    (root / "helpers.py").write_text(HELPERS)
    (root / "flow.py").write_text(FLOW)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        yield guard(".")


def test_text_says_how_many_hops_it_leaves_out(report) -> None:
    [chain_line] = [line for line in report.summary().splitlines() if " -> " in line]
    hops = chain_line.strip().split(" -> ")
    assert hops[0] == f"h{HOPS - 1}"
    assert hops[-2] == "... (2,988 more hops)"
    assert hops[-1] == "time.time (helpers.py:5)"
    assert len(hops) == 1 + 11 + 1 + 1  # the call, 11 hops, the count, the root


def test_json_holds_every_hop(report) -> None:
    [finding] = json.loads(report.render("json"))["findings"]
    chain = finding["chain"]
    assert len(chain) == HOPS
    assert [hop["call"] for hop in chain[:2]] == [f"h{HOPS - 2}", f"h{HOPS - 3}"]
    assert chain[-1] == {"path": "helpers.py", "line": 5, "call": "time.time"}


def test_sarif_holds_every_hop(report) -> None:
    [result] = json.loads(report.render("sarif"))["runs"][0]["results"]
    [flow] = result["codeFlows"]
    locations = flow["threadFlows"][0]["locations"]
    assert len(locations) == 1 + HOPS  # the workflow's call, then each hop
    assert len(result["relatedLocations"]) == HOPS
    assert locations[-1]["location"]["message"]["text"] == "calls time.time"


def test_twelve_hops_are_shown_whole_and_thirteen_are_cut(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "helpers.py").write_text(HELPERS.split("def h13")[0])
    (tmp_path / "twelve.py").write_text(FLOW.replace(f"h{HOPS - 1}", "h11"))
    (tmp_path / "thirteen.py").write_text(FLOW.replace(f"h{HOPS - 1}", "h12"))
    lines = [line.strip() for line in guard(".").summary().splitlines() if " -> " in line]
    assert lines[0].startswith("h12 -> h11 (helpers.py:") and "-> ... (1 more hop) ->" in lines[0]
    assert lines[1].startswith("h11 -> h10 (helpers.py:") and "more hop" not in lines[1]
    assert all(line.endswith("-> time.time (helpers.py:5)") for line in lines)
