"""The project of one run: the modules read (local helpers included, each read at most once),
how an import names a local file, and the settings that shape the walk."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from replaylint.core.codes import CATEGORY_OF
from replaylint.core.findings import ChainLink
from replaylint.core.paths import display_path
from replaylint.engine.engines import replayed
from replaylint.parse import kept, release, stacks
from replaylint.parse.parsing import ParseFailure, parse
from replaylint.presets.frameworks import Frameworks
from replaylint.presets.records import inline_activity
from replaylint.project.config import Config
from replaylint.project.published import published_names
from replaylint.project.python_version import target_version
from replaylint.project.roots import Roots, never_local
from replaylint.resolve.catalog import Catalog, default_catalog
from replaylint.resolve.evaluator import Evaluator
from replaylint.resolve.facts import FactSink
from replaylint.resolve.model import FunctionInfo, ModuleInfo
from replaylint.resolve.workflows import MARKER, is_marked
from replaylint.rules import dispatch

if TYPE_CHECKING:
    from replaylint.engine.registrations import Registrations
    from replaylint.installed import Installed

log = logging.getLogger("replaylint")

_NESTED_LOAD_DEPTH = 400  # frames; about fifty nested local imports


class Project:
    """The modules read during one run, local helper modules included, each read at most once."""

    def __init__(
        self,
        catalog: Catalog | None = None,
        markers: frozenset[str] = frozenset({MARKER}),
        activity_decorators: Iterable[str] = (),
        safe: frozenset[str] = frozenset(),
        frameworks: Frameworks | None = None,
        sink: FactSink | None = None,
        max_module_size: int = Config.max_module_size,
        roots: Roots | None = None,
        installed: Installed | None = None,
        target: str = "",
    ) -> None:
        self.max_module_size = max_module_size
        self.target_setting = target  # `target-version`, else each project's requires-python
        self.failed_helpers: list[str] = []  # errors of ours loading an imported module
        # Local modules that cannot be read or parsed (ADK-E001 on each, where a workflow
        # reaches it): by dotted name, and what to report by file.
        self.broken: dict[str, Path] = {}
        self.broken_reasons: dict[Path, tuple[str, str, int, int]] = {}
        self.catalog = catalog or default_catalog()
        self.sink = sink if sink is not None else dispatch()  # the rules the walk reports to
        self.frameworks = frameworks or Frameworks()
        self.markers = markers
        self.extra_activities = set(activity_decorators)
        self.safe = safe
        self.modules: dict[Path, ModuleInfo | None] = {}
        self.roots = roots or Roots()
        self.installed = installed  # packages named by `follow`, read with astroid
        self._installed_chains: dict[str, tuple[ChainLink, ...]] = {}
        # Functions another module's walk registered (engine/registrations.py), in order.
        self.touched: list[FunctionInfo] = []
        # What the registrars, checked apart, register (given to a batch without them).
        self.registrations: Registrations | None = None
        # Import cycles: the modules whose statements are being walked (outermost first), the
        # module each inner module of a cycle waits for, and who waits for whom.
        self._in_progress: list[ModuleInfo] = []
        self._waits_for: dict[int, ModuleInfo] = {}
        self._waiting: dict[int, list[Evaluator]] = {}

    # ------------------------------------------------------------------ loading

    def load(
        self, path: Path, source: bytes, display: str | None = None, name: str | None = None
    ) -> ModuleInfo:
        """Parse and walk one module (raises ParseFailure)."""
        key = module_key(path)
        cached = self.modules.get(key)
        if cached is not None:
            return cached
        tree, read_by_cpython = parse(source, target_version(self.target_setting, key.parent))
        release.after_parse(len(source))
        kept.loaded()
        info = ModuleInfo(
            path=key,
            display=display or display_path(path),
            name=name or self.roots.module_name(key),
            source=source,
            tree=tree,
            marked=is_marked(tree, self.markers),
            read_by_cpython=read_by_cpython,
            canonical=self.roots.module_name(key),
        )
        self.modules[key] = info  # registered before the walk, so import cycles end here
        self._walk(info)
        log.debug(
            "%s walked: %d functions, marked=%s", info.display, len(info.functions), info.marked
        )
        return info

    def _walk(self, info: ModuleInfo) -> None:
        """Walk a module: its own statements, then its function bodies. A module that imports,
        directly or not, one whose statements are still being walked (an import cycle) walks
        its bodies only once that outermost module's statements are done, so that every body
        of a cycle sees every module of it whole, whichever module was loaded first."""
        evaluator = Evaluator(self, info, self.catalog, self.sink)
        self._in_progress.append(info)
        try:
            evaluator.walk_module_level()
        except BaseException:
            self._walk_waiting(info)  # what waited for it is walked as it would have been
            raise
        finally:
            self._in_progress.pop()
        owner = self._waits_for.pop(id(info), None)
        if owner is not None and any(m is owner for m in self._in_progress):
            # It waits, and so does what waited for it, in the order they were loaded.
            queue = self._waiting.setdefault(id(owner), [])
            queue += [evaluator, *self._waiting.pop(id(info), [])]
            return
        try:
            evaluator.walk_bodies()
        finally:
            self._walk_waiting(info)

    def _walk_waiting(self, owner: ModuleInfo) -> None:
        for waiting in self._waiting.pop(id(owner), []):
            waiting.walk_bodies()

    def _closes_cycle(self, module: ModuleInfo) -> None:
        """`module`, being walked, is imported again from deeper in its own walk: the modules
        loaded since wait for it (or for an outer module they already wait for)."""
        depth = next((i for i, m in enumerate(self._in_progress) if m is module), None)
        if depth is None:
            return
        for inner in self._in_progress[depth + 1 :]:
            known = self._waits_for.get(id(inner))
            outer = known is not None and any(m is known for m in self._in_progress[:depth])
            if not outer:
                self._waits_for[id(inner)] = module

    def loading(self, module: ModuleInfo) -> bool:
        return any(m is module for m in self._in_progress)

    def forget(self, path: Path) -> None:
        """Drop a module whose walk failed, so nothing half-read is reported or followed."""
        key = module_key(path)
        if key in self.modules:
            self.modules[key] = None

    # ------------------------------------------------------------------ local imports

    def absolute_name(self, name: str, level: int, importer: ModuleInfo) -> str:
        if level == 0:
            return name
        package = importer.name.split(".")
        if importer.path.name != "__init__.py":
            package = package[:-1]
        package = package[: len(package) - (level - 1)] if level > 1 else package
        return ".".join([*package, name] if name else package)

    def resolve_module(self, name: str, level: int, importer: ModuleInfo) -> ModuleInfo | None:
        """The local module a dotted import names, read and walked; None when it is not local."""
        parts = [p for p in name.split(".") if p]
        if level == 0:
            if not parts or never_local(name) or self._sdk_at_home(parts[0], importer):
                return None
            bases = self.roots.for_folder(importer.path.parent)
        else:
            if never_local(self.absolute_name(name, level, importer)):
                return None  # the framework's own source importing itself: its APIs, not helpers
            base = importer.path.parent
            for _ in range(level - 1):
                base = base.parent
            bases = [base]
        for base in bases:
            found = self.roots.find(base, parts)
            if found is None:
                continue
            if found.resolve() == importer.path:
                # `from . import x` in a package's own __init__.py names the package: its own
                # names, then its submodules (whose import Python makes then), all local. Any
                # other way of naming a module from itself is left to the module as it is.
                return importer if level and not parts else None
            module_name = self.absolute_name(name, level, importer) if level else name
            return self._load_local(found, module_name)
        if level:
            log.debug(
                "%s: %s cannot be resolved: the module is not there (coverage unproven)",
                importer.display,
                "." * level + name,
            )
        return None

    def _sdk_at_home(self, top: str, importer: ModuleInfo) -> bool:
        """Is `top` a model SDK's package and this its own repository (openai-agents-python's
        Temporal examples calling `Runner.run`)? Then it is the SDK the catalog describes."""
        published = self.catalog.repositories.get(top)
        if not published:
            return False
        return not published.isdisjoint(published_names(importer.path.parent))

    def _load_local(self, path: Path, name: str) -> ModuleInfo | None:
        key = path.resolve()
        if key in self.modules:
            found = self.modules[key]
            if found is not None:
                self._closes_cycle(found)
            return found
        try:
            source = path.read_bytes()
            if len(source) > self.max_module_size:
                raise ParseFailure(f"{len(source):,} bytes, over the max-module-size", 1)
            if stacks.depth() > _NESTED_LOAD_DEPTH:
                # Each local import loads its module inside the importer's walk: far down a
                # long chain, go on from an empty stack rather than run out of recursion.
                load = partial(self.load, path, source, name=name)
                return stacks.on_fresh_stack(load, 64 * stacks.MIB, "replaylint-load")
            return self.load(path, source, name=name)
        except (OSError, ParseFailure) as error:
            self.helper_failed(path, name, error)
            return None

    def helper_failed(self, path: Path, name: str, error: OSError | ParseFailure) -> None:
        """An imported local module that cannot be read or parsed: ADK-E001 on it, and the
        modules that import it are not fully checked (coverage unproven); the rest goes on."""
        key = path.resolve()
        self.modules[key] = None
        self.broken[name] = key
        if isinstance(error, ParseFailure):
            reason, line, column = error.reason, error.line, error.column
        else:
            reason, line, column = f"cannot read: {error.strerror or error}", 1, 0
        self.broken_reasons[key] = (display_path(path), reason, line, column)

    def installed_chain(self, path: str) -> tuple[ChainLink, ...]:
        """Hops (path, line, call) by which a followed installed function reaches a root."""
        if self.installed is None:
            return ()
        qualified = path.replace("().", ".")  # a method reached through an instance
        found = self._installed_chains.get(qualified)
        if found is None:
            found = ()
            if self.installed.follows(qualified):
                steps = self.installed.chain(qualified)
                found = tuple(replace(s, path=_shown(s.path)) for s in steps or ())
            self._installed_chains[qualified] = found
        return found

    def registered(self, info: FunctionInfo, by: ModuleInfo) -> None:
        if info.module is not by:
            self.touched.append(info)

    def replayed(self, framework: str, module: ModuleInfo) -> bool:
        preset = self.frameworks.get(framework)
        return preset is None or replayed(preset, module)

    def activity_kind(self, decorators: Iterable[str]) -> str | None:
        for path in decorators:
            if path in self.catalog.recorded_activities:
                return "recorded"
            if path in self.extra_activities or path.replace("()", "") in self.extra_activities:
                # Declared in the configuration: the project's own recorder (a method of an
                # instance is declared by its class: `acme.Engine.task` for `@engine.task`).
                return "recorded"
            if inline_activity(path):
                return "inline"
        return None

    def declared_safe(self, function: FunctionInfo) -> bool:
        """A helper the configuration declares deterministic (`safe = ["app.clock.now_utc"]`)."""
        return bool(self.safe) and f"{function.module.name}.{function.qualname}" in self.safe

    def safe_paths(self, module: ModuleInfo) -> frozenset[str]:
        return self.frameworks.safe_paths(module.frameworks)


def module_key(path: Path) -> Path:
    """How the project names a module's file: its real path (a buffer's name as given when
    there is no file, as for an editor's unsaved module)."""
    return path.resolve() if path.exists() else path


def project_for(config: Config) -> Project:
    """A Project with a configuration's markers, catalog additions, safe names and presets."""
    catalog = default_catalog()
    if config.unsafe or config.safe:
        unsafe = {CATEGORY_OF[code]: names for code, names in config.unsafe.items()}
        catalog = catalog.extend(unsafe, config.safe)
    return Project(
        catalog,
        markers=frozenset({MARKER, *config.markers}),
        activity_decorators=config.activity_decorators,
        safe=frozenset(config.safe),
        frameworks=Frameworks(config.frameworks, config.workflow_decorators, config.workflow_bases),
        max_module_size=config.max_module_size,
        roots=Roots(tuple(Path(config.base, root).resolve() for root in config.src)),
        installed=_followed(config, catalog),
        target=config.target_version,
    )


def _followed(config: Config, catalog: Catalog) -> Installed | None:
    """The installed packages `follow` names, read with astroid (imported only then)."""
    if not config.follow:
        return None
    from replaylint.installed import Installed

    return Installed(config.follow, catalog)


def _shown(path: str) -> str:
    """An installed file as reports show it: relative when under the working directory."""
    shown = display_path(path)
    return path if shown.startswith("../") else shown
