"""Where the cache folder is and which layout it holds, in `os` terms only: a warm re-run
answered from its memo (rerun.py) finds its cache before anything heavier is imported."""

from __future__ import annotations

import os

from replaylint.core.paths import project_folder

SCHEMA = 2  # 2: files are remembered by stat stamp (ctime, inode), candidates by content
FOLDER = ".replaylint_cache"


def project_cache(start: str | None = None) -> str | None:
    """REPLAYLINT_CACHE_DIR, else `.replaylint_cache` at the root of the project holding
    `start` (the first path checked; default: the working directory); None outside any
    project (cache.default_root then picks a folder of the user's cache)."""
    from_env = os.environ.get("REPLAYLINT_CACHE_DIR")
    if from_env:
        return from_env
    where = os.path.realpath(start if start is not None else os.getcwd())
    project = project_folder(where if os.path.isdir(where) else os.path.dirname(where))
    return os.path.join(project, FOLDER) if project is not None else None
