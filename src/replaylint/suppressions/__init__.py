"""Suppression comments: parsed, applied after the findings exist, and written by --add-ignore."""
