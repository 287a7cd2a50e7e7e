"""Entries declared on a framework object that another module of the project made
(`@inngest_client.create_function` after `from app.client import inngest_client`), in a module
that never imports the framework itself: the module is read, and checked as workflow code when
the object turns out to be the framework's."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from replaylint.api import guard
from replaylint.presets.records import presets
from replaylint.project.config import Config
from replaylint.project.gate import names_pattern, spells_an_entry

THROUGH_IMPORT = replace(names_pattern(presets()), through_import=True)

# framework: (the module that makes the object, the module that declares an entry on it)
LAYOUTS = {
    "inngest": (
        "import inngest\n\ninngest_client = inngest.Inngest(app_id='demo')\n",
        "import random\n\nfrom app.client import inngest_client\n\n\n"
        "@inngest_client.create_function(fn_id='f', trigger=None)\n"
        "async def handler(ctx):\n    return random.random()\n",
    ),
    "hatchet": (
        "from hatchet_sdk import Hatchet\n\nhatchet = Hatchet()\n",
        "import random\n\nfrom app.client import hatchet\n\n\n"
        "@hatchet.durable_task(name='x')\n"
        "async def handler(input, ctx):\n    return random.random()\n",
    ),
    "resonate": (
        "from resonate import Resonate\n\nresonate = Resonate.remote()\n",
        "import random\n\nfrom .client import resonate\n\n\n"
        "@resonate.register\n"
        "def handler(ctx, n):\n    pause = random.random()\n    yield ctx.sleep(pause)\n",
    ),
    "dapr": (
        "import dapr.ext.workflow as wf\n\nwfr = wf.WorkflowRuntime()\n",
        "import random\n\nfrom app import client\n\n\n"
        "@client.wfr.workflow(name='w')\n"
        "def handler(ctx, payload):\n    return random.random()\n",
    ),
    # The context unannotated: nothing in the module says Restate but the object's maker.
    "restate": (
        "import restate\n\ngreeter = restate.Service('Greeter')\n",
        "import random\n\nfrom app.client import greeter\n\n\n"
        "@greeter.handler()\n"
        "async def handler(ctx, name):\n    return random.random()\n",
    ),
    "restate-workflow": (
        "import restate\n\nsignup = restate.Workflow('Signup')\n",
        "import random\n\nfrom app.client import signup\n\n\n"
        "@signup.main()\n"
        "async def handler(ctx, name):\n    return random.random()\n",
    ),
}


@pytest.mark.parametrize("framework", sorted(LAYOUTS))
def test_an_entry_on_an_imported_framework_object_is_workflow_code(
    framework: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    maker, declarer = LAYOUTS[framework]
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__init__.py").write_text("")
    (tmp_path / "app" / "client.py").write_text(maker)
    (tmp_path / "app" / "functions.py").write_text(declarer)
    report = guard(".", config=Config())
    assert [(f.path, f.line, f.code.value, f.message) for f in report.findings] == [
        (
            "app/functions.py",
            8,
            "ADK-W002",
            "a random value or id is drawn on the workflow path (random.random)",
        )
    ]
    assert [m.path for m in report.modules] == ["app/functions.py"]


def test_the_same_entry_name_on_an_object_that_is_no_framework_is_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, checked: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "registry.py").write_text(
        "class Registry:\n    def register(self, f):\n        return f\n\n\nregistry = Registry()\n"
    )
    (tmp_path / "plugins.py").write_text(
        "import random\n\nfrom registry import registry\n\n\n@registry.register\n"
        "def plugin():\n    return random.random()\n"
    )
    report = guard(".", config=Config())
    assert checked == ["plugins.py"]  # read, since only the other module says what it is
    assert report.findings == ()
    assert report.modules == ()


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "from app.client import c\n\n@c.create_function(fn_id='f')\nasync def f(ctx): ...\n",
            True,
        ),
        ("from .client import c as h\n\n@h.durable_task()\nasync def f(i, ctx): ...\n", True),
        ("import app.client\n\n@app.client.hatchet.durable_task()\nasync def f(i, c): ...\n", True),
        ("from app import rt\n\n@rt.workflow\nclass Flow: ...\n", True),
        # The name is not bound by an import: whatever made it is in this module.
        ("c = make()\n\n@c.create_function(fn_id='f')\nasync def f(ctx): ...\n", False),
        # The standard library makes no framework's objects.
        ("import functools\n\n@functools.register\ndef f(): ...\n", False),
        ("from unittest import mock\n\n@mock.workflow\ndef f(): ...\n", False),
        # Not a decorator, or not an entry's name.
        ("from app.client import c\n\nc.create_function(fn_id='f')(g)\n", False),
        ("from app.client import c\n\n@c.task()\nasync def f(i, ctx): ...\n", False),
        ('from app.client import c\n"""@c.create_function(fn_id="f")"""\n', False),
        # A star import may bind it: the engine reads what it binds.
        (
            "from app.client import *\n\n@c.create_function(fn_id='f')\nasync def f(ctx): ...\n",
            True,
        ),
        # A file no Python reads, importing no framework, is nobody's workflow code.
        ("from app.client import c\n\n@c.register\ndef f(:\n", False),
    ],
)
def test_only_a_decorator_on_an_imported_name_counts(source: str, expected: bool) -> None:
    assert spells_an_entry(source.encode(), [THROUGH_IMPORT]) is expected
