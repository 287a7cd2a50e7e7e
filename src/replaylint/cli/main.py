"""The command line: options in, the engine API, formatted report out; no analysis here."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, NoReturn

import click

from replaylint.cli.options import CACHE_DIR, CheckOptions, check_options
from replaylint.core.codes import RULES, Code, parse_code
from replaylint.version import __version__

if TYPE_CHECKING:
    from replaylint.index.cache import Cache


def _usage_error(message: str) -> NoReturn:
    """One line on stderr and exit 2, like a configuration mistake."""
    click.echo(f"replaylint: error: {message}", err=True)
    sys.exit(2)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="replaylint")
def cli() -> None:
    """Keep durable-workflow code replay safe."""


@cli.command()
@check_options
def check(**params: Any) -> None:
    """Check PATHS (default: the current directory); `-` reads a module from stdin."""
    from replaylint.cli.check import check as run_check

    run_check(CheckOptions(**params))


def _cache(folder: str | None) -> Cache:
    from replaylint.index.cache import Cache, default_root

    return Cache(folder if folder is not None else default_root())


@cli.command()
@click.argument("code", required=False)
@click.option("--all", "every", is_flag=True, help="Every rule's page, one after another.")
@click.option(
    "--output-format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="The page as Markdown, or JSON: {code, slug, finding, remedy, page} (a list with --all).",
)
def rule(code: str | None, every: bool, output_format: str) -> None:
    """Print the page of one rule (a code such as ADK-W003, or its slug), or of every rule."""
    import json

    from replaylint.core.docs import page

    if every == (code is not None):
        raise click.UsageError("give one rule CODE, or --all")
    if every:
        codes = list(RULES)
    else:
        parsed = parse_code(code or "")
        if parsed is None:
            from replaylint.project.selectors import did_you_mean

            names = [*(c.value for c in RULES), *(m.slug for m in RULES.values())]
            hint = did_you_mean(code or "", names)
            raise click.UsageError(f"unknown rule {code!r}{hint}; `replaylint rules` lists them")
        codes = [parsed]
    if output_format == "text":
        # A thematic break between pages: `replaylint rule --all > rules.md` reads as one file.
        click.echo("\n---\n\n".join(page(c) for c in codes), nl=False)
        return
    objects = [_rule_object(c, page(c)) for c in codes]
    click.echo(json.dumps(objects if every else objects[0], indent=2, ensure_ascii=False))


def _rule_object(code: Code, text: str) -> dict[str, str]:
    meta = RULES[code]
    finding = meta.finding.replace(" ({call})", "")
    return {
        "code": code.value,
        "slug": meta.slug,
        "finding": finding,
        "remedy": meta.remedy,
        "page": text,
    }


@cli.command()
@CACHE_DIR
def clean(cache_dir: str | None) -> None:
    """Remove the cache."""
    cache = _cache(cache_dir)
    removed = cache.clean()
    click.echo(f"{'Removed' if removed else 'No cache at'} {cache.root}")


@cli.command(name="rules")
def rules_command() -> None:
    """List every rule code."""
    from replaylint.core.docs import listing

    click.echo(listing(), nl=False)


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--workflow",
    "workflows",
    multiple=True,
    metavar="MODULE[:CLASS]",
    help="Temporal workflow class (or module of them) to replay Temporal histories against; "
    "default: `replay-workflows` in the configuration.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=60.0,
    show_default=True,
    help="Seconds a history may take; then its replay is stopped (`no progress after N s`).",
)
def replay(paths: tuple[str, ...], workflows: tuple[str, ...], timeout: float) -> None:
    """Replay recorded histories (JSON files or folders of them), each in a process of its own."""
    from pathlib import Path

    from replaylint.harness.replay import replay_paths
    from replaylint.project.config import ConfigError, discover

    if not workflows:
        try:
            workflows = discover(Path.cwd()).replay_workflows
        except ConfigError as error:
            _usage_error(str(error))
    given, err = list(paths or ("tests/histories",)), sys.stderr  # the summary goes to stderr
    sys.exit(replay_paths(given, sys.stdout, workflows=workflows, timeout=timeout, summary=err))


@cli.command()
def server() -> None:
    """Run the editor (LSP) server over stdio, for an editor to start."""
    from replaylint.server import missing_dependency, serve

    problem = missing_dependency()
    if problem is not None:
        _usage_error(problem)
    sys.exit(serve())


@cli.command(name="mcp")
def mcp_command() -> None:
    """Run the Model Context Protocol server over stdio, for a coding agent to start."""
    from replaylint.mcp import missing_dependency, serve

    problem = missing_dependency()
    if problem is not None:
        _usage_error(problem)
    serve()


def main() -> None:
    from replaylint.cli.signals import Interrupted, stop, stopping_on_signals

    try:
        with stopping_on_signals():  # SIGINT, SIGTERM: exit 130, 143 at once (signals.py)
            cli(standalone_mode=True)
    except Interrupted as interrupted:
        stop(interrupted)


if __name__ == "__main__":  # pragma: no cover
    main()
