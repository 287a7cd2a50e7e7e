"""Delivery order: concurrent outcomes reach an async workflow one at a time, at idle points.

Live, an activity whose body has finished does not hand its result to the workflow at once:
it waits until no workflow code can run (the event loop has nothing ready), and then the
earliest finished result is delivered, and only that one. A durable timer fires the same
way, earliest due first: at once when no activity body is running (the run's time skips
ahead, nobody waits), or, while one is, after its duration has really passed, so an
activity raced against a timeout can lose as it would in production. The order of
deliveries is written into the history. A replay delivers in exactly that order, again one
at a time at idle points, so code that reacts to completion order (``asyncio.as_completed``,
``asyncio.wait(return_when=FIRST_COMPLETED)``, ids drawn after a gather) takes the same
decisions on replay. Sync calls deliver at once: the code is running, nothing interleaves.
"""

from __future__ import annotations

import asyncio
import collections
import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from replaylint.workflows.idle import something_may_act, thread_idents

# A loop busy for this many consecutive checks delivers anyway, so a workflow that polls
# with `await asyncio.sleep(0)` instead of awaiting cannot starve itself.
BUSY_LIMIT = 1000
# A replay that cannot progress while a thread or a timer might still act waits this long.
STALL_GRACE_SECONDS = 2.0
# How often a replay's loop is looked at for a deadlock; two idle looks in a row decide.
WATCH_SECONDS = 0.05

StallHandler = Callable[[list[int], "int | None"], BaseException]
DeadlockHandler = Callable[[], BaseException]


class Scheduler:
    """One run's deliveries. `order` None: live (deliveries are recorded); else replay them."""

    def __init__(
        self,
        order: tuple[int, ...] | None = None,
        stall: StallHandler | None = None,
        deadlock: DeadlockHandler | None = None,
    ):
        self.replaying = order is not None
        self.delivered: list[int] = []  # seqs in delivery order
        self._order = list(order or ())
        self._next = 0
        self._done: set[int] = set()
        self._lock = threading.Lock()
        self._stall = stall
        self._loop: asyncio.AbstractEventLoop | None = None
        self._threads_at_start = 0
        self._pump_due = False
        self._busy = 0
        self._progress = 0
        self._recheck: asyncio.TimerHandle | None = None
        self._waited = 0.0  # seconds a stalled replay has waited without progress
        self._rechecks = 0
        self._waiting: dict[int, asyncio.Future[None]] = {}  # replay: requested, awaiting turn
        self._held: collections.deque[tuple[int, asyncio.Future[None]]] = collections.deque()
        self._timers: list[tuple[timedelta, int, asyncio.Future[None]]] = []
        self._alarms: dict[int, asyncio.TimerHandle] = {}  # live: each timer's real deadline
        self._expired: set[int] = set()
        self._in_flight = 0
        self._watch = _DeadlockWatch(self, deadlock) if deadlock is not None else None

    # --- the loop of an async run ---

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Called by the run's main task on its loop, before the workflow starts."""
        self._loop = loop
        self._threads_at_start = threading.active_count()
        if self._watch is not None:
            self._watch.start(loop, asyncio.current_task(loop))

    def on_run_loop(self) -> bool:
        """Is the caller a task of this run's event loop (so it may wait for its turn)?"""
        if self._loop is None:
            return False
        try:
            return asyncio.get_running_loop() is self._loop
        except RuntimeError:
            return False

    # --- deliveries ---

    def delivered_now(self, seq: int) -> None:
        """A sync call's outcome reached the code as it returned (any thread)."""
        with self._lock:
            self.delivered.append(seq)
            self._done.add(seq)
            self._progress += 1
        self._kick()

    async def hold(self, seq: int) -> None:
        """Live: the outcome of `seq` is ready; return once it is its turn to be delivered."""
        await self._wait(seq, lambda fut: self._held.append((seq, fut)))

    async def timer(self, seq: int, due: timedelta, seconds: float) -> None:
        """Live: a durable timer due at `due` (run time elapsed); return once it fires."""

        def enqueue(future: asyncio.Future[None]) -> None:
            self._timers.append((due, seq, future))
            assert self._loop is not None
            self._alarms[seq] = self._loop.call_later(seconds, self._expire, seq)

        await self._wait(seq, enqueue)

    def _expire(self, seq: int) -> None:
        self._expired.add(seq)
        self._kick()

    async def turn(self, seq: int) -> None:
        """Replay: return once the recorded delivery order reaches `seq`."""
        await self._wait(seq, lambda fut: self._waiting.__setitem__(seq, fut))

    def body_started(self) -> None:
        self._in_flight += 1

    def body_finished(self) -> None:
        self._in_flight -= 1
        self._kick()

    async def _wait(self, seq: int, enqueue: Callable[[asyncio.Future[None]], None]) -> None:
        assert self._loop is not None
        future: asyncio.Future[None] = self._loop.create_future()
        enqueue(future)
        self._progress += 1
        self._kick()
        try:
            await future
        except asyncio.CancelledError:
            self._forget(seq, future)
            raise

    def _forget(self, seq: int, future: asyncio.Future[None]) -> None:
        if self._waiting.get(seq) is future:
            del self._waiting[seq]
        self._held = collections.deque(item for item in self._held if item[1] is not future)
        self._timers = [item for item in self._timers if item[2] is not future]
        self._disarm(seq)
        self._kick()

    def _disarm(self, seq: int) -> None:
        alarm = self._alarms.pop(seq, None)
        if alarm is not None:
            alarm.cancel()
        self._expired.discard(seq)

    # --- the pump: runs on the loop whenever something may have become deliverable ---

    def _kick(self) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if not self.on_run_loop():
            try:
                loop.call_soon_threadsafe(self._kick)
            except RuntimeError:  # the loop closed meanwhile: nothing left to deliver to
                pass
        elif not self._pump_due:
            self._pump_due = True
            loop.call_soon(self._pump)

    def _pump(self) -> None:
        self._pump_due = False
        loop = self._loop
        if loop is None:
            return
        if _ready_callbacks(loop) and self._busy < BUSY_LIMIT:
            self._busy += 1
            self._kick()
            return
        self._busy = 0
        if self.replaying:
            self._replay_step(loop)
        elif self._held:
            seq, future = self._held.popleft()
            self._deliver(seq, future)
        else:
            firing = [t for t in self._timers if self._in_flight == 0 or t[1] in self._expired]
            if firing:
                timer = min(firing, key=lambda t: (t[0], t[1]))  # earliest due, then first set
                self._timers.remove(timer)
                self._disarm(timer[1])
                self._deliver(timer[1], timer[2])

    def _deliver(self, seq: int, future: asyncio.Future[None]) -> None:
        with self._lock:
            self.delivered.append(seq)
            self._done.add(seq)
        future.set_result(None)
        self._waited, self._rechecks = 0.0, 0
        self._kick()  # the next delivery waits until the woken code is idle again

    def _replay_step(self, loop: asyncio.AbstractEventLoop) -> None:
        with self._lock:
            while self._next < len(self._order) and self._order[self._next] in self._done:
                self._next += 1
            upcoming = self._order[self._next] if self._next < len(self._order) else None
        if upcoming is not None and upcoming in self._waiting:
            self._next += 1
            self._deliver(upcoming, self._waiting.pop(upcoming))
            return
        if not self._waiting:
            return  # the code waits for something else (or nothing): not ours to judge
        # Code is blocked on results the history cannot give it yet. A thread or a timer
        # of the code's own may still request the next one; otherwise the run diverged.
        if self._recheck is not None:
            self._recheck.cancel()
        if self._others_may_act(loop) and self._waited < STALL_GRACE_SECONDS:
            progress = self._progress
            delay = min(0.05, 0.001 * 2**self._rechecks)

            def recheck() -> None:
                if self._progress != progress:
                    self._waited, self._rechecks = 0.0, 0
                else:
                    self._waited, self._rechecks = self._waited + delay, self._rechecks + 1
                self._kick()

            self._recheck = loop.call_later(delay, recheck)
            return
        self._fail_waiting(upcoming)

    @property
    def progress(self) -> int:
        """A count that moves whenever the run requests or receives something."""
        return self._progress + len(self.delivered)

    def waits_for_delivery(self) -> bool:
        """Is workflow code blocked on a recorded result (the stall check's case, not a deadlock)?"""
        return bool(self._waiting) or self._pump_due

    def own_handles(self) -> tuple[object, ...]:
        return (self._recheck,)

    def _others_may_act(self, loop: asyncio.AbstractEventLoop) -> bool:
        scheduled = getattr(loop, "_scheduled", ())
        watch = self._watch.handle if self._watch is not None else None
        timers = any(h not in (self._recheck, watch) and not h.cancelled() for h in scheduled)
        executor = getattr(loop, "_default_executor", None) is not None
        return timers or executor or threading.active_count() > self._threads_at_start

    def _fail_waiting(self, upcoming: int | None) -> None:
        waiting = sorted(self._waiting)
        stalled = f"the replay cannot deliver what seqs {waiting} wait for"
        error = self._stall(waiting, upcoming) if self._stall else RuntimeError(stalled)
        for seq in waiting:
            self._waiting.pop(seq).set_exception(error)


