"""`replaylint check` in named phases: the options checked, the settings resolved, then one of
show the settings, list the files, add ignore comments, fix, watch, or check and report."""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, NoReturn

import click

from replaylint.cli.options import CheckOptions
from replaylint.cli.output import echo
from replaylint.index import recording

if TYPE_CHECKING:
    from replaylint.core.findings import Report
    from replaylint.index.cache import Cache
    from replaylint.project.config import Resolver
    from replaylint.report.replay_report import ReplayReport

log = logging.getLogger("replaylint.cli")


def usage_error(message: str) -> NoReturn:
    """One line on stderr and exit 2, like a configuration mistake."""
    click.echo(f"replaylint: error: {message}", err=True)
    sys.exit(2)


@dataclass(frozen=True)
class Run:
    """What one check needs besides the options: the files, stdin's module, the settings, the
    selection from the command line, the cache and the processes."""

    options: CheckOptions
    files: list[str]
    stdin: tuple[str, bytes] | None
    resolver: Resolver
    select: list[str]
    ignore: list[str]
    extend_select: list[str]
    cache: Cache | None
    jobs: int


def check(options: CheckOptions) -> None:
    """The whole command; exits with its status."""
    with _logging(options):
        _check(options)


def _check(options: CheckOptions) -> None:
    resolver = _settings(options)
    if options.show_config:
        first = next((p for p in options.paths if p != "-"), options.stdin_filename or ".")
        click.echo(resolver.for_path(first).show(), nl=False)
        return
    selection = _selection(options)
    _refuse_conflicts(options)
    if options.show_files:
        _show_files(options, resolver)
        return
    run = _prepared(options, resolver, *selection)
    if options.add_ignore:
        _add_ignores(run)
    if options.watch:
        from replaylint.cli.watch import watch

        watch(run.files, lambda: _check_once(run))
    sys.exit(_check_once(run))


@contextmanager
def _logging(options: CheckOptions) -> Iterator[None]:
    """--debug logs each decision; -v what the run reads and where (for this run only)."""
    if options.debug:
        logging.basicConfig(level=logging.DEBUG, format="replaylint: %(message)s")
    if not options.verbose or options.debug:
        yield
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("replaylint: %(message)s"))
    logger = logging.getLogger("replaylint")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def _settings(options: CheckOptions) -> Resolver:
    """`--config FILE` replaces every file's settings; `--config KEY=VALUE`, `--exclude` and
    `--force-exclude` override them; `--extend-exclude` adds to them."""
    import os
    from pathlib import Path

    from replaylint.project.config import ConfigError, Resolver, load, parse_override

    explicit = None
    overrides: dict[str, object] = {}
    try:
        for option in options.config_options:
            if "=" in option and not os.path.exists(option):
                overrides.update(parse_override(option))
            elif explicit is None:
                explicit = load(Path(option))
            else:
                raise ConfigError(f"--config {option}: only one settings file can be given")
    except ConfigError as error:
        usage_error(str(error))
    if options.exclude:
        overrides["exclude"] = _split(options.exclude)
    if options.force_exclude:
        overrides["force_exclude"] = True
    return Resolver(explicit, overrides, tuple(_split(options.extend_exclude)))


