"""The framework presets: one record per framework, and the questions the analysis asks of them."""
