"""The dataclass methods kept across processes (core/compiled_methods.py), installed by the
command line: classes behave as compiled afresh, the file is written once and then reused, and a
damaged or unwritable file only costs the compile."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

# A child process: installs the hook with the given file, creates dataclasses of every kind of
# generated method, and prints what they do and how many texts it had to compile.
_CHILD = textwrap.dedent(
    """
    import dataclasses, sys
    from pathlib import Path
    from replaylint.core import compiled_methods

    kept = compiled_methods.keep_compiled_methods(Path(sys.argv[1])) if sys.argv[1] != "-" else None

    @dataclasses.dataclass(frozen=True, order=True)
    class Point:
        x: int
        y: int = 2
        tags: tuple = dataclasses.field(default_factory=tuple)

    @dataclasses.dataclass(eq=False)
    class Box:
        item: "Point"

    @dataclasses.dataclass(slots=True, kw_only=True)
    class Tagged:
        point: Point
        seed: dataclasses.InitVar[int] = 1
        seen: int = dataclasses.field(init=False, default=0)

        def __post_init__(self, seed):
            self.seen = seed * 2

    def local():
        @dataclasses.dataclass
        class Inner:
            values: "list[int]"
        return Inner

    a, b = Point(1), Point(1, 3, ("t",))
    print(repr(a), repr(b), a == Point(1), a < b, hash(a) == hash(Point(1)))
    print(Point.__init__.__annotations__, Box(a) == Box(a), Box.__init__.__defaults__)
    try:
        a.x = 5
    except dataclasses.FrozenInstanceError as error:
        print("frozen", error)
    import inspect
    tagged, inner = Tagged(point=a, seed=4), local()([1])
    print(repr(tagged), tagged.seen, Tagged.__slots__, inspect.signature(Tagged.__init__))
    print(repr(inner), type(inner).__init__.__qualname__, inspect.signature(type(inner)))
    if kept is not None:
        print("compiled", kept.added)
    """
)


def _child(file: str, tmp_path: Path) -> list[str]:
    script = tmp_path / "child.py"
    script.write_text(_CHILD)
    done = subprocess.run(
        [sys.executable, str(script), file], capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()


def test_classes_behave_as_compiled_afresh_and_the_file_is_reused(tmp_path: Path) -> None:
    plain = _child("-", tmp_path)
    folder = tmp_path / "kept"
    first = _child(str(folder), tmp_path)
    second = _child(str(folder), tmp_path)
    assert first[:5] == plain == second[:5]
    assert plain[0] == "Point(x=1, y=2, tags=()) Point(x=1, y=3, tags=('t',)) True True True"
    assert plain[2] == "frozen cannot assign to field 'x'"
    # Every text the first process compiled was written and the second compiled none.
    assert plain[3] == (
        "Tagged(point=Point(x=1, y=2, tags=()), seen=8) 8 ('point', 'seen') "
        "(self, *, point: __main__.Point, seed: dataclasses.InitVar[int] = 1) -> None"
    )
    assert plain[4] == (
        "local.<locals>.Inner(values=[1]) local.<locals>.Inner.__init__ "
        "(values: 'list[int]') -> None"
    )
    assert first[5] != "compiled 0"
    assert second[5] == "compiled 0"
    # One file per module whose classes the texts make: the child's own, and dataclasses' own
    # when it creates a class of its own (none here).
    assert sorted(p.name for p in folder.iterdir()) == ["__main__.marshal"]
    table = marshal.loads((folder / "__main__.marshal").read_bytes())
    assert all(isinstance(text, str) and "def __create_fn__" in text for text in table)
    assert (folder / "__main__.marshal").stat().st_mode & 0o777 == 0o644


def test_a_damaged_file_is_compiled_afresh_and_written_again(tmp_path: Path) -> None:
    kept_file = tmp_path / "__main__.marshal"
    kept_file.write_bytes(b"\x00not marshal")
    lines = _child(str(tmp_path), tmp_path)
    assert lines[5] != "compiled 0"
    assert isinstance(marshal.loads(kept_file.read_bytes()), dict)
    assert _child(str(tmp_path), tmp_path)[5] == "compiled 0"


def test_a_file_that_cannot_be_written_costs_only_the_compile(tmp_path: Path) -> None:
    # Its folder's place is taken by a file: mkdir fails whoever runs the test.
    (tmp_path / "taken").write_text("")
    lines = _child(str(tmp_path / "taken" / "kept"), tmp_path)
    assert lines[0].startswith("Point(x=1, y=2")
    assert lines[5] != "compiled 0"


def test_the_command_line_installs_it_before_its_own_classes() -> None:
    probe = (
        "import dataclasses, replaylint.cli, replaylint.core.findings;"
        "print(getattr(dataclasses, 'exec', None) is not None)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.strip() == "True"
    quiet = "import dataclasses, replaylint.api; print(getattr(dataclasses, 'exec', None))"
    done = subprocess.run([sys.executable, "-c", quiet], capture_output=True, text=True)
    assert done.stdout.strip() == "None"  # the library API leaves its caller's process alone


_WORKER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from replaylint.core import compiled_methods
    from replaylint.index.pools import pool_context
    from replaylint.index.workers import Workers

    compiled_methods.keep_compiled_methods(Path(sys.argv[1]))
    import maker

    workers = Workers(1, pool_context())
    with workers:
        workers.submit(0, maker.make)
        print(list(workers.results()))
    """
)
_MAKER = "import dataclasses\n\ndef make():\n    return repr(dataclasses.dataclass(type('Late', (), {'__annotations__': {'x': int}}))(1))\n"


def test_a_worker_writes_what_it_compiled_though_its_exit_runs_no_hook(tmp_path: Path) -> None:
    (tmp_path / "maker.py").write_text(_MAKER)
    (tmp_path / "main.py").write_text(_WORKER)
    folder = tmp_path / "kept"
    done = subprocess.run(
        [sys.executable, "main.py", str(folder)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "[(0, 'Late(x=1)')]"
    # Only the worker made a class: the table of the module that made it is its work.
    assert sorted(p.name for p in folder.iterdir()) == ["maker.marshal"]
    assert all(
        "def __create_fn__" in t for t in marshal.loads((folder / "maker.marshal").read_bytes())
    )


def test_what_a_killed_writer_left_is_swept_by_the_next_write(tmp_path: Path) -> None:
    folder = tmp_path / "kept"
    folder.mkdir()
    stale, fresh = folder / ".methods-stale", folder / ".methods-fresh"
    stale.write_bytes(b"")
    fresh.write_bytes(b"")  # a writer at work now: left alone
    os.utime(stale, (time.time() - 3600, time.time() - 3600))
    _child(str(folder), tmp_path)
    assert sorted(p.name for p in folder.iterdir()) == [".methods-fresh", "__main__.marshal"]
