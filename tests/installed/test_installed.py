"""replaylint.installed: chains through followed installed packages, read but never imported.

The followed package `acme_sdk` is written straight into the site-packages directory of a
virtual environment the session creates (`python -m venv --without-pip`): a `pip install
--no-index` of a local source tree needs a build backend, and none is available offline.
"""

from __future__ import annotations

import importlib.machinery
import logging
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from replaylint.core.findings import ChainLink
from replaylint.installed import MAX_STEPS, Installed
from replaylint.installed.locate import Locator, default_search_path
from replaylint.resolve.catalog import default_catalog

INIT = """\
'''Acme's internal SDK (a fixture): importing it is a failure of the linter.'''
import pathlib

from .client import Gateway
from .llm import complete

pathlib.Path(MARKER).write_text("acme_sdk was imported")
raise RuntimeError("acme_sdk must never be imported by replaylint")
"""

FILES = {
    "llm.py": """\
        import openai as oa
        from openai import OpenAI

        _SHARED = OpenAI()


        def complete(prompt):
            client = OpenAI()
            return client.chat.completions.create(model="m", messages=[prompt])


        def _client():
            return oa.OpenAI()


        def via_factory(prompt):
            return _client().chat.completions.create(model="m", messages=[prompt])


        def via_module_client(prompt):
            return _SHARED.responses.create(input=prompt)


        def inline(prompt):
            return OpenAI().chat.completions.create(model="m", messages=[prompt])


        def annotated(client: oa.OpenAI, prompt):
            return client.embeddings.create(input=prompt)


        def format_prompt(text):
            return text.strip().lower()
        """,
    "base.py": """\
        import time

        import httpx


        class BaseClient:
            def __init__(self):
                self.http = httpx.Client()

            def _post(self, url):
                return self.http.post(url)

            def _stamp(self):
                return time.time()
        """,
    "client.py": """\
        import anthropic

        from acme_sdk.base import BaseClient


        class Gateway(BaseClient):
            def __init__(self):
                super().__init__()
                self.client = anthropic.Anthropic()

            def ask(self, question):
                return self.client.messages.create(model="x", max_tokens=9, messages=[question])

            def ask_twice(self, question):
                first = self.ask(question)
                return self.ask(first)

            def fetch(self, url):
                return self._post(url)

            def tick(self):
                return self._stamp()

            def describe(self):
                return "gateway"

            def nested(self):
                def inner():
                    return self.client.beta.messages.create(model="x", max_tokens=9, messages=[])

                return inner()
        """,
    "ids.py": """\
        import functools
        import random
        import time
        import uuid
        from time import time as now

        import boto3
        import httpx
        import requests


        def new_id():
            return uuid.uuid4().hex


        def jitter():
            return random.random()


        def stamp():
            return now()


        def download(url):
            return requests.get(url, timeout=5)


        def probe(url):
            return httpx.Client().get(url)


        def probe_with(url):
            with httpx.Client() as session:
                return session.get(url)


        def seeded():
            return random.Random(42).random()


        def deferred():
            return functools.partial(uuid.uuid4)


        def computed():
            return getattr(time, "time")()


        def bedrock(body):
            return boto3.client("bedrock-runtime").invoke_model(body=body)


        def storage(key):
            return boto3.client("s3").get_object(Key=key)
        """,
    "service.py": """\
        import time

        import requests

        from acme_sdk import llm
        from acme_sdk.ids import new_id


        def summarise(text):
            return llm.complete(llm.format_prompt(text))


        def tagged(text):
            return f"{new_id()}:{text}"


        def countdown(n):
            if n:
                return countdown(n - 1)
            return time.monotonic()


        def factorial(n):
            return n * factorial(n - 1) if n else 1


        def ping(n):
            return pong(n) if n else 0


        def pong(n):
            return ping(n - 1)


        def shortest():
            summarise("a")
            return time.time()


        def sender():
            return _send


        def _send(url):
            return requests.post(url)


        def use_sender(url):
            send = sender()
            return send(url)
        """,
    "jobs.py": """\
        import time


        class Job:
            def run(self):
                return self.step()

            def step(self):
                return 0


        class TimedJob(Job):
            def step(self):
                return time.monotonic()


        class Stamped:
            def __init__(self):
                self.at = time.time()


        def make_stamped():
            return Stamped()
        """,
    "deep.py": "import time\n\n"
    + "".join(f"\ndef f{i}():\n    return f{i + 1}()\n\n" for i in range(12))
    + "\ndef f12():\n    return time.time()\n",
    "broken.py": "def oops(:\n    return time.time()\n",
    "uses_broken.py": """\
        from acme_sdk.broken import oops


        def call_oops():
            return oops()
        """,
    "fast.py": """\
        from acme_sdk._speedups import crunch


        def go(x):
            return crunch(x)
        """,
}
NATIVE = "_speedups" + importlib.machinery.EXTENSION_SUFFIXES[0]


