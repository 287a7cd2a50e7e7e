"""How a replay finds its commands again, on skeletons built by hand: the end of a run's history
(fresh-tail) inside branches, loops and try blocks; kinds numbered apart; keys matched by the
work they do."""

from __future__ import annotations

from replaylint.presets.patterns import Patterns
from replaylint.presets.versioning_parts import Versioning
from replaylint.versioning.matching import differences
from replaylint.versioning.model import Block, Branches, DurableCommand, Guarded, Loop, Where

DEF = Where("flow.py", 1)


def cmd(kind: str, target: str = "", line: int = 0, work: str = "") -> DurableCommand:
    return DurableCommand(kind, target, Where("flow.py", line), work)


def found(base: Block, new: Block, facts: Versioning) -> list[tuple[str, int, str]]:
    return [(d.code, d.where.line, d.detail) for d in differences(base, new, DEF, facts)]


POSITIONAL = Versioning("patching", fresh_tail=True)
PLAIN = Versioning("patching")


def test_an_append_is_fresh_only_after_everything_of_the_base() -> None:
    one, two = cmd("activity", "a", 2), cmd("activity", "b", 3)
    assert found((one,), (one, two), POSITIONAL) == []
    assert found((one,), (one, two), PLAIN) == [
        ("V001", 3, "was: nothing (the workflow ends), now: activity b")
    ]
    # In the last branch too; never in a loop, whose next turn follows the addition.
    arms = lambda *cmds: Branches(((cmds), ()), Where("flow.py", 2))  # noqa: E731
    assert found((arms(one),), (arms(one, two),), POSITIONAL) == []
    looped = (Loop((one,)),), (Loop((one, two)),)
    assert found(*looped, POSITIONAL) == [("V001", 3, "was: activity a, now: activity b")]
    # Not before a command of the base that follows it, nor in a try's body before its final.
    three = cmd("activity", "c", 4)
    assert found((arms(one), two), (arms(one, three), two), POSITIONAL) == [
        ("V001", 4, "was: activity b, now: activity c")
    ]
    # The same command as the one that follows: a replay meets what the base recorded.
    assert found((arms(one), two), (arms(one, two), two), POSITIONAL) == []
    guarded = Guarded((one,), (), (cmd("timer", line=4),))
    grown = Guarded((one, two), (), (cmd("timer", line=4),))
    assert found((guarded,), (grown,), POSITIONAL) == [("V001", 3, "was: timer, now: activity b")]


def test_argument_code_tells_an_insertion_from_an_append() -> None:
    ask = cmd("interrupt", line=2, work="'ship?'")
    extra = cmd("interrupt", line=2, work="'gift wrap?'")
    moved = cmd("interrupt", line=3, work="'ship?'")
    assert found((ask,), (extra, moved), POSITIONAL) == [
        ("V001", 2, "was: interrupt, now: interrupt")
    ]
    # A changed question alone is the same interrupt.
    assert found((ask,), (extra,), POSITIONAL) == []


def test_kinds_numbered_apart_keep_their_index_across_the_others() -> None:
    facts = Versioning("patching", apart=frozenset({"interrupt"}), fresh_tail=True)
    task, ask = cmd("task", "reserve", 2), cmd("interrupt", line=3, work="'ok?'")
    assert found((task, ask), (ask, task), facts) == []
    assert found((task, ask), (task,), facts) == [
        ("V001", 1, "was: interrupt, now: nothing (the workflow ends)")
    ]


def test_a_key_is_renamed_only_under_the_same_work() -> None:
    facts = Versioning("patching", keyed=frozenset({"step", "sleep"}))
    charge = cmd("step", "charge", 2, "charge_card, order")
    renamed = cmd("step", "charge-card", 2, "charge_card, order")
    replaced = cmd("step", "bill", 2, "bill_card, order")
    assert found((charge,), (renamed,), facts) == [
        ("V001", 2, "was: step charge, now: step charge-card")
    ]
    assert found((charge,), (replaced,), facts) == []
    assert found((charge,), (cmd("sleep", "charge", 3),), facts) == [
        ("V001", 3, "was: step charge, now: sleep charge")
    ]
    # Keys built at run time are not judged.
    assert found((cmd("step", "", 2, "x"),), (cmd("step", "", 2, "y"),), facts) == []


def test_a_gate_nothing_retires_is_removed_while_runs_replay_through_it() -> None:
    from replaylint.versioning.model import Gate

    gate = Gate("fast", (cmd("activity", "a", 3),), (), Where("flow.py", 2))
    dapr = Versioning("patching", gates=Patterns(("x",)))
    temporal = Versioning("patching", gates=Patterns(("x",)), deprecations=Patterns(("y",)))
    new = (cmd("activity", "a", 3),)
    assert (
        found((gate,), new, dapr)[0][2]
        == "patch fast removed while runs in flight may still replay through it"
    )
    assert found((gate,), new, temporal)[0][2] == "patch fast removed without deprecate_patch"
