"""Imports, static and dynamic: what each binds, and the module's import edges."""

from __future__ import annotations

from pathlib import Path

import libcst as cst

from replaylint.resolve import folds
from replaylint.resolve.facts import Import
from replaylint.resolve.model import ImportEdge, LocalModule, ModuleInfo
from replaylint.resolve.values import UNKNOWN, Const, Ext, Seq, Value
from replaylint.resolve.walker import Walker


class Imports(Walker):
    def _broken(self, name: str, local: ModuleInfo | None) -> Path | None:
        return self.project.broken.get(name) if local is None else None

    def _edge(self, edge: ImportEdge) -> None:
        self.m.imports.append(edge)
        if Import in self.wants:
            self.sink.emit(Import(edge.node, self.site(), edge))

    def _import(self, node: cst.Import) -> None:
        for alias in node.names:
            name = folds.dotted(alias.name) or ""
            local = self.project.resolve_module(name, 0, self.m)
            self._edge(ImportEdge(name, node, local, broken=self._broken(name, local)))
            if alias.asname is not None:
                declared = self.catalog.declared_unsafe(name)
                value: Value = (
                    LocalModule(local) if local is not None and not declared else Ext(name)
                )
                self._bind(alias.asname.name, value)
            else:
                top = name.split(".")[0]
                top_local = local if top == name else self.project.resolve_module(top, 0, self.m)
                self.scope.names[top] = (
                    LocalModule(top_local) if top_local is not None else Ext(top)
                )

    def _import_from(self, node: cst.ImportFrom) -> None:
        level = len(node.relative)
        name = folds.dotted(node.module) if node.module is not None else ""
        if name == "__future__":
            return
        absolute = self.project.absolute_name(name or "", level, self.m)
        local = self.project.resolve_module(name or "", level, self.m) if (name or level) else None
        broken = self._broken(absolute, local)
        self._edge(ImportEdge(absolute, node, local, relative=level > 0, broken=broken))
        if isinstance(node.names, cst.ImportStar):
            self._import_star(node, absolute, local)
            return
        for alias in node.names:
            member = (
                alias.name.value
                if isinstance(alias.name, cst.Name)
                else folds.dotted(alias.name) or ""
            )
            bound = alias.asname.name if alias.asname is not None else alias.name
            declared = f"{absolute}.{member}" if absolute else member
            value: Value | None
            if local is not None and self.catalog.declared_unsafe(declared):
                value = Ext(declared)  # the project's own API, declared unsafe: not read
            elif local is not None:
                value = local.exports.get(member)
                if value is None:
                    value = self._submodule(node, name or "", absolute, member, level)
                    if (
                        value is UNKNOWN
                        and isinstance(bound, cst.Name)
                        and self.project.loading(local)
                    ):
                        # An import cycle entered at `local`: Python would bind `member` in the
                        # order the program imports its modules, where `local` runs first. The
                        # bodies here are walked once it has run (engine/project.py).
                        self.late_imports.append((self.scope, bound.value, local, member))
            else:
                value = Ext(f"{absolute}.{member}" if absolute else member)
            if isinstance(bound, cst.Name):
                self.scope.names[bound.value] = value

    def _submodule(
        self, node: cst.ImportFrom, name: str, absolute: str, member: str, level: int
    ) -> Value:
        """`from package import member` where the package binds no `member`: its submodule."""
        sub = self.project.resolve_module(f"{name}.{member}" if name else member, level, self.m)
        submodule = f"{absolute}.{member}"
        if sub is None and submodule in self.project.broken:
            self._edge(ImportEdge(submodule, node, None, broken=self._broken(submodule, None)))
        return LocalModule(sub) if sub is not None else UNKNOWN

    def bind_late_imports(self) -> None:
        """Names imported from a module of an import cycle before it bound them, bound to what
        it bound once loaded (unless rebound since)."""
        for scope, name, module, member in self.late_imports:
            value = module.exports.get(member)
            if value is not None and scope.names.get(name) is UNKNOWN:
                scope.names[name] = value
        self.late_imports.clear()

    def _import_star(self, node: cst.ImportFrom, absolute: str, local: ModuleInfo | None) -> None:
        if local is not None:
            self.scope.names.update(
                {k: v for k, v in local.exports.items() if not k.startswith("_")}
            )
            return
        if self.frameworks.is_framework_path(absolute):
            # `from temporalio.workflow import *`: a name bound nowhere else is the framework's.
            self.star_frameworks.append(absolute)
        if self.catalog.has_members(absolute):
            self._unfoldable(node)
            prefix = absolute + "."
            for name in self.catalog.calls:
                if name.startswith(prefix) and "." not in name[len(prefix) :]:
                    self.scope.names[name[len(prefix) :]] = Ext(name)

    def _dynamic_import(self, node: cst.Call, path: str, args: list[Value]) -> Value:
        name = folds.str_const(args[0]) if args else None
        keywords = {
            arg.keyword.value: value
            for arg, value in zip(node.args, args, strict=True)
            if arg.keyword is not None
        }
        package = keywords.get("package") or (
            args[1] if len(args) > 1 and path == "importlib.import_module" else None
        )
        if name is not None and name.startswith(".") and path == "importlib.import_module":
            base = folds.str_const(package) if package is not None else None
            name = f"{base}{name}" if base else None
        if name is None:
            self._edge(ImportEdge("", node, dynamic=True))
            self._unfoldable(node)
            return UNKNOWN
        self._edge(ImportEdge(name, node, self.project.resolve_module(name, 0, self.m)))
        # __import__("a.b") returns the top package unless a fromlist is given.
        fromlist = keywords.get("fromlist") or (
            args[3] if len(args) >= 4 and node.args[3].keyword is None else None
        )
        top_only = path != "importlib.import_module" and (
            fromlist is None
            or (isinstance(fromlist, Const) and not fromlist.value)
            or (isinstance(fromlist, Seq) and not fromlist.items)
        )
        return self._module_value(name, node, top_only=top_only)

    def _module_value(self, name: str, node: cst.CSTNode, top_only: bool) -> Value:
        if top_only:
            name = name.split(".")[0]
        local = self.project.resolve_module(name, 0, self.m)
        return LocalModule(local) if local is not None else Ext(name)