@dataclass(frozen=True)
class Venv:
    site: Path
    marker: Path
    pth_marker: Path

    @property
    def package(self) -> Path:
        return self.site / "acme_sdk"

    def at(self, module: str, snippet: str, call: str) -> ChainLink:
        """The step at the one line of acme_sdk/<module> that contains snippet."""
        path = self.package / module
        lines = [i for i, t in enumerate(path.read_text().splitlines(), 1) if snippet in t]
        assert len(lines) == 1, (module, snippet, lines)
        return ChainLink(str(path), lines[0], call)


@pytest.fixture(scope="session")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Venv:
    root = tmp_path_factory.mktemp("installed")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / "venv")], check=True)
    python = root / "venv" / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    site = Path(purelib)
    marker, pth_marker = root / "imported.txt", root / "pth-ran.txt"
    package = site / "acme_sdk"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(INIT.replace("MARKER", repr(str(marker))))
    for name, text in FILES.items():
        (package / name).write_text(textwrap.dedent(text))
    (package / NATIVE).write_bytes(b"\x7fELF not really an extension")
    dist = site / "acme_sdk-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-sdk\nVersion: 1.0\n")
    (dist / "top_level.txt").write_text("acme_sdk\n")
    # A path-based editable install of a second package, and an import line never to be run.
    extra = root / "extra_src" / "extra_sdk"
    extra.mkdir(parents=True)
    (extra / "__init__.py").write_text("import uuid\n\n\ndef token():\n    return uuid.uuid4()\n")
    (site / "extra.pth").write_text(
        f"import pathlib; pathlib.Path({str(pth_marker)!r}).write_text('ran')\n{extra.parent}\n"
    )
    return Venv(site, marker, pth_marker)


def follow(venv: Venv, *packages: str) -> Installed:
    return Installed(packages or ("acme_sdk",), default_catalog(), [str(venv.site)])


# ---------------------------------------------------------------- direct roots


@pytest.mark.parametrize(
    ("qualified", "module", "snippet", "call", "category"),
    [
        ("acme_sdk.ids.new_id", "ids.py", "uuid.uuid4()", "uuid.uuid4", "randomness"),
        ("acme_sdk.ids.jitter", "ids.py", "random.random()", "random.random", "randomness"),
        ("acme_sdk.ids.stamp", "ids.py", "return now()", "now", "clock"),
        ("acme_sdk.ids.download", "ids.py", "requests.get(", "requests.get", "network"),
        ("acme_sdk.ids.probe", "ids.py", "Client().get", "httpx.Client().get", "network"),
        ("acme_sdk.ids.probe_with", "ids.py", "session.get", "session.get", "network"),
        ("acme_sdk.ids.deferred", "ids.py", "partial(uuid.uuid4)", "uuid.uuid4", "randomness"),
        ("acme_sdk.ids.computed", "ids.py", "getattr(", "getattr(time, 'time')", "clock"),
        (
            "acme_sdk.ids.bedrock",
            "ids.py",
            "bedrock-runtime",
            "boto3.client('bedrock-runtime').invoke_model",
            "model-call",
        ),
        ("acme_sdk.ids.storage", "ids.py", '"s3"', "boto3.client('s3').get_object", "network"),
        (
            "acme_sdk.llm.complete",
            "llm.py",
            "client.chat",
            "client.chat.completions.create",
            "model-call",
        ),
        (
            "acme_sdk.llm.inline",
            "llm.py",
            "OpenAI().chat",
            "OpenAI().chat.completions.create",
            "model-call",
        ),
        (
            "acme_sdk.llm.via_factory",
            "llm.py",
            "_client().chat",
            "_client().chat.completions.create",
            "model-call",
        ),
        (
            "acme_sdk.llm.via_module_client",
            "llm.py",
            "_SHARED.responses",
            "_SHARED.responses.create",
            "model-call",
        ),
        (
            "acme_sdk.llm.annotated",
            "llm.py",
            "client.embeddings",
            "client.embeddings.create",
            "model-call",
        ),
        (
            "acme_sdk.client.Gateway.ask",
            "client.py",
            "self.client.messages",
            "self.client.messages.create",
            "model-call",
        ),
        ("acme_sdk.jobs.Stamped", "jobs.py", "self.at = ", "time.time", "clock"),
    ],
)
def test_direct_root(venv: Venv, qualified, module, snippet, call, category) -> None:
    installed = follow(venv)
    assert installed.chain(qualified) == (venv.at(module, snippet, call),)
    assert installed.root_category(qualified) == category


