"""The command line: options to settings, reports to the terminal or a file; no analysis."""