def _split(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(item.strip() for value in values for item in value.split(",") if item.strip())


def _selection(options: CheckOptions) -> tuple[list[str], list[str], list[str]]:
    """(--select, --ignore, --extend-select), each a known code, prefix, slug or ALL."""
    from replaylint.project.selectors import known, unknown_selector

    chosen = []
    for option, values in (
        ("--select", options.select),
        ("--ignore", options.ignore),
        ("--extend-select", options.extend_select),
    ):
        selectors = list(_split(values))
        for selector in selectors:
            if not known(selector):
                usage_error(f"{option}: {unknown_selector(selector)}")
        chosen.append(selectors)
    return chosen[0], chosen[1], chosen[2]


def _refuse_conflicts(options: CheckOptions) -> None:
    if options.statistics and options.output_format not in ("text", "concise", "full"):
        usage_error(
            "--statistics prints text; it cannot be given with "
            f"--output-format {options.output_format}"
        )
    if options.unsafe_fixes and not (options.fix or options.diff):
        usage_error("--unsafe-fixes applies with --fix or --diff")
    reads_stdin = "-" in options.paths or options.stdin_filename is not None
    if reads_stdin and options.base is not None:
        usage_error("--base compares files in git; it cannot read a module from stdin")
    if reads_stdin and options.edits:
        usage_error(f"{options.edits} edits files; it cannot read a module from stdin")
    if options.watch and (reads_stdin or options.edits or options.output_file):
        usage_error("--watch checks files again as they change; it prints to stdout and edits none")


def _show_files(options: CheckOptions, resolver: Resolver) -> None:
    """Every Python file the paths give under their settings, absolute, one a line (as ruff)."""
    import os

    from replaylint.api.run import files_to_check
    from replaylint.project.config import ConfigError

    try:
        files, errors = files_to_check([p for p in options.paths if p != "-"] or ["."], resolver)
    except ConfigError as error:  # a nested folder's settings, read as its files are listed
        usage_error(str(error))
    for line in errors:
        click.echo(f"replaylint: error: {line}", err=True)
    for file in sorted(os.path.abspath(f) for f in files):
        click.echo(file)
    sys.exit(2 if errors else 0)


def _prepared(
    options: CheckOptions,
    resolver: Resolver,
    select: list[str],
    ignore: list[str],
    extend_select: list[str],
) -> Run:
    """The files and stdin's module, the cache (default: at the checked project's root) and
    the number of processes."""
    from pathlib import Path

    files = [p for p in options.paths if p != "-"]
    stdin = None
    if "-" in options.paths or options.stdin_filename is not None:  # a name alone: stdin (ruff)
        stdin = (options.stdin_filename or "<stdin>", sys.stdin.buffer.read())
    elif not files:
        files = ["."]
    cache = None
    if not options.no_cache:
        from replaylint.index.cache import Cache, default_root

        start = Path(files[0]) if files else None
        cache = Cache(options.cache_dir if options.cache_dir else default_root(start))
        log.info("cache: %s", cache.root)
    from replaylint.index.pools import default_jobs

    jobs = options.jobs or default_jobs()
    return Run(options, files, stdin, resolver, select, ignore, extend_select, cache, jobs)


def checked(run: Run) -> ReplayReport:
    """One run of the check, with a progress bar when one is wanted; any failure is exit 2."""
    from replaylint.api import run as check_paths
    from replaylint.api.run import named_files
    from replaylint.cli.output import progress_bar
    from replaylint.project.config import ConfigError
    from replaylint.report.selection import Selection, report_from

    bar = progress_bar(run.options.quiet_output)
    started = time.perf_counter()
    try:
        with ExitStack() as stack:
            stack.enter_context(_ahead(run))
            comparison = None
            if run.options.base is not None:  # each workflow against its version at a git ref
                from replaylint.versioning import Comparison, add_comparison

                # Begun first: the base is read in a process of its own while the check runs.
                compared = Comparison(run.options.base, run.files, run.resolver)
                comparison = stack.enter_context(compared)
            outcome = check_paths(
                run.files,
                stdin=run.stdin,
                resolver=run.resolver,
                progress=bar,
                cache=run.cache,
                jobs=run.jobs,
            )
            if comparison is not None:
                add_comparison(outcome, comparison)
        recording.checked_afresh(outcome.afresh)  # a run the index answered whole is remembered
        named = named_files(run.files)
        selection = Selection(run.resolver, run.select, run.ignore, run.extend_select, named)
        return replace(report_from(outcome, selection), cache=run.cache, jobs=run.jobs)
    except ConfigError as error:  # a file's own settings are read when it is reached
        usage_error(str(error))
    except Exception as error:  # a bug of ours outside any one file: one line, exit 2, never 1
        if run.options.debug:
            import traceback

            traceback.print_exc()
        usage_error(f"internal error: {type(error).__name__}: {error}")
    finally:
        if bar is not None:
            bar.clear()
        log.info("checked in %.2f s", time.perf_counter() - started)


@contextmanager
def _ahead(run: Run) -> Iterator[None]:
    """What the check does ahead for this run, undone however it ends: the [*] marks worked
    out where each file is checked (index/marks.py), a worker importing LibCST while the
    run decides what to check (index/prefetch.py), and batches that keep their trees out of
    the collector's full passes (parse/kept.py)."""
    from replaylint.index.marks import Marks
    from replaylint.index.prefetch import Prefetched
    from replaylint.parse import kept

    try:
        kept.wanted(True)
        Marks.wanted = _shows_marks(run.options)
        if run.jobs > 1 and run.cache is not None and run.cache.folder.is_dir():
            Prefetched.allow()  # an index to reuse: the scan starts it at a changed file
            if any(os.path.isfile(path) for path in run.files):
                # Files named (pre-commit names the changed ones) are most likely checked:
                # the worker imports while the run walks, too.
                Prefetched.start()
        yield
    finally:
        Prefetched.stop()
        Marks.wanted = False
        kept.wanted(False)


def _shows_marks(options: CheckOptions) -> bool:
    """Does the report of this check show the [*] marks (the text formats)? Not when it is not
    printed (`--silent`, `--statistics`, `--diff`, `--add-ignore`) or a fix may change the files
    before the report that is (`--fix`)."""
    from replaylint import reporters

    if options.fix or options.diff or options.add_ignore:
        return False
    return (
        not options.silent and not options.statistics and options.output_format in reporters.COLORED
    )


def _add_ignores(run: Run) -> NoReturn:
    from replaylint.suppressions.add_ignore import suppress_all

    added, report = suppress_all(lambda: checked(run))
    echo_errors(run.options, report)
    if not run.options.silent:
        for line in added.warnings():
            click.echo(f"replaylint: warning: {line}", err=True)
        click.echo(added.message())
    sys.exit(2 if report.errors else 0)


def _check_once(run: Run) -> int:
    """Check, fix when asked, report; the exit status."""
    from replaylint.cli.output import write_report

    options = run.options
    report = checked(run)
    changed = 0
    if options.fix or options.diff:
        from replaylint.fixes import apply

        changed, applied = apply(
            report, unsafe=options.unsafe_fixes, diff=options.diff, stream=sys.stdout
        )
        if options.diff:
            echo_errors(options, report)
            return 1 if changed else 0
        if applied:
            if not options.silent:
                fixed = f"{applied} finding{'s' * (applied != 1)}"
                click.echo(f"Fixed {fixed} in {changed} file{'s' * (changed != 1)}.", err=True)
            report = checked(run)  # what is left
    echo_errors(options, report)
    reads_stdin = "-" in options.paths or options.stdin_filename is not None
    nothing = not report.modules and not report.errors and report.files and not reads_stdin
    if nothing and not options.silent and not options.quiet:
        echo(f"replaylint: note: {nothing_recognised(report.files)}", err=True)
    if not options.silent:
        problem = write_report(report, options)
        if problem is not None:
            usage_error(problem)
    return _status(options, report, changed)


def _status(options: CheckOptions, report: ReplayReport, changed: int) -> int:
    """ruff's order: --exit-zero wins over findings and fixes alike; --exit-non-zero-on-fix
    fails a run whose --fix changed a file, even when nothing is left."""
    code = report.exit_code
    if options.exit_zero and code != 2:
        return 0
    if options.exit_non_zero_on_fix and changed and code == 0:
        return 1
    return code


def nothing_recognised(files: int) -> str:
    """What a run that found no workflow module says, so that it reads otherwise than a clean
    tree: how a module is recognised as workflow code."""
    from replaylint.presets.records import presets

    packages = ", ".join(sorted({p for r in presets().values() for p in r.packages}))
    return (
        f"no workflow module in {files} file{'s' * (files != 1)} checked, so nothing was checked "
        "for replay safety; a module is workflow code when it sets `__adk_workflow__ = True`, "
        f"declares an entry of a framework ({packages}) it imports, or of the framework's object "
        "it imports from another module, or uses a decorator or base class named in the "
        "`workflow-decorators` / `workflow-bases` settings"
    )


def echo_errors(options: CheckOptions, report: Report) -> None:
    if options.silent:
        return
    for line in report.errors:
        echo(f"replaylint: error: {line}", err=True)
