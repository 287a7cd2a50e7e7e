"""The command line: options to settings, reports to the terminal or a file; no analysis."""

from replaylint.core.compiled_methods import keep_compiled_methods

# Before any dataclass is created: the command's own classes, LibCST's nodes when it parses.
keep_compiled_methods()
