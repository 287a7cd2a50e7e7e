"""ADK-W010 and ADK-W011 (hash order, shared state): messages as written, chains, remedies, fixes."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint import guard_source
from replaylint.core.codes import Code


def findings(tmp_path: Path, source: str) -> list[tuple[str, int, int, str]]:
    report = guard_source(source, source=str(tmp_path / "wf.py"))
    return [(f.code.value, f.line, f.span.column, f.message) for f in report.findings]


ORDER = "an order that depends on hashing or memory decides the workflow"
STATE = "module state is written from the workflow path"
RESULT = "it reaches the workflow's result"
READ = "it is read back into the workflow's result on line 20"


def test_orders_are_reported_where_they_are_written(tmp_path: Path) -> None:
    source = """\
__adk_workflow__ = True


def run(names, key):
    unique = set(names)
    for name in unique:
        print(name)
    first = [n for n in unique if n]
    joined = "-".join(unique)
    return first, joined, unique.pop(), hash(key), id(unique), sorted(unique)
"""
    assert findings(tmp_path, source) == [
        ("ADK-W010", 6, 16, f"{ORDER} (unique)"),
        ("ADK-W010", 8, 24, f"{ORDER} (unique)"),
        ("ADK-W010", 9, 13, f'{ORDER} ("-".join(unique))'),
        ("ADK-W010", 10, 26, f"{ORDER} (unique.pop())"),
        ("ADK-W010", 10, 40, f"{ORDER} (hash(key)): {RESULT} on line 10"),
        ("ADK-W010", 10, 51, f"{ORDER} (id(unique)): {RESULT} on line 10"),
    ]


def test_state_writes_are_reported_as_written(tmp_path: Path) -> None:
    source = """\
__adk_workflow__ = True

runs = 0
CACHE = {}


class Job:
    total = 0

    def start(self, key):
        global runs
        runs += 1
        CACHE[key] = self
        CACHE.setdefault("all", [])
        type(self).total += 1
        self.total = 1


def report():
    return runs, CACHE, Job.total
"""
    assert findings(tmp_path, source) == [
        ("ADK-W011", 12, 8, f"{STATE} (runs): {READ}"),
        ("ADK-W011", 13, 8, f"{STATE} (CACHE[key]): {READ}"),
        ("ADK-W011", 14, 8, f'{STATE} (CACHE.setdefault("all", [])): {READ}'),
        ("ADK-W011", 15, 8, f"{STATE} (type(self).total): {READ}"),
    ]


def test_state_nothing_reads_back_is_not_reported(tmp_path: Path) -> None:
    source = """\
__adk_workflow__ = True

runs = 0
CAPTURED = []


def start(key):
    global runs
    runs += 1
    CAPTURED.append(key)
    print(runs, CAPTURED)  # only a log line reads them
"""
    assert findings(tmp_path, source) == []


def test_a_helper_reaching_either_root_is_unsafe_with_the_chain(tmp_path: Path) -> None:
    source = """\
__adk_workflow__ = True

SEEN = []


def remember(name):
    SEEN.append(name)


def bucket(name):
    return hash(name) % 4


def run(name):
    remember(name)
    return bucket(name), len(SEEN)
"""
    report = guard_source(source, source=str(tmp_path / "wf.py"))
    helpers = [f for f in report.findings if f.code is Code.W005]
    assert [(f.line, f.call, f.root) for f in helpers] == [
        (15, "remember", Code.W011),
        (16, "bucket", Code.W010),
    ]
    assert [[(link.line, link.call) for link in f.chain] for f in helpers] == [
        [(7, "SEEN.append(name)")],
        [(11, "hash(name)")],
    ]


TEMPORAL = """\
from temporalio import workflow

ORDERS = []


@workflow.defn(sandboxed=False)
class Flow:
    @workflow.run
    async def run(self, names: set[str]) -> int:
        for name in names:
            ORDERS.append(name)
        return len(ORDERS)
"""

DBOS = """\
from dbos import DBOS

ORDERS = []


@DBOS.workflow()
def flow(names: frozenset[str]) -> int:
    for name in names:
        ORDERS.append(name)
    return len(ORDERS)
"""

RESTATE = """\
import restate

service = restate.Service("Flow")
ORDERS = []


@service.handler()
async def flow(ctx: restate.Context, names: list[str]) -> int:
    for name in set(names):
        ORDERS.append(name)
    return len(ORDERS)
"""

MARKED = """\
__adk_workflow__ = True
ORDERS = []


def flow(names):
    for name in set(names):
        ORDERS.append(name)
    return len(ORDERS)
"""

DEFINED_ORDER = (
    "iterate in a defined order: sorted(...), or keep the items in a list or dict, which keep "
    "insertion order"
)


@pytest.mark.parametrize(
    "source,remedies",
    [
        (
            TEMPORAL,
            [
                DEFINED_ORDER,
                "keep run state on the workflow instance (self) or in its inputs; module and "
                "class state is shared by every run on the worker",
            ],
        ),
        (
            DBOS,
            [
                DEFINED_ORDER,
                "keep run state in local variables and the workflow's arguments; DBOS recovers "
                "a workflow by running it again from its inputs",
            ],
        ),
        (
            RESTATE,
            [
                DEFINED_ORDER,
                "keep run state in local variables, or in ctx.set(...) / ctx.get(...) state of "
                "a virtual object or workflow",
            ],
        ),
        (
            MARKED,
            [
                "iterate in a defined order: stable(...) or sorted(...)",
                "keep run state in the workflow's inputs or its own instance",
            ],
        ),
    ],
    ids=["temporal", "dbos", "restate", "marked"],
)
def test_presets_give_their_own_remedies(tmp_path: Path, source: str, remedies: list[str]) -> None:
    report = guard_source(source, source=str(tmp_path / "wf.py"))
    assert [f.code for f in report.findings] == [Code.W010, Code.W011]
    assert [f.remedy for f in report.findings] == remedies


def test_the_sorted_fix_wraps_only_a_loop_or_comprehension_iterable(tmp_path: Path) -> None:
    from replaylint.fixes import fix_source

    source = """\
__adk_workflow__ = True


def run(names):
    unique = set(names)
    for name in unique:
        print(name)
    return [n for n in unique], list(unique)
"""
    report = guard_source(source, source=str(tmp_path / "wf.py"))
    assert fix_source(source, report.findings, unsafe=False)[0] == source  # an unsafe fix
    fixed, done = fix_source(source, report.findings, unsafe=True)
    # What `names` holds is not known: stable(...), which needs no order among the elements
    # (sorted(...) could raise TypeError), from the runtime this marked module can import.
    assert fixed == "from replaylint.workflows import stable\n" + source.replace(
        "in unique:", "in stable(unique):"
    ).replace("for n in unique]", "for n in stable(unique)]")
    assert [(f.line, f.call) for f in done] == [(6, "unique"), (8, "unique")]
