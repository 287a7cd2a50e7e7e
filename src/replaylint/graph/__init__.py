"""Cross-function and cross-module facts: unsafe helpers and import-edge coverage."""
