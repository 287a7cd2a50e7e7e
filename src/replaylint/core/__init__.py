"""The vocabulary every layer shares: rule codes, findings, a run's outcome, rule pages."""