@pytest.mark.parametrize(
    "qualified",
    [
        "acme_sdk.llm.format_prompt",
        "acme_sdk.llm._client",  # builds a client, calls nothing on it
        "acme_sdk.ids.seeded",  # random.Random(42) is deterministic
        "acme_sdk.client.Gateway",  # construction builds clients, calls none
        "acme_sdk.client.Gateway.describe",
        "acme_sdk.jobs.Job.run",
        "acme_sdk.llm.no_such_function",
    ],
)
def test_safe_installed_code_has_no_chain(venv: Venv, qualified: str) -> None:
    installed = follow(venv)
    assert installed.chain(qualified) is None
    assert installed.root_category(qualified) is None


# ---------------------------------------------------------------- transitive chains


def test_chain_through_another_module(venv: Venv) -> None:
    assert follow(venv).chain("acme_sdk.service.summarise") == (
        venv.at("service.py", "llm.complete(", "llm.complete"),
        venv.at("llm.py", "client.chat", "client.chat.completions.create"),
    )


def test_re_export_from_the_package_init(venv: Venv) -> None:
    installed = follow(venv)
    assert installed.chain("acme_sdk.complete") == installed.chain("acme_sdk.llm.complete")
    assert installed.chain("acme_sdk.Gateway().ask") == installed.chain(
        "acme_sdk.client.Gateway.ask"
    )


def test_method_through_self_and_inherited_from_a_base_in_another_module(venv: Venv) -> None:
    installed = follow(venv)
    assert installed.chain("acme_sdk.client.Gateway.ask_twice") == (
        venv.at("client.py", "first = self.ask", "self.ask"),
        venv.at("client.py", "self.client.messages", "self.client.messages.create"),
    )
    assert installed.chain("acme_sdk.client.Gateway().fetch") == (
        venv.at("client.py", "self._post(url)", "self._post"),
        venv.at("base.py", "self.http.post", "self.http.post"),
    )
    assert installed.root_category("acme_sdk.client.Gateway.fetch") == "network"
    assert installed.chain("acme_sdk.client.Gateway.tick") == (
        venv.at("client.py", "self._stamp()", "self._stamp"),
        venv.at("base.py", "time.time()", "time.time"),
    )


def test_a_nested_function_closes_over_self(venv: Venv) -> None:
    assert follow(venv).chain("acme_sdk.client.Gateway.nested") == (
        venv.at("client.py", "return inner()", "inner"),
        venv.at("client.py", "self.client.beta", "self.client.beta.messages.create"),
    )


def test_an_override_is_found_from_the_base_method(venv: Venv) -> None:
    assert follow(venv).chain("acme_sdk.jobs.TimedJob.run") == (
        venv.at("jobs.py", "self.step()", "self.step"),
        venv.at("jobs.py", "time.monotonic()", "time.monotonic"),
    )


