"""SARIF's `informationUri`: the public documentation URL the project declares in pyproject.toml's
[project.urls] (carried by the installed metadata), or none; never a file:// path of the machine
that wrote the log."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jsonschema
import pytest
from test_reporters import write_project

from replaylint import guard
from replaylint.reporters import homepage, render

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).parents[2]
SCHEMA_PATH = Path(__file__).parents[1] / "data" / "sarif-schema-2.1.0.json"


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write_project(tmp_path)
    return tmp_path


def _driver_of_a_valid_log() -> dict:
    log = json.loads(render("sarif", guard(".")))
    jsonschema.Draft4Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))).validate(log)
    driver: dict = log["runs"][0]["tool"]["driver"]
    return driver


def test_the_log_links_to_what_pyproject_declares(project: Path) -> None:
    with (ROOT / "pyproject.toml").open("rb") as file:
        declared = tomllib.load(file)["project"].get("urls", {})
    expected = homepage.documentation_url(f"{label}, {url}" for label, url in declared.items())
    driver = _driver_of_a_valid_log()
    assert driver.get("informationUri") == expected
    assert not driver.get("informationUri", "").startswith("file:")


def test_a_declared_documentation_url_is_the_information_uri(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        "replaylint.reporters.sarif.declared_documentation_url",
        lambda: "https://replaylint.example.org/docs/",
    )
    assert _driver_of_a_valid_log()["informationUri"] == "https://replaylint.example.org/docs/"


def test_documentation_is_preferred_then_the_home_page_and_only_web_urls_count() -> None:
    assert (
        homepage.documentation_url(
            [
                "Homepage, https://example.org/",
                "Source, https://example.org/src",
                "Documentation, https://example.org/docs",
            ]
        )
        == "https://example.org/docs"
    )
    assert homepage.documentation_url(["Home-page, https://example.org/"]) == (
        "https://example.org/"
    )
    assert homepage.documentation_url(["Docs, file:///srv/replaylint/rules"]) is None
    assert homepage.documentation_url(["Source, https://example.org/src"]) is None
    assert homepage.documentation_url([]) is None
