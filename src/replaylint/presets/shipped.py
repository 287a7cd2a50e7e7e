"""The shipped framework records for the code every run imports (settings, the prefilter, import
resolution): their reader (records.py, parts.py: TOML and some forty dataclasses) is imported
only when a record is first needed, so a warm run that parses nothing never pays for it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replaylint.core import docs

if TYPE_CHECKING:
    from replaylint.presets.records import Preset


def presets() -> dict[str, Preset]:
    """The shipped records, loaded once per process (records.presets)."""
    from replaylint.presets.records import presets as loaded

    return loaded()


def preset_packages() -> dict[str, tuple[str, ...]]:
    """records.preset_packages: the packages a local folder never stands in for."""
    from replaylint.presets.records import preset_packages as packages

    return packages()


def preset_names() -> tuple[str, ...]:
    """The records' names, in the order `presets` loads them (their files' stems), without
    reading one: what the settings are validated against."""
    return tuple(path.stem for path in sorted(docs.records_dir().glob("*.toml")))
