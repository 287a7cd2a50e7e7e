"""replaylint: keeps durable-workflow code replay safe; the small public API lives here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["Finding", "ReplayReport", "__version__", "guard", "guard_source"]

if TYPE_CHECKING:
    from replaylint.api import ReplayReport, guard, guard_source
    from replaylint.findings import Finding


def __getattr__(name: str) -> Any:
    # Lazy so that `import replaylint.workflows` never pulls in libcst or click.
    if name in ("guard", "guard_source", "ReplayReport"):
        from replaylint import api

        return getattr(api, name)
    if name == "Finding":
        from replaylint.findings import Finding

        return Finding
    raise AttributeError(f"module 'replaylint' has no attribute {name!r}")
