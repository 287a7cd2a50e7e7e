"""The command line: options in, the engine API, formatted report out; no analysis here."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import click

from replaylint.codes import is_known_selector, parse_code
from replaylint.version import __version__

if TYPE_CHECKING:
    from replaylint.config import Resolver


def _split(values: tuple[str, ...]) -> list[str]:
    return [item.strip() for value in values for item in value.split(",") if item.strip()]


def _usage_error(message: str) -> None:
    """One line on stderr and exit 2, like a configuration mistake."""
    click.echo(f"replaylint: error: {message}", err=True)
    sys.exit(2)


def _check_selectors(option: str, selectors: list[str]) -> None:
    for selector in selectors:
        if not is_known_selector(selector):
            _usage_error(f"{option}: unknown rule code or prefix {selector!r}")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="replaylint")
def cli() -> None:
    """Keep durable-workflow code replay safe."""


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Output format.",
)
@click.option("--select", multiple=True, help="Only these codes or prefixes (comma-separated).")
@click.option("--ignore", multiple=True, help="Skip these codes or prefixes (comma-separated).")
@click.option("--stdin-filename", default=None, help="The name of the module read from `-`.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--debug", is_flag=True, help="Log each analysis decision to stderr.")
@click.option(
    "--config",
    "config_options",
    multiple=True,
    metavar="FILE | KEY=VALUE",
    help="A settings file to use instead of each file's nearest one, or a `key = value` "
    "override (TOML) applied on top of them; repeatable.",
)
@click.option(
    "--show-config",
    is_flag=True,
    help="Print the settings that apply to the first PATH (default: this folder) and exit.",
)
def check(
    paths: tuple[str, ...],
    output_format: str,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    stdin_filename: str | None,
    exit_zero: bool,
    debug: bool,
    config_options: tuple[str, ...],
    show_config: bool,
) -> None:
    """Check PATHS (default: the current directory); `-` reads a module from stdin."""
    from replaylint.api import run
    from replaylint.config import ConfigError
    from replaylint.reporters import REPORTERS
    from replaylint.selection import Selection, report_from

    try:
        resolver = _resolver(config_options)
        if show_config:
            first = next((p for p in paths if p != "-"), stdin_filename or ".")
            click.echo(resolver.for_path(first).show(), nl=False)
            return
    except ConfigError as error:
        _usage_error(str(error))

    if debug:
        import logging

        logging.basicConfig(level=logging.DEBUG, format="replaylint: %(message)s")
    selected, ignored = _split(select), _split(ignore)
    _check_selectors("--select", selected)
    _check_selectors("--ignore", ignored)
    paths = paths or (".",)
    stdin = None
    if "-" in paths:
        stdin = (stdin_filename or "<stdin>", sys.stdin.buffer.read())
    try:
        outcome = run([p for p in paths if p != "-"], stdin=stdin, resolver=resolver)
        report = report_from(outcome, Selection(resolver, selected, ignored))
    except ConfigError as error:  # a file's own settings are read when it is reached
        _usage_error(str(error))
    except Exception as error:  # a bug of ours outside any one file: one line, exit 2, never 1
        if debug:
            import traceback

            traceback.print_exc()
        _usage_error(f"internal error: {type(error).__name__}: {error}")
    for line in report.errors:
        click.echo(f"replaylint: error: {line}", err=True)
    click.echo(REPORTERS[output_format](report), nl=False)
    code = report.exit_code
    sys.exit(0 if exit_zero and code == 1 else code)


def _resolver(options: tuple[str, ...]) -> Resolver:
    """`--config FILE` replaces every file's settings; `--config KEY=VALUE` overrides them."""
    from pathlib import Path

    from replaylint.config import ConfigError, Resolver, load, parse_override

    explicit = None
    overrides: dict[str, object] = {}
    for option in options:
        if "=" in option and not os.path.exists(option):
            overrides.update(parse_override(option))
        elif explicit is None:
            explicit = load(Path(option))
        else:
            raise ConfigError(f"--config {option}: only one settings file can be given")
    return Resolver(explicit=explicit, overrides=overrides)


@cli.command()
@click.argument("code")
def rule(code: str) -> None:
    """Print the page of one rule (a code such as ADK-W003, or its slug)."""
    from replaylint.docs import page

    parsed = parse_code(code)
    if parsed is None:
        raise click.UsageError(f"unknown rule {code!r}; `replaylint rules` lists them")
    click.echo(page(parsed), nl=False)


@cli.command(name="rules")
def rules_command() -> None:
    """List every rule code."""
    from replaylint.docs import listing

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
def replay(paths: tuple[str, ...], workflows: tuple[str, ...]) -> None:
    """Replay recorded histories (JSON files, or folders of them) against the current code."""
    from pathlib import Path

    from replaylint.config import ConfigError, discover
    from replaylint.replay import replay_paths

    if not workflows:
        try:
            workflows = discover(Path.cwd()).replay_workflows
        except ConfigError as error:
            _usage_error(str(error))
    sys.exit(replay_paths(list(paths or ("tests/histories",)), sys.stdout, workflows=workflows))


def main() -> None:
    try:
        cli(standalone_mode=True)
    except KeyboardInterrupt:  # pragma: no cover
        sys.exit(130)


if __name__ == "__main__":  # pragma: no cover
    main()
