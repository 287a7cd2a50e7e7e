"""Import-edge identity coverage: the class of each workflow module and its source identity."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from replaylint import guard


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def coverage(path: str) -> tuple[str, str]:
    [module] = guard(path).modules
    return module.coverage, module.identity


def test_stdlib_runtime_and_local_files_are_self_contained(tmp_path: Path) -> None:
    (tmp_path / "helpers.py").write_text("import json\n\n\ndef total(xs):\n    return sum(xs)\n")
    (tmp_path / "wf.py").write_text(
        "import json\nfrom helpers import total\nfrom replaylint.workflows import RunContext\n"
        "__adk_workflow__ = True\n\n\ndef run(ctx: RunContext, xs):\n    return total(xs)\n"
    )
    kind, identity = coverage("wf.py")
    assert kind == "self-contained-static"
    (tmp_path / "helpers.py").write_text(
        "import json\n\n\ndef total(xs):\n    return sum(xs) + 1\n"
    )
    assert coverage("wf.py") == ("self-contained-static", coverage("wf.py")[1])
    assert coverage("wf.py")[1] != identity  # a covered local file is part of the identity


def test_installed_or_unresolved_imports_are_entry_only(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("import click\n__adk_workflow__ = True\n")
    (tmp_path / "b.py").write_text("import not_installed_anywhere\n__adk_workflow__ = True\n")
    assert coverage("a.py")[0] == "entry-only"
    assert coverage("b.py")[0] == "entry-only"


def test_findings_or_dynamic_imports_are_unproven(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("import time\n__adk_workflow__ = True\nT = time.time()\n")
    (tmp_path / "b.py").write_text(
        "import importlib\n__adk_workflow__ = True\n\n\ndef load(name):\n    return importlib.import_module(name)\n"
    )
    (tmp_path / "helper.py").write_text("def load(name):\n    return __import__(name)\n")
    (tmp_path / "c.py").write_text("from helper import load\n__adk_workflow__ = True\n")
    assert coverage("a.py")[0] == "unproven"
    assert coverage("b.py")[0] == "unproven"
    assert coverage("c.py")[0] == "unproven"  # the dynamic import is in what it reaches


def test_the_debug_log_says_why_a_module_is_unproven(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "plugins.py").write_text(
        "import importlib\n\n\ndef load(meta):\n    mod = importlib.import_module(meta.module)\n"
        "    return getattr(mod, meta.name)()\n"
    )
    (tmp_path / "wf.py").write_text("from plugins import load\n__adk_workflow__ = True\n")
    with caplog.at_level(logging.DEBUG, logger="replaylint"):
        assert coverage("wf.py")[0] == "unproven"
    said = {r.getMessage() for r in caplog.records if "coverage unproven" in r.getMessage()}
    assert said == {
        "plugins.py: a module is imported by a computed name (coverage unproven)",
        "plugins.py: 1 access(es) could not be folded to a name (coverage unproven)",
    }


def test_a_package_importing_its_own_submodules_is_local_all_through(tmp_path: Path) -> None:
    """`from . import clock` in the package's own __init__.py names the package: the submodule
    is a local module, read and followed (what it reaches is reported), not a module missing
    from the project (whose workflows were unproven, and never kept in the index)."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("from . import clock, sizes\n")
    (tmp_path / "pkg" / "clock.py").write_text(
        "import time\n\n\ndef now():\n    return time.time()\n"
    )
    (tmp_path / "pkg" / "sizes.py").write_text("def double(x):\n    return 2 * x\n")
    (tmp_path / "pure.py").write_text(
        "from pkg import sizes\n__adk_workflow__ = True\n\n\ndef run(x):\n    return sizes.double(x)\n"
    )
    (tmp_path / "timed.py").write_text(
        "from pkg import clock\n__adk_workflow__ = True\n\n\ndef run():\n    return clock.now()\n"
    )
    assert coverage("pure.py")[0] == "self-contained-static"
    [finding] = guard("timed.py").findings
    assert (finding.code.value, finding.span.line, finding.call) == ("ADK-W005", 6, "clock.now")
    assert [(hop.path, hop.line, hop.call) for hop in finding.chain] == [
        ("pkg/clock.py", 5, "time.time")
    ]


def test_its_record_is_kept_so_a_warm_run_checks_nothing(
    tmp_path: Path, checked: list[str]
) -> None:
    from replaylint.api import run
    from replaylint.index.cache import Cache
    from replaylint.project.config import Resolver

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("from . import sizes\n")
    (tmp_path / "pkg" / "sizes.py").write_text("def double(x):\n    return 2 * x\n")
    (tmp_path / "pure.py").write_text(
        "from pkg import sizes\n__adk_workflow__ = True\n\n\ndef run(x):\n    return sizes.double(x)\n"
    )
    cache = Cache(tmp_path / ".cache")
    run(["."], resolver=Resolver(), cache=cache)
    assert checked == ["pure.py"]
    checked.clear()
    [module] = run(["."], resolver=Resolver(), cache=cache).modules
    assert checked == []  # a module with an import missing from the project is never kept
    assert module.coverage == "self-contained-static"
