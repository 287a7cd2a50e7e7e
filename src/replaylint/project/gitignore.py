"""The subset of .gitignore semantics a linter's file walk needs: globs, `**`, `/` anchors,
trailing `/` for directories and `!` negation, one file per directory, nearest wins. Pure: the
walk in discovery.py finds and reads the files."""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass

from replaylint.parse.quiet import quiet

log = logging.getLogger("replaylint")


@dataclass(frozen=True)
class IgnoreRule:
    regex: re.Pattern[str]
    negated: bool
    directory_only: bool


def _translate(pattern: str) -> str:
    out = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("/**", i) and i + 3 == len(pattern):
            out.append("/.*")
            i += 3
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = pattern.find("]", i + 1)
            if end == -1:
                out.append(re.escape(char))
            else:
                body = pattern[i + 1 : end].replace("\\", "\\\\")
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = end
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


def parse(text: str, source: str = ".gitignore") -> list[IgnoreRule]:
    """The rules of one file (`source` names it in debug output). A pattern that makes no
    valid regex, such as `[z-a]`, is dropped with a reason: git matches nothing with it."""
    rules = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        if negated:
            line = line[1:]
        directory_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        line = line.lstrip("/")
        body = _translate(line)
        try:
            # `[[` or `--` in a class: a FutureWarning about set syntax, not a problem here.
            with quiet(FutureWarning):
                regex = re.compile(("" if anchored else "(?:.*/)?") + body + "$")
        except re.error as error:
            log.debug("%s:%d: pattern ignored: %s", source, number, error)
            continue
        rules.append(IgnoreRule(regex, negated, directory_only))
    return rules


class IgnoreStack:
    """The .gitignore files in force at one point of a walk, outermost first."""

    def __init__(self, layers: list[tuple[str, list[IgnoreRule]]] | None = None) -> None:
        self.layers = layers or []

    def entering(self, directory: str, rules: list[IgnoreRule]) -> IgnoreStack:
        """The stack inside `directory`, whose .gitignore holds `rules`."""
        return IgnoreStack([*self.layers, (directory, rules)]) if rules else self

    def ignored(self, path: str, is_dir: bool) -> bool:
        verdict = False
        for base, rules in self.layers:
            # The walk builds each path from its folder's, so the folder is a plain prefix;
            # relpath (two abspaths and a common-prefix scan per call) only when it is not.
            prefix = base if base.endswith(os.sep) else base + os.sep
            if path.startswith(prefix):
                relative = path[len(prefix) :].replace(os.sep, "/")
            else:
                relative = os.path.relpath(path, base).replace(os.sep, "/")
            if relative == ".." or relative.startswith("../"):  # outside; "..x" is inside
                continue
            for rule in rules:
                if rule.directory_only and not is_dir:
                    continue
                if rule.regex.match(relative):
                    verdict = not rule.negated
        return verdict