def _ready_callbacks(loop: asyncio.AbstractEventLoop) -> bool:
    """Is any callback ready to run? CPython's loops keep them in `_ready`."""
    ready: collections.deque[asyncio.Handle] = getattr(loop, "_ready", collections.deque())
    return any(not handle.cancelled() for handle in ready)


class _DeadlockWatch:
    """Ends a replay whose workflow waits on nothing the history or anything else can deliver.

    Every WATCH_SECONDS it looks at the loop; two looks in a row that find nothing ready,
    no recorded delivery awaited and nothing that could still act (idle.py), with no
    delivery in between, make the run fail with the deadlock handler's error and cancel
    the workflow. A workflow that swallows the cancellation and waits again has its loop
    stopped at the next look. Live runs are not watched.
    """

    def __init__(self, scheduler: Scheduler, fail: DeadlockHandler) -> None:
        self._scheduler = scheduler
        self._fail = fail
        self.handle: asyncio.TimerHandle | None = None
        self._main: asyncio.Task[Any] | None = None
        self._baseline: frozenset[int] = frozenset()
        self._idle_looks = 0
        self._progress = -1
        self._declared = False

    def start(self, loop: asyncio.AbstractEventLoop, main: asyncio.Task[Any] | None) -> None:
        self._main = main
        self._baseline = thread_idents()
        self.handle = loop.call_later(WATCH_SECONDS, self._look, loop)

    def _look(self, loop: asyncio.AbstractEventLoop) -> None:
        main = self._main
        if main is None or main.done():
            return
        scheduler = self._scheduler
        own = (*scheduler.own_handles(), self.handle)
        stuck = not scheduler.waits_for_delivery() and not something_may_act(
            loop, self._baseline, own
        )
        if stuck and scheduler.progress == self._progress:
            self._idle_looks += 1
        else:
            self._idle_looks = 1 if stuck else 0
        self._progress = scheduler.progress
        if self._idle_looks >= 2:
            self._idle_looks = 0
            if self._declared:
                loop.stop()  # the workflow swallowed the cancellation and waits again
                return
            self._declared = True
            self._fail()
            main.cancel()
        self.handle = loop.call_later(WATCH_SECONDS, self._look, loop)
