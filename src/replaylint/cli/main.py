"""The command line: options in, the engine API, formatted report out; no analysis here."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, NamedTuple, NoReturn

import click

from replaylint.core.codes import RULES, Code, is_known_selector, parse_code
from replaylint.reporters import REPORTERS
from replaylint.version import __version__

if TYPE_CHECKING:
    from replaylint.core.findings import Report
    from replaylint.index.cache import Cache
    from replaylint.project.config import Resolver
    from replaylint.report.replay_report import ReplayReport


def _split(values: tuple[str, ...]) -> list[str]:
    return [item.strip() for value in values for item in value.split(",") if item.strip()]


def _usage_error(message: str) -> NoReturn:
    """One line on stderr and exit 2, like a configuration mistake."""
    click.echo(f"replaylint: error: {message}", err=True)
    sys.exit(2)


def _check_selectors(option: str, selectors: list[str]) -> None:
    for selector in selectors:
        if not is_known_selector(selector):
            _usage_error(f"{option}: unknown rule code or prefix {selector!r}")


_CACHE_DIR = click.option(
    "--cache-dir",
    type=click.Path(file_okay=False),
    envvar="REPLAYLINT_CACHE_DIR",
    default=None,
    help="The cache folder (default: .replaylint_cache at the project root).",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="replaylint")
def cli() -> None:
    """Keep durable-workflow code replay safe."""


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--output-format",
    "--format",
    "output_format",
    type=click.Choice(list(REPORTERS)),
    default="text",
    show_default=True,
    help="Output format (`--format` is the same option).",
)
@click.option(
    "--output-file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the report to this file instead of stdout (never coloured).",
)
@click.option(
    "-q", "--quiet", is_flag=True, help="Only the findings: no summary line, no progress bar."
)
@click.option("--statistics", is_flag=True, help="Count the findings per code instead.")
@click.option(
    "--add-ignore",
    is_flag=True,
    help="Add a `# replaylint: ignore[...]` comment for every finding, then exit 0.",
)
@click.option("--select", multiple=True, help="Only these codes or prefixes (comma-separated).")
@click.option("--ignore", multiple=True, help="Skip these codes or prefixes (comma-separated).")
@click.option(
    "--stdin-filename",
    default=None,
    help="Read a module from stdin (as `-` does) and report it under this name.",
)
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
@click.option("--fix", is_flag=True, help="Apply the safe fixes, then report what is left.")
@click.option("--unsafe-fixes", is_flag=True, help="With --fix or --diff: the unsafe fixes too.")
@click.option("--diff", is_flag=True, help="Print the fixes as a unified diff; write nothing.")
@click.option(
    "-j", "--jobs", type=click.IntRange(min=0), default=0, help="Processes (default 0: every core)."
)
@click.option("--no-cache", is_flag=True, help="Read and check every file afresh.")
@_CACHE_DIR
@click.option("--base", metavar="REF", help="Also compare each workflow with its version at REF.")
def check(
    paths: tuple[str, ...],
    output_format: str,
    output_file: str | None,
    quiet: bool,
    statistics: bool,
    add_ignore: bool,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    stdin_filename: str | None,
    exit_zero: bool,
    debug: bool,
    config_options: tuple[str, ...],
    show_config: bool,
    fix: bool,
    unsafe_fixes: bool,
    diff: bool,
    jobs: int,
    no_cache: bool,
    cache_dir: str | None,
    base: str | None,
) -> None:
    """Check PATHS (default: the current directory); `-` reads a module from stdin."""
    from replaylint.project.config import ConfigError

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
    if statistics and output_format not in ("text", "concise"):
        _usage_error(
            f"--statistics prints text; it cannot be given with --output-format {output_format}"
        )
    files = [p for p in paths if p != "-"]
    stdin = None
    if unsafe_fixes and not (fix or diff):
        _usage_error("--unsafe-fixes applies with --fix or --diff")
    if "-" in paths or stdin_filename is not None:  # a name alone means stdin, as in ruff
        if add_ignore or fix or diff:
            option = "--add-ignore" if add_ignore else "--fix" if fix else "--diff"
            _usage_error(f"{option} edits files; it cannot read a module from stdin")
        if base is not None:
            _usage_error("--base compares files in git; it cannot read a module from stdin")
        stdin = (stdin_filename or "<stdin>", sys.stdin.buffer.read())
    elif not files:
        files = ["."]

    engine = _Engine(None if no_cache else _cache(cache_dir), jobs or _all_cores(), base)

    def checked() -> ReplayReport:
        return _checked(files, stdin, resolver, selected, ignored, debug, quiet or debug, engine)

    if add_ignore:
        from replaylint.suppressions.add_ignore import suppress_all

        added, report = suppress_all(checked)
        _echo_errors(report)
        for line in added.warnings():
            click.echo(f"replaylint: warning: {line}", err=True)
        click.echo(added.message())
        sys.exit(2 if report.errors else 0)
    report = checked()
    if fix or diff:
        from replaylint.fixes import apply

        changed, applied = apply(report, unsafe=unsafe_fixes, diff=diff, stream=sys.stdout)
        if diff:
            _echo_errors(report)
            sys.exit(1 if changed else 0)
        if applied:
            click.echo(
                f"Fixed {applied} finding{'s' * (applied != 1)} in {changed} "
                f"file{'s' * (changed != 1)}.",
                err=True,
            )
            report = checked()  # what is left
    _echo_errors(report)
    from replaylint.cli.output import write_report

    problem = write_report(report, output_format, output_file, quiet=quiet, statistics=statistics)
    if problem is not None:
        _usage_error(problem)
    code = report.exit_code
    sys.exit(0 if exit_zero and code == 1 else code)


def _checked(
    files: list[str],
    stdin: tuple[str, bytes] | None,
    resolver: Resolver,
    selected: list[str],
    ignored: list[str],
    debug: bool,
    quiet: bool,
    engine: _Engine,
) -> ReplayReport:
    """One run of the check, with a progress bar when one is wanted; any failure is exit 2."""
    from replaylint.api import run
    from replaylint.cli.output import progress_bar
    from replaylint.project.config import ConfigError
    from replaylint.report.selection import Selection, report_from

    bar = progress_bar(quiet)
    try:
        outcome = run(
            files,
            stdin=stdin,
            resolver=resolver,
            progress=bar,
            cache=engine.cache,
            jobs=engine.jobs,
        )
        if engine.base is not None:  # each workflow against its version at a git ref
            from replaylint.versioning import add_comparison

            add_comparison(outcome, engine.base, files, resolver)
        return report_from(outcome, Selection(resolver, selected, ignored))
    except ConfigError as error:  # a file's own settings are read when it is reached
        _usage_error(str(error))
    except Exception as error:  # a bug of ours outside any one file: one line, exit 2, never 1
        if debug:
            import traceback

            traceback.print_exc()
        _usage_error(f"internal error: {type(error).__name__}: {error}")
    finally:
        if bar is not None:
            bar.clear()


class _Engine(NamedTuple):
    cache: Cache | None
    jobs: int
    base: str | None = None  # `--base REF`: the versioning comparison too (ADK-V001..V004)


def _cache(folder: str | None) -> Cache:
    from replaylint.index.cache import Cache, default_root

    return Cache(folder if folder is not None else default_root())


def _all_cores() -> int:
    from replaylint.index.pools import default_jobs

    return default_jobs()


def _echo_errors(report: Report) -> None:
    for line in report.errors:
        click.echo(f"replaylint: error: {line}", err=True)


def _resolver(options: tuple[str, ...]) -> Resolver:
    """`--config FILE` replaces every file's settings; `--config KEY=VALUE` overrides them."""
    from pathlib import Path

    from replaylint.project.config import ConfigError, Resolver, load, parse_override

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
            raise click.UsageError(f"unknown rule {code!r}; `replaylint rules` lists them")
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
@_CACHE_DIR
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
def replay(paths: tuple[str, ...], workflows: tuple[str, ...]) -> None:
    """Replay recorded histories (JSON files, or folders of them) against the current code."""
    from pathlib import Path

    from replaylint.harness.replay import replay_paths
    from replaylint.project.config import ConfigError, discover

    if not workflows:
        try:
            workflows = discover(Path.cwd()).replay_workflows
        except ConfigError as error:
            _usage_error(str(error))
    sys.exit(replay_paths(list(paths or ("tests/histories",)), sys.stdout, workflows=workflows))


@cli.command()
def server() -> None:
    """Run the editor (LSP) server over stdio, for an editor to start."""
    from replaylint.server import missing_dependency, serve

    problem = missing_dependency()
    if problem is not None:
        _usage_error(problem)
    serve()


def main() -> None:
    try:
        cli(standalone_mode=True)
    except KeyboardInterrupt:  # pragma: no cover
        sys.exit(130)


if __name__ == "__main__":  # pragma: no cover
    main()
