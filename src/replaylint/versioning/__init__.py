"""Versioning safety (`check --base REF`): each workflow compared with its version at a git ref.

`check_against(base, paths, resolver)` returns a `Versioned` (findings, errors): what the
command line adds to its report with `--base`, and what an editor can ask for one file.
"""

from replaylint.versioning.check import Comparison, Versioned, add_comparison, check_against

__all__ = ["Comparison", "Versioned", "add_comparison", "check_against"]
