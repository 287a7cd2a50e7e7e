"""`--output-format json-lines`: one json@2 finding object per line, nothing else."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from replaylint.reporters.json import finding_dict

if TYPE_CHECKING:
    from replaylint.core.findings import Report


def render(report: Report) -> str:
    return "".join(
        json.dumps(finding_dict(f), separators=(",", ":")) + "\n" for f in report.findings
    )
