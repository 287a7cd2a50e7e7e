"""Generated programs (hypothesmith, from Python's grammar) never crash a check.

Derandomized, so every run tries the same programs and a failure reproduces; bench/fuzz.py runs
many more with fresh seeds and reports counts.
"""

from __future__ import annotations

import hypothesmith
from hypothesis import HealthCheck, given, settings

from replaylint import guard_source
from replaylint.core.codes import Code

MARKER = "__adk_workflow__ = True\n"


@settings(
    max_examples=150,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(hypothesmith.from_grammar())
def test_a_generated_module_is_checked_or_reported_never_crashes(source: str) -> None:
    for text in (MARKER + source, source + "\n" + MARKER):
        report = guard_source(text, source="generated.py")
        assert report.errors == ()  # an internal error would be a line here
        assert report.exit_code in (0, 1)
        assert all(isinstance(f.code, Code) and f.line >= 1 for f in report.findings)
