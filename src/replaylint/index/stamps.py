"""What stat says of a file, and when that is enough to know its bytes have not changed.

An mtime is no evidence: `rsync -a`, `cp -p`, `tar -x` and reproducible-build tools put an old
one back on new bytes of the same size. The change time (ctime) cannot be put back (any write,
and setting the mtime itself, moves it to now), and a file replaced by a rename has a new
inode. So a stamp is (size, mtime, ctime, inode, device), and it vouches only for what is not
checked by content anyway: the prefilter's verdict on a file that is not a candidate. A
candidate's bytes, and every helper a record depends on, are hashed on every run (project_index).

A stamp written within a clock tick of the index's writing could hide an edit made in that
same tick, so a file changed less than RACY_SECONDS before the index was written is read
again (git's "racily clean" case).
"""

from __future__ import annotations

import os

RACY_SECONDS = 2.0

Stamp = tuple[int, ...]


def stamp_of(status: os.stat_result) -> Stamp:
    return (
        status.st_size,
        status.st_mtime_ns,
        status.st_ctime_ns,
        status.st_ino,
        status.st_dev,
    )


def vouches(stored: list[int] | tuple[int, ...], path: str, written: float) -> bool:
    """Does the file at `path` still have the `stored` stamp, taken long enough before the
    index was `written` (seconds since the epoch) to be trusted?"""
    try:
        now = stamp_of(os.stat(path))
    except OSError:
        return False
    return tuple(stored) == now and trusted(now, written)


def trusted(stamp: Stamp, written: float) -> bool:
    """Was the file last changed long enough before `written` (seconds since the epoch) for
    its stamp to tell every change since?"""
    _, mtime, ctime, _, _ = stamp
    return written - max(mtime, ctime) / 1e9 >= RACY_SECONDS
