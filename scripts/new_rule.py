"""Scaffold a new rule: its code and metadata, its module, its page and its fixture folder.

    python scripts/new_rule.py ADK-W012 wall-timer-in-workflow --kind pattern \\
        --finding "a timer of the host is started on the workflow path ({call})" \\
        --remedy "use the framework's durable timer"

(or `make rule CODE=ADK-W012 SLUG=... KIND=... FINDING=... REMEDY=...`). A catalog rule also
takes `--category`, the name its APIs carry in rules/catalog.toml.

What it writes is a start, and the tests say what is left: the page's example must raise its
`# expect:` marker (tests/rules/test_pages.py), the fixture folder must hold a case that
expects the code and a clean one (tests/rules/test_registry.py), a catalog rule's category
needs entries in rules/catalog.toml, and every framework record in rules/frameworks/ needs a
remedy for the code (tests/presets/test_records.py lists the records that lack one).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("code", help="the new code, e.g. ADK-W012")
    parser.add_argument("slug", help="kebab-case name of the pattern flagged")
    parser.add_argument("--kind", choices=("catalog", "pattern"), required=True)
    parser.add_argument("--category", default="", help="a catalog rule's category")
    parser.add_argument("--finding", required=True, help='the message, with "({call})"')
    parser.add_argument("--remedy", required=True, help="what to do instead, imperative")
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository to write into")
    args = parser.parse_args(argv)
    problem = _problem(args)
    if problem:
        print(f"new_rule: {problem}", file=sys.stderr)
        return 2
    member = args.code.split("-", 1)[1]
    module = args.slug.replace("-", "_")
    cls = "".join(part.capitalize() for part in args.slug.split("-"))
    written = [
        _add_code(args, member),
        _write_module(args, member, module, cls),
        _register(args.root, module, cls),
        _write_page(args),
        *_write_fixtures(args),
    ]
    for path in written:
        print(f"wrote {path.relative_to(args.root)}")
    return 0


def _problem(args: argparse.Namespace) -> str:
    if not re.fullmatch(r"ADK-W\d{3}", args.code):
        return f"{args.code!r} is not a warning code such as ADK-W012"
    if not re.fullmatch(r"[a-z]+(-[a-z]+)+", args.slug):
        return f"{args.slug!r} is not a kebab-case slug such as wall-timer-in-workflow"
    if "({call})" not in args.finding:
        return 'the finding names the call: end it with "({call})"'
    if (args.kind == "catalog") != bool(args.category):
        return "--category goes with --kind catalog, and only with it"
    codes = (args.root / "src/replaylint/core/codes.py").read_text(encoding="utf-8")
    if f'"{args.code}"' in codes or f'"{args.slug}"' in codes:
        return f"{args.code} or {args.slug} is already a rule"
    return ""


def _add_code(args: argparse.Namespace, member: str) -> Path:
    """The enum member and its RULES entry, after the last warning (codes stay in order)."""
    path = args.root / "src/replaylint/core/codes.py"
    text = path.read_text(encoding="utf-8")
    text = text.replace(
        '    E001 = "ADK-E001"', f'    {member} = "{args.code}"\n    E001 = "ADK-E001"', 1
    )
    kind = "CATALOG" if args.kind == "catalog" else "PATTERN"
    extra = f"\n            category={args.category!r}," if args.category else ""
    entry = (
        f"        _meta(\n            Code.{member},\n            {args.slug!r},\n"
        f"            {args.finding!r},\n            {args.remedy!r},\n            {kind},{extra}\n"
        "        ),\n"
    )
    anchor = "        _meta(\n            Code.E001,"
    path.write_text(text.replace(anchor, entry + anchor, 1), encoding="utf-8")
    return path


def _write_module(args: argparse.Namespace, member: str, module: str, cls: str) -> Path:
    path = args.root / "src/replaylint/rules" / f"{module}.py"
    head = f'"""{args.code} {args.slug}. Docs and examples: rules/{args.code}.md."""\n\n'
    if args.kind == "catalog":
        body = (
            "from replaylint.core.codes import Code\n"
            "from replaylint.rules.catalog_rule import CatalogRule\n\n\n"
            f"class {cls}(CatalogRule):\n"
            f"    code = Code.{member}  # its APIs: category {args.category!r} of rules/catalog.toml\n"
        )
    else:
        body = (
            "from __future__ import annotations\n\n"
            "from replaylint.core.codes import Code\n"
            "from replaylint.resolve.facts import Call, Fact\n"
            "from replaylint.rules.base import FactRule\n\n"
            "# The resolved names this rule reports; widen the decision in on_fact as it grows.\n"
            "TARGETS: frozenset[str] = frozenset()\n\n\n"
            f"class {cls}(FactRule):\n"
            f"    code = Code.{member}\n"
            "    facts = (Call,)\n\n"
            "    def on_fact(self, fact: Fact) -> None:\n"
            "        assert isinstance(fact, Call)\n"
            "        if fact.path in TARGETS:\n"
            '            self.report(fact, fact.call, "reaches " + fact.path, fact.path)\n'
        )
    path.write_text(head + body, encoding="utf-8")
    return path


def _register(root: Path, module: str, cls: str) -> Path:
    """Imported and placed in ALL_RULES before the first non-warning rule, in code order."""
    path = root / "src/replaylint/rules/__init__.py"
    text = path.read_text(encoding="utf-8")
    anchor = "from replaylint.rules.unfoldable_access import"
    text = text.replace(anchor, f"from replaylint.rules.{module} import {cls}\n{anchor}", 1)
    text = text.replace(
        "    UnreadableWorkflowModule(),", f"    {cls}(),\n    UnreadableWorkflowModule(),", 1
    )
    path.write_text(text, encoding="utf-8")
    return path


def _write_page(args: argparse.Namespace) -> Path:
    path = args.root / "rules" / f"{args.code}.md"
    what = args.finding.replace(" ({call})", "")
    path.write_text(
        f"# {args.slug} ({args.code})\n\n"
        f"## What it does\nFlags where {what}.\n\n"
        "## Why it breaks replay\nSay what a replay sees differently from the run it replays.\n\n"
        "## Example\n```python\n__adk_workflow__ = True\n\n\n"
        f"async def run(ctx) -> None:\n    ...  # expect: {args.code}\n```\n\n"
        "## Use instead\n```python\n__adk_workflow__ = True\n\n\n"
        "async def run(ctx) -> None:\n    ...\n```\n\n"
        f"## Known limits\n{args.remedy[0].upper() + args.remedy[1:]}.\n",
        encoding="utf-8",
    )
    return path


def _write_fixtures(args: argparse.Namespace) -> list[Path]:
    folder = args.root / "tests/rules" / args.code
    folder.mkdir(parents=True, exist_ok=True)
    expected = folder / "direct.py"
    expected.write_text(
        f"__adk_workflow__ = True\n\n\nasync def run(ctx) -> None:\n    ...  # expect: {args.code}\n",
        encoding="utf-8",
    )
    clean = folder / "clean.py"
    clean.write_text("__adk_workflow__ = True\n\n\nasync def run(ctx) -> None:\n    return None\n")
    return [expected, clean]


if __name__ == "__main__":
    sys.exit(main())
