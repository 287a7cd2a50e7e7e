"""A definition's body cut from its module's lines: the same body reads the same wherever it is
indented (a method moved to module level), and any change to it shows."""

from __future__ import annotations

import textwrap
from pathlib import Path

import libcst as cst

from replaylint.engine.project import Project
from replaylint.resolve.model import ModuleInfo
from replaylint.versioning.bodies import Bodies

SOURCE = """
class Checkout:
    def run(self, order):
        # the order first
        charge(order)

        return order

    def approve(self): return True


def run(self, order):
    # the order first
    charge(order)

    return order
# a comment that belongs to what follows


def last(order):
    return order.upper()
"""


def _definitions(tmp_path: Path) -> tuple[Bodies, ModuleInfo, dict[str, cst.CSTNode]]:
    path = tmp_path / "flows.py"
    source = textwrap.dedent(SOURCE).lstrip().encode()
    path.write_bytes(source)
    module = Project().load(path, source)
    checkout = next(c for c in module.classes if c.name == "Checkout")
    found = {f.qualname: f.node for f in module.functions}
    found["Checkout"] = checkout.node
    return Bodies(), module, found


def test_a_body_reads_the_same_at_any_indentation(tmp_path: Path) -> None:
    bodies, module, found = _definitions(tmp_path)
    method = bodies.text(module, found["Checkout.run"])
    assert method == "# the order first\ncharge(order)\n\nreturn order"
    assert bodies.text(module, found["run"]) == method
    assert bodies.text(module, found["last"]) == "return order.upper()"


def test_a_one_line_body_and_a_class_body(tmp_path: Path) -> None:
    bodies, module, found = _definitions(tmp_path)
    assert bodies.text(module, found["Checkout.approve"]).strip() == "return True"
    whole = bodies.text(module, found["Checkout"])
    assert whole.startswith("def run(self, order):") and whole.endswith(
        "def approve(self): return True"
    )
