"""The subset of .gitignore semantics a linter's file walk needs: globs, `**`, `/` anchors,
trailing `/` for directories and `!` negation, one file per directory, nearest wins."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
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


def parse(text: str) -> list[Rule]:
    rules = []
    for raw in text.splitlines():
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
        regex = re.compile(("" if anchored else "(?:.*/)?") + body + "$")
        rules.append(Rule(regex, negated, directory_only))
    return rules


class IgnoreStack:
    """The .gitignore files in force at one point of a walk, outermost first."""

    def __init__(self, layers: list[tuple[str, list[Rule]]] | None = None) -> None:
        self.layers = layers or []

    def entering(self, directory: str) -> "IgnoreStack":
        path = os.path.join(directory, ".gitignore")
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                rules = parse(handle.read())
        except OSError:
            return self
        return IgnoreStack([*self.layers, (directory, rules)]) if rules else self

    def ignored(self, path: str, is_dir: bool) -> bool:
        verdict = False
        for base, rules in self.layers:
            relative = os.path.relpath(path, base).replace(os.sep, "/")
            if relative.startswith(".."):
                continue
            for rule in rules:
                if rule.directory_only and not is_dir:
                    continue
                if rule.regex.match(relative):
                    verdict = not rule.negated
        return verdict


def stack_for(directory: str) -> IgnoreStack:
    """The .gitignore files from the repository's top down to `directory` (none outside git)."""
    absolute = os.path.abspath(directory)
    chain = []
    current = absolute
    while True:
        chain.append(current)
        if os.path.exists(os.path.join(current, ".git")):
            break
        parent = os.path.dirname(current)
        if parent == current:
            return IgnoreStack()  # not inside a git repository
        current = parent
    stack = IgnoreStack()
    for folder in reversed(chain):
        stack = stack.entering(folder)
    return stack
