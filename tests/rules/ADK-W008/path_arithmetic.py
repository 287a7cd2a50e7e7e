"""Path arithmetic is followed to the path it builds; only touching the disk is reported."""
from pathlib import Path

__adk_workflow__ = True

BASE = Path(__file__).resolve().parent
PROMPTS = BASE / "prompts"


def run(name: str):
    target = PROMPTS / name / "system.txt"
    label = target.name
    suffix = target.with_suffix(".md").suffix
    parent = target.parent.parent
    joined = BASE.joinpath("a", "b")
    text = target.read_text()  # expect: ADK-W008
    other = (BASE / "data.json").read_text()  # expect: ADK-W008
    up = target.parent.exists()  # expect: ADK-W008
    resolved = Path(name).resolve().parent / "x"
    again = resolved.is_file()  # expect: ADK-W008
    return label, suffix, parent, joined, text, other, up, again
