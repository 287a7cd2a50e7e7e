"""The project on disk: its files, its settings, where imports resolve, and the cheap scans that pick candidates."""
