"""A long ADK-W005 chain says where it is cut: the text report shows its first hops, how many
it leaves out and its root; the JSON and SARIF reports hold every hop, unless the chains
together pass the report's bound (report/chains.py), and then each cut chain says so."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from replaylint import guard
from replaylint.reporters import json as json_reporter

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


# One module of CHAINED helpers, each calling the next and the last the clock: each call is on
# the workflow path, so the chains hold CHAINED * (CHAINED + 1) / 2 hops in all, past the bound.
CHAINED = 250
ONE_MODULE = (
    "import time\n\n__adk_workflow__ = True\n\n\n"
    + "".join(f"def h{i}():\n    return h{i + 1}()\n\n\n" for i in range(CHAINED - 1))
    + f"def h{CHAINED - 1}():\n    return time.time()\n\n\ndef run():\n    return h0()\n"
)


@pytest.fixture(scope="module")
def bounded_report(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("chains")
    (root / "wf.py").write_text(ONE_MODULE)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        yield guard(".")


def whole_length(call: str) -> int:
    """The hops below the call `h{i}()`: h{i} ... h{CHAINED - 1}, then time.time."""
    return CHAINED - int(call[1:])


def test_json_says_which_chains_it_cut_and_by_how_much(bounded_report) -> None:
    written = json.loads(bounded_report.render("json"))
    jsonschema.Draft202012Validator(json_reporter.schema()).validate(written)
    chains = [f for f in written["findings"] if f["code"] == "ADK-W005"]
    assert len(chains) == CHAINED
    cut = [f for f in chains if "chain_cut" in f]
    assert 0 < len(cut) < CHAINED
    for finding in chains:
        hops = whole_length(finding["call"])
        chain = finding["chain"]
        assert chain[-1]["call"] == "time.time"
        if "chain_cut" not in finding:
            assert len(chain) == hops
            continue
        assert finding["chain_cut"] == {"hops": hops, "kept_first": 11, "left_out": hops - 12}
        assert [hop["call"] for hop in chain[:-1]] == [
            f"h{i}" for i in range(CHAINED - hops + 1, CHAINED - hops + 12)
        ]


def test_sarif_says_which_chains_it_cut_and_by_how_much(bounded_report) -> None:
    log = json.loads(bounded_report.render("sarif"))
    schema = json.loads(
        (Path(__file__).parents[1] / "data" / "sarif-schema-2.1.0.json").read_text()
    )
    jsonschema.Draft4Validator(schema).validate(log)
    results = [r for r in log["runs"][0]["results"] if r["ruleId"] == "ADK-W005"]
    cut = [r for r in results if "properties" in r]
    assert 0 < len(cut) < CHAINED
    for result in results:
        call = result["message"]["text"].split("(")[1].split(")")[0]
        hops = whole_length(call)
        [flow] = result["codeFlows"][0]["threadFlows"]
        if "properties" not in result:
            assert len(result["relatedLocations"]) == hops
            assert "more hop" not in result["message"]["text"]
            continue
        assert result["properties"] == {"chainHops": hops, "chainHopsLeftOut": hops - 12}
        assert len(result["relatedLocations"]) == len(flow["locations"]) - 1 == 12
        chain_line = result["message"]["text"].splitlines()[1]
        more = f"{hops - 12:,} more hop{'s' * (hops != 13)}"
        assert chain_line.endswith(f" -> ... ({more}) -> [time.time](12)")
        assert flow["message"]["text"] == (
            f"the chain has {hops:,} hops: {hops - 12:,} after the first 11 are left out, "
            "before its root"
        )
