"""Inputs at the edges: deep generated code, expressions CPython refuses, long helper chains."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint import guard
from replaylint.core.codes import Code
from replaylint.report.chains import REPORTED_HOPS


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def test_deep_elif_chain_and_long_operator_chain_are_checked(tmp_path: Path) -> None:
    branches = "".join(f"    elif kind == {i}:\n        return {i}\n" for i in range(1, 700))
    (tmp_path / "dispatch.py").write_text(
        "import time\n__adk_workflow__ = True\n\n\ndef route(kind):\n    if kind == 0:\n        return 0\n"
        + branches
        + "    return time.time()\n"
    )
    (tmp_path / "sums.py").write_text(
        "import uuid\n__adk_workflow__ = True\nTOTAL = "
        + " + ".join(["1"] * 600)
        + "\nKEY = uuid.uuid4()\n"
    )
    report = guard(".")
    assert [(f.path, f.line, f.code) for f in report.findings] == [
        ("dispatch.py", 1406, Code.W003),
        ("sums.py", 4, Code.W002),
    ]


def test_expression_python_refuses_is_e001_and_others_still_checked(tmp_path: Path) -> None:
    (tmp_path / "a_huge.py").write_text(
        "__adk_workflow__ = True\nx = " + " + ".join(["1"] * 20000) + "\n"
    )
    (tmp_path / "b_ok.py").write_text("import time\n__adk_workflow__ = True\nT = time.time()\n")
    report = guard(".")
    assert [(f.path, f.line, f.code) for f in report.findings] == [
        ("a_huge.py", 1, Code.E001),
        ("b_ok.py", 3, Code.W003),
    ]
    assert report.findings[0].call == "too deeply nested for Python to compile"


def test_long_helper_chain_is_linear_and_whole(tmp_path: Path) -> None:
    helpers = "".join(f"def h{i}():\n    return h{i - 1}()\n\n\n" for i in range(1, 1500))
    (tmp_path / "chain.py").write_text(
        "import time\n__adk_workflow__ = True\n\n\ndef h0():\n    return time.time()\n\n\n"
        + helpers
    )
    report = guard(".")
    deepest = [f for f in report.findings if f.call == "h1498"]
    assert len(report.findings) == 1 + 1499
    [finding] = deepest
    assert len(finding.chain) == 1499  # whole: h1497 down to h0, then the clock
    assert finding.chain[-1].call == "time.time" and finding.chain[-1].line == 6
    assert finding.chain[0].call == "h1497"
    # Every call reports the hops below it: the report keeps the longest chains whole and
    # bounds the rest, so its size stays linear in the tree's.
    assert sum(len(f.chain) for f in report.findings) < 2 * REPORTED_HOPS
    cut = [f for f in report.findings if f.hops]
    assert cut and all(len(f.chain) == 12 and f.chain[-1].call == "time.time" for f in cut)


UNSAFE = "import time\n__adk_workflow__ = True\n\n\ndef run():\n    return time.time()\n"


def codes(report) -> list[tuple[str, int, str]]:
    return [(f.path, f.line, f.code.value) for f in report.findings]


@pytest.mark.parametrize(
    "literal",
    [
        '"\\N{NO SUCH NAME}"',
        '"a\\x00b"'.replace("\\x00", "\x00"),
        '"\\x4"',
        "b'\u00e9'",
        "1" * 4400,
    ],
)
def test_a_literal_python_refuses_is_e001_and_the_others_are_checked(
    tmp_path: Path, literal: str
) -> None:
    (tmp_path / "bad.py").write_text(f"__adk_workflow__ = True\nX = {literal}\n", encoding="utf-8")
    (tmp_path / "good.py").write_text(UNSAFE)
    report = guard(".")
    line = 1 if "\x00" in literal else 2  # CPython names no line for a NUL byte
    assert codes(report) == [("bad.py", line, "ADK-E001"), ("good.py", 6, "ADK-W003")]
    assert report.findings[0].call.startswith("syntax error: ")


def test_a_helper_python_refuses_is_an_e001_on_it_and_the_rest_is_checked(tmp_path: Path) -> None:
    (tmp_path / "helper.py").write_text('def f():\n    return "\\N{NO SUCH NAME}"\n')
    (tmp_path / "wf.py").write_text("from helper import f\n__adk_workflow__ = True\nf()\n")
    (tmp_path / "good.py").write_text(UNSAFE)
    report = guard(".")
    assert codes(report) == [("good.py", 6, "ADK-W003"), ("helper.py", 2, "ADK-E001")]
    assert report.findings[1].call.startswith("syntax error: (unicode error)")
    assert report.errors == ()
    assert report.exit_code == 1  # a finding, as for any module that cannot be read
    coverage = {m.path: m.coverage for m in report.modules}
    assert coverage["wf.py"] == "unproven"  # nothing of the helper was checked


def test_lone_carriage_returns_end_lines_as_in_python(tmp_path: Path) -> None:
    (tmp_path / "wf.py").write_bytes(UNSAFE.replace("\n", "\r").encode())
    assert codes(guard(".")) == [("wf.py", 6, "ADK-W003")]


def test_a_utf16_workflow_module_is_reported_not_skipped(tmp_path: Path) -> None:
    (tmp_path / "wf.py").write_bytes(UNSAFE.encode("utf-16"))
    report = guard(".")
    assert codes(report) == [("wf.py", 1, "ADK-E001")]
    assert "null bytes" in report.findings[0].call


def test_a_module_over_the_size_limit_is_reported_not_parsed(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.replaylint]\nmax-module-size = 200\n")
    (tmp_path / "big.py").write_text(UNSAFE + "# padding\n" * 30)
    (tmp_path / "good.py").write_text(UNSAFE)
    report = guard(".")
    assert codes(report) == [("big.py", 1, "ADK-E001"), ("good.py", 6, "ADK-W003")]
    size = len((tmp_path / "big.py").read_bytes())
    assert report.findings[0].call == f"{size} bytes, over the max-module-size of 200"


def test_definition_order_does_not_decide_a_finding(tmp_path: Path) -> None:
    rebind = "def setup():\n    global clock\n    clock = time.time\n"
    use = "def run():\n    return clock()\n"
    maker = "def make():\n    return lambda: time.time()\n"
    caller = "def later():\n    f = make()\n    return f()\n"
    head = "import time\n__adk_workflow__ = True\nclock = None\n"
    (tmp_path / "before.py").write_text(head + rebind + use + maker + caller)
    (tmp_path / "after.py").write_text(head + use + rebind + caller + maker)
    found = {(f.path, f.code.value, f.call) for f in guard(".").findings}
    for path in ("before.py", "after.py"):
        assert (path, "ADK-W003", "clock") in found  # the global, rebound to the clock
        assert (path, "ADK-W005", "f") in found


def test_a_suppression_moved_to_a_closing_bracket_covers_the_statement(tmp_path: Path) -> None:
    (tmp_path / "wf.py").write_text(
        "import time\n__adk_workflow__ = True\n\n\ndef run(log):\n"
        "    log(\n        str(time.time()),\n        'started',\n"
        "    )  # replaylint: ignore[ADK-W003] -- the log line is not a decision\n"
    )
    assert codes(guard(".")) == []


def test_concurrent_calls_match_serial_ones_and_leave_no_setting_changed() -> None:
    import sys
    import threading

    from replaylint import guard_source

    deep = UNSAFE + "X = (1\n" + "".join(" + 1\n" for _ in range(900)) + ")\n"
    serial = codes(guard_source(deep, source="wf.py"))
    before = (sys.getrecursionlimit(), threading.stack_size())
    reports: list = []
    threads = [
        threading.Thread(target=lambda: reports.append(guard_source(deep, source="wf.py")))
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [codes(r) for r in reports] == [serial] * 4, [r.errors for r in reports]
    assert serial == [("wf.py", 6, "ADK-W003")]
    assert (sys.getrecursionlimit(), threading.stack_size()) == before


@pytest.mark.parametrize(
    ("body", "line", "reason"),
    [
        ("return 1\n", 3, "'return' outside function"),
        (
            "".join("    " * i + f"for x{i} in y:\n" for i in range(21)) + "    " * 21 + "pass\n",
            23,
            "too many statically nested blocks",
        ),
    ],
)
def test_what_only_the_compiler_refuses_is_e001(
    tmp_path: Path, body: str, line: int, reason: str
) -> None:
    (tmp_path / "wf.py").write_text(
        "import time\n__adk_workflow__ = True\n" + body + "T = time.time()\n"
    )
    report = guard(".")
    assert codes(report) == [("wf.py", line, "ADK-E001")]
    assert reason in report.findings[0].call


def test_a_long_chain_of_local_imports_is_followed_to_its_end(tmp_path: Path) -> None:
    # Each module imports the next; the last one reads the clock. Deeper than the recursion
    # limit allows on one stack, with the limit left as it is.
    depth = 300
    for i in range(depth):
        (tmp_path / f"m{i}.py").write_text(f"from m{i + 1} import f\n")
    (tmp_path / f"m{depth}.py").write_text("import time\n\n\ndef f():\n    return time.time()\n")
    (tmp_path / "wf.py").write_text("from m0 import f\n__adk_workflow__ = True\nT = f()\n")
    report = guard(["wf.py"])
    assert codes(report) == [("wf.py", 3, "ADK-W005")]
    assert report.errors == ()
    assert report.findings[0].chain[-1].path == f"m{depth}.py"


@pytest.mark.parametrize(
    ("body", "line"),
    [
        ("def run():\n    \\\nreturn time.time()\n", 5),
        ("if True:\n    \\\n    T = time.time()\n", 5),
    ],
)
def test_a_lone_continuation_line_is_read_as_python_joins_it(
    tmp_path: Path, body: str, line: int
) -> None:
    (tmp_path / "wf.py").write_text("import time\n__adk_workflow__ = True\n" + body)
    assert codes(guard(".")) == [("wf.py", line, "ADK-W003")]


def test_an_internal_error_in_one_file_names_it_and_the_others_are_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from replaylint.resolve.evaluator import Evaluator

    walk = Evaluator.walk_module_level

    def run(self: Evaluator) -> None:
        if self.m.display == "bad.py":
            raise KeyError("a bug of ours")
        walk(self)

    monkeypatch.setattr(Evaluator, "walk_module_level", run)
    (tmp_path / "bad.py").write_text(UNSAFE)
    (tmp_path / "good.py").write_text(UNSAFE)
    report = guard(".")
    assert codes(report) == [("good.py", 6, "ADK-W003")]
    assert report.errors == ("bad.py: internal error: KeyError: 'a bug of ours'",)
    assert report.exit_code == 2
