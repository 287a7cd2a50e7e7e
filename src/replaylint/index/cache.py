"""The on-disk cache: one index file per set of settings, under a folder per schema version.

States of the folder, as this version sees them:
- missing: created on the first write, with a `.gitignore` of `*` (and a CACHEDIR.TAG) so it is
  never committed nor backed up;
- `v<SCHEMA>/`: ours; an index that is truncated, corrupt or of another schema is dropped and
  rebuilt, never misread;
- `v<N>/` with N < SCHEMA: an older layout, deleted (nothing in it is worth migrating: a cold
  run rebuilds it);
- `v<N>/` with N > SCHEMA: a newer replaylint's; left alone, never read.
Writes go to a temporary file in the same folder, then are renamed over the index: a concurrent
run sees the old index or the new one, never half of one.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from replaylint.index.location import FOLDER, SCHEMA, project_cache

__all__ = ["FOLDER", "SCHEMA", "Cache", "default_root"]
_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# replaylint's cache (bford.info/cachedir)\n"


class Cache:
    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)
        self.folder = self.root / f"v{SCHEMA}"

    def load(self, key: str) -> dict[str, Any] | None:
        """The index stored under `key`, or None (missing, unreadable, or not this schema's)."""
        path = self._index(key)
        try:
            data = json.loads(path.read_bytes())
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            _unlink(path)  # truncated or corrupt: dropped, and rebuilt by this run
            return None
        if not isinstance(data, dict) or data.get("schema") != SCHEMA or data.get("key") != key:
            _unlink(path)
            return None
        return data

    def store(self, key: str, index: dict[str, Any]) -> None:
        """Write an index atomically; a cache that cannot be written is not an error."""
        try:
            self._prepare()
            payload = json.dumps(
                {"schema": SCHEMA, "key": key, **index}, separators=(",", ":")
            ).encode()
            handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=".index-", suffix=".tmp")
            try:
                with os.fdopen(handle, "wb") as stream:
                    stream.write(payload)
                os.replace(temporary, self._index(key))
            except BaseException:
                _unlink(Path(temporary))
                raise
        except OSError:
            return

    def clean(self) -> bool:
        """Remove the whole cache folder; True when there was one."""
        if not self.root.exists():
            return False
        shutil.rmtree(self.root)
        return True

    def _index(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def _prepare(self) -> None:
        if self.folder.is_dir():
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        ignore = self.root / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# Automatically created by replaylint.\n*\n", encoding="utf-8")
        tag = self.root / "CACHEDIR.TAG"
        if not tag.exists():
            tag.write_text(_TAG, encoding="utf-8")
        for entry in self.root.iterdir():
            version = _version(entry.name)
            if entry.is_dir() and version is not None and version < SCHEMA:
                shutil.rmtree(entry, ignore_errors=True)  # an older layout: dropped


def _version(name: str) -> int | None:
    if name.startswith("v") and name[1:].isdigit():
        return int(name[1:])
    return None


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def default_root(start: Path | None = None) -> Path:
    """REPLAYLINT_CACHE_DIR, else `.replaylint_cache` at the root of the project holding `start`
    (the first path checked; default: the working directory), else, outside any project, a
    folder of the user's cache named after `start`'s folder: never a stray folder of the
    working directory (`/` included)."""
    found = project_cache(os.fspath(start) if start is not None else None)
    if found is not None:
        return Path(found)
    where = (start or Path.cwd()).resolve()
    folder = where if where.is_dir() else where.parent
    import hashlib

    import platformdirs

    name = hashlib.sha256(str(folder).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return Path(platformdirs.user_cache_dir("replaylint", appauthor=False)) / "outside" / name
