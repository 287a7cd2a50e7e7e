"""The base version, read with git itself: a ref resolved (`git rev-parse`), its tree listed
(`git ls-tree`) and its blobs read (`git cat-file --batch`, what `git show REF:path` reads one
at a time). Nothing is checked out, and neither the working tree nor the index is touched."""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Iterable
from pathlib import Path

# Files the base's copy keeps beside its modules: what settings and import roots are read from.
_SETTINGS = frozenset({"pyproject.toml", "replaylint.toml", "setup.py", "setup.cfg"})


class GitError(Exception):
    """git is missing, the folder is no repository, or the ref names no commit: one line."""


class Repository:
    """The git repository holding a folder; read-only."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        try:
            top = self._git("rev-parse", "--show-toplevel").decode().strip()
        except GitError as error:
            raise GitError(
                f"--base needs a git repository, and {folder} is in none ({error})"
            ) from None
        self.root = Path(top).resolve()

    def _git(self, *args: str, stdin: bytes | None = None) -> bytes:
        # No optional locks: a read never refreshes the index's stat cache on disk.
        env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0"}
        try:
            done = subprocess.run(
                ["git", "-C", str(self.folder), *args],
                input=stdin,
                capture_output=True,
                env=env,
                check=False,
            )
        except OSError as error:
            raise GitError(f"cannot run git: {error}") from None
        if done.returncode != 0:
            message = done.stderr.decode(errors="replace").strip().splitlines()
            raise GitError(message[-1] if message else f"git {args[0]} failed")
        return done.stdout

    def commit(self, ref: str) -> str:
        """The commit `ref` names (anything `git rev-parse` accepts)."""
        try:
            return (
                self._git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").decode().strip()
            )
        except GitError:
            raise GitError(f"--base {ref}: no such commit in {self.root}") from None

    def tree(self, commit: str) -> dict[str, str]:
        """Every file of the commit's tree: its path from the root -> its blob's id."""
        listing = self._git("ls-tree", "-r", "-z", "--full-tree", commit)
        files: dict[str, str] = {}
        for entry in listing.split(b"\0"):
            if not entry:
                continue
            meta, _, path = entry.partition(b"\t")
            mode, kind, blob = meta.decode().split()
            if kind == "blob" and mode != "120000":  # a symbolic link is no module of its own
                files[os.fsdecode(path)] = blob
        return files

    def blobs(self, ids: Iterable[str]) -> dict[str, bytes]:
        """The contents of blobs, all read by one `git cat-file --batch`."""
        wanted = sorted(set(ids))
        if not wanted:
            return {}
        out = self._git("cat-file", "--batch", stdin="".join(f"{i}\n" for i in wanted).encode())
        found: dict[str, bytes] = {}
        at = 0
        for blob in wanted:
            end = out.index(b"\n", at)
            header = out[at:end].split()
            size = int(header[2])
            found[blob] = out[end + 1 : end + 1 + size]
            at = end + 1 + size + 1
        return found


def blob_id(data: bytes) -> str:
    """The id git gives these bytes as a blob: an unchanged file is known without reading git."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def copy_of(tree: dict[str, str], contents: dict[str, bytes], target: Path) -> None:
    """The base's modules and settings files written under `target` (a temporary folder, never
    the working tree), with an empty `.git` that marks the repository's root as in the original."""
    (target / ".git").mkdir(parents=True, exist_ok=True)
    for path, blob in tree.items():
        if blob not in contents:
            continue
        file = target / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_bytes(contents[blob])


def wanted(path: str) -> bool:
    """A file the base's copy needs: a module, or a file settings and roots are read from."""
    return path.endswith(".py") or path.rsplit("/", 1)[-1] in _SETTINGS
