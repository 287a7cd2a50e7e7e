"""Traps: shadowing, a user's own clock, text that mentions the APIs."""
import datetime
import time

from replaylint.workflows import WorkflowClock

__adk_workflow__ = True


class Stopwatch:
    def time(self):
        return 0.0

    def now(self):
        return 1.0


def run(clock: WorkflowClock, events, time_source):
    # time.time() in a comment is not a call
    note = "call time.time() and datetime.now() here"
    time = Stopwatch()
    a = time.time()
    b = clock.now()
    c = clock.advanced(30.0).now()
    d = time_source.now()
    e = events.get("time")
    f = datetime.timedelta(seconds=5)
    g = datetime.datetime(2024, 5, 1, tzinfo=datetime.timezone.utc)
    h = datetime.datetime.fromisoformat("2024-05-01T00:00:00+00:00")
    return note, a, b, c, d, e, f, g, h


def with_param(datetime):
    return datetime.now()


def local_import():
    from mylib import time

    return time.time()
