"""Following installed packages (the `follow` setting): chains from their functions to unsafe roots.

Followed modules are located on a search path without importing them, read with astroid (never
imported, never executed; C extensions and bytecode-only modules are opaque), summarised once
per function and kept for the run. Everything else stays outside, as an `entry-only` edge.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from replaylint.core.findings import ChainLink
from replaylint.installed.locate import default_search_path
from replaylint.resolve.catalog import Catalog, Entry

if TYPE_CHECKING:
    from replaylint.installed.summary import Summaries
    from replaylint.installed.values import Fn, InstalledEvaluator

__all__ = ["MAX_STEPS", "Installed"]

MAX_STEPS = 12
log = logging.getLogger("replaylint")


class Installed:
    """The followed installed packages of one run, and the chains through them."""

    def __init__(
        self,
        packages: Sequence[str],
        catalog: Catalog,
        search_path: Sequence[str] | None = None,
    ) -> None:
        """packages: top-level import names to follow (e.g. ["acme_sdk"]). search_path: the
        directories to look in (default: the sys.path entries that exist, without the current
        directory); `.pth` path lines in them are honoured, `.pth` import lines never run."""
        self.packages = tuple(dict.fromkeys(p.strip() for p in packages if p.strip()))
        self.catalog = catalog
        paths = default_search_path() if search_path is None else search_path
        self.search_path = tuple(paths)
        self._lock = threading.Lock()
        self._chains: dict[str, tuple[tuple[ChainLink, ...], Entry] | None] = {}
        self._engine: tuple[InstalledEvaluator, Summaries] | None = None

    def follows(self, qualified: str) -> bool:
        """True when `qualified` is under a followed package (installed or not)."""
        name = qualified.replace("()", "")
        return any(name == p or name.startswith(p + ".") for p in self.packages)

    def chain(self, qualified: str) -> tuple[ChainLink, ...] | None:
        """The shortest chain of calls (at most MAX_STEPS) from the body of the installed
        function, method or class `qualified` down to an unsafe catalog root; else None.

        `qualified` is a dotted path as the linter resolves it: `acme_sdk.llm.complete`,
        `acme_sdk.client.Gateway.ask` (or `Gateway().ask`), a re-export such as
        `acme_sdk.complete`; a class means its construction (`__init__`). The first step is
        the call inside that function, the last the root call, both as written in the source.
        """
        found = self._found(qualified)
        return found[0] if found is not None else None

    def root_category(self, qualified: str) -> str | None:
        """The catalog category of the root the chain of `qualified` ends in."""
        found = self._found(qualified)
        return found[1].category if found is not None else None

    def summarise(self, module: str) -> int:
        """Summarise every function and method of one followed module now (warming the run's
        cache; the bench times it); returns how many were summarised, 0 when unreadable."""
        with self._lock:
            evaluator, summaries = self._parts()
            info = evaluator.modules.get(module) if self.follows(module) else None
            if info is None:
                return 0
            from astroid import nodes

            count = 0
            for node in info.tree.nodes_of_class(nodes.FunctionDef):
                parent = node.parent
                receiver = evaluator.cls(parent) if isinstance(parent, nodes.ClassDef) else None
                summaries.edges(evaluator.function(node, receiver))
                count += 1
            return count

    # ------------------------------------------------------------------ internals

    def _parts(self) -> tuple[InstalledEvaluator, Summaries]:
        # astroid is imported on first use, so a run without `follow` never pays for it.
        if self._engine is None:
            from replaylint.installed.locate import Locator
            from replaylint.installed.modules import Modules
            from replaylint.installed.summary import Summaries
            from replaylint.installed.values import InstalledEvaluator

            modules = Modules(Locator(self.search_path))
            evaluator = InstalledEvaluator(modules, self.catalog, self.follows)
            self._engine = (evaluator, Summaries(evaluator, self.catalog))
        return self._engine

    def _found(self, qualified: str) -> tuple[tuple[ChainLink, ...], Entry] | None:
        if not self.follows(qualified):
            return None
        with self._lock:
            if qualified not in self._chains:
                try:
                    self._chains[qualified] = self._search(qualified)
                except RecursionError:  # pathological nesting in installed code: give up on it
                    log.debug("%s not followed: installed code nested too deeply", qualified)
                    self._chains[qualified] = None
            return self._chains[qualified]

    def _search(self, qualified: str) -> tuple[tuple[ChainLink, ...], Entry] | None:
        evaluator, summaries = self._parts()
        top = qualified.split(".", 1)[0]
        if not evaluator.modules.exists(top):
            log.debug("followed package %s is not found on the search path", top)
            return None
        starts = list(
            dict.fromkeys(f for v in evaluator.resolve(qualified) for f in summaries.targets(v))
        )
        # Breadth first, level by level: the first root at the smallest depth is the shortest
        # chain, and source order breaks ties, so the answer is the same on every run.
        seen: set[Fn] = set(starts)
        frontier: list[tuple[Fn, tuple[ChainLink, ...]]] = [(f, ()) for f in starts]
        while frontier:
            deeper: list[tuple[Fn, tuple[ChainLink, ...]]] = []
            for fn, steps in frontier:
                for edge in summaries.edges(fn):
                    if edge.entry is not None:
                        chain = (*steps, edge.step)
                        log.debug(
                            "%s unsafe: calls %s at %s:%d (%d steps)",
                            qualified, edge.step.call, edge.step.path, edge.step.line, len(chain),
                        )  # fmt: skip
                        return chain, edge.entry
            for fn, steps in frontier:
                if len(steps) + 1 >= MAX_STEPS:
                    continue
                for edge in summaries.edges(fn):
                    if edge.callee is not None and edge.callee not in seen:
                        seen.add(edge.callee)
                        deeper.append((edge.callee, (*steps, edge.step)))
            frontier = deeper
        log.debug("%s reaches no unsafe root in followed code", qualified)
        return None
