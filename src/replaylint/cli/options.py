"""The options of `replaylint check`, spelled as ruff spells its own, and the one dataclass
they arrive in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import click

from replaylint.reporters import REPORTERS

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class CheckOptions:
    """Everything `check` was asked to do, as click parsed it."""

    paths: tuple[str, ...]
    output_format: str
    output_file: str | None
    quiet: bool
    silent: bool
    verbose: bool
    statistics: bool
    show_files: bool
    add_ignore: bool
    select: tuple[str, ...]
    extend_select: tuple[str, ...]
    ignore: tuple[str, ...]
    exclude: tuple[str, ...]
    extend_exclude: tuple[str, ...]
    force_exclude: bool
    stdin_filename: str | None
    exit_zero: bool
    exit_non_zero_on_fix: bool
    debug: bool
    config_options: tuple[str, ...]
    show_config: bool
    fix: bool
    unsafe_fixes: bool
    diff: bool
    watch: bool
    jobs: int
    no_cache: bool
    cache_dir: str | None
    base: str | None = None  # `--base REF`: the versioning comparison too (ADK-V001..V004)

    @property
    def quiet_output(self) -> bool:
        """No summary line and no progress bar (with -q, -s or --debug)."""
        return self.quiet or self.silent or self.debug

    @property
    def edits(self) -> str | None:
        """The option that makes the run write files, if any."""
        return (
            "--add-ignore"
            if self.add_ignore
            else "--fix"
            if self.fix
            else "--diff"
            if self.diff
            else None
        )


CACHE_DIR = click.option(
    "--cache-dir",
    type=click.Path(file_okay=False),
    envvar="REPLAYLINT_CACHE_DIR",
    default=None,
    help="The cache folder (default: .replaylint_cache at the project root, or the user's "
    "cache folder for files outside any project).",
)

_OPTIONS: list[Callable[[F], F]] = [
    click.argument("paths", nargs=-1, type=click.Path()),
    click.option(
        "--output-format",
        "--format",
        "output_format",
        type=click.Choice(list(REPORTERS)),
        default="text",
        show_default=True,
        help="Output format (`--format` is the same option); `full` adds the source lines.",
    ),
    click.option(
        "-o",
        "--output-file",
        type=click.Path(dir_okay=False),
        default=None,
        help="Write the report to this file instead of stdout (never coloured).",
    ),
    click.option(
        "-q", "--quiet", is_flag=True, help="Only the findings: no summary, no progress bar."
    ),
    click.option(
        "-s", "--silent", is_flag=True, help="Print nothing; the exit status still tells."
    ),
    click.option(
        "-v", "--verbose", is_flag=True, help="Log what the run reads and where (stderr)."
    ),
    click.option("--statistics", is_flag=True, help="Count the findings per code instead."),
    click.option(
        "--show-files", is_flag=True, help="List the files that would be checked, and exit."
    ),
    click.option(
        "--add-ignore",
        is_flag=True,
        help="Add a `# replaylint: ignore[...]` comment for every finding, then exit 0.",
    ),
    click.option(
        "--select", multiple=True, help="Only these codes or prefixes (comma-separated; ALL)."
    ),
    click.option(
        "--extend-select", multiple=True, help="Codes or prefixes added to the selection."
    ),
    click.option("--ignore", multiple=True, help="Skip these codes or prefixes (comma-separated)."),
    click.option(
        "--exclude", multiple=True, help="Globs of files to leave out, instead of the defaults."
    ),
    click.option(
        "--extend-exclude", multiple=True, help="Globs of files to leave out, on top of the rest."
    ),
    click.option(
        "--force-exclude",
        is_flag=True,
        help="Apply the exclusions to paths named on the command line too.",
    ),
    click.option(
        "--stdin-filename",
        default=None,
        help="Read a module from stdin (as `-` does) and report it under this name.",
    ),
    click.option("-e", "--exit-zero", is_flag=True, help="Exit 0 even when there are findings."),
    click.option(
        "--exit-non-zero-on-fix",
        is_flag=True,
        help="Exit 1 when --fix changed a file, even if nothing is left.",
    ),
    click.option("--debug", is_flag=True, help="Log each analysis decision to stderr."),
    click.option(
        "--config",
        "config_options",
        multiple=True,
        metavar="FILE | KEY=VALUE",
        help="A settings file to use instead of each file's nearest one, or a `key = value` "
        "override (TOML) applied on top of them; repeatable.",
    ),
    click.option(
        "--show-config",
        is_flag=True,
        help="Print the settings that apply to the first PATH (default: this folder) and exit.",
    ),
    click.option("--fix", is_flag=True, help="Apply the safe fixes, then report what is left."),
    click.option(
        "--unsafe-fixes", is_flag=True, help="With --fix or --diff: the unsafe fixes too."
    ),
    click.option("--diff", is_flag=True, help="Print the fixes as a unified diff; write nothing."),
    click.option(
        "-w", "--watch", is_flag=True, help="Check again whenever a file changes (Ctrl-C stops)."
    ),
    click.option(
        "-j",
        "--jobs",
        type=click.IntRange(min=0),
        default=0,
        help="Processes at most (default 0: every CPU this process may use); fewer when the "
        "memory limit holds fewer.",
    ),
    click.option("-n", "--no-cache", is_flag=True, help="Read and check every file afresh."),
    CACHE_DIR,
    click.option(
        "--base", metavar="REF", help="Also compare each workflow with its version at REF (git)."
    ),
]


def check_options(command: F) -> F:
    """Every option of `check`, in the order `--help` lists them."""
    for option in reversed(_OPTIONS):
        command = option(command)
    return command