def test_construction_and_a_function_returned_by_another(venv: Venv) -> None:
    installed = follow(venv)
    assert installed.chain("acme_sdk.jobs.make_stamped") == (
        venv.at("jobs.py", "return Stamped()", "Stamped"),
        venv.at("jobs.py", "self.at = ", "time.time"),
    )
    assert installed.chain("acme_sdk.service.use_sender") == (
        venv.at("service.py", "return send(url)", "send"),
        venv.at("service.py", "requests.post", "requests.post"),
    )


def test_recursion_and_cycles_terminate_with_the_shortest_chain(venv: Venv) -> None:
    installed = follow(venv)
    assert installed.chain("acme_sdk.service.factorial") is None
    assert installed.chain("acme_sdk.service.ping") is None
    assert installed.chain("acme_sdk.service.countdown") == (
        venv.at("service.py", "time.monotonic()", "time.monotonic"),
    )
    # summarise() comes first but reaches its root two calls away; time.time() is one.
    assert installed.chain("acme_sdk.service.shortest") == (
        venv.at("service.py", "return time.time()", "time.time"),
    )


def test_chains_are_at_most_twelve_steps(venv: Venv) -> None:
    installed = follow(venv)
    twelve = installed.chain("acme_sdk.deep.f1")
    assert twelve is not None and len(twelve) == MAX_STEPS == 12
    assert twelve[0] == venv.at("deep.py", "return f2()", "f2")
    assert twelve[-1] == venv.at("deep.py", "time.time()", "time.time")
    assert installed.chain("acme_sdk.deep.f0") is None  # thirteen steps away


def test_a_name_the_catalog_declares_unsafe_wins_over_following_it(venv: Venv) -> None:
    catalog = default_catalog().extend({"model-call": ["acme_sdk.ids.new_id"]}, [])
    installed = Installed(["acme_sdk"], catalog, [str(venv.site)])
    assert installed.chain("acme_sdk.service.tagged") == (
        venv.at("service.py", "new_id()", "new_id"),
    )
    assert installed.root_category("acme_sdk.service.tagged") == "model-call"
    assert follow(venv).root_category("acme_sdk.service.tagged") == "randomness"


def test_each_function_is_summarised_once(venv: Venv, monkeypatch: pytest.MonkeyPatch) -> None:
    from replaylint.installed.objects import Fn
    from replaylint.installed.summary import Edge, Summaries

    seen: list[Fn] = []
    original = Summaries._summarise

    def counting(self: Summaries, fn: Fn) -> tuple[Edge, ...]:
        seen.append(fn)
        return original(self, fn)

    monkeypatch.setattr(Summaries, "_summarise", counting)
    installed = follow(venv)
    for name in ("summarise", "shortest", "summarise", "tagged", "use_sender"):
        installed.chain(f"acme_sdk.service.{name}")
    assert seen and len(seen) == len(set(seen))
    assert installed.summarise("acme_sdk.service") == 10
    assert installed.summarise("acme_sdk.broken") == 0


# ---------------------------------------------------------------- never imported, never executed


def test_nothing_followed_is_imported_or_executed(venv: Venv) -> None:
    from astroid.manager import AstroidManager  # type: ignore[import-untyped]

    installed = follow(venv, "acme_sdk", "extra_sdk")
    for module in ("service", "client", "llm", "ids", "jobs", "fast", "uses_broken", "deep"):
        installed.summarise(f"acme_sdk.{module}")
    assert installed.chain("acme_sdk.complete") is not None
    assert installed.chain("acme_sdk.fast.go") is None  # a C extension is opaque
    assert not venv.marker.exists()
    assert not venv.pth_marker.exists()
    assert not [name for name in sys.modules if name.split(".")[0] in ("acme_sdk", "extra_sdk")]
    assert str(venv.site) not in sys.path
    assert AstroidManager().always_load_extensions is False
    assert not [name for name in AstroidManager().astroid_cache if name.startswith("acme_sdk")]


def test_an_extension_module_is_located_as_opaque(venv: Venv) -> None:
    located = Locator([str(venv.site)]).find("acme_sdk._speedups")
    assert located is not None and not located.source
    assert located.origin == str(venv.package / NATIVE)
    package = Locator([str(venv.site)]).find("acme_sdk")
    assert package is not None and package.source and package.package


