"""The evaluator's facts: what it emits where a rule can decide, and only what a rule subscribes to."""

from __future__ import annotations

from pathlib import Path

from replaylint.engine.project import Project
from replaylint.resolve import facts
from replaylint.resolve.facts import (
    BuiltinCall,
    Call,
    Fact,
    Import,
    Iteration,
    MethodCall,
    Reference,
    Store,
    Unfoldable,
)
from replaylint.resolve.values import SetOf

ALL_FACTS = frozenset(
    {Call, Reference, Unfoldable, Iteration, Store, MethodCall, BuiltinCall, Import}
)

SOURCE = b"""\
import functools
import time
import random as rng

__adk_workflow__ = True
COUNTS = {}
started = 0


class Run:
    limit = 3

    def __init__(self):
        self.seen = []

    def step(self, name):
        global started
        started = time.time()
        self.seen = [name]
        Run.limit = 4
        type(self).limit += 1
        COUNTS[name] = 1
        local = rng.random()
        for tag in {"a", "b"}:
            print(tag)
        names = sorted(n for n in {1, 2} | set(self.seen))
        COUNTS.setdefault(name, []).append(hash(name))
        functools.partial(time.monotonic)
        getattr(time, name)()
        return local
"""


class Recorder:
    def __init__(self, subscribed: frozenset[type[Fact]]) -> None:
        self.subscribed = subscribed
        self.seen: list[Fact] = []

    def emit(self, fact: Fact) -> None:
        assert type(fact) in self.subscribed, f"{type(fact).__name__} built but not subscribed"
        self.seen.append(fact)


def walk(tmp_path: Path, subscribed: frozenset[type[Fact]]) -> list[Fact]:
    sink = Recorder(subscribed)
    path = tmp_path / "wf.py"
    path.write_bytes(SOURCE)
    Project(sink=sink).load(path, SOURCE)
    return sink.seen


def of(kind: type[Fact], seen: list[Fact]) -> list:
    """The facts of one kind, one per node: a module whose functions rebind a global has its
    bodies walked twice (so every body sees the final binding), and emits their facts again."""
    unique: dict[int, Fact] = {}
    for fact in seen:
        if type(fact) is kind:
            unique[id(fact.node)] = fact
    return list(unique.values())


def test_calls_carry_the_resolved_path_and_what_the_catalog_says(tmp_path: Path) -> None:
    calls = {fact.path: fact for fact in of(Call, walk(tmp_path, ALL_FACTS))}
    assert calls["time.time"].entry.category == "clock"
    assert calls["time.time"].call == "time.time"
    assert calls["random.random"].entry.category == "randomness"
    assert calls["random.random"].call == "rng.random"  # as written, through the alias
    assert calls["functools.partial"].entry is None  # a safe call is a fact too; no rule reports it


def test_a_root_handed_on_is_a_reference(tmp_path: Path) -> None:
    [reference] = of(Reference, walk(tmp_path, ALL_FACTS))
    assert (reference.path, reference.call, reference.entry.category) == (
        "time.monotonic",
        "time.monotonic",
        "clock",
    )


def test_stores_say_whose_state_they_write(tmp_path: Path) -> None:
    stores = [(f.name, f.binding) for f in of(Store, walk(tmp_path, ALL_FACTS))]
    assert ("started", facts.MODULE) in stores  # `global started` inside a method
    assert ("seen", facts.INSTANCE) in stores
    assert ("limit", facts.CLASS) in stores  # `Run.limit = 4` and the class body
    assert [f.binding for f in of(Store, walk(tmp_path, ALL_FACTS)) if f.name == "limit"] == [
        facts.CLASS,  # `limit = 3` in the class body
        facts.CLASS,  # `Run.limit = 4`
        facts.CLASS,  # `type(self).limit += 1`: the instance's class
    ]
    assert ("COUNTS", facts.MODULE) in stores  # `COUNTS[name] = 1` writes module state
    assert ("local", facts.LOCAL) in stores
    assert ("tag", facts.LOCAL) in stores


def test_iterations_unfoldable_accesses_and_imports(tmp_path: Path) -> None:
    seen = walk(tmp_path, ALL_FACTS)
    loop, generator = of(Iteration, seen)
    assert isinstance(loop.value, SetOf) and loop.value.hash_ordered  # a set of strings
    assert (loop.within, loop.consumer) == ("for", "")
    assert isinstance(generator.value, SetOf) and generator.value.hash_ordered  # `|` unknowns
    assert (generator.within, generator.consumer) == ("generator", "builtins.sorted")
    [unfoldable] = of(Unfoldable, seen)
    assert unfoldable.text == "getattr(time, name)"
    assert [f.edge.module for f in of(Import, seen)] == ["functools", "time", "random"]


def test_method_and_builtin_calls_carry_values_and_whose_state(tmp_path: Path) -> None:
    seen = walk(tmp_path, ALL_FACTS)
    methods = {(f.method, f.binding) for f in of(MethodCall, seen)}
    assert ("setdefault", facts.MODULE) in methods  # called on COUNTS, a module-level dict
    assert ("append", facts.LOCAL) in methods  # on what setdefault returned: not a name
    builtins = {f.name: f.args for f in of(BuiltinCall, seen)}
    assert set(builtins) == {"sorted", "set", "hash", "print", "getattr", "type"}
    assert [type(arg).__name__ for arg in builtins["set"]] == ["Seq"]  # self.seen, a list
    assert [type(arg).__name__ for arg in builtins["hash"]] == ["Unknown"]  # a parameter


def test_facts_sit_where_they_happen(tmp_path: Path) -> None:
    calls = {fact.path: fact for fact in of(Call, walk(tmp_path, ALL_FACTS))}
    site = calls["time.time"].site
    assert site.function.qualname == "Run.step"
    assert site.governed and not site.dead


def test_a_global_rebound_in_a_body_walks_the_bodies_again(tmp_path: Path) -> None:
    seen = walk(tmp_path, frozenset({Call}))
    assert [f.path for f in seen].count("time.time") == 2


def test_only_subscribed_facts_are_built(tmp_path: Path) -> None:
    # The recorder fails on any fact of another type: the walk checks before it builds one.
    assert {type(f) for f in walk(tmp_path, frozenset({Store}))} == {Store}
    assert walk(tmp_path, frozenset()) == []
