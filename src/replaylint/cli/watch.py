"""`check --watch`: check, then check again whenever a Python or settings file under the paths
changes, as ruff's watch mode does. The index makes each re-check read only what changed; the
waiting is watchfiles' (the operating system's notifications), not a polling loop of ours."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable
from typing import NoReturn

import click

from replaylint.cli.signals import Interrupted


def _stamp() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S")


def _relevant(change: object, path: str) -> bool:
    from replaylint.project.settings_files import SETTINGS_NAMES

    name = os.path.basename(path)
    return name.endswith((".py", ".pyi")) or name in SETTINGS_NAMES or name == ".gitignore"


def watch(paths: list[str], check_once: Callable[[], int]) -> NoReturn:
    """Check `paths`, then again on each change. Never returns: Ctrl-C ends it with status 0,
    as ruff's watch mode ends."""
    import watchfiles

    roots = [os.path.abspath(p) for p in paths]
    click.echo(f"[{_stamp()}] Starting replaylint in watch mode...")
    try:
        check_once()
        click.echo(f"[{_stamp()}] Watching for file changes.")
        for changes in watchfiles.watch(*roots, watch_filter=_relevant, raise_interrupt=False):
            changed = sorted({os.path.relpath(path) for _, path in changes})
            click.echo(f"\n[{_stamp()}] {len(changed)} changed: {', '.join(changed)}")
            check_once()
            click.echo(f"[{_stamp()}] Watching for file changes.")
    except (KeyboardInterrupt, Interrupted) as stopped:
        if isinstance(stopped, Interrupted) and stopped.signum != signal.SIGINT:
            raise  # SIGTERM still ends it as a stopped run (143)
    sys.exit(0)
