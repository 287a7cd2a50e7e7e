"""replaylint: keeps durable-workflow code replay safe; the small public API lives here."""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported: a re-run may be answered before it

__all__ = ["Finding", "ReplayReport", "__version__", "guard", "guard_source"]

if TYPE_CHECKING:
    from typing import Any

    from replaylint.api import guard, guard_source
    from replaylint.core.findings import Finding
    from replaylint.report.replay_report import ReplayReport
    from replaylint.version import __version__


def __getattr__(name: str) -> Any:
    # Lazy, so that `import replaylint.workflows` loads nothing of the linter (not even this).
    if name == "__version__":
        from replaylint.version import __version__

        return __version__
    if name in ("guard", "guard_source", "ReplayReport"):
        from replaylint import api

        return getattr(api, name)
    if name == "Finding":
        from replaylint.core.findings import Finding

        return Finding
    raise AttributeError(f"module 'replaylint' has no attribute {name!r}")