def test_a_pth_path_line_is_followed(venv: Venv) -> None:
    installed = follow(venv, "extra_sdk")
    chain = installed.chain("extra_sdk.token")
    assert chain is not None and chain[0].call == "uuid.uuid4"
    assert chain[0].path.endswith(os.path.join("extra_src", "extra_sdk", "__init__.py"))
    assert not venv.pth_marker.exists()


def test_a_module_that_fails_to_parse_is_skipped_and_logged(
    venv: Venv, caplog: pytest.LogCaptureFixture
) -> None:
    installed = follow(venv)
    with caplog.at_level(logging.DEBUG, logger="replaylint"):
        assert installed.chain("acme_sdk.broken.oops") is None
        assert installed.chain("acme_sdk.uses_broken.call_oops") is None
    skipped = [r.getMessage() for r in caplog.records if "skipped" in r.getMessage()]
    assert len(skipped) == 1 and "acme_sdk.broken" in skipped[0]
    assert str(venv.package / "broken.py") in skipped[0]


# ---------------------------------------------------------------- followed or not


def test_a_package_not_followed_gives_nothing(venv: Venv) -> None:
    for installed in (
        follow(venv, "other_sdk"),
        Installed([], default_catalog(), [str(venv.site)]),
    ):
        assert not installed.follows("acme_sdk.llm.complete")
        assert installed.chain("acme_sdk.llm.complete") is None
        assert installed.root_category("acme_sdk.llm.complete") is None


def test_a_followed_package_that_is_not_installed(caplog: pytest.LogCaptureFixture) -> None:
    installed = Installed(["nowhere_sdk"], default_catalog(), [])
    with caplog.at_level(logging.DEBUG, logger="replaylint"):
        assert installed.chain("nowhere_sdk.client.ask") is None
    assert installed.follows("nowhere_sdk.client.ask")
    assert installed.follows("nowhere_sdk")
    assert not installed.follows("nowhere_sdk_extra.ask")
    assert any("nowhere_sdk" in r.getMessage() for r in caplog.records)


def test_follows_instances_and_dotted_packages() -> None:
    installed = Installed(["acme_sdk", "corp.ml"], default_catalog(), [])
    assert installed.follows("acme_sdk.client.Gateway().ask")
    assert installed.follows("corp.ml.llm.complete")
    assert not installed.follows("corp.web.get")
    assert not installed.follows("acme")


def test_default_search_path_leaves_out_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    other = tmp_path / "site"
    other.mkdir()
    monkeypatch.setattr(sys, "path", ["", str(tmp_path), str(other), str(tmp_path / "missing")])
    assert default_search_path() == [str(other)]


WORKFLOW = (
    "from acme_sdk.llm import complete\n__adk_workflow__ = True\n\n\n"
    "def run(prompt):\n    return complete(prompt)\n"
)


def check_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, venv: Venv, settings: str
) -> dict:
    import json

    from click.testing import CliRunner

    from replaylint.cli.main import cli

    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text(f"[tool.replaylint]\n{settings}\n")
    (tmp_path / "wf.py").write_text(WORKFLOW)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(venv.site))  # where an installed package would be found
    result = CliRunner().invoke(cli, ["check", "--format", "json", "."])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def test_a_workflow_calling_a_followed_package_gets_its_chain_into_the_installed_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, venv: Venv
) -> None:
    data = check_project(tmp_path, monkeypatch, venv, 'follow = ["acme_sdk"]')
    [finding] = data["findings"]
    assert (finding["path"], finding["line"], finding["code"]) == ("wf.py", 6, "ADK-W005")
    last = finding["chain"][-1]
    expected = venv.at("llm.py", "client.chat", "client.chat.completions.create")
    assert (last["path"], last["line"], last["call"]) == (
        expected.path,
        expected.line,
        expected.call,
    )
    assert not venv.marker.exists()  # read, never imported


def test_the_same_package_not_followed_gives_nothing_and_entry_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, venv: Venv
) -> None:
    data = check_project(tmp_path, monkeypatch, venv, "")
    assert data["findings"] == []
    assert [m["coverage"] for m in data["modules"]] == ["entry-only"]
